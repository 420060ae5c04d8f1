//! The npm package of dml-wgsl: its operators for JavaScript and TypeScript.
//!
//! wasm-bindgen exports `Context`, `Operator` and `DeviceBuffer`; `npm/package/index.js`
//! loads the module and defines `DmlError`, and `scripts/npm.sh` builds the package. The
//! API's types (descs, data types) are declared in the TypeScript section below; its
//! semantics are the library's (see the crate's README).
#![cfg(target_arch = "wasm32")]

mod arrays;
#[cfg(feature = "bench")]
mod bench;
mod buffer;
mod desc;
mod errors;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use dml_wgsl::{CompiledOperator, Error};
use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

pub use buffer::DeviceBuffer;
use buffer::USAGES;
use errors::{invalid_argument, library_error};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("types.d.ts");

/// What a context's objects share: the library's context, and the buffers made through it.
pub(crate) struct Shared {
    context: dml_wgsl::Context,
    /// Bound in place of an empty tensor's buffer (which is ignored).
    placeholder: wgpu::Buffer,
    /// The live buffers by id, and each one's `GPUBuffer` to its id (so that a `GPUBuffer`
    /// the page passes back finds its buffer).
    buffers: RefCell<HashMap<u32, wgpu::Buffer>>,
    handles: js_sys::Map,
    next_id: Cell<u32>,
}

impl Shared {
    fn forget(&self, id: u32) {
        if let Some(buffer) = self.buffers.borrow_mut().remove(&id)
            && let Some(handle) = buffer.as_webgpu()
        {
            self.handles.delete(handle);
        }
    }

    fn check_live(&self, id: u32) -> Result<(), JsValue> {
        if self.buffers.borrow().contains_key(&id) {
            Ok(())
        } else {
            Err(invalid_argument(
                "buffer",
                &JsValue::UNDEFINED,
                "destroyed: a buffer cannot be used after destroy()",
            ))
        }
    }

    /// The buffer, byte offset and byte size a binding names: a `DeviceBuffer`, its
    /// `GPUBuffer`, or `{ buffer, offset?, size? }` of either.
    fn binding(
        &self,
        value: &JsValue,
        field: &str,
    ) -> Result<(wgpu::Buffer, u64, Option<u64>), JsValue> {
        let member = |name: &str| Reflect::get(value, &name.into()).unwrap_or_default();
        if value.is_object() && !member("buffer").is_undefined() {
            let (buffer, _, _) = self.binding(&member("buffer"), &format!("{field}.buffer"))?;
            let offset = optional_bytes(&member("offset"), &format!("{field}.offset"))?;
            let size = optional_bytes(&member("size"), &format!("{field}.size"))?;
            return Ok((buffer, offset.unwrap_or(0), size));
        }
        let handle = if value.is_object() && !member("gpuBuffer").is_undefined() {
            member("gpuBuffer")
        } else {
            value.clone()
        };
        let id = self.handles.get(&handle).as_f64();
        match id.and_then(|id| self.buffers.borrow().get(&(id as u32)).cloned()) {
            Some(buffer) => Ok((buffer, 0, None)),
            None => Err(invalid_argument(
                field,
                value,
                "a DeviceBuffer of this context (or its gpuBuffer, or { buffer, offset, size } \
                 of one), not destroyed: a GPUBuffer made elsewhere cannot be bound, as wgpu \
                 cannot wrap it (make it with context.createBuffer)",
            )),
        }
    }
}

/// A byte offset or size: absent, or a whole number in `[0, 2^53)`.
fn optional_bytes(value: &JsValue, field: &str) -> Result<Option<u64>, JsValue> {
    if value.is_undefined() {
        return Ok(None);
    }
    match value.as_f64() {
        Some(n) if n.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(&n) => {
            Ok(Some(n as u64))
        }
        _ => Err(invalid_argument(field, value, "a whole number of bytes")),
    }
}

/// A WebGPU device and queue with the library's compiled kernels: compile operators, run them
/// on TypedArrays, or make buffers and dispatch on them.
///
/// Calls that wait for the GPU or may take a while (`create`, `compile`, `run`,
/// `DeviceBuffer.read`, `Operator.checkStatus`) return Promises; calls that only queue work
/// (`Operator.dispatch`, `DeviceBuffer.write`, `createBuffer`) return at once, as WebGPU's
/// own `submit` and `writeBuffer` do. Nothing blocks the page.
#[wasm_bindgen]
pub struct Context {
    shared: Rc<Shared>,
}

