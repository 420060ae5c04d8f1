//! ONNX's backend node tests (the `onnx` package's `onnx.backend.test.case.node`) of Slice,
//! Gather, GatherElements, GatherND, Scatter, ScatterElements, ScatterND and TensorScatter,
//! every case, through `Context::run`. Each case's node is mapped to the library's
//! `OperatorDesc` here as an ONNX runtime would map it (attributes, optional inputs, negative
//! axes and indices, Slice's clamping, ranks padded where DirectML wants them equal); the
//! output's shape comes from ONNX's shape rules, and shape and bytes must equal ONNX's
//! expected output exactly. `dml_wgsl::reference` runs beside the GPU, so a failure says
//! which of the two is wrong. The cases are committed in `tests/onnx/node_cases.txt`,
//! written by `scripts/onnx_cases.py` (which also describes the format).
#![cfg(not(target_arch = "wasm32"))] // native adapters, and the case file on disk

#[path = "onnx/case_file.rs"]
mod case_file;
mod common;

use std::collections::BTreeMap;

use case_file::{Attribute, CASE_FILE, Case, DataSet, Node, Tensor, element_bytes, load};
use common::context;
use dml_wgsl::{
    DataType, DuplicateMode, GatherDesc, GatherElementsDesc, GatherNdDesc, OperatorDesc, Reduction,
    ScatterElementsDesc, ScatterNdDesc, Slice1Desc, TensorDesc, reference,
};

/// The onnx package that wrote the case file.
const ONNX_VERSION: &str = "1.23.2";

/// How many cases of each operator that version has: a missing case fails the suite.
const CASE_COUNTS: [(&str, usize); 8] = [
    ("Slice", 8),
    ("Gather", 4),
    ("GatherElements", 3),
    ("GatherND", 3),
    ("Scatter", 2),
    ("ScatterElements", 7),
    ("ScatterND", 7),
    ("TensorScatter", 3),
];

// ---- the runtime's side: an ONNX node to the library's descriptor ----

type Values = BTreeMap<String, Tensor>;

/// What a runtime hands the library for one node: the descriptor, the tensors `run` takes
/// in order, and the output's type and shape by ONNX's rules.
struct Mapped<'a> {
    desc: OperatorDesc,
    inputs: Vec<&'a Tensor>,
    output_dtype: String,
    output_shape: Vec<u64>,
}

fn map_node<'a>(node: &Node, values: &'a Values) -> Result<Mapped<'a>, String> {
    match node.op_type.as_str() {
        "Slice" => slice_desc(node, values),
        "Gather" => gather_desc(node, values),
        "GatherElements" => gather_elements_desc(node, values),
        "GatherND" => gather_nd_desc(node, values),
        // Scatter (opsets 9 and 10, deprecated) is ScatterElements without reductions.
        "Scatter" | "ScatterElements" => scatter_elements_desc(node, values),
        "ScatterND" => scatter_nd_desc(node, values),
        "TensorScatter" => tensor_scatter_desc(node, values),
        other => Err(format!("{other} is not mapped")),
    }
}

impl Node {
    /// Input `position`'s value, or `None` where the optional input is absent.
    fn input<'a>(&self, values: &'a Values, position: usize) -> Result<Option<&'a Tensor>, String> {
        match self.inputs.get(position) {
            Some(Some(name)) => values
                .get(name)
                .map(Some)
                .ok_or(format!("no value for input {name:?}")),
            _ => Ok(None),
        }
    }

    fn required<'a>(&self, values: &'a Values, position: usize) -> Result<&'a Tensor, String> {
        self.input(values, position)?
            .ok_or(format!("input {position} of {} is missing", self.op_type))
    }

    fn int(&self, name: &str, default: i64) -> Result<i64, String> {
        match self.attributes.get(name) {
            None => Ok(default),
            Some(Attribute::Int(value)) => Ok(*value),
            Some(other) => Err(format!("attribute {name} is {other:?}, not an int")),
        }
    }

    fn ints(&self, name: &str) -> Result<Option<Vec<i64>>, String> {
        match self.attributes.get(name) {
            None => Ok(None),
            Some(Attribute::Ints(values)) => Ok(Some(values.clone())),
            Some(other) => Err(format!("attribute {name} is {other:?}, not ints")),
        }
    }

    fn string<'a>(&'a self, name: &str, default: &'a str) -> Result<&'a str, String> {
        match self.attributes.get(name) {
            None => Ok(default),
            Some(Attribute::String(value)) => Ok(value),
            Some(other) => Err(format!("attribute {name} is {other:?}, not a string")),
        }
    }
}

