//! The tour in a browser: the DirectML pages' examples and a few more, run on the page's
//! WebGPU device, every input and output shown in the pages' notation.
//!
//! `bash scripts/web.sh` builds this (a cdylib for wasm32-unknown-unknown, bound for the
//! web by wasm-bindgen) next to `index.html` in `target/web/` and serves it on
//! <http://localhost:8000/>. The cases are those of `examples/tour.rs`.
#![cfg(target_arch = "wasm32")]

use dml_wgsl::{
    Context, DataType, DuplicateMode, GatherDesc, GatherElementsDesc, GatherNdDesc, OperatorDesc,
    ScatterElementsDesc, ScatterNdDesc, Slice1Desc, SliceDesc, TensorDesc,
};
use half::f16;

#[path = "../shared/notation.rs"]
mod notation;
use notation::{tensor, title_case};
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
    for example in examples() {
        let inputs: Vec<&[u8]> = example.inputs.iter().map(|v| v.as_slice()).collect();
        let mut text = String::new();
        for line in &example.parameters {
            text += line;
            text += "\n";
        }
        for ((name, t), bytes) in example.desc.inputs().into_iter().zip(&inputs) {
            text += &format!("\n{}Tensor: {}\n", title_case(name), tensor(t, bytes));
        }
        match (context.run(&example.desc, &inputs).await, example.fails) {
            (Ok(output), false) => {
                text += &format!("\nOutputTensor: {}", tensor(example.desc.output(), &output))
            }
            (Err(e), true) => text += &format!("\nError: {e}"),
            (Ok(_), true) => {
                text += "\nunexpectedly succeeded";
                tour.failures += 1;
            }
            (Err(e), false) => {
                text += &format!("\nunexpected error: {e}");
                tour.failures += 1;
            }
        }
        tour.examples.push(format!("{}\n{}", example.title, text));
    }
    Ok(tour)
}

struct Example {
    title: &'static str,
    parameters: Vec<String>,
    desc: OperatorDesc,
    inputs: Vec<Vec<u8>>,
    /// The example shows an error.
    fails: bool,
}

fn example(title: &'static str, parameters: &[(&str, &[i64])], desc: OperatorDesc) -> Example {
    let parameters = parameters
        .iter()
        .map(|(name, values)| {
            let list: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            format!("{name} = {{{}}}", list.join(", "))
        })
        .collect();
    Example {
        title,
        parameters,
        desc,
        inputs: Vec::new(),
        fails: false,
    }
}

impl Example {
    fn inputs(mut self, inputs: &[&[u8]]) -> Example {
        self.inputs = inputs.iter().map(|v| v.to_vec()).collect();
        self
    }
}

