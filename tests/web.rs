//! The library in a browser: `cargo test --target wasm32-unknown-unknown` runs these in
//! headless Chromium on WebGPU (wasm-bindgen-test; `scripts/test.sh` sets it up). The seed
//! pages' examples, a seeded random differential sample of every operator against
//! `reference.rs` (bit for bit, through `run` and through `record` at WebGPU's 256-byte
//! storage offset alignment), and out-of-range indices. Without WebGPU every test fails.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;
use std::task::{Poll, Waker};

use dml_wgsl::{
    Context, DataType, DuplicateMode, Error, GatherDesc, GatherElementsDesc, GatherNdDesc,
    INDEX_TYPES, OperatorDesc, ScatterElementsDesc, ScatterNdDesc, Slice1Desc, SliceDesc,
    TensorDesc, reference,
};
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// A context on the browser's WebGPU adapter; anything else fails the test.
async fn context() -> Context {
    let context = Context::new().await.unwrap_or_else(|e| {
        panic!("the browser tests need WebGPU (Chromium with --enable-unsafe-webgpu): {e}")
    });
    let info = context.adapter_info();
    assert_eq!(
        info.backend,
        wgpu::Backend::BrowserWebGpu,
        "not the browser's WebGPU: {info:?}"
    );
    context
}

async fn run_f32(context: &Context, desc: &OperatorDesc, inputs: &[&[u8]]) -> Vec<f32> {
    let output = context.run(desc, inputs).await.expect("run");
    bytemuck::cast_slice(&output).to_vec()
}

#[wasm_bindgen_test]
async fn the_adapter_is_the_browsers_webgpu() {
    let context = context().await;
    let info = context.adapter_info();
    let limits = context.device().limits();
    console_log!(
        "adapter: {info:?}; min_storage_buffer_offset_alignment {}, \
         max_storage_buffer_binding_size {}, max_compute_workgroups_per_dimension {}, \
         max_compute_invocations_per_workgroup {}",
        limits.min_storage_buffer_offset_alignment,
        limits.max_storage_buffer_binding_size,
        limits.max_compute_workgroups_per_dimension,
        limits.max_compute_invocations_per_workgroup
    );
    // WebGPU guarantees at least its defaults; nothing here may assume more.
    let defaults = wgpu::Limits::default();
    assert!(limits.min_storage_buffer_offset_alignment <= 256);
    assert!(limits.max_storage_buffer_binding_size >= defaults.max_storage_buffer_binding_size);
}

// ---- the seed pages' examples ----

fn seed_slice(output: &[u32], offsets: &[u32], strides: &[u32]) -> OperatorDesc {
    OperatorDesc::Slice(SliceDesc {
        input: TensorDesc::new(DataType::Float32, &[1, 1, 4, 4]),
        output: TensorDesc::new(DataType::Float32, output),
        offsets: offsets.to_vec(),
        sizes: output.to_vec(),
        strides: strides.to_vec(),
    })
}

#[wasm_bindgen_test]
async fn slice_page_example_1() {
    let context = context().await;
    let input: Vec<f32> = (1..=16).map(|v| v as f32).collect();
    let desc = seed_slice(&[1, 1, 3, 2], &[0, 0, 1, 2], &[1, 1, 1, 1]);
    let output = run_f32(&context, &desc, &[bytemuck::cast_slice(&input)]).await;
    assert_eq!(output, [7., 8., 11., 12., 15., 16.]);
}

#[wasm_bindgen_test]
async fn slice_page_example_2() {
    let context = context().await;
    let input: Vec<f32> = (1..=16).map(|v| v as f32).collect();
    let desc = seed_slice(&[1, 1, 2, 2], &[0, 0, 1, 0], &[1, 1, 2, 3]);
    let output = run_f32(&context, &desc, &[bytemuck::cast_slice(&input)]).await;
    assert_eq!(output, [5., 8., 13., 16.]);
}

#[wasm_bindgen_test]
async fn scatter_page_example_1_last_update_wins() {
    let context = context().await;
    let desc = OperatorDesc::ScatterElements(ScatterElementsDesc {
        input: TensorDesc::new(DataType::Float32, &[5]),
        indices: TensorDesc::new(DataType::UInt32, &[4]),
        updates: TensorDesc::new(DataType::Float32, &[4]),
        output: TensorDesc::new(DataType::Float32, &[5]),
        axis: 0,
        duplicates: DuplicateMode::LastWins,
    });
    let inputs: [&[u8]; 3] = [
        bytemuck::cast_slice(&[0f32, 1., 2., 3., 4.]),
        bytemuck::cast_slice(&[3u32, 1, 3, 0]),
        bytemuck::cast_slice(&[5f32, 6., 7., 8.]),
    ];
    let output = run_f32(&context, &desc, &inputs).await;
    assert_eq!(output, [8., 6., 2., 7., 4.]);
}

