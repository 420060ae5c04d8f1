//! The fuzzers' machinery (`tests/fuzz.rs`, `tests/fuzz_heavy.rs`): a time budget shared
//! through `DML_WGSL_FUZZ_SECONDS`, consecutive seeds from `DML_WGSL_FUZZ_SEED`, and a count
//! of what reaches wgpu's uncaptured-error handler.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

/// This test's part of `DML_WGSL_FUZZ_SECONDS` (the tests run side by side).
pub fn budget(share: f64) -> Duration {
    let total: f64 = std::env::var("DML_WGSL_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30.0);
    Duration::from_secs_f64(total * share)
}

pub fn first_seed() -> u64 {
    std::env::var("DML_WGSL_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED)
}

/// Runs `case(seed)` for consecutive seeds until `time` is spent (at least `minimum` cases).
/// A panicking case is reported with its seed, then the panic goes on. Returns the count.
pub fn fuzz(name: &str, time: Duration, minimum: u64, mut case: impl FnMut(u64)) -> u64 {
    let start = Instant::now();
    let first = first_seed();
    let mut count = 0;
    while count < minimum || start.elapsed() < time {
        let seed = first + count;
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| case(seed))) {
            eprintln!("fuzz {name}: case {seed} failed; rerun it with DML_WGSL_FUZZ_SEED={seed}");
            resume_unwind(panic);
        }
        count += 1;
    }
    eprintln!(
        "fuzz {name}: {count} cases from seed {first} in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    count
}

/// What reached an uncaptured-error handler of ours, on every device of the process.
static UNCAPTURED: LazyLock<Arc<AtomicUsize>> = LazyLock::new(|| Arc::new(AtomicUsize::new(0)));

/// Counts what reaches the device's uncaptured-error handler (which would panic by default).
/// The count is the process's, not the device's: a device keeps one handler, each call
/// replacing the last, so tests running side by side on one device (the shared `context()`)
/// would otherwise count only into the last caller's counter, and the others' checks would
/// see nothing. An error anywhere fails every test that checks the count.
pub fn count_uncaptured_errors(device: &wgpu::Device) -> Arc<AtomicUsize> {
    let counter = UNCAPTURED.clone();
    device.on_uncaptured_error(Arc::new(move |e| {
        eprintln!("uncaptured wgpu error: {e}");
        counter.fetch_add(1, Ordering::SeqCst);
    }));
    UNCAPTURED.clone()
}
