//! Shared test machinery: one GPU context per test binary, a seeded generator, and the
//! guard-banded differential check against `dml_wgsl::reference`.
#![allow(dead_code)]

use std::sync::OnceLock;

use dml_wgsl::{Context, OperatorDesc, TensorDesc, reference};

/// The test binary's context. A missing adapter fails the test, never skips it.
pub fn context() -> &'static Context {
    static CONTEXT: OnceLock<Context> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        let context = Context::new_blocking().unwrap_or_else(|e| {
            panic!("GPU tests need an adapter (lavapipe: apt-get install mesa-vulkan-drivers): {e}")
        });
        eprintln!("adapter: {:?}", context.adapter_info());
        context
    })
}

/// SplitMix64: small, seeded, good enough to pick shapes and fill tensors.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `low..=high`.
    pub fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.next_u64() % (high - low + 1)
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// `n` random bytes, never all zero.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v: Vec<u8> = (0..n).map(|_| self.next_u64() as u8).collect();
        if let Some(first) = v.first_mut() {
            *first |= 1;
        }
        v
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.range(0, i as u64) as usize;
            items.swap(i, j);
        }
    }
}

/// Fills guard bands and bytes no element covers.
pub const SENTINEL: u8 = 0xA7;

/// Random bytes for each of `desc`'s inputs.
pub fn random_inputs(rng: &mut Rng, desc: &OperatorDesc) -> Vec<Vec<u8>> {
    desc.inputs()
        .iter()
        .map(|(_, t)| rng.bytes(t.size_in_bytes() as usize))
        .collect()
}

/// Which bytes of `t`'s buffer range belong to an element.
pub fn covered_bytes(t: &TensorDesc) -> Vec<bool> {
    let mut covered = vec![false; t.size_in_bytes() as usize];
    let strides = t.effective_strides();
    let width = t.data_type.size_in_bytes() as u64;
    let mut c = vec![0u32; t.rank()];
    'all: loop {
        let element: u64 = c.iter().zip(&strides).map(|(&c, &s)| c as u64 * s).sum();
        for b in 0..width {
            covered[(element * width + b) as usize] = true;
        }
        for d in (0..t.rank()).rev() {
            c[d] += 1;
            if c[d] < t.sizes[d] {
                continue 'all;
            }
            c[d] = 0;
        }
        break;
    }
    covered
}

/// Runs `desc` on the GPU through `compile` + `record`, with every tensor placed after a
/// guard band inside a larger buffer, and checks bit for bit against the reference:
/// covered output bytes equal the reference's, every other byte of the output buffer
/// (uncovered bytes, the guard bands) still holds the sentinel. Returns the output bytes.
pub fn check_against_reference(desc: &OperatorDesc, inputs: &[Vec<u8>]) -> Vec<u8> {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let expected = reference::run(desc, &slices).expect("reference run");
    let actual = run_guarded(desc, &slices);
    let output = desc.output();
    let covered = covered_bytes(output);
    let guard = guard_size();
    let (before, rest) = actual.split_at(guard as usize);
    let (body, after) = rest.split_at(output.size_in_bytes() as usize);
    assert!(
        before.iter().all(|&b| b == SENTINEL),
        "guard band before the output was written: {desc:?}"
    );
    assert!(
        after.iter().all(|&b| b == SENTINEL),
        "guard band after the output was written: {desc:?}"
    );
    for (i, (&got, &want)) in body.iter().zip(&expected).enumerate() {
        let want = if covered[i] { want } else { SENTINEL };
        assert_eq!(
            got, want,
            "output byte {i} (covered: {}) differs for {desc:?}",
            covered[i]
        );
    }
    expected
}

/// The guard band: the device's storage offset alignment, at least 256 bytes.
pub fn guard_size() -> u64 {
    (context()
        .device()
        .limits()
        .min_storage_buffer_offset_alignment as u64)
        .max(256)
}

/// Runs through `record` with guard bands; returns the whole output buffer (guards included).
pub fn run_guarded(desc: &OperatorDesc, inputs: &[&[u8]]) -> Vec<u8> {
    run_guarded_with_status(desc, inputs).0
}

