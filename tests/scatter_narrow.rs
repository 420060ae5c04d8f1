//! ScatterElements and GatherElements of 1- and 2-byte elements over every shape class of
//! the narrow sweep (`tests/common/narrow.rs`): rows that are and are not whole words, totals
//! that are and are not, both axes, both index widths, in place and out of place. Out of
//! place on a context that copies by copy command where it can and on one that copies by
//! kernel (where ScatterElements along the inner axis copies rows in its own kernel, and a
//! contiguous copy of a ragged total goes as a wide body and a narrow tail). 2-byte elements
//! are stored 16 bits at a time on the default context where the device has `SHADER_F16`
//! (lavapipe and NVIDIA's Vulkan driver do), and by compare-exchange on a context told not
//! to and on the two limited ones (devices opened without the feature).
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::narrow::{NarrowRun, narrow_cases};
use common::{Expect, Rng, check_in_place_with, check_on, context};
use dml_wgsl::{ContextOptions, CopyMethod};

#[test]
fn narrow_scatters_and_gathers_of_every_row_class_match_the_reference() {
    let by_kernel = common::limited_context(|_| {});
    by_kernel.set_copy_method(CopyMethod::Kernel);
    let by_command = common::limited_context(|_| {});
    by_command.set_copy_method(CopyMethod::CopyBufferToBuffer);
    let by_words = common::context_with(ContextOptions::default().with_half_stores(false));
    // Both paths where the default context can take the 16-bit one (lavapipe and NVIDIA's
    // Vulkan drivers have SHADER_F16; GL has not).
    let f16_on_vulkan = context().adapter_info().backend == wgpu::Backend::Vulkan
        && context()
            .device()
            .features()
            .contains(wgpu::Features::SHADER_F16);
    assert_eq!(context().uses_half_stores(), f16_on_vulkan);
    assert!(!by_words.uses_half_stores() && !by_kernel.uses_half_stores());
    eprintln!("2-byte elements by 16-bit stores on the default context: {f16_on_vulkan}");
    let mut rng = Rng::new(28);
    let cases = narrow_cases(&mut rng);
    assert_eq!(cases.len(), 144);
    for (run, case) in &cases {
        let slices = case.slices();
        match run {
            NarrowRun::ScatterInPlace => {
                for on in [context(), &by_kernel, &by_command, &by_words] {
                    check_in_place_with(on, &case.desc, &case.inputs, Expect::Exact);
                }
            }
            NarrowRun::ScatterOutOfPlace | NarrowRun::Gather => {
                let expect = if *run == NarrowRun::Gather {
                    Expect::Exact
                } else {
                    Expect::AnyUpdate
                };
                for on in [context(), &by_kernel, &by_command, &by_words] {
                    check_on(on, &case.desc, &slices, expect).expect("compile and record");
                }
            }
        }
    }
}