#[wasm_bindgen_test]
async fn scatter_page_example_2() {
    let context = context().await;
    let desc = OperatorDesc::ScatterElements(ScatterElementsDesc {
        input: TensorDesc::new(DataType::Float32, &[3, 3]),
        indices: TensorDesc::new(DataType::UInt32, &[2, 3]),
        updates: TensorDesc::new(DataType::Float32, &[2, 3]),
        output: TensorDesc::new(DataType::Float32, &[3, 3]),
        axis: 0,
        duplicates: DuplicateMode::default(),
    });
    let inputs: [&[u8]; 3] = [
        bytemuck::cast_slice(&[0f32; 9]),
        bytemuck::cast_slice(&[1u32, 0, 2, 0, 2, 1]),
        bytemuck::cast_slice(&[10f32, 11., 12., 20., 21., 22.]),
    ];
    let output = run_f32(&context, &desc, &inputs).await;
    assert_eq!(output, [20., 11., 0., 10., 0., 22., 0., 21., 12.]);
}

#[wasm_bindgen_test]
async fn scatter_nd_page_example() {
    let context = context().await;
    let desc = OperatorDesc::ScatterNd(ScatterNdDesc {
        input: TensorDesc::new(DataType::Float32, &[8]),
        indices: TensorDesc::new(DataType::UInt32, &[4, 1]),
        updates: TensorDesc::new(DataType::Float32, &[4]),
        output: TensorDesc::new(DataType::Float32, &[8]),
        input_dimension_count: 1,
        indices_dimension_count: 2,
        duplicates: DuplicateMode::default(),
    });
    let inputs: [&[u8]; 3] = [
        bytemuck::cast_slice(&[1f32, 2., 3., 4., 5., 6., 7., 8.]),
        bytemuck::cast_slice(&[4u32, 3, 1, 7]),
        bytemuck::cast_slice(&[9f32, 10., 11., 12.]),
    ];
    let output = run_f32(&context, &desc, &inputs).await;
    assert_eq!(output, [1., 11., 3., 10., 9., 6., 7., 12.]);
}

// ---- out-of-range indices ----

/// The GPU's error is the reference's, naming the same tensor, position, value and bound.
async fn check_out_of_range(context: &Context, desc: &OperatorDesc, inputs: &[&[u8]]) -> Error {
    let (_, status) = reference::run_with_status(desc, inputs).expect("reference");
    let expected = status.expect_err("the case has an out-of-range index");
    assert!(
        matches!(expected, Error::IndexOutOfRange { .. }),
        "{expected:?}"
    );
    let error = context
        .run(desc, inputs)
        .await
        .expect_err("run reports the index");
    assert_eq!(error, expected);
    error
}

#[wasm_bindgen_test]
async fn out_of_range_indices_are_reported_like_the_reference() {
    let context = context().await;
    let scatter = OperatorDesc::ScatterElements(ScatterElementsDesc {
        input: TensorDesc::new(DataType::Float32, &[5]),
        indices: TensorDesc::new(DataType::Int32, &[3]),
        updates: TensorDesc::new(DataType::Float32, &[3]),
        output: TensorDesc::new(DataType::Float32, &[5]),
        axis: 0,
        duplicates: DuplicateMode::default(),
    });
    let error = check_out_of_range(
        &context,
        &scatter,
        &[
            bytemuck::cast_slice(&[0f32, 1., 2., 3., 4.]),
            bytemuck::cast_slice(&[4i32, 5, -6]),
            bytemuck::cast_slice(&[7f32, 8., 9.]),
        ],
    )
    .await;
    assert_eq!(
        error,
        Error::IndexOutOfRange {
            tensor: "indices",
            position: vec![1],
            value: 5,
            bound: 5
        }
    );
    let gather_nd = OperatorDesc::GatherNd(GatherNdDesc {
        input: TensorDesc::new(DataType::Int64, &[2, 3]),
        indices: TensorDesc::new(DataType::Int64, &[3, 2]),
        output: TensorDesc::new(DataType::Int64, &[1, 3]),
        input_dimension_count: 2,
        indices_dimension_count: 2,
        batch_dimension_count: 0,
    });
    check_out_of_range(
        &context,
        &gather_nd,
        &[
            bytemuck::cast_slice(&[0i64, 1, 2, 3, 4, 5]),
            bytemuck::cast_slice(&[1i64, 2, 0, 3, -2, 0]),
        ],
    )
    .await;
}