/// [`run_guarded`], with the status `check_status` reads afterwards.
pub fn run_guarded_with_status(
    desc: &OperatorDesc,
    inputs: &[&[u8]],
) -> (Vec<u8>, dml_wgsl::Result<()>) {
    use wgpu::util::DeviceExt;
    let context = context();
    let device = context.device();
    let operator = context.compile(desc).expect("compile");
    let guard = guard_size();
    let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let padded = |data: &[u8], bytes: u64| {
        let mut v = vec![SENTINEL; (guard * 2 + bytes) as usize];
        v[guard as usize..(guard + bytes) as usize].copy_from_slice(&data[..bytes as usize]);
        v
    };
    let buffers: Vec<wgpu::Buffer> = inputs
        .iter()
        .zip(operator.input_sizes())
        .map(|(data, bytes)| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("guarded input"),
                contents: &padded(data, bytes),
                usage: storage,
            })
        })
        .collect();
    let out_bytes = operator.output_size();
    let total = guard * 2 + out_bytes;
    let output = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("guarded output"),
        contents: &vec![SENTINEL; total as usize],
        usage: storage,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: total,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let bindings: Vec<wgpu::BufferBinding> = buffers
        .iter()
        .zip(operator.input_sizes())
        .map(|(b, bytes)| wgpu::BufferBinding {
            buffer: b,
            offset: guard,
            size: std::num::NonZeroU64::new(bytes),
        })
        .collect();
    let mut encoder = device.create_command_encoder(&Default::default());
    operator
        .record(
            &mut encoder,
            &bindings,
            wgpu::BufferBinding {
                buffer: &output,
                offset: guard,
                size: std::num::NonZeroU64::new(out_bytes),
            },
        )
        .expect("record");
    encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, total);
    context.queue().submit([encoder.finish()]);
    let bytes = read_buffer(&readback);
    (bytes, operator.check_status_blocking())
}

/// For a case with an out-of-range index: `run`'s error equals the reference's; through
/// `record`, `check_status` reports the same, and the output is as the reference left it
/// (the offending updates skipped, a gather's elements zero) with nothing outside it
/// touched. Returns the error.
pub fn check_out_of_range(desc: &OperatorDesc, inputs: &[Vec<u8>]) -> dml_wgsl::Error {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let (expected, status) = reference::run_with_status(desc, &slices).expect("reference");
    let reference_error = status.expect_err("the case has a bad index");
    let error = context()
        .run_blocking(desc, &slices)
        .expect_err("run reports it");
    assert_eq!(error, reference_error);
    let (actual, recorded) = run_guarded_with_status(desc, &slices);
    assert_eq!(recorded, Err(reference_error));
    let guard = guard_size() as usize;
    let covered = covered_bytes(desc.output());
    assert!(
        actual[..guard]
            .iter()
            .chain(&actual[guard + expected.len()..])
            .all(|&b| b == SENTINEL),
        "guard bands"
    );
    for (i, &byte) in actual[guard..guard + expected.len()].iter().enumerate() {
        let want = if covered[i] { expected[i] } else { SENTINEL };
        assert_eq!(byte, want, "output byte {i}");
    }
    error
}

/// Maps a MAP_READ buffer and returns its bytes (blocking).
pub fn read_buffer(buffer: &wgpu::Buffer) -> Vec<u8> {
    let device = context().device();
    buffer.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    let data = buffer.get_mapped_range(..).expect("mapped").to_vec();
    buffer.unmap();
    data
}