#[wasm_bindgen]
impl Context {
    /// Opens the browser's WebGPU (its default adapter, with the adapter's full limits).
    /// Throws a `DmlError` of kind `NoAdapter` or `RequestDevice` where there is none.
    pub async fn create() -> Result<Context, JsValue> {
        let context = dml_wgsl::Context::new()
            .await
            .map_err(|e| library_error(&e))?;
        let placeholder = context.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("dml-wgsl-js empty tensor"),
            size: 4,
            usage: USAGES,
            mapped_at_creation: false,
        });
        Ok(Context {
            shared: Rc::new(Shared {
                context,
                placeholder,
                buffers: RefCell::default(),
                handles: js_sys::Map::new(),
                next_id: Cell::new(0),
            }),
        })
    }

    /// The package's `GPUDevice`: the page may run its own shaders on it, on buffers from
    /// `createBuffer` (a buffer the page makes with it cannot be given to an operator).
    #[wasm_bindgen(getter, unchecked_return_type = "GPUDevice")]
    pub fn device(&self) -> JsValue {
        let device = self.shared.context.device().as_webgpu();
        device.map(JsValue::from).unwrap_or(JsValue::UNDEFINED)
    }

    /// The device's `GPUQueue`, the one operators submit to.
    #[wasm_bindgen(getter, unchecked_return_type = "GPUQueue")]
    pub fn queue(&self) -> JsValue {
        let queue = self.shared.context.queue().as_webgpu();
        queue.map(JsValue::from).unwrap_or(JsValue::UNDEFINED)
    }

    /// The adapter as wgpu reports it: `{ backend, deviceType, name, vendor, device, driver,
    /// driverInfo }` (browsers keep most of it to themselves).
    #[wasm_bindgen(getter, js_name = adapterInfo, unchecked_return_type = "AdapterInfo")]
    pub fn adapter_info(&self) -> JsValue {
        let info = self.shared.context.adapter_info();
        let object = Object::new();
        let entries: [(&str, JsValue); 7] = [
            ("backend", format!("{:?}", info.backend).into()),
            ("deviceType", format!("{:?}", info.device_type).into()),
            ("name", info.name.into()),
            ("vendor", info.vendor.into()),
            ("device", info.device.into()),
            ("driver", info.driver.into()),
            ("driverInfo", info.driver_info.into()),
        ];
        for (key, value) in entries {
            let _ = Reflect::set(&object, &key.into(), &value);
        }
        object.into()
    }

    /// Checks `desc` and builds its kernels (once per context; later compiles of the same
    /// kinds are cache lookups). The operator runs any number of times with `dispatch`.
    /// Throws a `DmlError` naming the member, the value and the rule of any check that fails.
    #[wasm_bindgen(unchecked_return_type = "Promise<Operator>")]
    pub fn compile(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OperatorDesc")] desc: JsValue,
    ) -> Promise {
        let shared = self.shared.clone();
        future_to_promise(async move {
            let parsed = desc::operator_desc(&desc)?;
            let compiled = shared
                .context
                .compile(&parsed.desc)
                .map_err(|e| library_error(&e))?;
            Ok(Operator {
                compiled: Rc::new(compiled),
                shared,
                input_names: parsed.inputs.iter().map(|(name, _)| *name).collect(),
            }
            .into())
        })
    }

    /// Runs `desc` once on `inputs` (one per input tensor, in the desc's order: `input`,
    /// `indices`, `updates`; TensorScatter's `input`, `updates`, `writeIndices`), each a
    /// TypedArray of its data type or raw bytes, laid out as its tensor desc says. Resolves to
    /// the output as a TypedArray of its data type (float16 and bfloat16 as `Uint16Array`
    /// bits, 64-bit integers as `BigInt64Array`/`BigUint64Array`). An out-of-range index
    /// rejects with a `DmlError` of kind `IndexOutOfRange`.
    #[wasm_bindgen(unchecked_return_type = "Promise<TypedArray>")]
    pub fn run(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OperatorDesc")] desc: JsValue,
        #[wasm_bindgen(unchecked_param_type = "TensorData[]")] inputs: JsValue,
    ) -> Promise {
        self.run_with(desc, inputs, true)
    }

    /// `run`, resolving to the output's bytes (a `Uint8Array` of the output's total size).
    #[wasm_bindgen(js_name = runBytes, unchecked_return_type = "Promise<Uint8Array>")]
    pub fn run_bytes(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OperatorDesc")] desc: JsValue,
        #[wasm_bindgen(unchecked_param_type = "TensorData[]")] inputs: JsValue,
    ) -> Promise {
        self.run_with(desc, inputs, false)
    }

    /// A buffer of `sizeOrData` bytes (zeros), or holding a copy of `sizeOrData`'s bytes (a
    /// TypedArray, `DataView` or `ArrayBuffer`); sizes round up to a multiple of 4.
    #[wasm_bindgen(js_name = createBuffer)]
    pub fn create_buffer(
        &self,
        #[wasm_bindgen(js_name = sizeOrData, unchecked_param_type = "number | TensorData")]
        size_or_data: JsValue,
    ) -> Result<DeviceBuffer, JsValue> {
        let (size, data) = match size_or_data.as_f64() {
            Some(_) => (
                optional_bytes(&size_or_data, "sizeOrData")?.unwrap_or(0),
                None,
            ),
            None => {
                let bytes = arrays::raw_bytes(&size_or_data, "sizeOrData")?;
                (bytes.len() as u64, Some(bytes))
            }
        };
        let size = size.div_ceil(4) * 4;
        let device = self.shared.context.device();
        let limit = device.limits().max_buffer_size;
        if size > limit {
            return Err(library_error(&Error::LimitExceeded {
                what: "a buffer's bytes",
                needed: size,
                limit_name: "max_buffer_size",
                limit,
            }));
        }
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("dml-wgsl-js buffer"),
            size,
            usage: USAGES,
            mapped_at_creation: false,
        });
        if let Some(mut bytes) = data
            && !bytes.is_empty()
        {
            bytes.resize(size as usize, 0);
            self.shared.context.queue().write_buffer(&buffer, 0, &bytes);
        }
        let id = self.shared.next_id.get();
        self.shared.next_id.set(id.wrapping_add(1));
        if let Some(handle) = buffer.as_webgpu() {
            self.shared.handles.set(handle, &JsValue::from(id));
        }
        self.shared.buffers.borrow_mut().insert(id, buffer.clone());
        Ok(DeviceBuffer {
            id,
            buffer,
            shared: self.shared.clone(),
        })
    }
}

