//! The tour in a browser: the DirectML pages' examples and a few more, run on the page's
//! WebGPU device, every input and output shown in the pages' notation.
//!
//! `bash scripts/web.sh` builds this (a cdylib for wasm32-unknown-unknown, bound for the
//! web by wasm-bindgen) next to `index.html` in `target/web/` and serves it on
//! <http://localhost:8000/>. The examples are `examples/shared/tour.rs`, as in `examples/tour.rs`.
#![cfg(target_arch = "wasm32")]

use dml_wgsl::Context;

#[path = "../shared/notation.rs"]
mod notation;
#[path = "../shared/tour.rs"]
mod tour;
use wasm_bindgen::prelude::*;

/// What the page shows: the adapter, then each example's inputs and output as text.
#[wasm_bindgen(getter_with_clone)]
pub struct Tour {
    /// The adapter's name, backend and device type.
    pub adapter: String,
    /// One entry per example: its title, a newline, then its inputs and output.
    pub examples: Vec<String>,
    /// How many examples did not do what they should.
    pub failures: u32,
}

/// Opens WebGPU and runs every example. Fails (with the reason) only when there is no
/// WebGPU device to run on.
#[wasm_bindgen]
pub async fn tour() -> Result<Tour, JsError> {
    let context = Context::new().await?;
    let info = context.adapter_info();
    // Browsers keep the adapter's name to themselves: wgpu reports it empty there.
    let named = [info.name, info.driver, info.driver_info]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(", ");
    let mut tour = Tour {
        adapter: format!(
            "Adapter: {:?}, {:?}{}",
            info.backend,
            info.device_type,
            if named.is_empty() {
                String::new()
            } else {
                format!(" ({named})")
            }
        ),
        examples: Vec::new(),
        failures: 0,
    };
    for example in tour::examples() {
        let outcome = context.run(&example.desc, &example.input_slices()).await;
        let (text, ok) = example.report(&outcome);
        tour.failures += u32::from(!ok);
        tour.examples.push(format!("{}\n{text}", example.title));
    }
    Ok(tour)
}