fn data_type(dtype: &str) -> Result<DataType, String> {
    Ok(match dtype {
        "float64" => DataType::Float64,
        "float32" => DataType::Float32,
        "float16" => DataType::Float16,
        "int64" => DataType::Int64,
        "int32" => DataType::Int32,
        "int16" => DataType::Int16,
        "int8" => DataType::Int8,
        "uint64" => DataType::UInt64,
        "uint32" => DataType::UInt32,
        "uint16" => DataType::UInt16,
        "uint8" => DataType::UInt8,
        other => return Err(format!("no DataType for {other}")),
    })
}

/// A packed tensor of `shape` with leading 1s up to `rank` (a scalar is `[1]`).
fn shaped(data_type: DataType, shape: &[u64], rank: usize) -> Result<TensorDesc, String> {
    let mut sizes = vec![1u32; rank.max(shape.len()).max(1) - shape.len()];
    for &size in shape {
        sizes.push(u32::try_from(size).map_err(|_| format!("size {size} passes u32"))?);
    }
    Ok(TensorDesc::new(data_type, &sizes))
}

fn tensor_desc(tensor: &Tensor, rank: usize) -> Result<TensorDesc, String> {
    shaped(data_type(&tensor.dtype)?, &tensor.shape, rank)
}

/// An int32 or int64 tensor's values (Slice's starts, ends, axes and steps).
fn integers(tensor: &Tensor) -> Result<Vec<i64>, String> {
    match tensor.dtype.as_str() {
        "int64" => Ok(tensor
            .bytes
            .chunks_exact(8)
            .map(|b| i64::from_le_bytes(b.try_into().unwrap()))
            .collect()),
        "int32" => Ok(tensor
            .bytes
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes(b.try_into().unwrap()) as i64)
            .collect()),
        other => Err(format!("{other} values where int32 or int64 are expected")),
    }
}

/// An ONNX axis in `[-rank, rank)`, negatives counting from the end.
fn normalize_axis(axis: i64, rank: usize) -> Result<usize, String> {
    let rank = rank as i64;
    let axis = if axis < 0 { axis + rank } else { axis };
    match axis {
        0.. if axis < rank => Ok(axis as usize),
        _ => Err(format!("axis {axis} outside a rank-{rank} tensor")),
    }
}

/// ONNX's scatter `reduction` attribute (opsets 16 and 18).
fn reduction(node: &Node) -> Result<Reduction, String> {
    Ok(match node.string("reduction", "none")? {
        "none" => Reduction::None,
        "add" => Reduction::Add,
        "mul" => Reduction::Mul,
        "max" => Reduction::Max,
        "min" => Reduction::Min,
        other => return Err(format!("reduction {other:?}")),
    })
}