/// A random layout for `sizes`: packed, padded (gaps between rows), permuted (dimensions
/// stored in another order), and for inputs sometimes broadcast (stride 0). Sometimes the
/// total size carries padding at the end.
pub fn random_layout(
    rng: &mut Rng,
    data_type: dml_wgsl::DataType,
    sizes: &[u32],
    input: bool,
) -> TensorDesc {
    let mut t = TensorDesc::new(data_type, sizes);
    let kind = rng.range(0, 3);
    if kind > 0 {
        let rank = sizes.len();
        let mut order: Vec<usize> = (0..rank).collect();
        if kind == 2 {
            rng.shuffle(&mut order);
        }
        let mut strides = vec![0u32; rank];
        let mut running = 1u64;
        for &d in order.iter().rev() {
            strides[d] = running as u32;
            running =
                (running * sizes[d] as u64) + if rng.chance(50) { rng.range(0, 3) } else { 0 };
        }
        if input && kind == 3 {
            for stride in strides.iter_mut() {
                if rng.chance(30) {
                    *stride = 0;
                }
            }
        }
        t = t.with_strides(&strides);
    }
    if rng.chance(25) {
        let minimum = t.minimum_size_in_bytes();
        t = t.with_total_size(minimum + 4 * rng.range(1, 8));
    }
    t
}

/// A random index data type.
pub fn random_index_type(rng: &mut Rng) -> dml_wgsl::DataType {
    dml_wgsl::INDEX_TYPES[rng.range(0, 3) as usize]
}

/// Writes `value(c)` for every coordinate `c` of the index tensor `t` into `bytes` (laid out
/// by `t`; bytes no element covers keep their random contents).
pub fn write_indices(t: &TensorDesc, bytes: &mut [u8], mut value: impl FnMut(&[u32]) -> i128) {
    let width = t.data_type.size_in_bytes() as usize;
    let mut c = vec![0u32; t.rank()];
    'all: loop {
        let v = value(&c);
        let at = t.byte_offset(&c) as usize;
        bytes[at..at + width].copy_from_slice(&(v as i64).to_le_bytes()[..width]);
        for d in (0..t.rank()).rev() {
            c[d] += 1;
            if c[d] < t.sizes[d] {
                continue 'all;
            }
            c[d] = 0;
        }
        break;
    }
}

/// A random in-range index for a dimension of `bound`, negative half the time when the type
/// is signed.
pub fn random_index(rng: &mut Rng, bound: u32, data_type: dml_wgsl::DataType) -> i128 {
    let v = rng.range(0, bound as u64 - 1) as i128;
    if data_type.is_signed() && rng.chance(50) {
        v - bound as i128
    } else {
        v
    }
}

/// Runs a scatter in `DuplicateMode::AnyUpdate` through `record` with guard bands and checks
/// that every output element equals one of the updates aimed at it (or the input when none
/// is), bit for bit, and that nothing else changed.
pub fn check_scatter_any_update(desc: &OperatorDesc, inputs: &[Vec<u8>]) {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let (expected, status) = reference::run_with_status(desc, &slices).expect("reference");
    let writes = reference::scatter_writes(desc, &slices).expect("writes");
    assert_eq!(writes.status, status);
    let actual = run_guarded(desc, &slices);
    let output = desc.output();
    let width = output.data_type.size_in_bytes() as usize;
    let guard = guard_size() as usize;
    let body = &actual[guard..guard + output.size_in_bytes() as usize];
    assert!(
        actual[..guard].iter().all(|&b| b == SENTINEL),
        "guard band before the output"
    );
    assert!(
        actual[guard + body.len()..].iter().all(|&b| b == SENTINEL),
        "guard band after the output"
    );
    let mut candidates: std::collections::HashMap<usize, Vec<&[u8]>> = Default::default();
    for w in &writes.writes {
        let from = w.updates_offset as usize;
        candidates
            .entry(w.output_offset as usize)
            .or_default()
            .push(&inputs[2][from..from + width]);
    }
    let covered = covered_bytes(output);
    let whole = body.len() / width * width;
    assert!(
        body[whole..].iter().all(|&b| b == SENTINEL),
        "padding after the last element"
    );
    for at in (0..whole).step_by(width) {
        let got = &body[at..at + width];
        match candidates.get(&at) {
            Some(options) => assert!(
                options.contains(&got),
                "element at byte {at}: {got:?} is none of the updates {options:?} ({desc:?})"
            ),
            None if covered[at] => {
                assert_eq!(got, &expected[at..at + width], "element at byte {at}")
            }
            None => assert!(
                got.iter().all(|&b| b == SENTINEL),
                "uncovered bytes at {at}"
            ),
        }
    }
}