fn examples() -> Vec<Example> {
    let seed: Vec<f32> = (1..=16).map(|v| v as f32).collect();
    let seed: &[u8] = bytemuck::cast_slice(&seed);
    let seed_input = TensorDesc::new(DataType::Float32, &[1, 1, 4, 4]);
    let f32s = |v: &[f32]| bytemuck::cast_slice(v).to_vec();
    let halves: Vec<f16> = (0..12).map(|v| f16::from_f32(v as f32 * 0.5)).collect();
    let pixels: Vec<u8> = (0..20).map(|v| v * 10 + 5).collect();
    let mut out_of_range = example(
        "An out-of-range index: skipped, and reported with where and what",
        &[("Axis", &[0])],
        OperatorDesc::ScatterElements(ScatterElementsDesc {
            input: TensorDesc::new(DataType::Float32, &[5]),
            indices: TensorDesc::new(DataType::Int32, &[3]),
            updates: TensorDesc::new(DataType::Float32, &[3]),
            output: TensorDesc::new(DataType::Float32, &[5]),
            axis: 0,
            duplicates: DuplicateMode::AnyUpdate,
        }),
    )
    .inputs(&[
        &f32s(&[0., 1., 2., 3., 4.]),
        bytemuck::cast_slice(&[4i32, 5, -6]),
        &f32s(&[7., 8., 9.]),
    ]);
    out_of_range.fails = true;
    vec![
        example(
            "DML_SLICE example 1: contiguous slice",
            &[
                ("Offsets", &[0, 0, 1, 2]),
                ("Sizes  ", &[1, 1, 3, 2]),
                ("Strides", &[1, 1, 1, 1]),
            ],
            OperatorDesc::Slice(SliceDesc {
                input: seed_input.clone(),
                output: TensorDesc::new(DataType::Float32, &[1, 1, 3, 2]),
                offsets: vec![0, 0, 1, 2],
                sizes: vec![1, 1, 3, 2],
                strides: vec![1, 1, 1, 1],
            }),
        )
        .inputs(&[seed]),
        example(
            "DML_SLICE example 2: strided slice",
            &[
                ("Offsets", &[0, 0, 1, 0]),
                ("Sizes  ", &[1, 1, 2, 2]),
                ("Strides", &[1, 1, 2, 3]),
            ],
            OperatorDesc::Slice(SliceDesc {
                input: seed_input.clone(),
                output: TensorDesc::new(DataType::Float32, &[1, 1, 2, 2]),
                offsets: vec![0, 0, 1, 0],
                sizes: vec![1, 1, 2, 2],
                strides: vec![1, 1, 2, 3],
            }),
        )
        .inputs(&[seed]),
        example(
            "DML_SLICE1: a window walked backwards (negative strides reverse)",
            &[
                ("InputWindowOffsets", &[0, 0, 1, 0]),
                ("InputWindowSizes  ", &[1, 1, 3, 4]),
                ("InputWindowStrides", &[1, 1, -1, -2]),
            ],
            OperatorDesc::Slice1(Slice1Desc {
                input: seed_input,
                output: TensorDesc::new(DataType::Float32, &[1, 1, 3, 2]),
                input_window_offsets: vec![0, 0, 1, 0],
                input_window_sizes: vec![1, 1, 3, 4],
                input_window_strides: vec![1, 1, -1, -2],
            }),
        )
        .inputs(&[seed]),
        example(
            "DML_SLICE on FLOAT16: every other column",
            &[("Offsets", &[0, 1]), ("Strides", &[1, 2])],
            OperatorDesc::Slice(SliceDesc {
                input: TensorDesc::new(DataType::Float16, &[3, 4]),
                output: TensorDesc::new(DataType::Float16, &[3, 2]),
                offsets: vec![0, 1],
                sizes: vec![3, 2],
                strides: vec![1, 2],
            }),
        )
        .inputs(&[bytemuck::cast_slice(&halves)]),
        example(
            "DML_SLICE on UINT8: the inner 2x3 block of a 4x5 image",
            &[("Offsets", &[1, 1]), ("Sizes  ", &[2, 3])],
            OperatorDesc::Slice(SliceDesc {
                input: TensorDesc::new(DataType::UInt8, &[4, 5]),
                output: TensorDesc::new(DataType::UInt8, &[2, 3]),
                offsets: vec![1, 1],
                sizes: vec![2, 3],
                strides: vec![1, 1],
            }),
        )
        .inputs(&[&pixels]),
        example(
            "DML_SCATTER example 1: 1-D scatter (duplicates: the last update wins)",
            &[("Axis", &[0])],
            OperatorDesc::ScatterElements(ScatterElementsDesc {
                input: TensorDesc::new(DataType::Float32, &[5]),
                indices: TensorDesc::new(DataType::UInt32, &[4]),
                updates: TensorDesc::new(DataType::Float32, &[4]),
                output: TensorDesc::new(DataType::Float32, &[5]),
                axis: 0,
                duplicates: DuplicateMode::LastWins,
            }),
        )
        .inputs(&[
            &f32s(&[0., 1., 2., 3., 4.]),
            bytemuck::cast_slice(&[3u32, 1, 3, 0]),
            &f32s(&[5., 6., 7., 8.]),
        ]),
        example(
            "DML_SCATTER example 2: 2-D scatter (the input is {3,3}; the page says {2,3})",
            &[("Axis", &[0])],
            OperatorDesc::ScatterElements(ScatterElementsDesc {
                input: TensorDesc::new(DataType::Float32, &[3, 3]),
                indices: TensorDesc::new(DataType::UInt32, &[2, 3]),
                updates: TensorDesc::new(DataType::Float32, &[2, 3]),
                output: TensorDesc::new(DataType::Float32, &[3, 3]),
                axis: 0,
                duplicates: DuplicateMode::AnyUpdate,
            }),
        )
        .inputs(&[
            &f32s(&[0.; 9]),
            bytemuck::cast_slice(&[1u32, 0, 2, 0, 2, 1]),
            &f32s(&[10., 11., 12., 20., 21., 22.]),
        ]),
        example(
            "DML_SCATTER_ND example (the indices are UINT32; the page says FLOAT32)",
            &[
                ("InputDimensionCount  ", &[1]),
                ("IndicesDimensionCount", &[2]),
            ],
            OperatorDesc::ScatterNd(ScatterNdDesc {
                input: TensorDesc::new(DataType::Float32, &[8]),
                indices: TensorDesc::new(DataType::UInt32, &[4, 1]),
                updates: TensorDesc::new(DataType::Float32, &[4]),
                output: TensorDesc::new(DataType::Float32, &[8]),
                input_dimension_count: 1,
                indices_dimension_count: 2,
                duplicates: DuplicateMode::AnyUpdate,
            }),
        )
        .inputs(&[
            &f32s(&[1., 2., 3., 4., 5., 6., 7., 8.]),
            bytemuck::cast_slice(&[4u32, 3, 1, 7]),
            &f32s(&[9., 10., 11., 12.]),
        ]),
        example(
            "DML_SCATTER with negative INT64 indices (counted from the end) on UINT8 data",
            &[("Axis", &[1])],
            OperatorDesc::ScatterElements(ScatterElementsDesc {
                input: TensorDesc::new(DataType::UInt8, &[2, 4]),
                indices: TensorDesc::new(DataType::Int64, &[2, 2]),
                updates: TensorDesc::new(DataType::UInt8, &[2, 2]),
                output: TensorDesc::new(DataType::UInt8, &[2, 4]),
                axis: 1,
                duplicates: DuplicateMode::AnyUpdate,
            }),
        )
        .inputs(&[
            &[1u8, 2, 3, 4, 5, 6, 7, 8],
            bytemuck::cast_slice(&[-1i64, 0, -4, 2]),
            &[100u8, 101, 102, 103],
        ]),
        example(
            "DML_GATHER: columns by index, -1 counting from the end",
            &[("Axis           ", &[1]), ("IndexDimensions", &[1])],
            OperatorDesc::Gather(GatherDesc {
                input: TensorDesc::new(DataType::Float32, &[2, 3]),
                indices: TensorDesc::new(DataType::Int32, &[1, 2]),
                output: TensorDesc::new(DataType::Float32, &[2, 2]),
                axis: 1,
                index_dimensions: 1,
            }),
        )
        .inputs(&[
            &f32s(&[1., 2., 3., 4., 5., 6.]),
            bytemuck::cast_slice(&[-1i32, 0]),
        ]),
        example(
            "DML_GATHER_ELEMENTS: the page's example",
            &[("Axis", &[0])],
            OperatorDesc::GatherElements(GatherElementsDesc {
                input: TensorDesc::new(DataType::Float32, &[3, 3]),
                indices: TensorDesc::new(DataType::UInt32, &[2, 3]),
                output: TensorDesc::new(DataType::Float32, &[2, 3]),
                axis: 0,
            }),
        )
        .inputs(&[
            &f32s(&[1., 2., 3., 4., 5., 6., 7., 8., 9.]),
            bytemuck::cast_slice(&[1u32, 2, 0, 2, 0, 0]),
        ]),
        example(
            "DML_GATHER_ND1: one batch dimension, a 1-tuple per batch",
            &[
                ("InputDimensionCount  ", &[3]),
                ("IndicesDimensionCount", &[2]),
                ("BatchDimensionCount  ", &[1]),
            ],
            OperatorDesc::GatherNd(GatherNdDesc {
                input: TensorDesc::new(DataType::Int64, &[2, 2, 2]),
                indices: TensorDesc::new(DataType::Int64, &[1, 2, 1]),
                output: TensorDesc::new(DataType::Int64, &[1, 2, 2]),
                input_dimension_count: 3,
                indices_dimension_count: 2,
                batch_dimension_count: 1,
            }),
        )
        .inputs(&[
            bytemuck::cast_slice(&[0i64, 1, 2, 3, 4, 5, 6, 7]),
            bytemuck::cast_slice(&[1i64, 0]),
        ]),
        out_of_range,
    ]
}
