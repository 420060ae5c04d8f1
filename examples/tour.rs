//! A tour of the operators: the DirectML pages' examples and a few more, run on the
//! default adapter and printed in the pages' notation.
//!
//! `cargo run --example tour` (set `WGPU_BACKEND=vulkan` and install `mesa-vulkan-drivers`
//! to run it on a machine without a GPU).

use dml_wgsl::{Context, DataType, OperatorDesc, Slice1Desc, SliceDesc, TensorDesc};
use half::f16;

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
    tour.run_typed(
        OperatorDesc::Slice(SliceDesc {
            input: TensorDesc::new(DataType::Float16, &[3, 4]),
            output: TensorDesc::new(DataType::Float16, &[3, 2]),
            offsets: vec![0, 1],
            sizes: vec![3, 2],
            strides: vec![1, 2],
        }),
        bytemuck::cast_slice(&halves),
        |b| f16::from_le_bytes([b[0], b[1]]).to_string(),
    );

    tour.section("DML_SLICE on UINT8: the inner 2x3 block of a 4x5 image");
    let pixels: Vec<u8> = (0..20).map(|v| v * 10 + 5).collect();
    tour.show("Offsets", &[1, 1]);
    tour.show("Sizes  ", &[2, 3]);
    tour.run_typed(
        OperatorDesc::Slice(SliceDesc {
            input: TensorDesc::new(DataType::UInt8, &[4, 5]),
            output: TensorDesc::new(DataType::UInt8, &[2, 3]),
            offsets: vec![1, 1],
            sizes: vec![2, 3],
            strides: vec![1, 1],
        }),
        &pixels,
        |b| b[0].to_string(),
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
        self.run_typed(desc, bytemuck::cast_slice(input), |b| {
            f32::from_le_bytes([b[0], b[1], b[2], b[3]]).to_string()
        });
    }

    /// Prints every input and the output, each element formatted by `format` from its bytes.
    fn run_typed(&mut self, desc: OperatorDesc, input: &[u8], format: impl Fn(&[u8]) -> String) {
        for (name, t) in desc.inputs() {
            println!(
                "\n{}Tensor: {}",
                title_case(name),
                tensor(t, input, &format)
            );
        }
        match self.context.run_blocking(&desc, &[input]) {
            Ok(output) => println!(
                "\nOutputTensor: {}\n",
                tensor(desc.output(), &output, &format)
            ),
            Err(e) => {
                println!("\nerror: {e}\n");
                self.failures += 1;
            }
        }
    }
}

fn title_case(name: &str) -> String {
    let mut c = name.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn type_name(t: DataType) -> &'static str {
    match t {
        DataType::Float64 => "FLOAT64",
        DataType::Float32 => "FLOAT32",
        DataType::Float16 => "FLOAT16",
        DataType::Int64 => "INT64",
        DataType::Int32 => "INT32",
        DataType::Int16 => "INT16",
        DataType::Int8 => "INT8",
        DataType::UInt64 => "UINT64",
        DataType::UInt32 => "UINT32",
        DataType::UInt16 => "UINT16",
        DataType::UInt8 => "UINT8",
    }
}

/// `(Sizes:{..}, DataType:..)` and the nested-bracket listing the DirectML pages use.
fn tensor(t: &TensorDesc, bytes: &[u8], format: &impl Fn(&[u8]) -> String) -> String {
    let sizes: Vec<String> = t.sizes.iter().map(|s| s.to_string()).collect();
    let width = t.data_type.size_in_bytes() as usize;
    let strides = t.effective_strides();
    let mut values = Vec::new();
    let count = t.element_count() as usize;
    let mut c = vec![0u32; t.rank()];
    for _ in 0..count {
        let at = c
            .iter()
            .zip(&strides)
            .map(|(&c, &s)| c as u64 * s)
            .sum::<u64>() as usize
            * width;
        values.push(format(&bytes[at..at + width]));
        for d in (0..t.rank()).rev() {
            c[d] += 1;
            if c[d] < t.sizes[d] {
                break;
            }
            c[d] = 0;
        }
    }
    let pad = values.iter().map(|v| v.len()).max().unwrap_or(0);
    let values: Vec<String> = values.iter().map(|v| format!("{v:>pad$}")).collect();
    format!(
        "(Sizes:{{{}}}, DataType:{})\n{}",
        sizes.join(", "),
        type_name(t.data_type),
        nested(&t.sizes, &values, 0)
    )
}

fn nested(sizes: &[u32], values: &[String], depth: usize) -> String {
    if sizes.len() == 1 {
        return format!("[{}]", values.join(", "));
    }
    let chunk = values.len() / sizes[0] as usize;
    let parts: Vec<String> = values
        .chunks(chunk)
        .map(|part| nested(&sizes[1..], part, depth + 1))
        .collect();
    let separator = format!(
        ",{}\n{}",
        "\n".repeat(sizes.len() - 2),
        " ".repeat(depth + 1)
    );
    format!("[{}]", parts.join(&separator))
}
