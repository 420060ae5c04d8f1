//! Buffers made through the package: `GPUBuffer`s of its device that the page can use as
//! its own, and that operators can be dispatched on.

use std::rc::Rc;

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{JsFuture, future_to_promise};

use crate::Shared;
use crate::arrays::{byte_array, parse_data_type, raw_bytes, typed_array};
use crate::errors::{invalid_argument, library_error};

/// The usages of every buffer the package makes: bound as storage by operators and by the
/// page's shaders, written and read by copies.
pub(crate) const USAGES: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE
    .union(wgpu::BufferUsages::COPY_SRC)
    .union(wgpu::BufferUsages::COPY_DST);

/// A buffer on the package's device (usages `STORAGE | COPY_SRC | COPY_DST`), for operators
/// and for the page's own WebGPU work alike: `gpuBuffer` is the `GPUBuffer` itself.
///
/// Everything on one queue runs in the order it was submitted: a `queue.writeBuffer` or a
/// compute pass of the page's, then an operator's `dispatch`, then `read`, see each other's
/// results. The `GPUBuffer` lives as long as this object: `destroy()` (or `free()`, or
/// garbage collection of this object) destroys it.
#[wasm_bindgen]
pub struct DeviceBuffer {
    pub(crate) id: u32,
    pub(crate) buffer: wgpu::Buffer,
    pub(crate) shared: Rc<Shared>,
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        self.shared.forget(self.id);
    }
}

#[wasm_bindgen]
impl DeviceBuffer {
    /// The `GPUBuffer`: bind it in the page's own pipelines, `queue.writeBuffer` into it, copy
    /// from it. It is the same buffer operators are dispatched on.
    #[wasm_bindgen(getter, js_name = gpuBuffer, unchecked_return_type = "GPUBuffer")]
    pub fn gpu_buffer(&self) -> JsValue {
        self.buffer
            .as_webgpu()
            .map(JsValue::from)
            .unwrap_or(JsValue::UNDEFINED)
    }

    /// The size in bytes (a multiple of 4: a requested size is rounded up).
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> f64 {
        self.buffer.size() as f64
    }

    /// Writes `data` (any TypedArray, `DataView` or `ArrayBuffer`: its bytes) at `byteOffset`
    /// (default 0) through the queue, after the work already submitted. The offset and the
    /// byte length must be multiples of 4 (as for `GPUQueue.writeBuffer`) and fit the buffer.
    /// Returns at once: the write is queued, nothing waits.
    pub fn write(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ArrayBuffer | ArrayBufferView")] data: JsValue,
        #[wasm_bindgen(js_name = byteOffset, unchecked_optional_param_type = "number")]
        byte_offset: Option<f64>,
    ) -> Result<(), JsValue> {
        self.shared.check_live(self.id)?;
        let bytes = raw_bytes(&data, "data")?;
        let offset = byte_offset.unwrap_or(0.0);
        if offset.fract() != 0.0 || offset < 0.0 || offset % 4.0 != 0.0 {
            return Err(invalid_argument(
                "byteOffset",
                &offset.into(),
                "a whole multiple of 4 bytes",
            ));
        }
        if bytes.len() % 4 != 0 {
            return Err(invalid_argument(
                "data",
                &data,
                &format!("{} bytes: a write is a multiple of 4 bytes", bytes.len()),
            ));
        }
        let offset = offset as u64;
        if offset + bytes.len() as u64 > self.buffer.size() {
            return Err(invalid_argument(
                "data",
                &data,
                &format!(
                    "{} bytes at byte {offset} pass the buffer's end ({} bytes)",
                    bytes.len(),
                    self.buffer.size()
                ),
            ));
        }
        if !bytes.is_empty() {
            self.shared
                .context
                .queue()
                .write_buffer(&self.buffer, offset, &bytes);
        }
        Ok(())
    }

    /// Reads the whole buffer after the work submitted so far: a `Uint8Array`, or with a
    /// `dataType` (`'float32'`, ...) a TypedArray of its elements (`Uint16Array` holding
    /// float16 and bfloat16 bits, `BigInt64Array` for int64, ...).
    #[wasm_bindgen(unchecked_return_type = "Promise<TypedArray>")]
    pub fn read(
        &self,
        #[wasm_bindgen(js_name = dataType, unchecked_optional_param_type = "DataType")]
        data_type: Option<String>,
    ) -> Promise {
        let data_type = match data_type {
            None => None,
            Some(name) => match parse_data_type(&name) {
                Some(t) => Some(t),
                None => {
                    return Promise::reject(&invalid_argument(
                        "dataType",
                        &name.into(),
                        "a data type name ('float32', 'int64', ...) or undefined",
                    ));
                }
            },
        };
        if let Err(e) = self.shared.check_live(self.id) {
            return Promise::reject(&e);
        }
        let shared = self.shared.clone();
        let buffer = self.buffer.clone();
        future_to_promise(async move {
            let bytes = shared.read(&buffer).await?;
            Ok(match data_type {
                Some(t) => typed_array(&bytes, t),
                None => byte_array(&bytes).into(),
            })
        })
    }

    /// Destroys the buffer (its `GPUBuffer` too) at once; operators can no longer be
    /// dispatched on it.
    pub fn destroy(&self) {
        self.shared.forget(self.id);
        self.buffer.destroy();
    }
}

impl Shared {
    /// Copies `buffer` into a mappable one after the work submitted so far and reads it.
    pub(crate) async fn read(&self, buffer: &wgpu::Buffer) -> Result<Vec<u8>, JsValue> {
        let device = self.context.device();
        let size = buffer.size();
        if size == 0 {
            return Ok(Vec::new());
        }
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("dml-wgsl-js read"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("dml-wgsl-js read"),
        });
        encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
        self.context.queue().submit([encoder.finish()]);
        // The browser settles the map by itself: wait on a promise its callback resolves.
        let mapped = Promise::new(&mut |resolve, reject| {
            staging.map_async(wgpu::MapMode::Read, .., move |result| {
                let _ = match result {
                    Ok(()) => resolve.call0(&JsValue::UNDEFINED),
                    Err(e) => reject.call1(
                        &JsValue::UNDEFINED,
                        &library_error(&dml_wgsl::Error::Readback(e.to_string())),
                    ),
                };
            });
        });
        JsFuture::from(mapped).await?;
        let bytes = staging
            .get_mapped_range(..)
            .map_err(|e| library_error(&dml_wgsl::Error::Readback(e.to_string())))?
            .to_vec();
        staging.unmap();
        staging.destroy();
        Ok(bytes)
    }
}
