//! Test cases, GPU-free: a seeded generator, random layouts and index values, a random valid
//! descriptor with its inputs for each of the seven operators, and the DirectML pages'
//! examples with their outputs. Shared by the native tests of each operator, the fuzzer
//! (`tests/fuzz.rs`) and the browser tests (`tests/web.rs`).

use dml_wgsl::reference::for_each_coordinate;
use dml_wgsl::{
    DataType, DuplicateMode, GatherDesc, GatherElementsDesc, GatherNdDesc, INDEX_TYPES,
    OperatorDesc, OutOfRange, Reduction, ScatterElementsDesc, ScatterNdDesc, Slice1Desc, SliceDesc,
    TensorDesc, TensorScatterDesc, TensorScatterMode,
};

// The generators of each operator's random cases (a file of their own, found from this one's
// directory however this file is included).
#[path = "operators.rs"]
mod operators;
pub use operators::*;

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

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.range(0, items.len() as u64 - 1) as usize]
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

/// A descriptor and the bytes of its inputs, in `run`'s order.
#[derive(Clone, Debug)]
pub struct Case {
    pub desc: OperatorDesc,
    pub inputs: Vec<Vec<u8>>,
}

impl Case {
    pub fn slices(&self) -> Vec<&[u8]> {
        self.inputs.iter().map(|v| v.as_slice()).collect()
    }
}

/// The eight operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperatorKind {
    Slice,
    Slice1,
    ScatterElements,
    ScatterNd,
    Gather,
    GatherElements,
    GatherNd,
    TensorScatter,
}

impl OperatorKind {
    pub const ALL: [OperatorKind; 8] = [
        OperatorKind::Slice,
        OperatorKind::Slice1,
        OperatorKind::ScatterElements,
        OperatorKind::ScatterNd,
        OperatorKind::Gather,
        OperatorKind::GatherElements,
        OperatorKind::GatherNd,
        OperatorKind::TensorScatter,
    ];

    pub fn has_indices(self) -> bool {
        !matches!(self, OperatorKind::Slice | OperatorKind::Slice1)
    }
}

/// A random valid case of the operator `kind`: scatters in either duplicate mode, with duplicate targets
/// or without, sometimes with a reduction; indexed operators sometimes clamp out-of-range
/// indices. Some cases have a size of 0 (see [`EMPTY_PERCENT`]): the operators' own
/// generators make empty tensors whose indices stay in range, and here an indexed dimension
/// is sometimes emptied, which puts every used index out of range.
pub fn random_case(
    rng: &mut Rng,
    kind: OperatorKind,
    data_type: DataType,
    index_type: DataType,
) -> Case {
    let duplicates = if rng.chance(50) {
        DuplicateMode::InOrder
    } else {
        DuplicateMode::AnyUpdate
    };
    let unique = rng.chance(40);
    let reduction = if rng.chance(40) {
        rng.pick(&REDUCTIONS)
    } else {
        Reduction::None
    };
    let values = if rng.chance(50) {
        Values::Bits
    } else {
        Values::Numbers
    };
    let mut case = match kind {
        OperatorKind::Slice => random_slice(rng, data_type),
        OperatorKind::Slice1 => random_slice1(rng, data_type),
        OperatorKind::ScatterElements | OperatorKind::ScatterNd => random_reduction_case(
            rng,
            kind == OperatorKind::ScatterNd,
            data_type,
            index_type,
            reduction,
            duplicates,
            values,
            unique,
        ),
        OperatorKind::Gather => random_gather(rng, data_type, index_type),
        OperatorKind::GatherElements => random_gather_elements(rng, data_type, index_type),
        OperatorKind::GatherNd => random_gather_nd(rng, data_type, index_type),
        OperatorKind::TensorScatter => random_tensor_scatter(rng, data_type, index_type),
    };
    if kind.has_indices() && rng.chance(15) {
        set_out_of_range(&mut case.desc, OutOfRange::Clamp);
        if rng.chance(50) {
            corrupt_one_index(rng, &mut case);
        }
    }
    if kind.has_indices() && rng.chance(EMPTY_PERCENT) {
        empty_an_indexed_dimension(rng, &mut case.desc);
    }
    case
}

