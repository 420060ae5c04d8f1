//! The tour's examples, shared by `examples/tour.rs` (printed) and `examples/web` (shown on
//! a page): the DirectML pages' examples and a few more, and how each one reads as text.

use dml_wgsl::{
    DataType, DuplicateMode, GatherDesc, GatherElementsDesc, GatherNdDesc, OperatorDesc, Reduction,
    ScatterElementsDesc, ScatterNdDesc, Slice1Desc, SliceDesc, TensorDesc, TensorScatterDesc,
    TensorScatterMode,
};
use half::f16;

use super::notation::{tensor, title_case};

/// One example: its title, the parameters shown, the operator and its inputs.
pub struct Example {
    pub title: &'static str,
    pub parameters: Vec<String>,
    pub desc: OperatorDesc,
    pub inputs: Vec<Vec<u8>>,
    /// The example shows an error.
    pub fails: bool,
}

impl Example {
    fn new(
        title: &'static str,
        parameters: &[(&str, &[i64])],
        desc: impl Into<OperatorDesc>,
    ) -> Self {
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
            desc: desc.into(),
            inputs: Vec::new(),
            fails: false,
        }
    }

    fn inputs(mut self, inputs: &[&[u8]]) -> Example {
        self.inputs = inputs.iter().map(|v| v.to_vec()).collect();
        self
    }

    fn failing(mut self) -> Example {
        self.fails = true;
        self
    }

    pub fn input_slices(&self) -> Vec<&[u8]> {
        self.inputs.iter().map(|v| v.as_slice()).collect()
    }

    /// The example as text, in the pages' notation: its parameters, each input, then the
    /// output or the error; and whether it did what it should.
    pub fn report(&self, outcome: &dml_wgsl::Result<Vec<u8>>) -> (String, bool) {
        let mut text = String::new();
        for line in &self.parameters {
            text += line;
            text += "\n";
        }
        for ((name, t), bytes) in self.desc.inputs().into_iter().zip(&self.inputs) {
            text += &format!("\n{}Tensor: {}\n", title_case(name), tensor(t, bytes));
        }
        let ok = match (outcome, self.fails) {
            (Ok(output), false) => {
                text += &format!("\nOutputTensor: {}", tensor(self.desc.output(), output));
                true
            }
            (Err(e), true) => {
                text += &format!("\nError: {e}");
                true
            }
            (Ok(_), true) => {
                text += "\nunexpectedly succeeded";
                false
            }
            (Err(e), false) => {
                text += &format!("\nunexpected error: {e}");
                false
            }
        };
        (text, ok)
    }
}

fn f32s(values: &[f32]) -> Vec<u8> {
    bytemuck::cast_slice(values).to_vec()
}