impl Context {
    fn run_with(&self, desc: JsValue, inputs: JsValue, typed: bool) -> Promise {
        let shared = self.shared.clone();
        future_to_promise(async move {
            let parsed = desc::operator_desc(&desc)?;
            if !Array::is_array(&inputs) {
                return Err(invalid_argument(
                    "inputs",
                    &inputs,
                    "an array of the input tensors' data",
                ));
            }
            let given = Array::from(&inputs);
            if given.length() as usize != parsed.inputs.len() {
                return Err(library_error(&Error::InputCount {
                    expected: parsed.inputs.len(),
                    actual: given.length() as usize,
                }));
            }
            let mut data = Vec::with_capacity(parsed.inputs.len());
            for (i, (name, data_type)) in parsed.inputs.iter().enumerate() {
                let field = format!("inputs[{i}] ({name})");
                data.push(arrays::tensor_bytes(
                    &given.get(i as u32),
                    &field,
                    *data_type,
                )?);
            }
            let slices: Vec<&[u8]> = data.iter().map(Vec::as_slice).collect();
            let output = shared
                .context
                .run(&parsed.desc, &slices)
                .await
                .map_err(|e| library_error(&e))?;
            Ok(if typed {
                arrays::typed_array(&output, parsed.output)
            } else {
                arrays::byte_array(&output).into()
            })
        })
    }
}

/// A compiled operator: dispatch it on buffers from `Context.createBuffer`, as many times as
/// needed, with no round trip through JavaScript arrays.
#[wasm_bindgen]
pub struct Operator {
    compiled: Rc<CompiledOperator>,
    shared: Rc<Shared>,
    input_names: Vec<&'static str>,
}