/// The share of random cases (in percent) that the generators give a size of 0, so that
/// empty tensors are covered and the rest of the coverage stays.
pub const EMPTY_PERCENT: u64 = 5;

/// Empties a dimension that the indices address (the input's, and a scatter's output's: a
/// Gather's or an elements operator's axis, one of an ND tuple's dimensions), so that every
/// index that some element uses is out of range. Sets `OutOfRange::Report` (`Clamp` would
/// have nothing to clamp to, and is refused).
pub fn empty_an_indexed_dimension(rng: &mut Rng, desc: &mut OperatorDesc) {
    set_out_of_range(desc, OutOfRange::Report);
    match desc {
        OperatorDesc::Gather(d) => d.input.sizes[d.axis as usize] = 0,
        OperatorDesc::GatherElements(d) => d.input.sizes[d.axis as usize] = 0,
        OperatorDesc::GatherNd(d) => {
            let tuple = *d.indices.sizes.last().unwrap() as u64;
            let first = d.input.rank() - d.input_dimension_count as usize
                + d.batch_dimension_count as usize;
            d.input.sizes[first + rng.range(0, tuple - 1) as usize] = 0;
        }
        OperatorDesc::ScatterElements(d) => {
            d.input.sizes[d.axis as usize] = 0;
            d.output.sizes[d.axis as usize] = 0;
        }
        OperatorDesc::ScatterNd(d) => {
            let tuple = *d.indices.sizes.last().unwrap() as u64;
            let first = d.input.rank() - d.input_dimension_count as usize;
            let k = first + rng.range(0, tuple - 1) as usize;
            d.input.sizes[k] = 0;
            d.output.sizes[k] = 0;
        }
        _ => {}
    }
}

/// Where a generator puts a size of 0, if it does (in [`EMPTY_PERCENT`] of its cases): one
/// of `candidates` (dimensions, or choices the generator numbers), or none.
fn empty_choice(rng: &mut Rng, candidates: &[usize]) -> Option<usize> {
    (!candidates.is_empty() && rng.chance(EMPTY_PERCENT)).then(|| rng.pick(candidates))
}

/// The reductions a scatter can apply (the library's own list).
pub const REDUCTIONS: [Reduction; 4] = Reduction::COMBINING;

/// Sets a scatter's reduction and duplicate mode (other operators are left alone).
pub fn set_scatter_options(
    desc: &mut OperatorDesc,
    reduction: Reduction,
    duplicates: DuplicateMode,
) {
    match desc {
        OperatorDesc::ScatterElements(d) => {
            d.reduction = reduction;
            d.duplicates = duplicates;
        }
        OperatorDesc::ScatterNd(d) => {
            d.reduction = reduction;
            d.duplicates = duplicates;
        }
        _ => {}
    }
}

/// Sets the out-of-range policy of any operator with indices.
pub fn set_out_of_range(desc: &mut OperatorDesc, out_of_range: OutOfRange) {
    match desc {
        OperatorDesc::ScatterElements(d) => d.out_of_range = out_of_range,
        OperatorDesc::ScatterNd(d) => d.out_of_range = out_of_range,
        OperatorDesc::Gather(d) => d.out_of_range = out_of_range,
        OperatorDesc::GatherElements(d) => d.out_of_range = out_of_range,
        OperatorDesc::GatherNd(d) => d.out_of_range = out_of_range,
        OperatorDesc::TensorScatter(d) => d.out_of_range = out_of_range,
        _ => {}
    }
}

