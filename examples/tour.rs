//! A tour of the operators: the DirectML pages' examples and a few more, run on the
//! default adapter and printed in the pages' notation.
//!
//! `cargo run --example tour` (set `WGPU_BACKEND=vulkan` and install `mesa-vulkan-drivers`
//! to run it on a machine without a GPU).
// Native only; in a browser the tour is examples/web (scripts/web.sh). No main in wasm32.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

use dml_wgsl::Context;

#[path = "shared/notation.rs"]
mod notation;
#[path = "shared/tour.rs"]
mod tour;

fn main() {
    env_logger::init();
    let context = match Context::new_blocking() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let info = context.adapter_info();
    println!(
        "Adapter: {} ({:?}, {:?}, driver {} {})\n",
        info.name, info.backend, info.device_type, info.driver, info.driver_info
    );
    let mut failures = 0;
    for example in tour::examples() {
        let outcome = context.run_blocking(&example.desc, &example.input_slices());
        let (text, ok) = example.report(&outcome);
        println!("=== {}\n{text}\n", example.title);
        failures += usize::from(!ok);
    }
    if failures > 0 {
        eprintln!("{failures} example(s) failed");
        std::process::exit(1);
    }
}