/// Slice: `starts`, `ends`, optional `axes` and `steps` (inputs from opset 10, attributes
/// before), each axis at most once. Negative starts and ends count from the end, then clamp
/// to `[0, dim]` for a positive step and `[0, dim - 1]` (start) and `[-1, dim - 1]` (end) for
/// a negative one. Each axis becomes a Slice1 window: `[start, end)` walked forwards, or
/// `[end + 1, start + 1)` walked backwards from `start`.
fn slice_desc<'a>(node: &Node, values: &'a Values) -> Result<Mapped<'a>, String> {
    let data = node.required(values, 0)?;
    let rank = data.shape.len();
    let (starts, ends, axes, steps) = if node.opset >= 10 {
        let optional = |position| node.input(values, position)?.map(integers).transpose();
        let starts = integers(node.required(values, 1)?)?;
        let ends = integers(node.required(values, 2)?)?;
        (starts, ends, optional(3)?, optional(4)?)
    } else {
        let starts = node.ints("starts")?.ok_or("no starts")?;
        let ends = node.ints("ends")?.ok_or("no ends")?;
        (starts, ends, node.ints("axes")?, None)
    };
    let count = starts.len();
    let axes = axes.unwrap_or_else(|| (0..count as i64).collect());
    let steps = steps.unwrap_or_else(|| vec![1; count]);
    if ends.len() != count || axes.len() != count || steps.len() != count {
        return Err("starts, ends, axes and steps differ in length".into());
    }
    let input = tensor_desc(data, rank)?;
    let mut offsets = vec![0u32; rank];
    let mut windows = input.sizes.clone();
    let mut strides = vec![1i32; rank];
    let mut sliced = vec![false; rank];
    for i in 0..count {
        let axis = normalize_axis(axes[i], rank)?;
        if std::mem::replace(&mut sliced[axis], true) {
            return Err(format!("axis {axis} sliced twice"));
        }
        let (dimension, step) = (windows[axis] as i64, steps[i]);
        let from_end = |value: i64| match value {
            ..0 => value.saturating_add(dimension),
            _ => value,
        };
        let (start, end) = (from_end(starts[i]), from_end(ends[i]));
        let (offset, window) = match step {
            0 => return Err(format!("step 0 on axis {axis}")),
            _ if dimension == 0 => (0, 0),
            1.. => {
                let (start, end) = (start.clamp(0, dimension), end.clamp(0, dimension));
                (start, (end - start).max(0))
            }
            _ => {
                let (start, end) = (start.clamp(0, dimension - 1), end.clamp(-1, dimension - 1));
                (end + 1, (start - end).max(0))
            }
        };
        // A step past the window takes its first element only, as the window's own size does.
        let magnitude = step.unsigned_abs().min(window.max(1) as u64);
        let magnitude = i32::try_from(magnitude).map_err(|_| format!("step {step} passes i32"))?;
        offsets[axis] = offset as u32;
        windows[axis] = window as u32;
        strides[axis] = if step > 0 { magnitude } else { -magnitude };
    }
    let output_shape: Vec<u64> = (0..rank)
        .map(|d| (windows[d] as u64).div_ceil(strides[d].unsigned_abs() as u64))
        .collect();
    let output = shaped(input.data_type, &output_shape, rank)?;
    Ok(Mapped {
        desc: Slice1Desc::new(input, output, &offsets, &windows, &strides).into(),
        inputs: vec![data],
        output_dtype: data.dtype.clone(),
        output_shape,
    })
}

/// Gather: `output = data.shape[..axis] ++ indices.shape ++ data.shape[axis + 1..]`.
/// DirectML's Gather wants one rank everywhere: every tensor takes the output's rank (at
/// least the data's), the data and indices with leading 1s (the axis moves with them), and
/// all the indices' dimensions are index dimensions. Negative indices pass as they are: the
/// library counts them from the end, as ONNX does.
fn gather_desc<'a>(node: &Node, values: &'a Values) -> Result<Mapped<'a>, String> {
    let (data, indices) = (node.required(values, 0)?, node.required(values, 1)?);
    let (data_rank, indices_rank) = (data.shape.len(), indices.shape.len());
    let axis = normalize_axis(node.int("axis", 0)?, data_rank)?;
    let output_shape = [
        &data.shape[..axis],
        &indices.shape[..],
        &data.shape[axis + 1..],
    ]
    .concat();
    let rank = output_shape.len().max(data_rank);
    let input = tensor_desc(data, rank)?;
    let output = shaped(input.data_type, &output_shape, rank)?;
    let desc = GatherDesc::new(
        input,
        tensor_desc(indices, rank)?,
        output,
        (axis + rank - data_rank) as u32,
        indices_rank as u32,
    );
    Ok(Mapped {
        desc: desc.into(),
        inputs: vec![data, indices],
        output_dtype: data.dtype.clone(),
        output_shape,
    })
}