/// Whether a scatter's float results can depend on the order its duplicate updates land in:
/// Add and Mul in [`DuplicateMode::AnyUpdate`] (their cases draw [`Values::OrderFree`]).
pub fn order_matters(reduction: Reduction, duplicates: DuplicateMode) -> bool {
    duplicates == DuplicateMode::AnyUpdate && matches!(reduction, Reduction::Add | Reduction::Mul)
}

/// What a reduction case's float data looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// Random bits: NaNs, infinities, subnormals, every exponent.
    Bits,
    /// Numbers of nearby magnitudes with random fractions (and a few subnormals and zeros),
    /// so that sums and products round, ties included.
    Numbers,
    /// Small integers (Add; for BFloat16 few of them, the rest zeros) or ±1 and ±0 (Mul):
    /// sums and products exact in any order.
    OrderFree,
}

/// A scatter's float input and updates (inputs 0 and 2 of `desc`) set as `values` says.
pub fn fill_scatter_floats(
    rng: &mut Rng,
    desc: &OperatorDesc,
    inputs: &mut [Vec<u8>],
    values: Values,
    reduction: Reduction,
) {
    let tensors = desc.inputs();
    for k in [0, 2] {
        fill_floats(rng, tensors[k].1, &mut inputs[k], values, reduction);
    }
}

