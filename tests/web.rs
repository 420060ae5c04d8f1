//! The library in a browser: `cargo test --target wasm32-unknown-unknown` runs these in
//! headless Chromium on WebGPU (wasm-bindgen-test; `scripts/test.sh` sets it up). The seed
//! pages' examples, a seeded random differential sample of every operator against
//! `dml_wgsl::reference` (bit for bit, through `run` and through `record` at WebGPU's 256-byte
//! storage offset alignment), out-of-range indices, and empty tensors. Without WebGPU every
//! test fails.
//! The cases and the differential check are the native tests' own (`tests/common/`).
#![cfg(target_arch = "wasm32")]

// Shared with the native tests, which use more of them.
#[allow(dead_code)]
#[path = "common/cases.rs"]
mod cases;
#[allow(dead_code)]
#[path = "common/check.rs"]
mod check;
#[path = "common/narrow.rs"]
mod narrow;

use cases::{OperatorKind, Rng, Worked, one_target_case, out_of_range_scatter, random_case};
use check::{Expect, check_in_place_on, check_on, check_run_on};
use dml_wgsl::{
    Context, DataType, DuplicateMode, Error, GatherNdDesc, INDEX_TYPES, OperatorDesc, Reduction,
    ScatterNdDesc, Slice1Desc, SliceDesc, TensorDesc, TensorScatterDesc, reference,
};
use narrow::{NarrowRun, narrow_cases};
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

/// `run` gives the page's output, and `record` the reference's, bit for bit.
async fn check_worked(worked: Worked) {
    let context = context().await;
    let (desc, inputs) = (&worked.case.desc, worked.case.slices());
    let output = context.run(desc, &inputs).await.expect("run");
    assert_eq!(bytemuck::cast_slice::<u8, f32>(&output), worked.output);
    check_on(&context, desc, &inputs, Expect::Exact)
        .await
        .expect("compile and record");
}

#[wasm_bindgen_test]
async fn slice_page_example_1() {
    check_worked(cases::slice_page_example(false)).await;
}

#[wasm_bindgen_test]
async fn slice_page_example_2() {
    check_worked(cases::slice_page_example(true)).await;
}

#[wasm_bindgen_test]
async fn scatter_page_example_1_last_update_wins() {
    check_worked(cases::scatter_page_example_1(DuplicateMode::InOrder)).await;
}

#[wasm_bindgen_test]
async fn scatter_page_example_2() {
    check_worked(cases::scatter_page_example_2()).await;
}

#[wasm_bindgen_test]
async fn scatter_nd_page_example() {
    check_worked(cases::scatter_nd_page_example()).await;
}

// ---- out-of-range indices ----

/// The GPU's error is the reference's, naming the same tensor, position, value and bound,
/// through `run` and through `record` (whose output skips the same updates).
async fn check_out_of_range(context: &Context, desc: &OperatorDesc, inputs: &[&[u8]]) -> Error {
    let (_, status) = reference::run_with_status(desc, inputs).expect("reference");
    let expected = status.expect_err("the case has an out-of-range index");
    assert!(
        matches!(
            expected,
            Error::IndexOutOfRange { .. } | Error::WriteIndexOutOfRange { .. }
        ),
        "{expected:?}"
    );
    check_run_on(context, desc, inputs, Expect::Exact).await;
    check_on(context, desc, inputs, Expect::Exact)
        .await
        .expect("compile and record");
    expected
}

#[wasm_bindgen_test]
async fn out_of_range_indices_are_reported_like_the_reference() {
    let context = context().await;
    let scatter = out_of_range_scatter();
    let error = check_out_of_range(&context, &scatter.desc, &scatter.slices()).await;
    assert_eq!(
        error,
        Error::IndexOutOfRange {
            tensor: "indices",
            position: vec![1],
            value: 5,
            bound: 5
        }
    );
    let gather_nd: OperatorDesc = GatherNdDesc::new(
        TensorDesc::new(DataType::Int64, &[2, 3]),
        TensorDesc::new(DataType::Int64, &[3, 2]),
        TensorDesc::new(DataType::Int64, &[1, 3]),
        2,
        2,
        0,
    )
    .into();
    let inputs: [&[u8]; 2] = [
        bytemuck::cast_slice(&[0i64, 1, 2, 3, 4, 5]),
        bytemuck::cast_slice(&[1i64, 2, 0, 3, -2, 0]),
    ];
    check_out_of_range(&context, &gather_nd, &inputs).await;
    // A linear TensorScatter whose second entry's run of 2 passes a cache of 4.
    let tensor_scatter: OperatorDesc = TensorScatterDesc::new(
        TensorDesc::new(DataType::Float16, &[2, 4, 3]),
        TensorDesc::new(DataType::Float16, &[2, 2, 3]),
        Some(TensorDesc::new(DataType::Int32, &[2])),
        TensorDesc::new(DataType::Float16, &[2, 4, 3]),
        1,
    )
    .into();
    let cache: Vec<u16> = (0..24).collect();
    let updates: Vec<u16> = (100..112).collect();
    let inputs: [&[u8]; 3] = [
        bytemuck::cast_slice(&cache),
        bytemuck::cast_slice(&updates),
        bytemuck::cast_slice(&[2i32, 3]),
    ];
    let error = check_out_of_range(&context, &tensor_scatter, &inputs).await;
    assert_eq!(
        error,
        Error::WriteIndexOutOfRange {
            entry: 1,
            value: 3,
            length: 2,
            bound: 4
        }
    );
}

