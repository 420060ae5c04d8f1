//! Every entry point the library dispatches ([`Entry`]), declared once in one table: its WGSL
//! function, the shader file that holds it and the sections it lives in.

use super::files::ShaderFile;
use super::sections::Section;

/// What the registry knows of an entry point.
pub(crate) struct EntryInfo {
    /// The WGSL function.
    pub name: &'static str,
    /// The shader file that holds it: a variant has it when its module includes the file.
    pub file: ShaderFile,
    /// The sections of the file it lives in: a variant has it when it keeps them all.
    pub sections: &'static [Section],
}

/// Declares [`Entry`], `Entry::ALL` and `Entry::info` from one table: a row per entry point,
/// `Variant => "wgsl_function", ShaderFile, [sections]`.
macro_rules! entries {
    ($($(#[$doc:meta])* $entry:ident => $name:literal, $file:ident, [$($section:ident),*];)*) => {
        /// Every entry point the library dispatches.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub(crate) enum Entry {
            $($(#[$doc])* $entry,)*
        }

        impl Entry {
            pub const ALL: &'static [Entry] = &[$(Entry::$entry),*];

            pub const fn info(self) -> EntryInfo {
                match self {
                    $(Entry::$entry => EntryInfo {
                        name: $name,
                        file: ShaderFile::$file,
                        sections: &[$(Section::$section),*],
                    },)*
                }
            }
        }
    };
}

entries! {
    StridedCopy => "strided_copy", StridedCopy, [];
    StridedCopyBlocks => "strided_copy_blocks", StridedCopy, [];
    StridedCopyPlanes => "strided_copy_planes", StridedCopy, [];
    Scatter => "scatter", Scatter, [];
    ScatterWords => "scatter_words", Scatter, [SubWord];
    ScatterRows => "scatter_rows", Scatter, [Word];
    ScatterBlocks => "scatter_blocks", Scatter, [Word];
    /// Zeroes the in-order scatter's winners before its passes.
    ClearWinners => "clear_winners", ScatterInOrder, [];
    ClaimTargets => "claim_targets", ScatterInOrder, [];
    WriteWinners => "write_winners", ScatterInOrder, [];
    ScatterReduce => "scatter_reduce", ScatterReduce, [Narrow];
    /// Before Float32 Min and Max's sign atomics, or a pass that claims ties as it places: the
    /// output screened for NaNs the atomics would replace, the inputs' tie claims (in place of
    /// `clear_heads`); out of place, in the copying variant, also `output = input`.
    ScreenOutput => "screen_output", ScatterReduce, [Narrow];
    ScatterReduceWide => "scatter_reduce_wide", ScatterReduceWide, [DoubleWord];
    ScatterReduceBins => "scatter_reduce_bins", ScatterBins, [Narrow];
    /// After `scatter_reduce_bins` or `scatter_reduce_wide` onto a small output: each unit's
    /// workgroup partials folded.
    FoldPartials => "fold_partials", Partials, [Partials];
    /// Before a Float32 Add by float atomics: whether every output value is safe for them
    /// (out of place, in the copying variant, also `output = input`).
    ScreenFloatAdd => "screen_float_add", ScatterFloatAdd, [];
    ScatterAddFloatAtomics => "scatter_add_float_atomics", ScatterFloatAdd, [];
    RadixCount => "radix_count", Sort, [];
    RadixScanBlocks => "radix_scan_blocks", Sort, [];
    RadixScanSums => "radix_scan_sums", Sort, [];
    RadixScatter => "radix_scatter", Sort, [];
    FindRuns => "find_runs", ScatterRuns, [];
    FoldRuns => "fold_runs", ScatterRuns, [];
    FoldRunsCopy => "fold_runs_copy", ScatterRuns, [CopyInput];
    FoldLongRuns => "fold_long_runs", ScatterRuns, [];
    FoldSlices => "fold_slices", ScatterSliceRuns, [];
    FoldSliceColumns => "fold_slice_columns", ScatterSliceRuns, [];
    FoldSliceColumnsCopy => "fold_slice_columns_copy", ScatterSliceRuns, [CopyInput];
    FoldSliceColumnsCopyWide => "fold_slice_columns_copy_wide", ScatterSliceRuns, [CopyInput];
    FoldSliceRuns => "fold_slice_runs", ScatterSliceRuns, [];
    LinkSlices => "link_slices", ScatterLists, [];
    FoldSliceLists => "fold_slice_lists", ScatterLists, [];
    FoldSliceListColumns => "fold_slice_list_columns", ScatterLists, [];
    FoldSliceListRuns => "fold_slice_list_runs", ScatterLists, [];
    FoldSliceListCopy => "fold_slice_list_copy", ScatterLists, [CopyInput];
    FoldSliceListCopyWide => "fold_slice_list_copy_wide", ScatterLists, [CopyInput];
    /// The same walking `FOLD_STEPS` rows a part, where the device does not bound loops.
    FoldSliceListCopyWideLong => "fold_slice_list_copy_wide_long", ScatterLists, [CopyInput];
    /// After the lists' fold: the rows `link_slices` set aside past a block's bound.
    ReduceSpilledRows => "reduce_spilled_rows", ScatterListSpills, [CombinesRows];
    /// After the sort of rows crowded onto few blocks in any order: every row, combined as
    /// the set-aside rows are.
    ReduceSortedRows => "reduce_sorted_rows", ScatterListSpills, [CombinesRows];
    /// Zeroes a reduction's heads before its passes.
    ClearHeads => "clear_heads", Heads, [];
    ClaimTies => "claim_ties", ScatterReduce, [Ties];
    WriteTies => "write_ties", ScatterReduce, [Ties];
    /// After the pass that claims ties: each output unit's first tie.
    WriteUnitTies => "write_unit_ties", ScatterSlices, [Ties];
    /// After the lists' last pass (or the rows set aside): the first tie of each unit whose
    /// list went on or whose block's rows were set aside.
    WriteListTies => "write_list_ties", ScatterLists, [Ties];
    Gather => "gather", Gather, [];
    GatherWords => "gather_words", Gather, [SubWord];
    GatherRows => "gather_rows", Gather, [Word];
    GatherBlocks => "gather_blocks", Gather, [Word];
    ScatterSpans => "scatter_spans", Scatter, [SubWord];
    GatherSpans => "gather_spans", Gather, [SubWord];
    ScatterCopyRows => "scatter_copy_rows", Scatter, [Rows, CopyRows];
    ScatterRowsInPlace => "scatter_rows_in_place", Scatter, [Rows, RowsInPlace, SubWord];
    /// After a scatter or gather: the first out-of-range tuple's component and value.
    DescribeStatus => "describe_status", IndexMap, [];
}

impl Entry {
    pub fn name(self) -> &'static str {
        self.info().name
    }
}