/// Every element of `t` (a float tensor) in `bytes` set as `values` says (`Bits` leaves them).
pub fn fill_floats(
    rng: &mut Rng,
    t: &TensorDesc,
    bytes: &mut [u8],
    values: Values,
    reduction: Reduction,
) {
    let width = t.data_type.size_in_bytes() as usize;
    // bfloat16 holds the integers exactly only up to 256: there a tensor's order-free Add
    // values are sparse (about a hundred nonzero), and their magnitudes add up to at most 250
    // (a start's to 3), so that every partial sum, in any order and grouping, is exact.
    let sparse = t.data_type == DataType::BFloat16;
    let one_in = (t.element_count() / 100).max(1);
    let mut budget = 250.0;
    for_each_coordinate(&t.sizes, |c| {
        let value: f64 = match values {
            Values::Bits => return,
            Values::OrderFree if reduction == Reduction::Mul => {
                *rng.pick(&[&1.0, &-1.0, &1.0, &-1.0, &0.0, &-0.0])
            }
            Values::OrderFree if sparse => {
                let value = rng.range(0, 6) as f64 - 3.0;
                if rng.range(0, one_in - 1) == 0 && value.abs() <= budget {
                    budget -= value.abs();
                    value
                } else {
                    0.0
                }
            }
            Values::OrderFree => rng.range(0, 6) as f64 - 3.0,
            Values::Numbers => {
                // Near and below the smallest normal of the type: subnormal results.
                let (low, high) = match t.data_type {
                    DataType::Float16 => (14, 25),
                    DataType::BFloat16 => (126, 134),
                    DataType::Float32 => (126, 150),
                    _ => (1022, 1075),
                };
                let magnitude = match rng.range(0, 20) {
                    0 => 0.0,
                    1 => {
                        let exponent = -(rng.range(low, high) as i32);
                        2f64.powi(exponent) * (1.0 + rng.range(0, 1023) as f64 / 1024.0)
                    }
                    _ => {
                        (1.0 + (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
                            * 2f64.powi(rng.range(0, 6) as i32 - 3)
                    }
                };
                if rng.chance(50) {
                    -magnitude
                } else {
                    magnitude
                }
            }
        };
        let encoded: Vec<u8> = match t.data_type {
            DataType::Float16 => half::f16::from_f64(value).to_le_bytes().to_vec(),
            DataType::BFloat16 => half::bf16::from_f64(value).to_le_bytes().to_vec(),
            DataType::Float32 => (value as f32).to_le_bytes().to_vec(),
            _ => value.to_le_bytes().to_vec(),
        };
        let at = t.byte_offset(c) as usize;
        bytes[at..at + width].copy_from_slice(&encoded);
    });
}

/// A random ScatterElements or ScatterND case (duplicate targets likely) with `reduction` in
/// `duplicates` mode. Float data as `values` says; in `AnyUpdate` mode float Add and Mul
/// take order-free values unless targets are unique (their results would depend on the order).
#[allow(clippy::too_many_arguments)]
pub fn random_reduction_case(
    rng: &mut Rng,
    nd: bool,
    data_type: DataType,
    index_type: DataType,
    reduction: Reduction,
    duplicates: DuplicateMode,
    values: Values,
    unique: bool,
) -> Case {
    let mut case = if nd {
        random_scatter_nd(rng, data_type, index_type, unique, duplicates)
    } else {
        random_scatter_elements(rng, data_type, index_type, unique, duplicates)
    };
    set_scatter_options(&mut case.desc, reduction, duplicates);
    if data_type.is_float() {
        let values = if order_matters(reduction, duplicates) && !unique {
            Values::OrderFree
        } else {
            values
        };
        fill_scatter_floats(rng, &case.desc, &mut case.inputs, values, reduction);
    }
    case
}

/// Per-dimension size caps keeping random cases small on a CPU adapter.
pub fn cap(rank: usize) -> u64 {
    [0, 600, 40, 12, 6, 4, 3, 3, 2][rank]
}

/// Per-dimension output-size caps of the random slices.
pub fn slice_cap(rank: usize) -> u64 {
    [0, 3000, 80, 18, 8, 5, 4, 3, 3][rank]
}

/// Random bytes for each of `desc`'s inputs.
pub fn random_inputs(rng: &mut Rng, desc: &OperatorDesc) -> Vec<Vec<u8>> {
    desc.inputs()
        .iter()
        .map(|(_, t)| rng.bytes(t.size_in_bytes() as usize))
        .collect()
}

/// A random layout for `sizes`: packed, padded (gaps between rows), permuted (dimensions
/// stored in another order), and for inputs sometimes broadcast (stride 0). Sometimes the
/// total size carries padding at the end.
pub fn random_layout(rng: &mut Rng, data_type: DataType, sizes: &[u32], input: bool) -> TensorDesc {
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
pub fn random_index_type(rng: &mut Rng) -> DataType {
    rng.pick(INDEX_TYPES)
}

/// Writes `value(c)` for every coordinate `c` of the index tensor `t` into `bytes` (laid out
/// by `t`; bytes no element covers keep their random contents).
pub fn write_indices(t: &TensorDesc, bytes: &mut [u8], mut value: impl FnMut(&[u32]) -> i128) {
    let width = t.data_type.size_in_bytes() as usize;
    for_each_coordinate(&t.sizes, |c| {
        let v = value(c);
        let at = t.byte_offset(c) as usize;
        bytes[at..at + width].copy_from_slice(&(v as i64).to_le_bytes()[..width]);
    });
}

/// A random in-range index for a dimension of `bound`, negative half the time when the type
/// is signed. An empty dimension (`bound` 0) has none: a small value, out of range.
pub fn random_index(rng: &mut Rng, bound: u32, data_type: DataType) -> i128 {
    if bound == 0 {
        return rng.range(0, 2) as i128 - data_type.is_signed() as i128;
    }
    let v = rng.range(0, bound as u64 - 1) as i128;
    if data_type.is_signed() && rng.chance(50) {
        v - bound as i128
    } else {
        v
    }
}

/// Overwrites one random element of the case's index tensor with a value out of range for
/// every dimension the cases use: just past the sizes, past the negative range, the type's
/// extremes, and for 64-bit types values whose low word alone would be in range.
pub fn corrupt_one_index(rng: &mut Rng, case: &mut Case) {
    let Some(input) = index_input(&case.desc) else {
        return;
    };
    let indices = case.desc.inputs()[input].1.clone();
    if indices.is_empty() {
        return;
    }
    let wide = indices.data_type.size_in_bytes() == 8;
    let signed = indices.data_type.is_signed();
    let mut bad: Vec<i128> = vec![100_000, u32::MAX as i128];
    if signed {
        bad.extend([-100_000, i32::MIN as i128, i32::MAX as i128]);
    }
    if wide {
        bad.extend([(1i128 << 32) + 1, (1i128 << 40) + 3, u32::MAX as i128 + 1]);
        if signed {
            bad.extend([i64::MIN as i128, -(1i128 << 32) + 1, i64::MAX as i128]);
        } else {
            bad.push(u64::MAX as i128);
        }
    }
    if !wide {
        // Only the low word is written: u32::MAX would be -1, in range, to a signed type.
        let most = if signed {
            i32::MAX as i128
        } else {
            u32::MAX as i128
        };
        bad.retain(|&v| v <= most);
    }
    let value = rng.pick(&bad);
    let at: Vec<u32> = indices
        .sizes
        .iter()
        .map(|&s| rng.range(0, s as u64 - 1) as u32)
        .collect();
    let offset = indices.byte_offset(&at) as usize;
    let width = indices.data_type.size_in_bytes() as usize;
    case.inputs[input][offset..offset + width]
        .copy_from_slice(&(value as i64).to_le_bytes()[..width]);
}

/// Which of `desc`'s inputs holds its indices (`run`'s order), if it has any.
pub fn index_input(desc: &OperatorDesc) -> Option<usize> {
    desc.inputs()
        .iter()
        .position(|(name, _)| matches!(*name, "indices" | "write_indices"))
}

/// Which of `desc`'s inputs holds a scatter's updates, if it has any.
pub fn updates_input(desc: &OperatorDesc) -> Option<usize> {
    desc.inputs()
        .iter()
        .position(|(name, _)| *name == "updates")
}

// ---- the DirectML pages' examples, with the outputs the pages give ----

/// A hand-checked case: the operator, its inputs and the Float32 output it must give.
pub struct Worked {
    pub case: Case,
    pub output: Vec<f32>,
}

/// `values` as little-endian bytes (what every tensor here holds).
pub fn le_bytes<T: bytemuck::NoUninit>(values: &[T]) -> Vec<u8> {
    bytemuck::cast_slice(values).to_vec()
}

fn f32_tensor(sizes: &[u32]) -> TensorDesc {
    TensorDesc::new(DataType::Float32, sizes)
}

fn worked(desc: impl Into<OperatorDesc>, inputs: &[Vec<u8>], output: &[f32]) -> Worked {
    Worked {
        case: Case {
            desc: desc.into(),
            inputs: inputs.to_vec(),
        },
        output: output.to_vec(),
    }
}

/// DML_SLICE's examples: slices of the 4x4 input 1..=16 (`second`: the strided example 2).
pub fn slice_page_example(second: bool) -> Worked {
    let input = le_bytes::<f32>(&(1..=16).map(|v| v as f32).collect::<Vec<_>>());
    let (sizes, offsets, strides, output): (&[u32], &[u32], &[u32], &[f32]) = if second {
        (
            &[1, 1, 2, 2],
            &[0, 0, 1, 0],
            &[1, 1, 2, 3],
            &[5., 8., 13., 16.],
        )
    } else {
        (
            &[1, 1, 3, 2],
            &[0, 0, 1, 2],
            &[1, 1, 1, 1],
            &[7., 8., 11., 12., 15., 16.],
        )
    };
    let desc = SliceDesc::new(
        f32_tensor(&[1, 1, 4, 4]),
        f32_tensor(sizes),
        offsets,
        sizes,
        strides,
    );
    worked(desc, &[input], output)
}

/// DML_SCATTER's 1-D example; the output given is the in-order one (two updates aim at
/// element 3).
pub fn scatter_page_example_1(duplicates: DuplicateMode) -> Worked {
    let desc = ScatterElementsDesc::new(
        f32_tensor(&[5]),
        TensorDesc::new(DataType::UInt32, &[4]),
        f32_tensor(&[4]),
        f32_tensor(&[5]),
        0,
    )
    .with_duplicates(duplicates);
    let inputs = [
        le_bytes::<f32>(&[0., 1., 2., 3., 4.]),
        bytemuck::cast_slice(&[3u32, 1, 3, 0]).to_vec(),
        le_bytes::<f32>(&[5., 6., 7., 8.]),
    ];
    worked(desc, &inputs, &[8., 6., 2., 7., 4.])
}

/// DML_SCATTER's 2-D example (the page says the input is {2,3}; its own data is {3,3}).
pub fn scatter_page_example_2() -> Worked {
    let desc = ScatterElementsDesc::new(
        f32_tensor(&[3, 3]),
        TensorDesc::new(DataType::UInt32, &[2, 3]),
        f32_tensor(&[2, 3]),
        f32_tensor(&[3, 3]),
        0,
    );
    let inputs = [
        le_bytes::<f32>(&[0.; 9]),
        bytemuck::cast_slice(&[1u32, 0, 2, 0, 2, 1]).to_vec(),
        le_bytes::<f32>(&[10., 11., 12., 20., 21., 22.]),
    ];
    worked(desc, &inputs, &[20., 11., 0., 10., 0., 22., 0., 21., 12.])
}

/// DML_SCATTER_ND's example (the page lists the indices as FLOAT32; they are UINT32).
pub fn scatter_nd_page_example() -> Worked {
    let desc = ScatterNdDesc::new(
        f32_tensor(&[8]),
        TensorDesc::new(DataType::UInt32, &[4, 1]),
        f32_tensor(&[4]),
        f32_tensor(&[8]),
        1,
        2,
    );
    let inputs = [
        le_bytes::<f32>(&[1., 2., 3., 4., 5., 6., 7., 8.]),
        bytemuck::cast_slice(&[4u32, 3, 1, 7]).to_vec(),
        le_bytes::<f32>(&[9., 10., 11., 12.]),
    ];
    worked(desc, &inputs, &[1., 11., 3., 10., 9., 6., 7., 12.])
}

/// A 1-D scatter whose second index, 5, is out of range for 5 elements (the third, -6, too).
pub fn out_of_range_scatter() -> Case {
    let desc = ScatterElementsDesc::new(
        f32_tensor(&[5]),
        TensorDesc::new(DataType::Int32, &[3]),
        f32_tensor(&[3]),
        f32_tensor(&[5]),
        0,
    );
    Case {
        desc: desc.into(),
        inputs: vec![
            le_bytes::<f32>(&[0., 1., 2., 3., 4.]),
            bytemuck::cast_slice(&[4i32, 5, -6]).to_vec(),
            le_bytes::<f32>(&[7., 8., 9.]),
        ],
    }
}

/// Whether `bits` (the low bits of the float type's width) are a NaN of `data_type`.
pub fn is_nan_bits(data_type: DataType, bits: u64) -> bool {
    match data_type {
        DataType::Float16 => bits & 0x7c00 == 0x7c00 && bits & 0x3ff != 0,
        DataType::BFloat16 => bits & 0x7f80 == 0x7f80 && bits & 0x7f != 0,
        DataType::Float32 => bits & 0x7f80_0000 == 0x7f80_0000 && bits & 0x7f_ffff != 0,
        DataType::Float64 => {
            bits & 0x7ff0_0000_0000_0000 == 0x7ff0_0000_0000_0000 && bits & 0xf_ffff_ffff_ffff != 0
        }
        _ => false,
    }
}

/// Targets of the output: target `HOT` takes nearly every update.
pub const TARGETS: u32 = 5;
pub const HOT: u32 = 2;

/// `count` updates, nearly all on one target (the heavy reduction tests, native and in the
/// browser): ScatterElements of single elements, or
/// ScatterND of rows of `row` units. Indices alternate between the four index types; a few
/// updates go to the other targets and, counted from the end, to the hot one.
pub fn one_target_case(
    rng: &mut Rng,
    data_type: DataType,
    (reduction, duplicates): (Reduction, DuplicateMode),
    count: u32,
    row: Option<u32>,
) -> Case {
    let index_type = [
        DataType::Int64,
        DataType::UInt32,
        DataType::Int32,
        DataType::UInt64,
    ][(count as usize + row.unwrap_or(0) as usize) % 4];
    let desc: OperatorDesc = match row {
        None => ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[TARGETS]),
            TensorDesc::new(index_type, &[count]),
            TensorDesc::new(data_type, &[count]),
            TensorDesc::new(data_type, &[TARGETS]),
            0,
        )
        .with_reduction(reduction)
        .with_duplicates(duplicates)
        .into(),
        Some(row) => ScatterNdDesc::new(
            TensorDesc::new(data_type, &[TARGETS, row]),
            TensorDesc::new(index_type, &[count, 1]),
            TensorDesc::new(data_type, &[count, row]),
            TensorDesc::new(data_type, &[TARGETS, row]),
            2,
            2,
        )
        .with_reduction(reduction)
        .with_duplicates(duplicates)
        .into(),
    };
    let mut inputs = random_inputs(rng, &desc);
    let tensors: Vec<TensorDesc> = desc.inputs().iter().map(|(_, t)| (*t).clone()).collect();
    let signed = matches!(index_type, DataType::Int32 | DataType::Int64);
    write_indices(&tensors[1], &mut inputs[1], |_| {
        if rng.chance(97) {
            HOT as i128
        } else if signed && rng.chance(50) {
            HOT as i128 - TARGETS as i128
        } else {
            rng.range(0, TARGETS as u64 - 1) as i128
        }
    });
    if data_type.is_float() {
        // In any order, Add and Mul get values whose results no order changes.
        let values = if order_matters(reduction, duplicates) {
            Values::OrderFree
        } else {
            Values::Numbers
        };
        fill_scatter_floats(rng, &desc, &mut inputs, values, reduction);
    }
    Case { desc, inputs }
}

/// ScatterElements of 1-D outputs of `size` elements with `count` updates: half of them
/// crowded onto 40 targets, the rest anywhere (negative indices too).
pub fn reduction_onto(
    rng: &mut Rng,
    data_type: DataType,
    reduction: Reduction,
    size: u32,
    count: u32,
) -> Case {
    reduction_case(rng, data_type, reduction, size, count, true)
}

/// As [`reduction_onto`], the indices uniform over the whole output (no crowded targets).
pub fn reduction_spread_onto(
    rng: &mut Rng,
    data_type: DataType,
    reduction: Reduction,
    size: u32,
    count: u32,
) -> Case {
    reduction_case(rng, data_type, reduction, size, count, false)
}

fn reduction_case(
    rng: &mut Rng,
    data_type: DataType,
    reduction: Reduction,
    size: u32,
    count: u32,
    crowded: bool,
) -> Case {
    let desc = OperatorDesc::ScatterElements(
        ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[size]),
            TensorDesc::new(DataType::Int32, &[count]),
            TensorDesc::new(data_type, &[count]),
            TensorDesc::new(data_type, &[size]),
            0,
        )
        .with_reduction(reduction),
    );
    let mut inputs = random_inputs(rng, &desc);
    let indices = desc.inputs()[1].1.clone();
    write_indices(&indices, &mut inputs[1], |_| {
        let size = size as i128;
        if crowded && rng.chance(50) {
            rng.range(0, 39) as i128 * (size / 40)
        } else {
            rng.range(0, 2 * size as u64 - 1) as i128 - size
        }
    });
    if data_type.is_float() {
        fill_scatter_floats(rng, &desc, &mut inputs, Values::OrderFree, reduction);
    }
    Case { desc, inputs }
}
