//! The kernels' uniform parameter blocks: one `#[repr(C)]` Pod struct per kernel family,
//! mirrored by a WGSL struct of the same name and members. A test reflects every shader
//! variant with naga and compares member names, offsets and the struct size with these.

use bytemuck::{Pod, Zeroable};

use crate::tensor::MAX_RANK;

/// `MAX_RANK` values, one per dimension, as WGSL's `array<vec4<u32>, 2>` (a uniform array's
/// stride is 16 bytes, so eight u32s travel as two vec4s).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub(crate) struct PerDimension([[u32; 4]; 2]);

impl PerDimension {
    /// The values, zero padded to `MAX_RANK` (at most `MAX_RANK` are given).
    pub fn new(values: impl IntoIterator<Item = u32>) -> PerDimension {
        let mut words = [0u32; MAX_RANK];
        for (word, value) in words.iter_mut().zip(values) {
            *word = value;
        }
        PerDimension([
            [words[0], words[1], words[2], words[3]],
            [words[4], words[5], words[6], words[7]],
        ])
    }

    /// Signed strides as two's-complement u32: the shaders' wrapping arithmetic lands on the
    /// right element as long as the true offset fits, which the binding limit ensures.
    pub fn strides(values: &[i64]) -> PerDimension {
        PerDimension::new(values.iter().map(|&s| s as u32))
    }
}

