//! Data types by their JavaScript names, and tensors' bytes in and out of TypedArrays.

use dml_wgsl::DataType;
use js_sys::{Reflect, Symbol, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

use crate::errors::invalid_argument;

/// Every data type by its JavaScript name (WebNN's and ONNX Runtime Web's spelling), the
/// TypedArray class that holds its elements, and its element size in bytes.
const DATA_TYPES: [(DataType, &str, &str, u32); 12] = [
    (DataType::Float64, "float64", "Float64Array", 8),
    (DataType::Float32, "float32", "Float32Array", 4),
    // Float16 and bfloat16 elements travel as their bits.
    (DataType::Float16, "float16", "Uint16Array", 2),
    (DataType::BFloat16, "bfloat16", "Uint16Array", 2),
    (DataType::Int64, "int64", "BigInt64Array", 8),
    (DataType::Int32, "int32", "Int32Array", 4),
    (DataType::Int16, "int16", "Int16Array", 2),
    (DataType::Int8, "int8", "Int8Array", 1),
    (DataType::UInt64, "uint64", "BigUint64Array", 8),
    (DataType::UInt32, "uint32", "Uint32Array", 4),
    (DataType::UInt16, "uint16", "Uint16Array", 2),
    (DataType::UInt8, "uint8", "Uint8Array", 1),
];

/// Raw bytes: accepted for a tensor of any data type.
const RAW_BYTES: [&str; 4] = ["ArrayBuffer", "SharedArrayBuffer", "Uint8Array", "DataView"];

fn entry(data_type: DataType) -> (DataType, &'static str, &'static str, u32) {
    // DATA_TYPES names every data type of the library (the page test runs each one).
    DATA_TYPES
        .into_iter()
        .find(|e| e.0 == data_type)
        .unwrap_or((data_type, "unknown", "Uint8Array", 1))
}

/// The JavaScript name of a data type (`"float32"`).
pub(crate) fn data_type_name(data_type: DataType) -> &'static str {
    entry(data_type).1
}

/// The data type of a JavaScript name, if it is one.
pub(crate) fn parse_data_type(name: &str) -> Option<DataType> {
    DATA_TYPES.iter().find(|e| e.1 == name).map(|e| e.0)
}

/// Every data type's name, for messages.
pub(crate) fn data_type_names() -> Vec<&'static str> {
    DATA_TYPES.iter().map(|e| e.1).collect()
}

/// The class a value reports (`Float32Array`, `ArrayBuffer`, ...), or its `typeof`.
fn class_of(value: &JsValue) -> String {
    if value.is_object()
        && let Ok(tag) = Reflect::get(value, &Symbol::to_string_tag())
        && let Some(tag) = tag.as_string()
    {
        return tag;
    }
    if value.is_object() {
        return "Object".into();
    }
    value.js_typeof().as_string().unwrap_or_default()
}

/// The bytes of `value`, the data of tensor `tensor` (a name for messages) of `data_type`: a
/// TypedArray of the data type's elements (`Float16Array` too for float16), or raw bytes
/// (`Uint8Array`, `ArrayBuffer`, `DataView`). Copied into the module's memory.
pub(crate) fn tensor_bytes(
    value: &JsValue,
    tensor: &str,
    data_type: DataType,
) -> Result<Vec<u8>, JsValue> {
    let class = class_of(value);
    let (_, name, array_class, _) = entry(data_type);
    let accepted = class == array_class
        || RAW_BYTES.contains(&class.as_str())
        || (data_type == DataType::Float16 && class == "Float16Array");
    if !accepted {
        return Err(invalid_argument(
            tensor,
            value,
            &format!(
                "a {name} tensor's data is a {array_class}{} or raw bytes (Uint8Array, \
                 ArrayBuffer, DataView), not a {class}",
                if data_type == DataType::Float16 {
                    " (its bits) or a Float16Array"
                } else if data_type == DataType::BFloat16 {
                    " (its bits)"
                } else {
                    ""
                }
            ),
        ));
    }
    raw_bytes(value, tensor)
}

/// The bytes of any `ArrayBuffer`, `SharedArrayBuffer` or view of one (a TypedArray or a
/// `DataView`: its own window of its buffer), copied into the module's memory.
pub(crate) fn raw_bytes(value: &JsValue, field: &str) -> Result<Vec<u8>, JsValue> {
    let class = class_of(value);
    if class == "ArrayBuffer" || class == "SharedArrayBuffer" {
        return Ok(Uint8Array::new(value).to_vec());
    }
    if !js_sys::ArrayBuffer::is_view(value) {
        return Err(invalid_argument(
            field,
            value,
            &format!("bytes: an ArrayBuffer, a TypedArray or a DataView, not a {class}"),
        ));
    }
    let number = |key: &str| {
        Reflect::get(value, &JsValue::from_str(key))
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0) as u32
    };
    let buffer = Reflect::get(value, &JsValue::from_str("buffer"))?;
    Ok(Uint8Array::new_with_byte_offset_and_length(
        &buffer,
        number("byteOffset"),
        number("byteLength"),
    )
    .to_vec())
}

/// Bytes as a new `Uint8Array`.
pub(crate) fn byte_array(bytes: &[u8]) -> Uint8Array {
    let array = Uint8Array::new_with_length(bytes.len() as u32);
    array.copy_from(bytes);
    array
}

/// Bytes as a new TypedArray of `data_type`'s elements (the class [`tensor_bytes`] takes);
/// trailing bytes that make no whole element (padding of a given total size) are left out.
pub(crate) fn typed_array(bytes: &[u8], data_type: DataType) -> JsValue {
    let (_, _, class, size) = entry(data_type);
    let raw = byte_array(bytes);
    // The class's constructor, from the global object: `new Float32Array(buffer, 0, length)`.
    let length = JsValue::from(bytes.len() as u32 / size);
    let arguments = js_sys::Array::of3(&raw.buffer(), &JsValue::from(0), &length);
    Reflect::get(&js_sys::global(), &class.into())
        .ok()
        .and_then(|c| c.dyn_into::<js_sys::Function>().ok())
        .and_then(|c| Reflect::construct(&c, &arguments).ok())
        .unwrap_or_else(|| raw.into())
}
