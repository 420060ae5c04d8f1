//! A tour of the operators: the DirectML pages' examples and a few more, run on the
//! default adapter and printed in the pages' notation.
//!
//! `cargo run --example tour` (set `WGPU_BACKEND=vulkan` and install `mesa-vulkan-drivers`
//! to run it on a machine without a GPU).
// Native only; in a browser the tour is examples/web (scripts/web.sh). No main in wasm32.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

use dml_wgsl::{
    Context, DataType, DuplicateMode, GatherDesc, GatherElementsDesc, GatherNdDesc, OperatorDesc,
    ScatterElementsDesc, ScatterNdDesc, Slice1Desc, SliceDesc, TensorDesc,
};
use half::f16;

#[path = "shared/notation.rs"]
mod notation;
use notation::{tensor, title_case};

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
    let mut tour = Tour {
        context,
        failures: 0,
    };

    let seed: Vec<f32> = (1..=16).map(|v| v as f32).collect();
    let seed_input = TensorDesc::new(DataType::Float32, &[1, 1, 4, 4]);

    tour.section("DML_SLICE example 1: contiguous slice");
    tour.show("Offsets", &[0, 0, 1, 2]);
    tour.show("Sizes  ", &[1, 1, 3, 2]);
    tour.show("Strides", &[1, 1, 1, 1]);
    tour.run_f32(
        OperatorDesc::Slice(SliceDesc {
            input: seed_input.clone(),
            output: TensorDesc::new(DataType::Float32, &[1, 1, 3, 2]),
            offsets: vec![0, 0, 1, 2],
            sizes: vec![1, 1, 3, 2],
            strides: vec![1, 1, 1, 1],
        }),
        &seed,
    );

    tour.section("DML_SLICE example 2: strided slice");
    tour.show("Offsets", &[0, 0, 1, 0]);
    tour.show("Sizes  ", &[1, 1, 2, 2]);
    tour.show("Strides", &[1, 1, 2, 3]);
    tour.run_f32(
        OperatorDesc::Slice(SliceDesc {
            input: seed_input.clone(),
            output: TensorDesc::new(DataType::Float32, &[1, 1, 2, 2]),
            offsets: vec![0, 0, 1, 0],
            sizes: vec![1, 1, 2, 2],
            strides: vec![1, 1, 2, 3],
        }),
        &seed,
    );

    tour.section("DML_SLICE1: a window walked backwards (negative strides reverse)");
    tour.show("InputWindowOffsets", &[0, 0, 1, 0]);
    tour.show("InputWindowSizes  ", &[1, 1, 3, 4]);
    tour.show("InputWindowStrides", &[1, 1, -1, -2]);
    tour.run_f32(
        OperatorDesc::Slice1(Slice1Desc {
            input: seed_input.clone(),
            output: TensorDesc::new(DataType::Float32, &[1, 1, 3, 2]),
            input_window_offsets: vec![0, 0, 1, 0],
            input_window_sizes: vec![1, 1, 3, 4],
            input_window_strides: vec![1, 1, -1, -2],
        }),
        &seed,
    );

    tour.section("DML_SLICE on FLOAT16: every other column");
    let halves: Vec<f16> = (0..12).map(|v| f16::from_f32(v as f32 * 0.5)).collect();
    tour.show("Offsets", &[0, 1]);
    tour.show("Strides", &[1, 2]);
    tour.run(
        OperatorDesc::Slice(SliceDesc {
            input: TensorDesc::new(DataType::Float16, &[3, 4]),
            output: TensorDesc::new(DataType::Float16, &[3, 2]),
            offsets: vec![0, 1],
            sizes: vec![3, 2],
            strides: vec![1, 2],
        }),
        &[bytemuck::cast_slice(&halves)],
    );

    tour.section("DML_SLICE on UINT8: the inner 2x3 block of a 4x5 image");
    let pixels: Vec<u8> = (0..20).map(|v| v * 10 + 5).collect();
    tour.show("Offsets", &[1, 1]);
    tour.show("Sizes  ", &[2, 3]);
    tour.run(
        OperatorDesc::Slice(SliceDesc {
            input: TensorDesc::new(DataType::UInt8, &[4, 5]),
            output: TensorDesc::new(DataType::UInt8, &[2, 3]),
            offsets: vec![1, 1],
            sizes: vec![2, 3],
            strides: vec![1, 1],
        }),
        &[&pixels],
    );

    tour.section("DML_SCATTER example 1: 1-D scatter (duplicates: the last update wins)");
    tour.show("Axis", &[0]);
    tour.run(
        OperatorDesc::ScatterElements(ScatterElementsDesc {
            input: TensorDesc::new(DataType::Float32, &[5]),
            indices: TensorDesc::new(DataType::UInt32, &[4]),
            updates: TensorDesc::new(DataType::Float32, &[4]),
            output: TensorDesc::new(DataType::Float32, &[5]),
            axis: 0,
            duplicates: DuplicateMode::LastWins,
        }),
        &[
            bytemuck::cast_slice(&[0f32, 1., 2., 3., 4.]),
            bytemuck::cast_slice(&[3u32, 1, 3, 0]),
            bytemuck::cast_slice(&[5f32, 6., 7., 8.]),
        ],
    );

    tour.section("DML_SCATTER example 2: 2-D scatter (the input is {3,3}; the page says {2,3})");
    tour.show("Axis", &[0]);
    tour.run(
        OperatorDesc::ScatterElements(ScatterElementsDesc {
            input: TensorDesc::new(DataType::Float32, &[3, 3]),
            indices: TensorDesc::new(DataType::UInt32, &[2, 3]),
            updates: TensorDesc::new(DataType::Float32, &[2, 3]),
            output: TensorDesc::new(DataType::Float32, &[3, 3]),
            axis: 0,
            duplicates: DuplicateMode::AnyUpdate,
        }),
        &[
            bytemuck::cast_slice(&[0f32; 9]),
            bytemuck::cast_slice(&[1u32, 0, 2, 0, 2, 1]),
            bytemuck::cast_slice(&[10f32, 11., 12., 20., 21., 22.]),
        ],
    );

    tour.section("DML_SCATTER_ND example (the indices are UINT32; the page says FLOAT32)");
    tour.show("InputDimensionCount  ", &[1]);
    tour.show("IndicesDimensionCount", &[2]);
    tour.run(
        OperatorDesc::ScatterNd(ScatterNdDesc {
            input: TensorDesc::new(DataType::Float32, &[8]),
            indices: TensorDesc::new(DataType::UInt32, &[4, 1]),
            updates: TensorDesc::new(DataType::Float32, &[4]),
            output: TensorDesc::new(DataType::Float32, &[8]),
            input_dimension_count: 1,
            indices_dimension_count: 2,
            duplicates: DuplicateMode::AnyUpdate,
        }),
        &[
            bytemuck::cast_slice(&[1f32, 2., 3., 4., 5., 6., 7., 8.]),
            bytemuck::cast_slice(&[4u32, 3, 1, 7]),
            bytemuck::cast_slice(&[9f32, 10., 11., 12.]),
        ],
    );

    tour.section("DML_SCATTER with negative INT64 indices (counted from the end) on UINT8 data");
    tour.show("Axis", &[1]);
    tour.run(
        OperatorDesc::ScatterElements(ScatterElementsDesc {
            input: TensorDesc::new(DataType::UInt8, &[2, 4]),
            indices: TensorDesc::new(DataType::Int64, &[2, 2]),
            updates: TensorDesc::new(DataType::UInt8, &[2, 2]),
            output: TensorDesc::new(DataType::UInt8, &[2, 4]),
            axis: 1,
            duplicates: DuplicateMode::AnyUpdate,
        }),
        &[
            &[1u8, 2, 3, 4, 5, 6, 7, 8],
            bytemuck::cast_slice(&[-1i64, 0, -4, 2]),
            &[100u8, 101, 102, 103],
        ],
    );

    tour.section("DML_GATHER: columns by index, -1 counting from the end");
    tour.show("Axis           ", &[1]);
    tour.show("IndexDimensions", &[1]);
    tour.run(
        OperatorDesc::Gather(GatherDesc {
            input: TensorDesc::new(DataType::Float32, &[2, 3]),
            indices: TensorDesc::new(DataType::Int32, &[1, 2]),
            output: TensorDesc::new(DataType::Float32, &[2, 2]),
            axis: 1,
            index_dimensions: 1,
        }),
        &[
            bytemuck::cast_slice(&[1f32, 2., 3., 4., 5., 6.]),
            bytemuck::cast_slice(&[-1i32, 0]),
        ],
    );

    tour.section("DML_GATHER_ELEMENTS: the page's example");
    tour.show("Axis", &[0]);
    tour.run(
        OperatorDesc::GatherElements(GatherElementsDesc {
            input: TensorDesc::new(DataType::Float32, &[3, 3]),
            indices: TensorDesc::new(DataType::UInt32, &[2, 3]),
            output: TensorDesc::new(DataType::Float32, &[2, 3]),
            axis: 0,
        }),
        &[
            bytemuck::cast_slice(&[1f32, 2., 3., 4., 5., 6., 7., 8., 9.]),
            bytemuck::cast_slice(&[1u32, 2, 0, 2, 0, 0]),
        ],
    );

    tour.section("DML_GATHER_ND1: one batch dimension, a 1-tuple per batch");
    tour.show("InputDimensionCount  ", &[3]);
    tour.show("IndicesDimensionCount", &[2]);
    tour.show("BatchDimensionCount  ", &[1]);
    tour.run(
        OperatorDesc::GatherNd(GatherNdDesc {
            input: TensorDesc::new(DataType::Int64, &[2, 2, 2]),
            indices: TensorDesc::new(DataType::Int64, &[1, 2, 1]),
            output: TensorDesc::new(DataType::Int64, &[1, 2, 2]),
            input_dimension_count: 3,
            indices_dimension_count: 2,
            batch_dimension_count: 1,
        }),
        &[
            bytemuck::cast_slice(&[0i64, 1, 2, 3, 4, 5, 6, 7]),
            bytemuck::cast_slice(&[1i64, 0]),
        ],
    );

    tour.section("An out-of-range index: skipped, and reported with where and what");
    tour.run_expecting_error(
        OperatorDesc::ScatterElements(ScatterElementsDesc {
            input: TensorDesc::new(DataType::Float32, &[5]),
            indices: TensorDesc::new(DataType::Int32, &[3]),
            updates: TensorDesc::new(DataType::Float32, &[3]),
            output: TensorDesc::new(DataType::Float32, &[5]),
            axis: 0,
            duplicates: DuplicateMode::AnyUpdate,
        }),
        &[
            bytemuck::cast_slice(&[0f32, 1., 2., 3., 4.]),
            bytemuck::cast_slice(&[4i32, 5, -6]),
            bytemuck::cast_slice(&[7f32, 8., 9.]),
        ],
    );

    if tour.failures > 0 {
        eprintln!("{} example(s) failed", tour.failures);
        std::process::exit(1);
    }
}