// ---- sizes of 0 ----

/// Empty tensors on WebGPU: an empty output (ONNX's Slice with a start past the end, clamped)
/// comes back as no bytes, its bindings ignored; a scatter with no updates is the copy
/// `output = input`, its empty indices and updates given as empty slices (and bound, through
/// `record`, to whatever the guard-band check binds).
#[wasm_bindgen_test]
async fn an_empty_output_and_a_scatter_with_no_updates() {
    let context = context().await;
    let slice: OperatorDesc = Slice1Desc::new(
        TensorDesc::new(DataType::Float32, &[20, 10, 5]),
        TensorDesc::new(DataType::Float32, &[20, 0, 5]),
        &[0, 10, 0],
        &[20, 0, 5],
        &[1, 1, 1],
    )
    .into();
    let input: Vec<f32> = (0..1000).map(|v| v as f32).collect();
    let inputs: [&[u8]; 1] = [bytemuck::cast_slice(&input)];
    assert_eq!(context.run(&slice, &inputs).await, Ok(Vec::new()));
    check_on(&context, &slice, &inputs, Expect::Exact)
        .await
        .expect("compile and record");
    let scatter: OperatorDesc = ScatterNdDesc::new(
        TensorDesc::new(DataType::Int64, &[4, 3]),
        TensorDesc::new(DataType::UInt32, &[0, 1]),
        TensorDesc::new(DataType::Int64, &[0, 3]),
        TensorDesc::new(DataType::Int64, &[4, 3]),
        2,
        2,
    )
    .with_reduction(Reduction::Add)
    .into();
    let data = Rng::new(25).bytes(96);
    let inputs: [&[u8]; 3] = [&data, &[], &[]];
    assert_eq!(context.run(&scatter, &inputs).await, Ok(data.clone()));
    check_on(&context, &scatter, &inputs, Expect::Exact)
        .await
        .expect("compile and record");
}

// ---- a seeded random differential sample of every operator ----

/// Data types sampled per operator: every element width (1, 2, 4, 8 bytes), float and int.
const SAMPLED_TYPES: [DataType; 6] = [
    DataType::Float64,
    DataType::Int64,
    DataType::Float32,
    DataType::Float16,
    DataType::Int8,
    DataType::UInt8,
];

/// Two cases per sampled data type: the first through `run`, the second through `record`
/// with every tensor at the device's storage offset alignment (256 on WebGPU) inside a
/// larger buffer whose other bytes must stay untouched. Both against the reference (scatters
/// with duplicate targets in the default mode: each element one of its updates).
async fn differential(seed: u64, kind: OperatorKind) {
    sample(&context().await, seed, kind).await;
}

async fn sample(context: &Context, seed: u64, kind: OperatorKind) {
    let mut rng = Rng::new(seed);
    for (i, data_type) in SAMPLED_TYPES.into_iter().enumerate() {
        for case in 0..2 {
            let index_type = INDEX_TYPES[(2 * i + case) % INDEX_TYPES.len()];
            let random = random_case(&mut rng, kind, data_type, index_type);
            let (desc, inputs) = (&random.desc, random.slices());
            if case == 0 {
                check_run_on(context, desc, &inputs, Expect::ByMode).await;
            } else {
                check_on(context, desc, &inputs, Expect::ByMode)
                    .await
                    .expect("compile and record");
            }
        }
    }
}

#[wasm_bindgen_test]
async fn random_slices_match_the_reference() {
    differential(101, OperatorKind::Slice).await;
}

#[wasm_bindgen_test]
async fn random_slice1s_match_the_reference() {
    differential(102, OperatorKind::Slice1).await;
}

