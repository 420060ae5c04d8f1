//! Errors as JavaScript sees them: instances of the package's `DmlError` (an `Error`
//! subclass that `index.js` defines and registers), with the Rust error's kind and fields.

use std::cell::RefCell;

use dml_wgsl::{DataType, Error};
use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::prelude::*;

use crate::arrays::data_type_name;

thread_local! {
    /// `DmlError`'s constructor, registered by `index.js` when the module loads.
    static ERROR_CLASS: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// Registers the class errors are thrown as: `new class(message, kind, fields)`. Called once
/// by the package's `index.js`.
#[wasm_bindgen(js_name = setErrorClass, skip_typescript)]
pub fn set_error_class(class: Function) {
    ERROR_CLASS.with(|c| *c.borrow_mut() = Some(class));
}

/// A `DmlError` of `kind` with `message` and `fields` (a plain object).
fn make_error(message: &str, kind: &str, fields: &Object) -> JsValue {
    let class = ERROR_CLASS.with(|c| c.borrow().clone());
    let arguments = Array::of3(&message.into(), &kind.into(), fields);
    if let Some(class) = class
        && let Ok(made) = Reflect::construct(&class, &arguments)
    {
        return made;
    }
    // Without index.js (the glue imported directly): a plain Error carrying the same.
    let plain = js_sys::Error::new(message);
    plain.set_name("DmlError");
    let _ = Reflect::set(&plain, &"kind".into(), &kind.into());
    let _ = Reflect::set(&plain, &"fields".into(), fields);
    let _ = Object::assign(plain.unchecked_ref(), fields);
    plain.into()
}

/// An argument JavaScript gave that the API cannot take (a desc member of the wrong type, a
/// TypedArray of another data type, a buffer of another context): kind `InvalidArgument`,
/// fields `field` (its path, `desc.indices.sizes[1]`), `value` and `rule`.
pub(crate) fn invalid_argument(field: &str, value: &JsValue, rule: &str) -> JsValue {
    let fields = Object::new();
    set(&fields, "field", &field.into());
    set(&fields, "value", value);
    set(&fields, "rule", &rule.into());
    make_error(&format!("{field}: {rule}"), "InvalidArgument", &fields)
}

fn set(object: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(object, &key.into(), value);
}

/// `snake_case` as `camelCase`, as the JavaScript API spells members.
pub(crate) fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// A field's value as JavaScript holds it.
trait FieldValue {
    fn to_js(&self) -> JsValue;
}

/// Integers as numbers where a number holds them exactly, else as BigInts.
fn integer(value: i128) -> JsValue {
    const SAFE: i128 = (1 << 53) - 1;
    if (-SAFE..=SAFE).contains(&value) {
        JsValue::from_f64(value as f64)
    } else {
        js_sys::BigInt::new(&JsValue::from_str(&value.to_string()))
            .map(JsValue::from)
            .unwrap_or_else(|_| JsValue::from_str(&value.to_string()))
    }
}

macro_rules! integer_fields {
    ($($t:ty),*) => {$(
        impl FieldValue for $t {
            fn to_js(&self) -> JsValue {
                integer(*self as i128)
            }
        }
    )*};
}
integer_fields!(u32, u64, usize, i64, i128);

impl FieldValue for &'static str {
    /// Names of tensors and members in JavaScript's spelling (`writeIndices`); rules as they
    /// are.
    fn to_js(&self) -> JsValue {
        if self
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            camel_case(self).into()
        } else {
            (*self).into()
        }
    }
}

impl FieldValue for String {
    fn to_js(&self) -> JsValue {
        self.into()
    }
}

impl FieldValue for DataType {
    fn to_js(&self) -> JsValue {
        data_type_name(*self).into()
    }
}

impl FieldValue for &'static [DataType] {
    fn to_js(&self) -> JsValue {
        self.iter().map(FieldValue::to_js).collect::<Array>().into()
    }
}

impl<T: FieldValue> FieldValue for Vec<T> {
    fn to_js(&self) -> JsValue {
        self.iter().map(FieldValue::to_js).collect::<Array>().into()
    }
}

impl FieldValue for wgpu::BufferUsages {
    /// The usage flags' names (`["STORAGE"]`).
    fn to_js(&self) -> JsValue {
        self.iter_names()
            .map(|(name, _)| JsValue::from_str(name))
            .collect::<Array>()
            .into()
    }
}

/// Every variant of the library's error with its fields, by name: a field added to a variant
/// fails the build here, so none is dropped on the way to JavaScript.
macro_rules! error_fields {
    ($error:expr;
     $($kind:ident { $($field:ident),* $(,)? }),* $(,)?;
     $($tuple:ident),* $(,)?) => {
        match $error {
            $(Error::$kind { $($field),* } => (
                stringify!($kind).to_string(),
                vec![$((stringify!($field), $field.to_js())),*],
            ),)*
            $(Error::$tuple(detail) => (stringify!($tuple).to_string(), vec![("detail", detail.to_js())]),)*
            // A variant newer than this list: its name, from its Debug form.
            other => (
                format!("{other:?}")
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .next()
                    .unwrap_or("Error")
                    .to_string(),
                vec![],
            ),
        }
    };
}

/// The library's error as a `DmlError`: `kind` is the variant's name (`IndexOutOfRange`),
/// each field a property in camelCase (`tensor`, `position`, `value`, `bound`), also
/// gathered in `fields`; the message is the Rust error's.
pub(crate) fn library_error(error: &Error) -> JsValue {
    let (kind, named) = error_fields!(error;
        InvalidRank { tensor, rank },
        ZeroSize { tensor, dimension, rule },
        TooManyElements { tensor, elements },
        LayoutOverflow { tensor, sizes, strides },
        StridesLength { tensor, expected, actual },
        BroadcastOutput { tensor, dimension, size },
        OverlappingOutput { tensor, dimension },
        TotalSizeNotAligned { tensor, given },
        TotalSizeTooSmall { tensor, given, minimum },
        DataTypeMismatch { tensor, actual, expected_from, expected },
        UnsupportedDataType { tensor, actual, allowed },
        RankMismatch { tensor, actual, expected_from, expected },
        ParameterLength { field, actual, expected, rule },
        InvalidParameter { field, dimension, value, rule },
        SizeMismatch { tensor, dimension, actual, expected, rule },
        ReadOutOfBounds { dimension, last, input_size },
        AxisOutOfRange { axis, rank },
        SizeTooLarge { tensor, dimension, actual, limit, rule },
        DimensionCount { field, value, max, rule },
        TupleSize { value, max },
        SliceDataType { tensor, slice, expected },
        SliceLength { tensor, given, required },
        InputCount { expected, actual },
        InputTooSmall { tensor, given, required },
        BindingTooSmall { tensor, given, required },
        BindingOffsetAlignment { tensor, offset, alignment },
        BindingUsage { tensor, missing },
        AliasedBindings { tensor, other, rule },
        InvalidTimestampWrites { rule },
        TensorTooLarge { tensor, bytes, limit_name, limit },
        LayoutTooWide { tensor, elements, limit },
        LimitExceeded { what, needed, limit_name, limit },
        IndexOutOfRange { tensor, position, value, bound },
        WriteIndexOutOfRange { entry, value, length, bound };
        NoAdapter, RequestDevice, Wgpu, Readback,
    );
    let fields = Object::new();
    for (name, value) in named {
        set(&fields, &camel_case(name), &value);
    }
    make_error(&error.to_string(), &kind, &fields)
}