struct Tour {
    context: Context,
    failures: usize,
}

impl Tour {
    fn section(&self, title: &str) {
        println!("=== {title}");
    }

    fn show(&self, name: &str, values: &[i64]) {
        let list: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        println!("{name} = {{{}}}", list.join(", "));
    }

    fn run_f32(&mut self, desc: OperatorDesc, input: &[f32]) {
        self.run(desc, &[bytemuck::cast_slice(input)]);
    }

    /// Prints every input and the output (or the error), in the pages' notation.
    fn run(&mut self, desc: OperatorDesc, inputs: &[&[u8]]) {
        self.print_inputs(&desc, inputs);
        match self.context.run_blocking(&desc, inputs) {
            Ok(output) => println!("\nOutputTensor: {}\n", tensor(desc.output(), &output)),
            Err(e) => {
                println!("\nerror: {e}\n");
                self.failures += 1;
            }
        }
    }

    /// Runs a case that must fail, and prints the error.
    fn run_expecting_error(&mut self, desc: OperatorDesc, inputs: &[&[u8]]) {
        self.print_inputs(&desc, inputs);
        match self.context.run_blocking(&desc, inputs) {
            Ok(_) => {
                println!("\nunexpectedly succeeded\n");
                self.failures += 1;
            }
            Err(e) => println!("\nError: {e}\n"),
        }
    }

    fn print_inputs(&self, desc: &OperatorDesc, inputs: &[&[u8]]) {
        for ((name, t), bytes) in desc.inputs().into_iter().zip(inputs) {
            println!("\n{}Tensor: {}", title_case(name), tensor(t, bytes));
        }
    }
}