#[wasm_bindgen_test]
async fn random_scatter_elements_match_the_reference() {
    differential(103, OperatorKind::ScatterElements).await;
}

#[wasm_bindgen_test]
async fn random_scatter_nds_match_the_reference() {
    differential(104, OperatorKind::ScatterNd).await;
}

#[wasm_bindgen_test]
async fn random_gathers_match_the_reference() {
    differential(105, OperatorKind::Gather).await;
}

#[wasm_bindgen_test]
async fn random_gather_elements_match_the_reference() {
    differential(106, OperatorKind::GatherElements).await;
}

#[wasm_bindgen_test]
async fn random_gather_nds_match_the_reference() {
    differential(107, OperatorKind::GatherNd).await;
}

#[wasm_bindgen_test]
async fn random_tensor_scatters_match_the_reference() {
    differential(108, OperatorKind::TensorScatter).await;
}

/// A device with WebGPU's default limits (256-byte storage offset alignment, 128 MiB
/// bindings, no immediates) is all the library needs: every operator runs on it, and a
/// tensor past its binding limit is refused before any GPU work.

#[wasm_bindgen_test]
async fn webgpus_default_limits_are_enough() {
    let context = default_limits_context().await;
    let limits = context.device().limits();
    assert_eq!(limits.min_storage_buffer_offset_alignment, 256);
    assert_eq!(limits.max_storage_buffer_binding_size, 128 << 20);
    for (seed, kind) in (201..).zip(OperatorKind::ALL) {
        sample(&context, seed, kind).await;
    }
    // Past the binding limit: bound as windows. Past the largest buffer: refused.
    let slice = |elements| -> OperatorDesc {
        SliceDesc::new(
            TensorDesc::new(DataType::Float32, &[elements]),
            TensorDesc::new(DataType::Float32, &[1]),
            &[0],
            &[1],
            &[1],
        )
        .into()
    };
    context
        .compile(&slice((32 << 20) + 1))
        .expect("a tensor past the binding limit compiles");
    assert_eq!(limits.max_buffer_size, 256 << 20);
    assert!(
        matches!(
            context.compile(&slice((64 << 20) + 1)),
            Err(Error::TensorTooLarge { bytes, limit_name: "max_buffer_size", limit, .. })
                if bytes > limit && limit == 256 << 20
        ),
        "{:?}",
        context.compile(&slice((64 << 20) + 1)).err()
    );
}

/// A context on the browser's WebGPU adapter with WebGPU's default limits.
async fn default_limits_context() -> Context {
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
    Context::from_device(device, queue)
}

// ---- tensors past the binding window ----

/// A Gather of rows from a 160 MiB Float16 table on a device with WebGPU's default limits
/// (128 MiB a binding, 256 MiB a buffer): the table is bound as windows, and the rows
/// gathered (from both sides of the 128 MiB mark, some by negative indices) equal the
/// reference's bit for bit.
#[wasm_bindgen_test]
async fn a_gather_from_a_table_past_the_binding_limit_matches_the_reference() {
    let context = default_limits_context().await;
    let binding_limit = context.device().limits().max_storage_buffer_binding_size;
    const ROW: u32 = 4096;
    const ROWS: u32 = 20480; // 20480 rows of 8 KiB: 160 MiB
    const GATHERED: u32 = 96;
    let table = TensorDesc::new(DataType::Float16, &[ROWS, ROW]);
    assert!(table.size_in_bytes() > binding_limit, "{binding_limit}");
    let desc = OperatorDesc::Gather(dml_wgsl::GatherDesc::new(
        table.clone(),
        TensorDesc::new(DataType::Int32, &[1, GATHERED]),
        TensorDesc::new(DataType::Float16, &[GATHERED, ROW]),
        0,
        2,
    ));
    let mut rng = Rng::new(160);
    let table_bytes = rng.bytes(table.size_in_bytes() as usize);
    let indices: Vec<i32> = (0..GATHERED as i32)
        .map(|i| match i % 3 {
            0 => rng.range(0, ROWS as u64 / 2) as i32,
            1 => rng.range(ROWS as u64 * 4 / 5, ROWS as u64 - 1) as i32,
            _ => -(rng.range(1, ROWS as u64 / 5) as i32),
        })
        .collect();
    let index_bytes: Vec<u8> = bytemuck::cast_slice(&indices).to_vec();
    let inputs = [table_bytes.as_slice(), index_bytes.as_slice()];
    let started = js_sys::Date::now();
    let output = context.run(&desc, &inputs).await.expect("run");
    console_log!(
        "gather of {GATHERED} rows of {ROW} f16 from a {} MiB table (binding limit {} MiB): \
         {:.0} ms through run, upload included",
        table.size_in_bytes() >> 20,
        binding_limit >> 20,
        js_sys::Date::now() - started
    );
    assert_eq!(output, reference::run(&desc, &inputs).expect("reference"));
}