/// Declares a parameter struct and the table of its members' names and offsets.
macro_rules! parameters {
    ($(#[$meta:meta])* $name:ident { $($(#[$field_meta:meta])* $field:ident: $ty:ty,)* }) => {
        $(#[$meta])*
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
        pub(crate) struct $name {
            $($(#[$field_meta])* pub $field: $ty,)*
        }

        impl $name {
            /// Each member's name and byte offset, for the layout test.
            #[cfg(test)]
            pub const MEMBERS: &'static [(&'static str, usize)] =
                &[$((stringify!($field), std::mem::offset_of!($name, $field)),)*];
        }
    };
}

parameters! {
    /// `shaders/strided_copy.wgsl`'s `StridedCopyParams`.
    StridedCopyParams {
        /// Threads: rows (the product of the outer sizes) times `row_groups`.
        count: u32,
        rank: u32,
        input_base: u32,
        output_base: u32,
        /// The innermost size, and the groups (or blocks) of units that cover it.
        inner: u32,
        row_groups: u32,
        /// Units a thread of `strided_copy_planes` (1 up to the unit's copy group).
        plane_group: u32,
        /// Where nonzero, the unit after the copy's (a contiguous run's, at `input_base +
        /// inner` and `output_base + inner`) is copied too, only the bits under this mask (in
        /// each of its words); the output keeps the rest. A run of 1- or 2-byte elements
        /// copied as words whose last word holds bytes past the tensor. It also puts the
        /// per-dimension arrays at a 16-byte boundary.
        last_mask: u32,
        sizes: PerDimension,
        input_strides: PerDimension,
        output_strides: PerDimension,
    }
}

impl StridedCopyParams {
    /// Where the copy is one contiguous run of bytes (every dimension but the innermost of
    /// size 1, the innermost contiguous in both tensors): the byte offsets of the run in the
    /// input and output bindings and its length, for units of `unit_bytes`.
    pub fn contiguous_run(&self, unit_bytes: u32) -> Option<ContiguousRun> {
        let rank = self.rank as usize;
        let at = |values: &PerDimension, d: usize| values.0[d / 4][d % 4];
        let inner = rank.checked_sub(1)?;
        let packed = (0..inner).all(|d| at(&self.sizes, d) == 1)
            && at(&self.input_strides, inner) == 1
            && at(&self.output_strides, inner) == 1;
        let unit = unit_bytes as u64;
        // A merged last unit is not a plain run of bytes (a copy command would overwrite
        // the bytes it keeps).
        let packed = packed && self.last_mask == 0;
        packed.then(|| ContiguousRun {
            source: self.input_base as u64 * unit,
            target: self.output_base as u64 * unit,
            bytes: at(&self.sizes, inner) as u64 * unit,
        })
    }
}

/// A copy of `bytes` from `source` bytes into the input binding to `target` bytes into the
/// output binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ContiguousRun {
    pub source: u64,
    pub target: u64,
    pub bytes: u64,
}

parameters! {
    /// `IndexParams::in_order`: in-order reductions sorted by target (`radix_count` ..
    /// `fold_long_runs`), and reductions by rows, sorted or listed (`fold_slices`,
    /// `fold_slice_runs`, `link_slices` ..).
    InOrderParams {
        /// The units of a row (the trailing dimensions sharing one index tuple), the rows,
        /// and the trailing dimensions a row spans.
        slice_units: u32,
        slices: u32,
        slice_rank: u32,
        /// The updates (or rows) sorted, the output units (or blocks: the keys), the radix
        /// pass's shift (its digit times `RADIX_BITS`; past the last pass, which array holds
        /// the result), and the pass's tiles of `radix_rounds` (at most `RADIX_ROUNDS`) times
        /// the workgroup's size updates.
        sort_count: u32,
        sort_units: u32,
        radix_shift: u32,
        radix_tiles: u32,
        radix_rounds: u32,
        /// The folds' passes (`fold_long_runs`, `fold_slice_runs`, `fold_slice_list_runs`):
        /// this pass, the entries of each list of runs that go on, and the column tiles of a
        /// row.
        fold_pass: u32,
        fold_capacity: u32,
        fold_tiles: u32,
        /// The folds' flags (`FOLD_BY_SLICES`, `FOLD_IN_ANY_ORDER`, `FOLD_WIDE_FIRST`,
        /// `DESCRIBES_STATUS`: `shaders/scatter_slices.wgsl`).
        fold_flags: u32,
        /// Float Min and Max in order by lists (`ReduceOrder::ListTies`): where the output
        /// units' tie words start in the heads.
        tie_words: u32,
        /// The lists' later passes: rounds of `SLICE_TURNS` turns a workgroup takes (1, or
        /// `LIST_ROUNDS` on a device that does not bound loops); the sorted runs'
        /// `fold_long_runs`: spans of `LONG_SPAN` a workgroup folds a pass (1, or
        /// `LONG_ROUNDS`).
        fold_rounds: u32,
        /// The rows a block's list holds at most where `link_slices` sets the rest aside
        /// (`SPILLS_ROWS`).
        spill_bound: u32,
        /// Rows a workgroup of `reduce_spilled_rows` or `reduce_sorted_rows` combines (at
        /// most `SPILL_ROUNDS` workgroup widths).
        run_rows: u32,
    }
}

parameters! {
    /// `IndexParams::copy`: scatters that take a workgroup a row (`scatter_copy_rows`, out of
    /// place; `scatter_rows_in_place`): the rows the dispatch takes (out of place the
    /// output's, in place the updates' outer size), their units, the updates a row takes
    /// (the dense units of one outer coordinate), and the threads of the kernel's workgroup
    /// (a pipeline constant, as the row's length).
    CopyRowParams {
        rows: u32,
        length: u32,
        row_units: u32,
        threads: u32,
    }
}

parameters! {
    /// `IndexParams::sequence`: TensorScatter's write positions (`INDEX_SEQUENCE`). The walk's
    /// tuple position is `entry * length + s` (`s` the update's position along the sequence
    /// axis); the entry's write index is indices element `entry * write_stride`.
    SequenceParams {
        /// The updates' length along the sequence axis (at least 1 where a kernel runs).
        length: u32,
        write_stride: u32,
        /// A uniform struct member's size is a multiple of 16 bytes.
        padding: [u32; 2],
    }
}

parameters! {
    /// `IndexParams::bins`: the any-order reductions (`scatter_reduce`, `scatter_reduce_wide`,
    /// `scatter_reduce_bins`): the output's units (the bins', and the wide slots' where they
    /// are a slot a unit: past `BIN_CAPACITY` or `WIDE_SLOTS` a range of them a workgroup) or
    /// the wide pass's shared slots (at most `WIDE_SLOTS`), the updates a thread takes (at
    /// most `REDUCE_GROUP`; the bins' and the wide slots' a unit each `BIN_GROUP`), and the
    /// threads that take them (a chunk, which each range's workgroups take).
    BinParams {
        units: u32,
        per_thread: u32,
        threads: u32,
        /// The chunks' workgroups of the wide compare-exchange pass or of the bins, where each
        /// stores its slots or bins for `fold_partials` instead of
        /// combining them into the output (0: it combines).
        partial_groups: u32,
        /// The output units a workgroup of `fold_partials` folds (`scatter_bins::PartialFold`;
        /// the threads that fold each, the workgroup's threads divided by them, it derives).
        fold_units: u32,
        /// Float Min and Max in order without lists (`ReduceOrder::FirstTie`): 1 where
        /// `scatter_reduce` and `scatter_reduce_bins` claim tied updates as they place them
        /// (`CLAIMS_AS_PLACED`, `shaders/scatter_reduce.wgsl`; and `screen_output` makes
        /// the inputs' claims), 0 where `claim_ties` does.
        claims: u32,
        /// Float32 Min and Max: 1 where `scatter_reduce` takes the reduction's side of the
        /// sign by atomicMax (and `screen_output` screens for the NaNs it would replace), 2
        /// where it takes only the NaNs that pass refused (`SIGN_ATOMICS_PASS`,
        /// `REFUSED_NANS_PASS`: `shaders/scatter_reduce.wgsl`), 0 neither.
        sign_atomics: u32,
        /// A uniform struct member's size is a multiple of 16 bytes.
        padding_word: u32,
    }
}

parameters! {
    /// `shaders/index_map.wgsl`'s `IndexParams`, shared by the scatter and gather families.
    IndexParams {
        /// Threads, or units for the grouped entry points (which divide it by their group), or
        /// the words `clear_heads` and `clear_winners` zero.
        count: u32,
        rank: u32,
        tuple_size: u32,
        /// `INDEX_SIGNED`, `INDEX_WORD_PAIRS`, `INDEX_CLAMP`, `INDEX_SEQUENCE` and
        /// `INDEX_CIRCULAR`.
        index_flags: u32,
        tuple_stride: u32,
        /// Column blocks of this many groups (0: row-major).
        tile: u32,
        row_groups: u32,
        rows: u32,
        /// The in-order reductions' and row reductions' members.
        in_order: InOrderParams,
        /// The row kernels' members (`scatter_copy_rows`, `scatter_rows_in_place`).
        copy: CopyRowParams,
        /// TensorScatter's members.
        sequence: SequenceParams,
        /// `scatter_reduce_bins`' members.
        bins: BinParams,
        sizes: PerDimension,
        dense_strides: PerDimension,
        indexed_strides: PerDimension,
        indices_strides: PerDimension,
        index_bounds: PerDimension,
        index_strides: PerDimension,
    }
}

parameters! {
    /// The generated `WindowParams` of kernels whose tensors are split into more windows than
    /// a dispatch binds (`Windowing::partial`): per role (`Role::index`), the first window
    /// bound, and the windows `[own_begin, own_end)` whose elements this dispatch handles.
    WindowParams {
        first: PerDimension,
        own_begin: PerDimension,
        own_end: PerDimension,
    }
}

/// A kernel dispatch's parameters, of its family's type.
// The uniform blocks' own layouts: a step's parameters are written once into a uniform
// buffer, so the few hundred bytes the smaller variant carries spare cost nothing, and a
// box would cost the `Copy` the plans rely on.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Parameters {
    StridedCopy(StridedCopyParams),
    Index(IndexParams),
}