// ---- a seeded random differential sample of every operator ----

/// SplitMix64, as the native tests use.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `low..=high`.
    fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.next_u64() % (high - low + 1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    fn sizes(&mut self, rank: usize) -> Vec<u32> {
        (0..rank).map(|_| self.range(1, cap(rank)) as u32).collect()
    }

    /// An in-range index for a dimension of `bound`, negative half the time when signed.
    fn index(&mut self, bound: u32, data_type: DataType) -> i128 {
        let v = self.range(0, bound as u64 - 1) as i128;
        if data_type.is_signed() && self.chance(50) {
            v - bound as i128
        } else {
            v
        }
    }
}

/// Per-dimension size caps: SwiftShader runs on the CPU, so cases stay small.
fn cap(rank: usize) -> u64 {
    [0, 40, 9, 5, 3, 3, 2, 2, 2][rank]
}

/// Packed, padded, permuted or (inputs only) broadcast, sometimes with a padded total size.
fn layout(rng: &mut Rng, data_type: DataType, sizes: &[u32], input: bool) -> TensorDesc {
    let mut t = TensorDesc::new(data_type, sizes);
    let kind = rng.range(0, 3);
    if kind > 0 {
        let rank = sizes.len();
        let mut order: Vec<usize> = (0..rank).collect();
        if kind == 2 {
            for i in (1..rank).rev() {
                order.swap(i, rng.range(0, i as u64) as usize);
            }
        }
        let mut strides = vec![0u32; rank];
        let mut running = 1u64;
        for &d in order.iter().rev() {
            strides[d] = running as u32;
            running = running * sizes[d] as u64 + rng.range(0, 2);
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
        t = t.with_total_size(minimum + 4 * rng.range(1, 4));
    }
    t
}

/// Random bytes for each input, then `index(c)` written at every coordinate `c` of the
/// indices (the second input) where the operator has them.
fn inputs_with_indices(
    rng: &mut Rng,
    desc: &OperatorDesc,
    mut index: impl FnMut(&mut Rng, &[u32]) -> i128,
) -> Vec<Vec<u8>> {
    let tensors = desc.inputs();
    let mut inputs: Vec<Vec<u8>> = tensors
        .iter()
        .map(|(_, t)| {
            (0..t.size_in_bytes())
                .map(|_| rng.next_u64() as u8)
                .collect()
        })
        .collect();
    if let Some((_, t)) = tensors.get(1) {
        let width = t.data_type.size_in_bytes() as usize;
        for c in coordinates(&t.sizes) {
            let v = index(rng, &c) as i64;
            let at = t.byte_offset(&c) as usize;
            inputs[1][at..at + width].copy_from_slice(&v.to_le_bytes()[..width]);
        }
    }
    inputs
}

/// Every coordinate of `sizes`, row-major.
fn coordinates(sizes: &[u32]) -> Vec<Vec<u32>> {
    let mut all = vec![vec![]];
    for &s in sizes {
        all = all
            .into_iter()
            .flat_map(|c: Vec<u32>| {
                (0..s).map(move |i| {
                    let mut c = c.clone();
                    c.push(i);
                    c
                })
            })
            .collect();
    }
    all
}

type Case = (OperatorDesc, Vec<Vec<u8>>);

fn random_slice(rng: &mut Rng, data_type: DataType, _index_type: DataType) -> Case {
    let rank = rng.range(1, 6) as usize;
    let (mut offsets, mut sizes, mut strides, mut input_sizes) = (vec![], vec![], vec![], vec![]);
    for _ in 0..rank {
        let size = rng.range(1, cap(rank)) as u32;
        let stride = rng.range(1, 3) as u32;
        let offset = rng.range(0, 2) as u32;
        input_sizes.push(offset + stride * (size - 1) + 1 + rng.range(0, 1) as u32);
        offsets.push(offset);
        sizes.push(size);
        strides.push(stride);
    }
    let desc = OperatorDesc::Slice(SliceDesc {
        input: layout(rng, data_type, &input_sizes, true),
        output: layout(rng, data_type, &sizes, false),
        offsets,
        sizes,
        strides,
    });
    let inputs = inputs_with_indices(rng, &desc, |_, _| 0);
    (desc, inputs)
}

fn random_slice1(rng: &mut Rng, data_type: DataType, _index_type: DataType) -> Case {
    let rank = rng.range(1, 6) as usize;
    let (mut offsets, mut windows, mut strides, mut input_sizes, mut sizes) =
        (vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..rank {
        let window = rng.range(1, cap(rank) * 2) as u32;
        let magnitude = rng.range(1, 3) as i32;
        let stride = if rng.chance(50) {
            -magnitude
        } else {
            magnitude
        };
        let offset = rng.range(0, 2) as u32;
        input_sizes.push(offset + window + rng.range(0, 1) as u32);
        sizes.push(window.div_ceil(magnitude as u32));
        offsets.push(offset);
        windows.push(window);
        strides.push(stride);
    }
    let desc = OperatorDesc::Slice1(Slice1Desc {
        input: layout(rng, data_type, &input_sizes, true),
        output: layout(rng, data_type, &sizes, false),
        input_window_offsets: offsets,
        input_window_sizes: windows,
        input_window_strides: strides,
    });
    let inputs = inputs_with_indices(rng, &desc, |_, _| 0);
    (desc, inputs)
}

/// Duplicate targets resolve last-wins, so the result is exact.
fn random_scatter_elements(rng: &mut Rng, data_type: DataType, index_type: DataType) -> Case {
    let rank = rng.range(1, 6) as usize;
    let input_sizes = rng.sizes(rank);
    let axis = rng.range(0, rank as u64 - 1) as usize;
    let bound = input_sizes[axis];
    let indices_sizes: Vec<u32> = (0..rank)
        .map(|d| {
            let most = if d == axis {
                cap(rank)
            } else {
                input_sizes[d] as u64
            };
            rng.range(1, most) as u32
        })
        .collect();
    let desc = OperatorDesc::ScatterElements(ScatterElementsDesc {
        input: layout(rng, data_type, &input_sizes, true),
        indices: layout(rng, index_type, &indices_sizes, true),
        updates: layout(rng, data_type, &indices_sizes, true),
        output: layout(rng, data_type, &input_sizes, false),
        axis: axis as u32,
        duplicates: DuplicateMode::LastWins,
    });
    let inputs = inputs_with_indices(rng, &desc, |rng, _| rng.index(bound, index_type));
    (desc, inputs)
}

fn random_scatter_nd(rng: &mut Rng, data_type: DataType, index_type: DataType) -> Case {
    let input_rank = rng.range(1, 5) as usize;
    let input_count = rng.range(1, input_rank as u64) as usize;
    let mut input_sizes = vec![1u32; input_rank];
    for size in input_sizes[input_rank - input_count..].iter_mut() {
        *size = rng.range(1, cap(input_count).min(8)) as u32;
    }
    let first = input_rank - input_count;
    let tuple = rng.range(1, input_count as u64) as usize;
    let bounds: Vec<u32> = input_sizes[first..first + tuple].to_vec();
    let slice_sizes: Vec<u32> = input_sizes[first + tuple..].to_vec();
    let batch_sizes: Vec<u32> = (0..rng.range(0, 2))
        .map(|_| rng.range(1, 5) as u32)
        .collect();
    let batch_rank = batch_sizes.len();
    let indices_rank = batch_rank + 1 + rng.range(0, 1) as usize;
    let mut indices_sizes = vec![1u32; indices_rank - batch_rank - 1];
    indices_sizes.extend(&batch_sizes);
    indices_sizes.push(tuple as u32);
    let meaningful = batch_rank + slice_sizes.len();
    let updates_rank = (meaningful.max(1) + rng.range(0, 1) as usize).min(8);
    let mut updates_sizes = vec![1u32; updates_rank - meaningful];
    updates_sizes.extend(&batch_sizes);
    updates_sizes.extend(&slice_sizes);
    let desc = OperatorDesc::ScatterNd(ScatterNdDesc {
        input: layout(rng, data_type, &input_sizes, true),
        indices: layout(rng, index_type, &indices_sizes, false),
        updates: layout(rng, data_type, &updates_sizes, true),
        output: layout(rng, data_type, &input_sizes, false),
        input_dimension_count: input_count as u32,
        indices_dimension_count: (batch_rank + 1) as u32,
        duplicates: DuplicateMode::LastWins,
    });
    let inputs = inputs_with_indices(rng, &desc, |rng, c| {
        rng.index(bounds[c[indices_rank - 1] as usize], index_type)
    });
    (desc, inputs)
}

fn random_gather(rng: &mut Rng, data_type: DataType, index_type: DataType) -> Case {
    let rank = rng.range(1, 6) as usize;
    let mut input_sizes = rng.sizes(rank);
    let index_dimensions = rng.range(0, rank as u64) as usize;
    // More than one index dimension needs leading 1s before the axis to crop.
    let axis = if index_dimensions >= 2 {
        for size in input_sizes.iter_mut().take(index_dimensions - 1) {
            *size = 1;
        }
        rng.range(index_dimensions as u64 - 1, rank as u64 - 1) as usize
    } else {
        rng.range(0, rank as u64 - 1) as usize
    };
    let mut indices_sizes = vec![1u32; rank - index_dimensions];
    indices_sizes.extend((0..index_dimensions).map(|_| rng.range(1, cap(rank).min(4)) as u32));
    let mut output_sizes = [
        &input_sizes[..axis],
        &indices_sizes[rank - index_dimensions..],
        &input_sizes[axis + 1..],
    ]
    .concat();
    while output_sizes.len() > rank {
        output_sizes.remove(0);
    }
    while output_sizes.len() < rank {
        output_sizes.insert(0, 1);
    }
    let bound = input_sizes[axis];
    let desc = OperatorDesc::Gather(GatherDesc {
        input: layout(rng, data_type, &input_sizes, true),
        indices: layout(rng, index_type, &indices_sizes, true),
        output: layout(rng, data_type, &output_sizes, false),
        axis: axis as u32,
        index_dimensions: index_dimensions as u32,
    });
    let inputs = inputs_with_indices(rng, &desc, |rng, _| rng.index(bound, index_type));
    (desc, inputs)
}

fn random_gather_elements(rng: &mut Rng, data_type: DataType, index_type: DataType) -> Case {
    let rank = rng.range(1, 6) as usize;
    let input_sizes = rng.sizes(rank);
    let axis = rng.range(0, rank as u64 - 1) as usize;
    let indices_sizes: Vec<u32> = (0..rank)
        .map(|d| {
            let most = if d == axis {
                cap(rank)
            } else {
                input_sizes[d] as u64
            };
            rng.range(1, most) as u32
        })
        .collect();
    let bound = input_sizes[axis];
    let desc = OperatorDesc::GatherElements(GatherElementsDesc {
        input: layout(rng, data_type, &input_sizes, true),
        indices: layout(rng, index_type, &indices_sizes, true),
        output: layout(rng, data_type, &indices_sizes, false),
        axis: axis as u32,
    });
    let inputs = inputs_with_indices(rng, &desc, |rng, _| rng.index(bound, index_type));
    (desc, inputs)
}

fn random_gather_nd(rng: &mut Rng, data_type: DataType, index_type: DataType) -> Case {
    let input_rank = rng.range(1, 5) as usize;
    let input_count = rng.range(1, input_rank as u64) as usize;
    let mut input_sizes = vec![1u32; input_rank];
    for size in input_sizes[input_rank - input_count..].iter_mut() {
        *size = rng.range(1, cap(input_count).min(8)) as u32;
    }
    let first = input_rank - input_count;
    let leading_rank = rng.range(0, 2) as usize;
    let batch = rng.range(0, (input_count - 1).min(leading_rank) as u64) as usize;
    let tuple = rng.range(1, (input_count - batch) as u64) as usize;
    let mut leading: Vec<u32> = input_sizes[first..first + batch].to_vec();
    leading.extend((batch..leading_rank).map(|_| rng.range(1, 4) as u32));
    let indices_count = leading_rank + 1;
    let indices_rank = indices_count + rng.range(0, 1) as usize;
    let mut indices_sizes = vec![1u32; indices_rank - indices_count];
    indices_sizes.extend(&leading);
    indices_sizes.push(tuple as u32);
    let trailing = &input_sizes[first + batch + tuple..];
    let meaningful = leading.len() + trailing.len();
    let output_rank = (meaningful.max(1) + rng.range(0, 1) as usize).min(8);
    let mut output_sizes = vec![1u32; output_rank - meaningful];
    output_sizes.extend(&leading);
    output_sizes.extend(trailing);
    let bounds: Vec<u32> = input_sizes[first + batch..first + batch + tuple].to_vec();
    let desc = OperatorDesc::GatherNd(GatherNdDesc {
        input: layout(rng, data_type, &input_sizes, true),
        indices: layout(rng, index_type, &indices_sizes, false),
        output: layout(rng, data_type, &output_sizes, false),
        input_dimension_count: input_count as u32,
        indices_dimension_count: indices_count as u32,
        batch_dimension_count: batch as u32,
    });
    let inputs = inputs_with_indices(rng, &desc, |rng, c| {
        rng.index(bounds[c[indices_rank - 1] as usize], index_type)
    });
    (desc, inputs)
}

/// Data types sampled per operator: every element width (1, 2, 4, 8 bytes), float and int.
const SAMPLED_TYPES: [DataType; 6] = [
    DataType::UInt8,
    DataType::Int16,
    DataType::Float16,
    DataType::Float32,
    DataType::Int64,
    DataType::Float64,
];

/// Two cases per sampled data type: the first through `run`, the second through `record`
/// with every tensor at the device's storage offset alignment (256 on WebGPU) inside a
/// larger buffer whose other bytes must stay untouched. Both bit-exact against the reference.
async fn differential(seed: u64, generate: Generator) {
    sample(&context().await, seed, generate).await;
}

type Generator = fn(&mut Rng, DataType, DataType) -> Case;

async fn sample(context: &Context, seed: u64, generate: Generator) {
    let mut rng = Rng::new(seed);
    for (i, data_type) in SAMPLED_TYPES.into_iter().enumerate() {
        for case in 0..2 {
            let index_type = INDEX_TYPES[(2 * i + case) % INDEX_TYPES.len()];
            let (desc, inputs) = generate(&mut rng, data_type, index_type);
            let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
            let expected = reference::run(&desc, &slices).expect("reference");
            if case == 0 {
                let output = context.run(&desc, &slices).await.expect("run");
                assert!(
                    output == expected,
                    "run differs from the reference: {desc:?}"
                );
            } else {
                check_recorded(context, &desc, &slices, &expected).await;
            }
        }
    }
}

/// Fills the bytes around every tensor.
const SENTINEL: u8 = 0xA7;

async fn check_recorded(context: &Context, desc: &OperatorDesc, inputs: &[&[u8]], expected: &[u8]) {
    use wgpu::util::DeviceExt;
    let device = context.device();
    let operator = context.compile(desc).expect("compile");
    let guard = device.limits().min_storage_buffer_offset_alignment as u64;
    let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let guarded = |data: &[u8], bytes: u64| {
        let mut v = vec![SENTINEL; (2 * guard + bytes) as usize];
        v[guard as usize..(guard + bytes) as usize].copy_from_slice(&data[..bytes as usize]);
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("guarded"),
            contents: &v,
            usage: storage,
        })
    };
    let buffers: Vec<wgpu::Buffer> = inputs
        .iter()
        .zip(operator.input_sizes())
        .map(|(data, bytes)| guarded(data, bytes))
        .collect();
    let out_bytes = operator.output_size();
    let output = guarded(&vec![SENTINEL; out_bytes as usize], out_bytes);
    let total = output.size();
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: total,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let binding = |buffer, bytes| wgpu::BufferBinding {
        buffer,
        offset: guard,
        size: std::num::NonZeroU64::new(bytes),
    };
    let bindings: Vec<wgpu::BufferBinding> = buffers
        .iter()
        .zip(operator.input_sizes())
        .map(|(b, bytes)| binding(b, bytes))
        .collect();
    let mut encoder = device.create_command_encoder(&Default::default());
    operator
        .record(&mut encoder, &bindings, binding(&output, out_bytes))
        .expect("record");
    encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, total);
    context.queue().submit([encoder.finish()]);
    operator
        .check_status()
        .await
        .expect("no index out of range");
    let actual = read_back(&readback).await;
    let covered = covered_bytes(desc.output());
    let (before, rest) = actual.split_at(guard as usize);
    let (body, after) = rest.split_at(out_bytes as usize);
    assert!(
        before.iter().chain(after).all(|&b| b == SENTINEL),
        "a guard band was written: {desc:?}"
    );
    for (i, (&got, &want)) in body.iter().zip(expected).enumerate() {
        let want = if covered[i] { want } else { SENTINEL };
        assert_eq!(got, want, "output byte {i} differs for {desc:?}");
    }
}