/// Every data type (bfloat16 included), reduction and duplicate mode on the browser's WebGPU
/// (no f64 there, no 64-bit atomics: the arithmetic is emulated on u32 words), against the
/// reference: in order bit for bit, in any order as any order allows; then a clamped gather.
#[wasm_bindgen_test]
async fn scatter_reductions_of_every_type_in_both_modes_and_clamped_indices() {
    let context = context().await;
    let mut rng = Rng::new(120);
    for data_type in DataType::ALL {
        for (k, reduction) in cases::REDUCTIONS.into_iter().enumerate() {
            for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
                let case = cases::random_reduction_case(
                    &mut rng,
                    k % 2 == 1,
                    data_type,
                    INDEX_TYPES[k],
                    reduction,
                    duplicates,
                    cases::Values::Numbers,
                    false,
                );
                check_on(&context, &case.desc, &case.slices(), Expect::ByMode)
                    .await
                    .expect("compile and record");
            }
        }
    }
    let mut case = cases::random_gather_nd(&mut rng, DataType::Float16, DataType::Int64);
    cases::corrupt_one_index(&mut rng, &mut case);
    cases::set_out_of_range(&mut case.desc, dml_wgsl::OutOfRange::Clamp);
    check_run_on(&context, &case.desc, &case.slices(), Expect::Exact).await;
}

#[wasm_bindgen_test]
async fn runs_of_tens_of_thousands_of_updates_on_one_target_reduce_exactly() {
    // Past Mesa's 65535 loop iterations and a single pass's fold (tests/scatter_heavy.rs has
    // the full sweep): elements (both 16-bit float formats) and rows of 2 in order, wide rows
    // in the default mode.
    let context = context().await;
    let mut rng = Rng::new(235);
    for (data_type, reduction, duplicates, count, row) in [
        (
            DataType::Float32,
            Reduction::Add,
            DuplicateMode::InOrder,
            70_000,
            None,
        ),
        (
            DataType::Float16,
            Reduction::Mul,
            DuplicateMode::InOrder,
            300_000,
            None,
        ),
        (
            DataType::BFloat16,
            Reduction::Add,
            DuplicateMode::InOrder,
            70_000,
            None,
        ),
        (
            DataType::Float64,
            Reduction::Add,
            DuplicateMode::AnyUpdate,
            66_000,
            None,
        ),
        (
            DataType::Float32,
            Reduction::Add,
            DuplicateMode::InOrder,
            70_000,
            Some(2),
        ),
        (
            DataType::Int64,
            Reduction::Max,
            DuplicateMode::AnyUpdate,
            140_000,
            Some(2),
        ),
        (
            DataType::Float32,
            Reduction::Min,
            DuplicateMode::AnyUpdate,
            5_000,
            Some(64),
        ),
    ] {
        let case = one_target_case(&mut rng, data_type, (reduction, duplicates), count, row);
        check_on(&context, &case.desc, &case.slices(), Expect::ByMode)
            .await
            .unwrap_or_else(|e| panic!("{e} for {:?}", case.desc));
    }
}

#[wasm_bindgen_test]
async fn narrow_scatters_and_gathers_of_every_row_class_match_the_reference() {
    // The narrow sweep's classes (tests/common/narrow.rs), as the native tests run them: out
    // of place copying by kernel and by copy command, in place.
    let by_kernel = context().await;
    by_kernel.set_copy_method(dml_wgsl::CopyMethod::Kernel);
    let by_command = context().await;
    by_command.set_copy_method(dml_wgsl::CopyMethod::CopyBufferToBuffer);
    let mut rng = Rng::new(28);
    for (run, case) in narrow_cases(&mut rng) {
        let slices = case.slices();
        match run {
            NarrowRun::ScatterInPlace => check_in_place_on(&by_kernel, &case.desc, &slices).await,
            NarrowRun::ScatterOutOfPlace | NarrowRun::Gather => {
                let expect = if run == NarrowRun::Gather {
                    Expect::Exact
                } else {
                    Expect::AnyUpdate
                };
                for on in [&by_kernel, &by_command] {
                    check_on(on, &case.desc, &slices, expect)
                        .await
                        .expect("compile and record");
                }
            }
        }
    }
}