/// GatherElements: one rank everywhere; the output has the indices' shape.
fn gather_elements_desc<'a>(node: &Node, values: &'a Values) -> Result<Mapped<'a>, String> {
    let (data, indices) = (node.required(values, 0)?, node.required(values, 1)?);
    let rank = data.shape.len();
    let axis = normalize_axis(node.int("axis", 0)?, rank)?;
    let input = tensor_desc(data, rank)?;
    let output = shaped(input.data_type, &indices.shape, rank)?;
    let desc = GatherElementsDesc::new(input, tensor_desc(indices, rank)?, output, axis as u32);
    Ok(Mapped {
        desc: desc.into(),
        inputs: vec![data, indices],
        output_dtype: data.dtype.clone(),
        output_shape: indices.shape.clone(),
    })
}

/// GatherND with `batch_dims`: `output = indices.shape[..-1] ++ data.shape[batch_dims + k..]`
/// (`k` the indices' last size); the dimension counts are the ONNX ranks.
fn gather_nd_desc<'a>(node: &Node, values: &'a Values) -> Result<Mapped<'a>, String> {
    let (data, indices) = (node.required(values, 0)?, node.required(values, 1)?);
    let (data_rank, indices_rank) = (data.shape.len(), indices.shape.len());
    let batch = node.int("batch_dims", 0)?;
    let batch = u32::try_from(batch).map_err(|_| format!("batch_dims {batch}"))?;
    let tuple = *indices.shape.last().ok_or("scalar indices")?;
    let trailing = (batch as u64)
        .checked_add(tuple)
        .filter(|&first| first <= data_rank as u64)
        .ok_or(format!(
            "batch_dims {batch} and tuples of {tuple} pass the data's rank"
        ))?;
    let output_shape = [
        &indices.shape[..indices_rank - 1],
        &data.shape[trailing as usize..],
    ]
    .concat();
    let input = tensor_desc(data, data_rank)?;
    let output = shaped(input.data_type, &output_shape, output_shape.len())?;
    let desc = GatherNdDesc::new(
        input,
        tensor_desc(indices, indices_rank)?,
        output,
        data_rank as u32,
        indices_rank as u32,
        batch,
    );
    Ok(Mapped {
        desc: desc.into(),
        inputs: vec![data, indices],
        output_dtype: data.dtype.clone(),
        output_shape,
    })
}

/// ScatterElements (and the deprecated Scatter): `axis`, `reduction`. ONNX applies updates
/// one after another in the updates' order (its reference loops), so duplicate targets
/// take `DuplicateMode::InOrder`, the mode that gives those bits for every reduction.
fn scatter_elements_desc<'a>(node: &Node, values: &'a Values) -> Result<Mapped<'a>, String> {
    let data = node.required(values, 0)?;
    let (indices, updates) = (node.required(values, 1)?, node.required(values, 2)?);
    let rank = data.shape.len();
    let axis = normalize_axis(node.int("axis", 0)?, rank)?;
    let input = tensor_desc(data, rank)?;
    let output = input.clone();
    let desc = ScatterElementsDesc::new(
        input,
        tensor_desc(indices, rank)?,
        tensor_desc(updates, rank)?,
        output,
        axis as u32,
    )
    .with_reduction(reduction(node)?)
    .with_duplicates(DuplicateMode::InOrder);
    Ok(Mapped {
        desc: desc.into(),
        inputs: vec![data, indices, updates],
        output_dtype: data.dtype.clone(),
        output_shape: data.shape.clone(),
    })
}