/// Which bytes of `t` belong to an element.
fn covered_bytes(t: &TensorDesc) -> Vec<bool> {
    let mut covered = vec![false; t.size_in_bytes() as usize];
    let width = t.data_type.size_in_bytes() as u64;
    for c in coordinates(&t.sizes) {
        let at = t.byte_offset(&c);
        for b in at..at + width {
            covered[b as usize] = true;
        }
    }
    covered
}

/// Maps a `MAP_READ` buffer without blocking: the browser calls back when it is ready.
async fn read_back(buffer: &wgpu::Buffer) -> Vec<u8> {
    type Shared = Rc<RefCell<(Option<Result<(), wgpu::BufferAsyncError>>, Option<Waker>)>>;
    let shared: Shared = Rc::default();
    let state = shared.clone();
    buffer.map_async(wgpu::MapMode::Read, .., move |result| {
        let mut state = state.borrow_mut();
        state.0 = Some(result);
        if let Some(waker) = state.1.take() {
            waker.wake();
        }
    });
    std::future::poll_fn(|cx| {
        let mut state = shared.borrow_mut();
        match state.0.take() {
            Some(result) => {
                result.expect("map");
                Poll::Ready(())
            }
            None => {
                state.1 = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    })
    .await;
    let data = buffer.get_mapped_range(..).expect("mapped").to_vec();
    buffer.unmap();
    data
}

#[wasm_bindgen_test]
async fn random_slices_match_the_reference() {
    differential(101, random_slice).await;
}

#[wasm_bindgen_test]
async fn random_slice1s_match_the_reference() {
    differential(102, random_slice1).await;
}

#[wasm_bindgen_test]
async fn random_scatter_elements_match_the_reference() {
    differential(103, random_scatter_elements).await;
}

#[wasm_bindgen_test]
async fn random_scatter_nds_match_the_reference() {
    differential(104, random_scatter_nd).await;
}

#[wasm_bindgen_test]
async fn random_gathers_match_the_reference() {
    differential(105, random_gather).await;
}

#[wasm_bindgen_test]
async fn random_gather_elements_match_the_reference() {
    differential(106, random_gather_elements).await;
}

#[wasm_bindgen_test]
async fn random_gather_nds_match_the_reference() {
    differential(107, random_gather_nd).await;
}

/// A device with WebGPU's default limits (256-byte storage offset alignment, 128 MiB
/// bindings, no immediates) is all the library needs: every operator runs on it, and a
/// tensor past its binding limit is refused before any GPU work.
#[wasm_bindgen_test]
async fn webgpus_default_limits_are_enough() {
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
    descriptor.backends = wgpu::Backends::BROWSER_WEBGPU;
    let instance = wgpu::Instance::new(descriptor);
    let adapter = instance
        .request_adapter(&Default::default())
        .await
        .expect("a WebGPU adapter (Chromium with --enable-unsafe-webgpu)");
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor {
            required_limits: wgpu::Limits::default(),
            ..Default::default()
        })
        .await
        .expect("a device with WebGPU's default limits");
    let context = Context::from_device(device, queue);
    let limits = context.device().limits();
    assert_eq!(limits.min_storage_buffer_offset_alignment, 256);
    assert_eq!(limits.max_storage_buffer_binding_size, 128 << 20);
    let generators: [Generator; 7] = [
        random_slice,
        random_slice1,
        random_scatter_elements,
        random_scatter_nd,
        random_gather,
        random_gather_elements,
        random_gather_nd,
    ];
    for (seed, generate) in (201..).zip(generators) {
        sample(&context, seed, generate).await;
    }
    let past_the_limit = OperatorDesc::Slice(SliceDesc {
        input: TensorDesc::new(DataType::Float32, &[(32 << 20) + 1]),
        output: TensorDesc::new(DataType::Float32, &[1]),
        offsets: vec![0],
        sizes: vec![1],
        strides: vec![1],
    });
    assert!(
        matches!(
            context.compile(&past_the_limit),
            Err(Error::TensorTooLarge { bytes, limit, .. }) if bytes > limit && limit == 128 << 20
        ),
        "{:?}",
        context.compile(&past_the_limit).err()
    );
}
