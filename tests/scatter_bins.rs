//! The any-order reductions' workgroup bins and 8-byte slots (`shaders/scatter_bins.wgsl`,
//! `src/ops/scatter_bins.rs`) at their limits: millions of updates, a thread taking more than
//! the usual 64 so that the workgroups' partials stay within `fold_partials`' reach. A test
//! binary of its own: on GL its long dispatches hold the one context for seconds, which
//! other tests' pipeline builds would wait on past wgpu's lock timeout. Other bins and slots
//! tests are in tests/scatter_reductions.rs.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{Expect, Rng, context, reduction_spread_onto};
use dml_wgsl::{DataType, Reduction};

#[test]
fn crowded_bins_past_the_partials_reach_take_more_updates_a_thread_and_lose_none() {
    // Where 64 updates a thread would make more workgroups than the partials hold (4 Mi
    // units times workgroups) and each workgroup's bins would take an update each, a thread
    // takes more (up to 1024), so that the bins still leave partials: 4 Mi updates onto
    // 16,384 units (the compare-exchange bins' eight ranges: 2-byte floats, 1-byte integer
    // Mul) take 65 a thread in 253 workgroups, not 33 in 497; 8.4 Mi onto 8192 Float64 units
    // (the 64-bit slots, where the device has 64-bit atomics) 65, not 64. Indices uniform
    // (negative ones too), so that Float16's order-free sums stay exact. (About 25 s on
    // lavapipe, most of it Float64's.)
    let mut rng = Rng::new(84);
    for (data_type, reduction, size, count) in [
        (DataType::Float16, Reduction::Add, 16_384, 4_194_305),
        (DataType::Int8, Reduction::Mul, 16_384, 4_194_305),
        (DataType::Float64, Reduction::Add, 8192, 8_400_001),
    ] {
        let case = reduction_spread_onto(&mut rng, data_type, reduction, size, count);
        common::check_on(context(), &case.desc, &case.slices(), Expect::ByMode)
            .unwrap_or_else(|e| panic!("{data_type:?} {reduction:?} {size} {count}: {e}"));
    }
}