/// ScatterND with `reduction`: the dimension counts are the ONNX ranks; duplicates in order,
/// as for ScatterElements.
fn scatter_nd_desc<'a>(node: &Node, values: &'a Values) -> Result<Mapped<'a>, String> {
    let data = node.required(values, 0)?;
    let (indices, updates) = (node.required(values, 1)?, node.required(values, 2)?);
    let (data_rank, indices_rank) = (data.shape.len(), indices.shape.len());
    let input = tensor_desc(data, data_rank)?;
    let output = input.clone();
    let desc = ScatterNdDesc::new(
        input,
        tensor_desc(indices, indices_rank)?,
        tensor_desc(updates, updates.shape.len())?,
        output,
        data_rank as u32,
        indices_rank as u32,
    )
    .with_reduction(reduction(node)?)
    .with_duplicates(DuplicateMode::InOrder);
    Ok(Mapped {
        desc: desc.into(),
        inputs: vec![data, indices, updates],
        output_dtype: data.dtype.clone(),
        output_shape: data.shape.clone(),
    })
}

// ---- TensorScatter: switch on after merging it ----
/// TensorScatter (opset 24): `past_cache`, `update`, optional `write_indices` (one per batch
/// entry; absent: all 0); `axis` (default -2, the sequence axis), `mode` linear or circular.
fn tensor_scatter_desc<'a>(node: &Node, values: &'a Values) -> Result<Mapped<'a>, String> {
    use dml_wgsl::{TensorScatterDesc, TensorScatterMode};
    let cache = node.required(values, 0)?;
    let update = node.required(values, 1)?;
    let write_indices = node.input(values, 2)?;
    let rank = cache.shape.len();
    let axis = normalize_axis(node.int("axis", -2)?, rank)?;
    let mode = match node.string("mode", "linear")? {
        "linear" => TensorScatterMode::Linear,
        "circular" => TensorScatterMode::Circular,
        other => return Err(format!("mode {other:?}")),
    };
    let input = tensor_desc(cache, rank)?;
    let output = input.clone();
    let write_indices_desc = write_indices
        .map(|w| tensor_desc(w, w.shape.len()))
        .transpose()?;
    let desc = TensorScatterDesc::new(
        input,
        tensor_desc(update, rank)?,
        write_indices_desc,
        output,
        axis as u32,
    )
    .with_mode(mode);
    Ok(Mapped {
        desc: OperatorDesc::TensorScatter(desc),
        inputs: [cache, update].into_iter().chain(write_indices).collect(),
        output_dtype: cache.dtype.clone(),
        output_shape: cache.shape.clone(),
    })
}

// ---- running and comparing ----

/// Runs every data set of `case` through `Context::run` and the reference; `Err` says what
/// differed from ONNX's expected output.
fn run_case(case: &Case) -> Result<(), String> {
    if case.data_sets.is_empty() {
        return Err("no data sets".into());
    }
    for (number, data_set) in case.data_sets.iter().enumerate() {
        run_data_set(&case.node, data_set).map_err(|e| match case.data_sets.len() {
            1 => e,
            _ => format!("data set {number}: {e}"),
        })?;
    }
    Ok(())
}

fn run_data_set(node: &Node, data_set: &DataSet) -> Result<(), String> {
    let [(name, expected)] = data_set.outputs.as_slice() else {
        return Err(format!("{} outputs; one expected", data_set.outputs.len()));
    };
    if node.outputs.first() != Some(name) {
        return Err(format!(
            "the expected output {name} is not the node's output"
        ));
    }
    let mapped = map_node(node, &data_set.inputs)?;
    if (&mapped.output_dtype, &mapped.output_shape) != (&expected.dtype, &expected.shape) {
        return Err(format!(
            "output {} {:?}; ONNX's is {} {:?}",
            mapped.output_dtype, mapped.output_shape, expected.dtype, expected.shape
        ));
    }
    // `run` takes each tensor's bytes up to its size in whole 4-byte words.
    let inputs: Vec<Vec<u8>> = mapped
        .inputs
        .iter()
        .map(|t| {
            let mut bytes = t.bytes.clone();
            bytes.resize(t.bytes.len().next_multiple_of(4), 0);
            bytes
        })
        .collect();
    let inputs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let gpu = context()
        .run_blocking(&mapped.desc, &inputs)
        .map_err(|e| e.to_string())
        .and_then(|output| compare(expected, &output));
    let cpu = reference::run(&mapped.desc, &inputs)
        .map_err(|e| e.to_string())
        .and_then(|output| compare(expected, &output));
    match (gpu, cpu) {
        (Ok(()), Ok(())) => Ok(()),
        (gpu, cpu) => Err(format!(
            "run: {}; reference: {}; desc: {:?}",
            gpu.err().as_deref().unwrap_or("ok"),
            cpu.err().as_deref().unwrap_or("ok"),
            mapped.desc
        )),
    }
}

