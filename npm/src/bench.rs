//! The Rust side of the overhead benchmark (scripts/npm_bench.py, feature `bench`): the same
//! operator on the same device, recorded and run from Rust, so that the page can time what a
//! JavaScript call adds.

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{JsFuture, future_to_promise};

use crate::errors::library_error;
use crate::{Context, Operator, Shared, desc};

/// Waits until the queue has done everything submitted so far.
async fn queue_done(shared: &Shared) -> Result<(), JsValue> {
    let done = Promise::new(&mut |resolve, _| {
        shared.context.queue().on_submitted_work_done(move || {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        });
    });
    JsFuture::from(done).await.map(drop)
}

#[wasm_bindgen]
impl Operator {
    /// Records and submits the operator `count` times from Rust on the buffers given (as
    /// `dispatch` takes them), then waits for the queue: resolves to `[submitted, done]`, the
    /// milliseconds until the last submit returned and until the queue was drained.
    #[wasm_bindgen(js_name = benchDispatchFromRust)]
    pub fn bench_dispatch_from_rust(
        &self,
        inputs: JsValue,
        output: JsValue,
        count: u32,
    ) -> Promise {
        let resolved = self.resolve(&inputs, &output);
        let operator = Operator {
            compiled: self.compiled.clone(),
            shared: self.shared.clone(),
            input_names: self.input_names.clone(),
        };
        future_to_promise(async move {
            let (inputs, output) = resolved?;
            let start = performance_now();
            for _ in 0..count {
                operator.submit(&inputs, &output)?;
            }
            let submitted = performance_now() - start;
            queue_done(&operator.shared).await?;
            let done = performance_now() - start;
            Ok(js_sys::Array::of2(&submitted.into(), &done.into()).into())
        })
    }
}

/// `performance.now()`: sub-millisecond, as the page times its own loops.
fn performance_now() -> f64 {
    let performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .unwrap_or(JsValue::UNDEFINED);
    js_sys::Reflect::get(&performance, &"now".into())
        .ok()
        .and_then(|now| now.dyn_into::<js_sys::Function>().ok())
        .and_then(|now| now.call0(&performance).ok())
        .and_then(|t| t.as_f64())
        .unwrap_or_else(js_sys::Date::now)
}

#[wasm_bindgen]
impl Context {
    /// Runs `desc` `count` times from Rust (`dml_wgsl::Context::run`, one after another) on the
    /// inputs given as raw bytes: resolves to the milliseconds it took.
    #[wasm_bindgen(js_name = benchRunFromRust)]
    pub fn bench_run_from_rust(&self, desc: JsValue, inputs: JsValue, count: u32) -> Promise {
        let shared = self.shared.clone();
        future_to_promise(async move {
            let parsed = desc::operator_desc(&desc)?;
            let data: Vec<Vec<u8>> = js_sys::Array::from(&inputs)
                .iter()
                .map(|value| crate::arrays::raw_bytes(&value, "inputs"))
                .collect::<Result<_, _>>()?;
            let slices: Vec<&[u8]> = data.iter().map(Vec::as_slice).collect();
            let start = performance_now();
            for _ in 0..count {
                shared
                    .context
                    .run(&parsed.desc, &slices)
                    .await
                    .map_err(|e| library_error(&e))?;
            }
            Ok(JsValue::from_f64(performance_now() - start))
        })
    }
}