#[wasm_bindgen]
impl Operator {
    /// Records the operator and submits it to the queue, after the work submitted before:
    /// reads `inputs` (one binding per input tensor, in `run`'s order) and writes `output`.
    /// A binding is a `DeviceBuffer`, its `gpuBuffer`, or `{ buffer, offset, size }` of either
    /// (offsets a multiple of the device's `minStorageBufferOffsetAlignment`, 256 on most
    /// devices). Each must hold at least its tensor's bytes (`inputSizes`, `outputSize`); an
    /// empty tensor's binding is ignored (`null` will do). A scatter's `input` may be the
    /// output's very binding: the scatter then runs in place. Returns at once.
    pub fn dispatch(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(Binding | null)[]")] inputs: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Binding | null")] output: JsValue,
    ) -> Result<(), JsValue> {
        let (inputs, output) = self.resolve(&inputs, &output)?;
        self.submit(&inputs, &output)
    }

    /// Resolves once the last dispatch is done if its indices were all in range; rejects
    /// with a `DmlError` of kind `IndexOutOfRange` (or `WriteIndexOutOfRange`) naming the
    /// first offending index otherwise (those updates were skipped, a gather wrote zeros).
    #[wasm_bindgen(js_name = checkStatus, unchecked_return_type = "Promise<void>")]
    pub fn check_status(&self) -> Promise {
        let compiled = self.compiled.clone();
        future_to_promise(async move {
            compiled
                .check_status()
                .await
                .map_err(|e| library_error(&e))?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// The byte size each input binding needs at least, in `dispatch`'s order (0: an empty
    /// tensor, whose binding is ignored).
    #[wasm_bindgen(getter, js_name = inputSizes, unchecked_return_type = "number[]")]
    pub fn input_sizes(&self) -> Array {
        let sizes = self.compiled.input_sizes().into_iter();
        sizes.map(|s| JsValue::from_f64(s as f64)).collect()
    }

    /// The byte size the output binding needs at least.
    #[wasm_bindgen(getter, js_name = outputSize)]
    pub fn output_size(&self) -> f64 {
        self.compiled.output_size() as f64
    }

    /// The input tensors' names in `dispatch`'s order (`['input', 'indices', 'updates']`).
    #[wasm_bindgen(getter, js_name = inputNames)]
    pub fn input_names(&self) -> Vec<String> {
        self.input_names.iter().map(|n| n.to_string()).collect()
    }

    /// Whether the operator reads indices (and so reports out-of-range ones).
    #[wasm_bindgen(getter, js_name = hasStatus)]
    pub fn has_status(&self) -> bool {
        self.compiled.has_status()
    }
}

/// A binding resolved: its buffer, byte offset and byte size (`None`: to the buffer's end).
type Bound = (wgpu::Buffer, u64, Option<u64>);

impl Operator {
    /// The bindings `dispatch` takes, resolved: one per input tensor and the output's (an
    /// empty tensor's may be `null`; the placeholder stands in).
    fn resolve(&self, inputs: &JsValue, output: &JsValue) -> Result<(Vec<Bound>, Bound), JsValue> {
        if !Array::is_array(inputs) {
            return Err(invalid_argument(
                "inputs",
                inputs,
                "an array of bindings, one per input tensor",
            ));
        }
        let given = Array::from(inputs);
        let sizes = self.compiled.input_sizes();
        if given.length() as usize != sizes.len() {
            return Err(library_error(&Error::InputCount {
                expected: sizes.len(),
                actual: given.length() as usize,
            }));
        }
        let resolve = |value: &JsValue, field: &str, empty: bool| {
            if empty && (value.is_null() || value.is_undefined()) {
                Ok((self.shared.placeholder.clone(), 0, None))
            } else {
                self.shared.binding(value, field)
            }
        };
        let mut bound = Vec::with_capacity(sizes.len());
        for (i, size) in sizes.iter().enumerate() {
            let name = self.input_names.get(i).copied().unwrap_or("input");
            let field = format!("inputs[{i}] ({name})");
            bound.push(resolve(&given.get(i as u32), &field, *size == 0)?);
        }
        let output = resolve(output, "output", self.compiled.output_size() == 0)?;
        Ok((bound, output))
    }

    /// Records the operator on resolved bindings into a new encoder and submits it.
    fn submit(&self, inputs: &[Bound], output: &Bound) -> Result<(), JsValue> {
        let input_bindings: Vec<wgpu::BufferBinding> = inputs.iter().map(buffer_binding).collect();
        let context = &self.shared.context;
        let mut encoder =
            context
                .device()
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("dml-wgsl-js dispatch"),
                });
        self.compiled
            .record(&mut encoder, &input_bindings, buffer_binding(output))
            .map_err(|e| library_error(&e))?;
        context.queue().submit([encoder.finish()]);
        Ok(())
    }
}

fn buffer_binding((buffer, offset, size): &Bound) -> wgpu::BufferBinding<'_> {
    wgpu::BufferBinding {
        buffer,
        offset: *offset,
        size: size.and_then(wgpu::BufferSize::new),
    }
}