/// `IndexParams::index_flags`: the index type is signed.
pub(crate) const INDEX_SIGNED: u32 = 1;
/// `IndexParams::index_flags`: the index type is 64 bits wide (each index two words).
pub(crate) const INDEX_WORD_PAIRS: u32 = 2;
/// `IndexParams::index_flags`: out-of-range indices are clamped. The kernels read it as the
/// pipeline constant `CLAMP_INDICES` (so kernels that report keep their code unchanged);
/// the other bits as `INDEX_FLAGS`.
pub(crate) const INDEX_CLAMP: u32 = 4;
/// `IndexParams::index_flags`: TensorScatter's write positions: a tuple position is an update's
/// batch entry and sequence position (`IndexParams::sequence`), its index the entry's write
/// index plus that position.
pub(crate) const INDEX_SEQUENCE: u32 = 8;
/// `IndexParams::index_flags`, with `INDEX_SEQUENCE`: positions wrap around the sequence
/// axis (TensorScatter's circular mode).
pub(crate) const INDEX_CIRCULAR: u32 = 16;

/// The index-format bits as WGSL constants, for the shaders' prelude.
pub(crate) fn wgsl_constants() -> String {
    [
        ("INDEX_SIGNED", INDEX_SIGNED),
        ("INDEX_WORD_PAIRS", INDEX_WORD_PAIRS),
        ("INDEX_SEQUENCE", INDEX_SEQUENCE),
        ("INDEX_CIRCULAR", INDEX_CIRCULAR),
    ]
    .iter()
    .map(|(name, bit)| format!("const {name}: u32 = {bit}u;\n"))
    .collect()
}