/// Every example of the tour, in order.
pub fn examples() -> Vec<Example> {
    let seed = f32s(&(1..=16).map(|v| v as f32).collect::<Vec<_>>());
    let seed_input = TensorDesc::new(DataType::Float32, &[1, 1, 4, 4]);
    let f32_tensor = |sizes: &[u32]| TensorDesc::new(DataType::Float32, sizes);
    let halves: Vec<f16> = (0..12).map(|v| f16::from_f32(v as f32 * 0.5)).collect();
    let pixels: Vec<u8> = (0..20).map(|v| v * 10 + 5).collect();
    vec![
        Example::new(
            "DML_SLICE example 1: contiguous slice",
            &[
                ("Offsets", &[0, 0, 1, 2]),
                ("Sizes  ", &[1, 1, 3, 2]),
                ("Strides", &[1, 1, 1, 1]),
            ],
            SliceDesc::new(
                seed_input.clone(),
                f32_tensor(&[1, 1, 3, 2]),
                &[0, 0, 1, 2],
                &[1, 1, 3, 2],
                &[1, 1, 1, 1],
            ),
        )
        .inputs(&[&seed]),
        Example::new(
            "DML_SLICE example 2: strided slice",
            &[
                ("Offsets", &[0, 0, 1, 0]),
                ("Sizes  ", &[1, 1, 2, 2]),
                ("Strides", &[1, 1, 2, 3]),
            ],
            SliceDesc::new(
                seed_input.clone(),
                f32_tensor(&[1, 1, 2, 2]),
                &[0, 0, 1, 0],
                &[1, 1, 2, 2],
                &[1, 1, 2, 3],
            ),
        )
        .inputs(&[&seed]),
        Example::new(
            "DML_SLICE1: a window walked backwards (negative strides reverse)",
            &[
                ("InputWindowOffsets", &[0, 0, 1, 0]),
                ("InputWindowSizes  ", &[1, 1, 3, 4]),
                ("InputWindowStrides", &[1, 1, -1, -2]),
            ],
            Slice1Desc::new(
                seed_input,
                f32_tensor(&[1, 1, 3, 2]),
                &[0, 0, 1, 0],
                &[1, 1, 3, 4],
                &[1, 1, -1, -2],
            ),
        )
        .inputs(&[&seed]),
        Example::new(
            "DML_SLICE on FLOAT16: every other column",
            &[("Offsets", &[0, 1]), ("Strides", &[1, 2])],
            SliceDesc::new(
                TensorDesc::new(DataType::Float16, &[3, 4]),
                TensorDesc::new(DataType::Float16, &[3, 2]),
                &[0, 1],
                &[3, 2],
                &[1, 2],
            ),
        )
        .inputs(&[bytemuck::cast_slice(&halves)]),
        Example::new(
            "DML_SLICE on UINT8: the inner 2x3 block of a 4x5 image",
            &[("Offsets", &[1, 1]), ("Sizes  ", &[2, 3])],
            SliceDesc::new(
                TensorDesc::new(DataType::UInt8, &[4, 5]),
                TensorDesc::new(DataType::UInt8, &[2, 3]),
                &[1, 1],
                &[2, 3],
                &[1, 1],
            ),
        )
        .inputs(&[&pixels]),
        Example::new(
            "DML_SCATTER example 1: 1-D scatter (duplicates: the last update wins)",
            &[("Axis", &[0])],
            ScatterElementsDesc::new(
                f32_tensor(&[5]),
                TensorDesc::new(DataType::UInt32, &[4]),
                f32_tensor(&[4]),
                f32_tensor(&[5]),
                0,
            )
            .with_duplicates(DuplicateMode::InOrder),
        )
        .inputs(&[
            &f32s(&[0., 1., 2., 3., 4.]),
            bytemuck::cast_slice(&[3u32, 1, 3, 0]),
            &f32s(&[5., 6., 7., 8.]),
        ]),
        Example::new(
            "DML_SCATTER example 2: 2-D scatter (the input is {3,3}; the page says {2,3})",
            &[("Axis", &[0])],
            ScatterElementsDesc::new(
                f32_tensor(&[3, 3]),
                TensorDesc::new(DataType::UInt32, &[2, 3]),
                f32_tensor(&[2, 3]),
                f32_tensor(&[3, 3]),
                0,
            ),
        )
        .inputs(&[
            &f32s(&[0.; 9]),
            bytemuck::cast_slice(&[1u32, 0, 2, 0, 2, 1]),
            &f32s(&[10., 11., 12., 20., 21., 22.]),
        ]),
        Example::new(
            "DML_SCATTER_ND example (the indices are UINT32; the page says FLOAT32)",
            &[
                ("InputDimensionCount  ", &[1]),
                ("IndicesDimensionCount", &[2]),
            ],
            ScatterNdDesc::new(
                f32_tensor(&[8]),
                TensorDesc::new(DataType::UInt32, &[4, 1]),
                f32_tensor(&[4]),
                f32_tensor(&[8]),
                1,
                2,
            ),
        )
        .inputs(&[
            &f32s(&[1., 2., 3., 4., 5., 6., 7., 8.]),
            bytemuck::cast_slice(&[4u32, 3, 1, 7]),
            &f32s(&[9., 10., 11., 12.]),
        ]),
        Example::new(
            "index_add (beyond DirectML): gradient rows for rows 0, 2 and 0 summed into a 3x2 \
             table (ScatterND with Reduction::Add, DuplicateMode::InOrder: exact sequential sums)",
            &[
                ("InputDimensionCount  ", &[2]),
                ("IndicesDimensionCount", &[2]),
            ],
            ScatterNdDesc::new(
                f32_tensor(&[3, 2]),
                TensorDesc::new(DataType::Int64, &[3, 1]),
                f32_tensor(&[3, 2]),
                f32_tensor(&[3, 2]),
                2,
                2,
            )
            .with_reduction(Reduction::Add)
            .with_duplicates(DuplicateMode::InOrder),
        )
        .inputs(&[
            &f32s(&[1., 1., 1., 1., 1., 1.]),
            bytemuck::cast_slice(&[0i64, 2, 0]),
            &f32s(&[1., 2., 3., 4., 5., 6.]),
        ]),
        Example::new(
            "TensorScatter (ONNX opset 24, beyond DirectML): a key/value cache of 2 sequences \
             appends 2 positions each at its own length (write indices 1 and 2)",
            &[("Axis", &[1])],
            TensorScatterDesc::new(
                f32_tensor(&[2, 4, 2]),
                f32_tensor(&[2, 2, 2]),
                Some(TensorDesc::new(DataType::Int64, &[2])),
                f32_tensor(&[2, 4, 2]),
                1,
            ),
        )
        .inputs(&[
            &f32s(&[0.; 16]),
            &f32s(&[1., 2., 3., 4., 5., 6., 7., 8.]),
            bytemuck::cast_slice(&[1i64, 2]),
        ]),
        Example::new(
            "TensorScatter, circular: a ring buffer of 4 positions; sequence 1 writes at 3 and \
             wraps to 0",
            &[("Axis", &[1])],
            TensorScatterDesc::new(
                f32_tensor(&[2, 4, 2]),
                f32_tensor(&[2, 2, 2]),
                Some(TensorDesc::new(DataType::Int64, &[2])),
                f32_tensor(&[2, 4, 2]),
                1,
            )
            .with_mode(TensorScatterMode::Circular),
        )
        .inputs(&[
            &f32s(&[0.; 16]),
            &f32s(&[1., 2., 3., 4., 5., 6., 7., 8.]),
            bytemuck::cast_slice(&[1i64, 3]),
        ]),
        Example::new(
            "DML_SCATTER with negative INT64 indices (counted from the end) on UINT8 data",
            &[("Axis", &[1])],
            ScatterElementsDesc::new(
                TensorDesc::new(DataType::UInt8, &[2, 4]),
                TensorDesc::new(DataType::Int64, &[2, 2]),
                TensorDesc::new(DataType::UInt8, &[2, 2]),
                TensorDesc::new(DataType::UInt8, &[2, 4]),
                1,
            ),
        )
        .inputs(&[
            &[1u8, 2, 3, 4, 5, 6, 7, 8],
            bytemuck::cast_slice(&[-1i64, 0, -4, 2]),
            &[100u8, 101, 102, 103],
        ]),
        Example::new(
            "DML_GATHER: columns by index, -1 counting from the end",
            &[("Axis           ", &[1]), ("IndexDimensions", &[1])],
            GatherDesc::new(
                f32_tensor(&[2, 3]),
                TensorDesc::new(DataType::Int32, &[1, 2]),
                f32_tensor(&[2, 2]),
                1,
                1,
            ),
        )
        .inputs(&[
            &f32s(&[1., 2., 3., 4., 5., 6.]),
            bytemuck::cast_slice(&[-1i32, 0]),
        ]),
        Example::new(
            "DML_GATHER_ELEMENTS: the page's example",
            &[("Axis", &[0])],
            GatherElementsDesc::new(
                f32_tensor(&[3, 3]),
                TensorDesc::new(DataType::UInt32, &[2, 3]),
                f32_tensor(&[2, 3]),
                0,
            ),
        )
        .inputs(&[
            &f32s(&[1., 2., 3., 4., 5., 6., 7., 8., 9.]),
            bytemuck::cast_slice(&[1u32, 2, 0, 2, 0, 0]),
        ]),
        Example::new(
            "DML_GATHER_ND1: one batch dimension, a 1-tuple per batch",
            &[
                ("InputDimensionCount  ", &[3]),
                ("IndicesDimensionCount", &[2]),
                ("BatchDimensionCount  ", &[1]),
            ],
            GatherNdDesc::new(
                TensorDesc::new(DataType::Int64, &[2, 2, 2]),
                TensorDesc::new(DataType::Int64, &[1, 2, 1]),
                TensorDesc::new(DataType::Int64, &[1, 2, 2]),
                3,
                2,
                1,
            ),
        )
        .inputs(&[
            bytemuck::cast_slice(&[0i64, 1, 2, 3, 4, 5, 6, 7]),
            bytemuck::cast_slice(&[1i64, 0]),
        ]),
        Example::new(
            "An out-of-range index: skipped, and reported with where and what",
            &[],
            ScatterElementsDesc::new(
                f32_tensor(&[5]),
                TensorDesc::new(DataType::Int32, &[3]),
                f32_tensor(&[3]),
                f32_tensor(&[5]),
                0,
            ),
        )
        .inputs(&[
            &f32s(&[0., 1., 2., 3., 4.]),
            bytemuck::cast_slice(&[4i32, 5, -6]),
            &f32s(&[7., 8., 9.]),
        ])
        .failing(),
    ]
}