/// `output` (a tensor's bytes, as `run` returns them) against ONNX's expected bytes.
fn compare(expected: &Tensor, output: &[u8]) -> Result<(), String> {
    let size = element_bytes(&expected.dtype).unwrap_or(1);
    let length = expected.bytes.len();
    if output.len() < length {
        return Err(format!(
            "{} bytes; ONNX's output has {length}",
            output.len()
        ));
    }
    let elements = (0..length / size).map(|i| i * size..(i + 1) * size);
    let differing: Vec<_> = elements
        .filter(|range| output[range.clone()] != expected.bytes[range.clone()])
        .collect();
    let Some(first) = differing.first() else {
        return Ok(());
    };
    Err(format!(
        "{} of {} elements differ, the first at element {}: ONNX {}, got {}",
        differing.len(),
        length / size,
        first.start / size,
        show(&expected.dtype, &expected.bytes[first.clone()]),
        show(&expected.dtype, &output[first.clone()]),
    ))
}

/// One element's value (and its bits, for floats).
fn show(dtype: &str, bytes: &[u8]) -> String {
    let bits = || {
        bytes
            .iter()
            .rev()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    match (dtype, bytes.len()) {
        ("float32", 4) => format!(
            "{} (0x{})",
            f32::from_le_bytes(bytes.try_into().unwrap()),
            bits()
        ),
        ("float64", 8) => format!(
            "{} (0x{})",
            f64::from_le_bytes(bytes.try_into().unwrap()),
            bits()
        ),
        ("int64", 8) => i64::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        ("int32", 4) => i32::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        _ => format!("0x{}", bits()),
    }
}

// ---- the tests ----

#[test]
fn onnx_case_file_holds_every_case_of_each_operator() {
    let file = load();
    assert_eq!(
        file.onnx_version, ONNX_VERSION,
        "{CASE_FILE} was written by another onnx version: update ONNX_VERSION and CASE_COUNTS"
    );
    let mut counts: BTreeMap<&str, usize> = CASE_COUNTS.iter().map(|&(op, _)| (op, 0)).collect();
    for case in &file.cases {
        *counts.entry(case.node.op_type.as_str()).or_default() += 1;
        assert!(!case.data_sets.is_empty(), "{}: no data sets", case.name);
    }
    let expected: BTreeMap<&str, usize> = CASE_COUNTS.into_iter().collect();
    assert_eq!(
        counts, expected,
        "cases per operator in {CASE_FILE} (python3 scripts/onnx_cases.py writes it)"
    );
}

#[test]
fn onnx_node_cases_give_onnx_outputs_through_run() {
    let file = load();
    let (mut passed, mut problems) = (0, Vec::new());
    for case in &file.cases {
        match run_case(case) {
            Ok(()) => passed += 1,
            Err(reason) => problems.push(format!("  {}: {reason}", case.name)),
        }
    }
    eprintln!("{passed} of {} ONNX node cases passed", file.cases.len());
    assert!(
        problems.is_empty(),
        "{} of {} ONNX node cases went wrong:\n{}",
        problems.len(),
        file.cases.len(),
        problems.join("\n")
    );
}