/// The workgroup memory (in units) of the row kernels (`scatter_copy_rows`,
/// `scatter_rows_in_place`) for rows of `length` units: the next power of two up to 4096
/// units (16 KiB, WebGPU's least `max_compute_workgroup_storage_size`), past it the next
/// multiple of 1024. The row's length itself is a uniform: rows of any length up to a
/// device's limit share a few pipelines (13 under 48 KiB). Past 4096 the step is fine
/// because workgroup memory bounds how many workgroups a GPU core holds: on an H100, rows
/// of 4097 bytes in 32 KiB buckets ran at half the speed of rows of 4096 bytes.
pub(crate) fn row_capacity(length: u32) -> u32 {
    const POWERS: u32 = 4096;
    const STEP: u32 = 1024;
    if length <= POWERS {
        length.max(1).next_power_of_two()
    } else {
        length.div_ceil(STEP).saturating_mul(STEP)
    }
}

impl Parameters {
    /// The pipeline constants of a dispatch with these parameters. Every kernel is
    /// specialised by its rank (`RANK`), a strided copy also by whether it merges a last word
    /// (`MERGES_LAST_WORD`), and the index-map kernels also by their tuple size
    /// (`TUPLE_SIZE`), their index format (`INDEX_FLAGS`) and `CLAMP_INDICES`: with those
    /// known when the pipeline is built, the driver unrolls the per-dimension walks and reads
    /// each dimension's values from fixed places, and the index loads lose their format
    /// branches (a runtime test in the index walk cost 9 to 15 % on an H100's row scatters).
    pub fn pipeline_constants(&self) -> PipelineConstants {
        match self {
            // Only the copies of ragged runs merge a last word: the others' pipelines lose
            // the check (a check once a thread cost the benchmark's crop about 1 %).
            Parameters::StridedCopy(p) => PipelineConstants::default()
                .with("RANK", p.rank)
                .with("MERGES_LAST_WORD", u32::from(p.last_mask != 0)),
            Parameters::Index(p) => {
                let constants = PipelineConstants::default()
                    .with("RANK", p.rank)
                    .with("TUPLE_SIZE", p.tuple_size)
                    .with("INDEX_FLAGS", p.index_flags & !INDEX_CLAMP)
                    .with("CLAMP_INDICES", u32::from(p.index_flags & INDEX_CLAMP != 0));
                // The row kernels hold a row in workgroup memory sized by a constant (the
                // row's length rounded up, so that lengths share pipelines), in workgroups of
                // a size of its own.
                if p.copy.length != 0 {
                    constants
                        .with("ROW_CAPACITY", row_capacity(p.copy.length))
                        .with("ROW_THREADS", p.copy.threads)
                } else if p.bins.sign_atomics != 0 {
                    // Float32 Min and Max's sign atomics: a path of `scatter_reduce` the
                    // kernel's other pipelines leave out (it cost them 2 to 3 % as a uniform
                    // branch).
                    constants.with("SIGN_ATOMICS_ON", 1)
                } else {
                    constants
                }
            }
        }
    }

    pub fn bytes(&self) -> &[u8] {
        match self {
            Parameters::StridedCopy(p) => bytemuck::bytes_of(p),
            Parameters::Index(p) => bytemuck::bytes_of(p),
        }
    }
}

/// A pipeline's override constants: up to six names with integer (or boolean) values, a
/// key of the pipeline cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct PipelineConstants {
    names: [&'static str; 6],
    values: [u32; 6],
    len: usize,
}

impl PipelineConstants {
    fn with(mut self, name: &'static str, value: u32) -> PipelineConstants {
        self.names[self.len] = name;
        self.values[self.len] = value;
        self.len += 1;
        self
    }

    /// As wgpu takes them (WGSL's u32 and bool overrides take any integer value an f64
    /// holds exactly).
    pub fn entries(&self) -> Vec<(&'static str, f64)> {
        (0..self.len)
            .map(|k| (self.names[k], f64::from(self.values[k])))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::Kernel;

    /// The WGSL struct `name` of `source`: its members' names and offsets, and its size.
    fn reflect(source: &str, name: &str) -> (Vec<(String, usize)>, usize) {
        let module = naga::front::wgsl::parse_str(source).expect("the shader parses");
        let mut layouter = naga::proc::Layouter::default();
        layouter
            .update(module.to_ctx())
            .expect("the shader's types lay out");
        let (handle, ty) = module
            .types
            .iter()
            .find(|(_, ty)| ty.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no struct {name}"));
        let naga::TypeInner::Struct { members, span } = &ty.inner else {
            panic!("{name} is not a struct");
        };
        let members = members
            .iter()
            .map(|m| (m.name.clone().unwrap_or_default(), m.offset as usize))
            .collect();
        assert_eq!(*span, layouter[handle].size, "{name}'s span");
        (members, *span as usize)
    }

    fn rust_layout(members: &[(&str, usize)], size: usize) -> (Vec<(String, usize)>, usize) {
        let members = members
            .iter()
            .map(|&(name, offset)| (name.to_string(), offset))
            .collect();
        (members, size)
    }

    #[test]
    fn every_kernels_params_struct_matches_its_rust_struct() {
        for kernel in Kernel::all() {
            let source = kernel.source(256);
            let (name, rust) = match kernel {
                Kernel::StridedCopy(_) => (
                    "StridedCopyParams",
                    rust_layout(StridedCopyParams::MEMBERS, size_of::<StridedCopyParams>()),
                ),
                Kernel::Scatter { .. } | Kernel::ScatterReduce { .. } | Kernel::Gather(_) => (
                    "IndexParams",
                    rust_layout(IndexParams::MEMBERS, size_of::<IndexParams>()),
                ),
            };
            assert_eq!(reflect(&source, name), rust, "{kernel:?}");
            if name == "IndexParams" {
                for (member, rust) in [
                    (
                        "InOrderParams",
                        rust_layout(InOrderParams::MEMBERS, size_of::<InOrderParams>()),
                    ),
                    (
                        "CopyRowParams",
                        rust_layout(CopyRowParams::MEMBERS, size_of::<CopyRowParams>()),
                    ),
                    (
                        "SequenceParams",
                        rust_layout(SequenceParams::MEMBERS, size_of::<SequenceParams>()),
                    ),
                    (
                        "BinParams",
                        rust_layout(BinParams::MEMBERS, size_of::<BinParams>()),
                    ),
                ] {
                    assert_eq!(reflect(&source, member), rust, "{kernel:?}");
                }
            }
        }
    }

    #[test]
    fn the_window_params_struct_matches_its_rust_struct() {
        use crate::kernels::{ROLES, Windowing};
        let windowing = Windowing {
            window_shift: 12,
            bound: [2; ROLES],
            partial: true,
            half_stores: false,
        };
        for kernel in Kernel::all() {
            let source = kernel.windowed_source(256, &windowing);
            assert_eq!(
                reflect(&source, "WindowParams"),
                rust_layout(WindowParams::MEMBERS, size_of::<WindowParams>()),
                "{kernel:?}"
            );
        }
    }

    #[test]
    fn a_moved_member_changes_the_reflected_layout() {
        // The test above would catch a WGSL member moved: swap two and reflect again.
        let source = Kernel::all()[0].source(256);
        let moved = source.replacen(
            "    input_base: u32,\n    output_base: u32,",
            "    output_base: u32,\n    input_base: u32,",
            1,
        );
        assert_ne!(
            moved, source,
            "the members to swap are where the test expects"
        );
        assert_ne!(
            reflect(&moved, "StridedCopyParams"),
            rust_layout(StridedCopyParams::MEMBERS, size_of::<StridedCopyParams>()),
        );
    }

    #[test]
    fn per_dimension_values_pad_to_the_rank_limit() {
        let p = PerDimension::new([1, 2, 3, 4, 5]);
        assert_eq!(p.0, [[1, 2, 3, 4], [5, 0, 0, 0]]);
        assert_eq!(PerDimension::strides(&[-1, 2]).0[0], [u32::MAX, 2, 0, 0]);
    }
}
