//! The closed shader registry: every kernel the library can dispatch, its WGSL source,
//! entry point, bindings and specialisation.
//!
//! A kernel is one operator family's shader specialised for an element *unit*: the kernels
//! move bits, so the 11 data types map onto five units (1, 2, 4, 8 and 16 bytes, the last
//! for runs of narrower elements moved 16 bytes at a time). The unit decides the WGSL
//! storage type and how elements are loaded and stored; the registry writes that into a
//! header it prepends to `shaders/common.wgsl` and the family's shader.

use crate::options::Reduction;
use crate::status;
use crate::tensor::DataType;

/// The size class an element is moved as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Unit {
    /// 1-byte elements inside u32 words; stores go through compare-exchange on the word.
    Byte,
    /// 2-byte elements inside u32 words; stores go through compare-exchange on the word.
    Half,
    /// One u32.
    Word,
    /// `vec2<u32>`: 8-byte elements.
    DoubleWord,
    /// `vec4<u32>`: 16 contiguous bytes of narrower elements.
    QuadWord,
}

impl Unit {
    pub const ALL: [Unit; 5] = [
        Unit::Byte,
        Unit::Half,
        Unit::Word,
        Unit::DoubleWord,
        Unit::QuadWord,
    ];

    pub fn from_bytes(bytes: u32) -> Unit {
        match bytes {
            1 => Unit::Byte,
            2 => Unit::Half,
            4 => Unit::Word,
            8 => Unit::DoubleWord,
            16 => Unit::QuadWord,
            _ => unreachable!("element units are 1, 2, 4, 8 or 16 bytes, not {bytes}"),
        }
    }

    pub fn bytes(self) -> u32 {
        match self {
            Unit::Byte => 1,
            Unit::Half => 2,
            Unit::Word => 4,
            Unit::DoubleWord => 8,
            Unit::QuadWord => 16,
        }
    }

    /// Units a strided-copy thread moves: 16 bytes' worth where units are narrower.
    pub fn copy_group(self) -> u32 {
        match self {
            Unit::Byte | Unit::Half | Unit::Word => 4,
            Unit::DoubleWord => 2,
            Unit::QuadWord => 1,
        }
    }

    pub fn is_sub_word(self) -> bool {
        matches!(self, Unit::Byte | Unit::Half)
    }

    /// The WGSL type of one array entry holding this unit.
    fn wgsl_type(self) -> &'static str {
        match self {
            Unit::Byte | Unit::Half | Unit::Word => "u32",
            Unit::DoubleWord => "vec2<u32>",
            Unit::QuadWord => "vec4<u32>",
        }
    }
}

/// How a kernel uses one of its storage bindings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    /// Elements of the kernel's unit, read only: the header defines `load_<name>(element)`.
    ReadElements,
    /// Elements of the kernel's unit, written: the header defines `store_<name>(element, value)`.
    WriteElements,
    /// Raw u32 words, read only (index tensors of 4- or 8-byte integers).
    ReadWords,
    /// `atomic<u32>` words (status reports, in-order claims, reduction lists).
    AtomicWords,
    /// Elements of the kernel's unit, read and combined: `load_<name>`, `store_<name>`, and
    /// for units of at most 4 bytes `reduce_<name>(element, update)` (a compare-exchange loop
    /// on the element's word through `combine_unit`, so 4-byte units are `atomic<u32>` too).
    ReduceElements,
}

/// What a storage binding holds; the host binds each kernel's buffers by role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// The operator's `input` tensor (its input 0).
    Input,
    /// The `indices` tensor (input 1).
    Indices,
    /// A scatter's `updates` tensor (input 2).
    Updates,
    /// The output tensor.
    Output,
    /// The operator's own status words (`src/status.rs`).
    Status,
    /// The operator's own scratch: per-element winners of a in-order scatter.
    Winners,
    /// The operator's own scratch: per-element list heads of an in-order reduction (the
    /// winners' buffer: one operator never uses both).
    Heads,
    /// The operator's own scratch: per-update list links of an in-order reduction.
    Links,
}

/// How many roles there are ([`Role::index`] is below this).
pub(crate) const ROLES: usize = 8;

impl Role {
    /// The role's place in per-role tables (`Windowing`, `WindowParams`).
    pub fn index(self) -> usize {
        match self {
            Role::Input => 0,
            Role::Indices => 1,
            Role::Updates => 2,
            Role::Output => 3,
            Role::Status => 4,
            Role::Winners => 5,
            Role::Heads => 6,
            Role::Links => 7,
        }
    }

    /// The binding's name in WGSL.
    pub fn name(self) -> &'static str {
        match self {
            Role::Input => "input",
            Role::Indices => "indices",
            Role::Updates => "updates",
            Role::Output => "output",
            Role::Status => "status",
            Role::Winners => "winners",
            Role::Heads => "heads",
            Role::Links => "links",
        }
    }
}

/// One storage binding (binding 0 is always the uniform `params`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Binding {
    pub role: Role,
    pub access: Access,
}

impl Binding {
    pub fn read_only(&self) -> bool {
        matches!(self.access, Access::ReadElements | Access::ReadWords)
    }

    /// The bytes of one entry of the binding's WGSL array, for a kernel of `unit`.
    pub fn entry_bytes(&self, unit: Unit) -> u32 {
        match self.access {
            Access::ReadElements | Access::WriteElements | Access::ReduceElements
                if !unit.is_sub_word() =>
            {
                unit.bytes()
            }
            _ => 4,
        }
    }
}

/// How a kernel variant binds its tensors: each whole, in one binding (as every tensor that
/// fits the device's `max_storage_buffer_binding_size` is), or as windows of one buffer:
/// bindings of `2^window_shift` bytes each at consecutive offsets (the last one shorter).
/// Window sizes are powers of two so that the accessors find a window with a shift and a
/// mask. Part of the pipeline's key: it changes the bindings and the accessors' code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Windowing {
    /// log2 of the window size in bytes (where any tensor is split).
    pub window_shift: u32,
    /// Per role ([`Role::index`]): the windows a dispatch binds, 0 for the whole tensor in
    /// one binding.
    pub bound: [u32; ROLES],
    /// Whether a dispatch binds only some of a tensor's windows. A `windows` uniform then says
    /// which windows are bound and which the dispatch owns, and every element is handled by
    /// the one dispatch that owns all the windows it touches (`owns_<role>`).
    pub partial: bool,
}

impl Windowing {
    /// The WGSL expression of the first window bound of `role`'s tensor.
    fn first_window(&self, role: Role) -> String {
        if self.partial {
            let r = role.index();
            format!("windows.first[{}][{}]", r / 4, r % 4)
        } else {
            "0u".to_string()
        }
    }

    /// The WGSL expressions of the windows of `role` this dispatch owns, [begin, end).
    fn owned_windows(&self, role: Role) -> (String, String) {
        let r = role.index();
        (
            format!("windows.own_begin[{}][{}]", r / 4, r % 4),
            format!("windows.own_end[{}][{}]", r / 4, r % 4),
        )
    }

    /// The storage bindings a binding takes: one, or one per window bound.
    pub fn slots(&self, role: Role) -> u32 {
        self.bound[role.index()].max(1)
    }
}

/// The WGSL mirror of `WindowParams` (src/params.rs), declared by partial windowings.
const WINDOW_PARAMS: &str = "// Mirrors WindowParams in src/params.rs.
struct WindowParams {
    first: array<vec4<u32>, 2>,
    own_begin: array<vec4<u32>, 2>,
    own_end: array<vec4<u32>, 2>,
}
";

/// Every shader variant the library dispatches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kernel {
    /// `shaders/strided_copy.wgsl`: Slice, Slice1 and every strided copy.
    StridedCopy(Unit),
    /// `shaders/scatter.wgsl`: ScatterElements and ScatterND, with either the single
    /// any-update pass or the two in-order passes; with `copy_rows` (any update, 4-byte
    /// units), also the input bound and `scatter_copy_rows`, which copies as it scatters.
    Scatter {
        unit: Unit,
        in_order: bool,
        copy_rows: bool,
    },
    /// `shaders/scatter.wgsl` with `shaders/arithmetic.wgsl`: a scatter combining updates
    /// into their targets. The arithmetic depends on the data type, not just its width.
    ScatterReduce {
        data_type: DataType,
        reduction: Reduction,
        order: ReduceOrder,
    },
    /// `shaders/gather.wgsl`: Gather, GatherElements and GatherND.
    Gather(Unit),
}

/// How a scatter reduction kernel orders the updates of one target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ReduceOrder {
    /// One compare-exchange pass, in any order.
    Any,
    /// The compare-exchange pass between `claim_ties` and `write_ties`: float Min and Max in
    /// order (the first of tied zeros or NaNs wins).
    FirstTie,
    /// The updates' order: runs sorted by target (8-byte elements always).
    InOrder,
}

/// A part of a family's shader that only some variants keep, between the lines
/// `// @<marker>-begin` and `// @<marker>-end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Section {
    /// The scatter's single pass in `DuplicateMode::AnyUpdate`.
    AnyUpdate,
    /// The scatter's claim and write passes in `DuplicateMode::InOrder`.
    InOrder,
    /// Grouped entry points of 4-byte units.
    Word,
    /// Grouped entry points of 1- and 2-byte units.
    SubWord,
    /// The scatter reduction's single compare-exchange pass.
    Reduce,
    /// The in-order scatter reduction's link and fold passes.
    InOrderReduce,
    /// Float Min and Max in order: the passes that settle tied zeros and NaNs.
    Ties,
    /// The any-update scatter that copies each output row before scattering into it.
    CopyRows,
}

impl Section {
    pub const ALL: [Section; 8] = [
        Section::AnyUpdate,
        Section::InOrder,
        Section::Word,
        Section::SubWord,
        Section::Reduce,
        Section::InOrderReduce,
        Section::Ties,
        Section::CopyRows,
    ];

    pub fn marker(self) -> &'static str {
        match self {
            Section::AnyUpdate => "any-update",
            Section::InOrder => "in-order",
            Section::Word => "word",
            Section::SubWord => "sub-word",
            Section::Reduce => "reduce",
            Section::InOrderReduce => "in-order-reduce",
            Section::Ties => "ties",
            Section::CopyRows => "copy-rows",
        }
    }
}

/// The three shader families.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    StridedCopy,
    Scatter,
    Gather,
}

/// Every entry point the library dispatches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Entry {
    StridedCopy,
    StridedCopyBlocks,
    StridedCopyPlanes,
    Scatter,
    ScatterWords,
    ScatterRows,
    ScatterBlocks,
    ClaimTargets,
    WriteWinners,
    ScatterReduce,
    SortKeys,
    SortSliceKeys,
    RadixCount,
    RadixScanBlocks,
    RadixScanSums,
    RadixScatter,
    FindRuns,
    FoldRuns,
    FoldLongRuns,
    FoldSlices,
    FoldSliceRuns,
    LinkSlices,
    FoldSliceLists,
    FoldSliceListRuns,
    ClaimTies,
    WriteTies,
    Gather,
    GatherWords,
    GatherRows,
    GatherBlocks,
    ScatterSpans,
    GatherSpans,
    ScatterCopyRows,
    /// After a scatter or gather: the first out-of-range tuple's component and value.
    DescribeStatus,
}

/// What the registry knows of an entry point.
pub(crate) struct EntryInfo {
    /// The WGSL function.
    pub name: &'static str,
    /// The families whose shader holds it.
    pub families: &'static [Family],
    /// The sections it lives in: a variant has it when it keeps them all.
    pub sections: &'static [Section],
}

impl Entry {
    pub const ALL: [Entry; 34] = [
        Entry::StridedCopy,
        Entry::StridedCopyBlocks,
        Entry::StridedCopyPlanes,
        Entry::Scatter,
        Entry::ScatterWords,
        Entry::ScatterRows,
        Entry::ScatterBlocks,
        Entry::ClaimTargets,
        Entry::WriteWinners,
        Entry::ScatterReduce,
        Entry::SortKeys,
        Entry::SortSliceKeys,
        Entry::RadixCount,
        Entry::RadixScanBlocks,
        Entry::RadixScanSums,
        Entry::RadixScatter,
        Entry::FindRuns,
        Entry::FoldRuns,
        Entry::FoldLongRuns,
        Entry::FoldSlices,
        Entry::FoldSliceRuns,
        Entry::LinkSlices,
        Entry::FoldSliceLists,
        Entry::FoldSliceListRuns,
        Entry::ClaimTies,
        Entry::WriteTies,
        Entry::Gather,
        Entry::GatherWords,
        Entry::GatherRows,
        Entry::GatherBlocks,
        Entry::ScatterSpans,
        Entry::GatherSpans,
        Entry::ScatterCopyRows,
        Entry::DescribeStatus,
    ];

    /// The one declaration of every entry point.
    pub const fn info(self) -> EntryInfo {
        use Family as F;
        use Section as S;
        let (name, families, sections): (_, &[Family], &[Section]) = match self {
            Entry::StridedCopy => ("strided_copy", &[F::StridedCopy], &[]),
            Entry::StridedCopyBlocks => ("strided_copy_blocks", &[F::StridedCopy], &[]),
            Entry::StridedCopyPlanes => ("strided_copy_planes", &[F::StridedCopy], &[]),
            Entry::Scatter => ("scatter", &[F::Scatter], &[S::AnyUpdate]),
            Entry::ScatterWords => ("scatter_words", &[F::Scatter], &[S::AnyUpdate, S::SubWord]),
            Entry::ScatterRows => ("scatter_rows", &[F::Scatter], &[S::AnyUpdate, S::Word]),
            Entry::ScatterBlocks => ("scatter_blocks", &[F::Scatter], &[S::AnyUpdate, S::Word]),
            Entry::ClaimTargets => ("claim_targets", &[F::Scatter], &[S::InOrder]),
            Entry::WriteWinners => ("write_winners", &[F::Scatter], &[S::InOrder]),
            Entry::ScatterReduce => ("scatter_reduce", &[F::Scatter], &[S::Reduce]),
            Entry::SortKeys => ("sort_keys", &[F::Scatter], &[S::InOrderReduce]),
            Entry::SortSliceKeys => ("sort_slice_keys", &[F::Scatter], &[S::InOrderReduce]),
            Entry::RadixCount => ("radix_count", &[F::Scatter], &[S::InOrderReduce]),
            Entry::RadixScanBlocks => ("radix_scan_blocks", &[F::Scatter], &[S::InOrderReduce]),
            Entry::RadixScanSums => ("radix_scan_sums", &[F::Scatter], &[S::InOrderReduce]),
            Entry::RadixScatter => ("radix_scatter", &[F::Scatter], &[S::InOrderReduce]),
            Entry::FindRuns => ("find_runs", &[F::Scatter], &[S::InOrderReduce]),
            Entry::FoldRuns => ("fold_runs", &[F::Scatter], &[S::InOrderReduce]),
            Entry::FoldLongRuns => ("fold_long_runs", &[F::Scatter], &[S::InOrderReduce]),
            Entry::FoldSlices => ("fold_slices", &[F::Scatter], &[S::InOrderReduce]),
            Entry::FoldSliceRuns => ("fold_slice_runs", &[F::Scatter], &[S::InOrderReduce]),
            Entry::LinkSlices => ("link_slices", &[F::Scatter], &[S::InOrderReduce]),
            Entry::FoldSliceLists => ("fold_slice_lists", &[F::Scatter], &[S::InOrderReduce]),
            Entry::FoldSliceListRuns => {
                ("fold_slice_list_runs", &[F::Scatter], &[S::InOrderReduce])
            }
            Entry::ClaimTies => ("claim_ties", &[F::Scatter], &[S::Reduce, S::Ties]),
            Entry::WriteTies => ("write_ties", &[F::Scatter], &[S::Reduce, S::Ties]),
            Entry::Gather => ("gather", &[F::Gather], &[]),
            Entry::GatherWords => ("gather_words", &[F::Gather], &[S::SubWord]),
            Entry::GatherRows => ("gather_rows", &[F::Gather], &[S::Word]),
            Entry::GatherBlocks => ("gather_blocks", &[F::Gather], &[S::Word]),
            Entry::ScatterSpans => ("scatter_spans", &[F::Scatter], &[S::AnyUpdate, S::SubWord]),
            Entry::GatherSpans => ("gather_spans", &[F::Gather], &[S::SubWord]),
            Entry::ScatterCopyRows => (
                "scatter_copy_rows",
                &[F::Scatter],
                &[S::AnyUpdate, S::Word, S::CopyRows],
            ),
            Entry::DescribeStatus => ("describe_status", &[F::Scatter, F::Gather], &[]),
        };
        EntryInfo {
            name,
            families,
            sections,
        }
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }
}

const COMMON: &str = include_str!("../shaders/common.wgsl");
const INDEX_MAP: &str = include_str!("../shaders/index_map.wgsl");
const STRIDED_COPY: &str = include_str!("../shaders/strided_copy.wgsl");
const SCATTER: &str = include_str!("../shaders/scatter.wgsl");
const GATHER: &str = include_str!("../shaders/gather.wgsl");
const ARITHMETIC: &str = include_str!("../shaders/arithmetic.wgsl");

const fn binding(role: Role, access: Access) -> Binding {
    Binding { role, access }
}

const STRIDED_COPY_BINDINGS: &[Binding] = &[
    binding(Role::Input, Access::ReadElements),
    binding(Role::Output, Access::WriteElements),
];
const SCATTER_BINDINGS: &[Binding] = &[
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::WriteElements),
    binding(Role::Status, Access::AtomicWords),
];
const SCATTER_COPY_ROWS_BINDINGS: &[Binding] = &[
    binding(Role::Input, Access::ReadElements),
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::WriteElements),
    binding(Role::Status, Access::AtomicWords),
];
const GATHER_BINDINGS: &[Binding] = &[
    binding(Role::Input, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::WriteElements),
    binding(Role::Status, Access::AtomicWords),
];
const SCATTER_LAST_WINS_BINDINGS: &[Binding] = &[
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::WriteElements),
    binding(Role::Status, Access::AtomicWords),
    binding(Role::Winners, Access::AtomicWords),
];

const SCATTER_REDUCE_BINDINGS: &[Binding] = &[
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::ReduceElements),
    binding(Role::Status, Access::AtomicWords),
];
const SCATTER_REDUCE_TIES_BINDINGS: &[Binding] = &[
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::ReduceElements),
    binding(Role::Status, Access::AtomicWords),
    binding(Role::Heads, Access::AtomicWords),
];
const SCATTER_IN_ORDER_REDUCE_BINDINGS: &[Binding] = &[
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::ReduceElements),
    binding(Role::Status, Access::AtomicWords),
    binding(Role::Heads, Access::AtomicWords),
    binding(Role::Links, Access::AtomicWords),
];

/// Updates a thread of the any-order reduction takes (`scatter_reduce`), a grid-stride apart.
pub(crate) const REDUCE_GROUP: u32 = 16;

/// The reductions a scatter kernel can apply.
pub(crate) const REDUCTIONS: [Reduction; 4] = [
    Reduction::Add,
    Reduction::Mul,
    Reduction::Min,
    Reduction::Max,
];

impl Kernel {
    /// Every variant, for tests and tools.
    pub fn all() -> Vec<Kernel> {
        let mut all: Vec<Kernel> = Unit::ALL.iter().map(|&u| Kernel::StridedCopy(u)).collect();
        for unit in Unit::ALL {
            for in_order in [false, true] {
                all.push(Kernel::Scatter {
                    unit,
                    in_order,
                    copy_rows: false,
                });
            }
            if unit == Unit::Word {
                all.push(Kernel::Scatter {
                    unit,
                    in_order: false,
                    copy_rows: true,
                });
            }
            all.push(Kernel::Gather(unit));
        }
        for data_type in DataType::ALL {
            for reduction in REDUCTIONS {
                // 8-byte elements have no 64-bit atomics: always in order.
                for order in [
                    ReduceOrder::Any,
                    ReduceOrder::FirstTie,
                    ReduceOrder::InOrder,
                ] {
                    let wide = data_type.size_in_bytes() == 8;
                    let ties = data_type.is_float()
                        && matches!(reduction, Reduction::Min | Reduction::Max);
                    if (wide && order != ReduceOrder::InOrder)
                        || (order == ReduceOrder::FirstTie && !ties)
                    {
                        continue;
                    }
                    all.push(Kernel::ScatterReduce {
                        data_type,
                        reduction,
                        order,
                    });
                }
            }
        }
        all.dedup();
        all
    }

    pub fn unit(self) -> Unit {
        match self {
            Kernel::StridedCopy(unit) | Kernel::Scatter { unit, .. } | Kernel::Gather(unit) => unit,
            Kernel::ScatterReduce { data_type, .. } => Unit::from_bytes(data_type.size_in_bytes()),
        }
    }

    pub fn family(self) -> Family {
        match self {
            Kernel::StridedCopy(_) => Family::StridedCopy,
            Kernel::Scatter { .. } | Kernel::ScatterReduce { .. } => Family::Scatter,
            Kernel::Gather(_) => Family::Gather,
        }
    }

    /// The sections this variant keeps: the scatter's duplicate mode, and the grouped entry
    /// points of its unit's width.
    pub fn sections(self) -> Vec<Section> {
        let unit = self.unit();
        Section::ALL
            .into_iter()
            .filter(|section| match section {
                Section::AnyUpdate => matches!(
                    self,
                    Kernel::Scatter {
                        in_order: false,
                        ..
                    }
                ),
                Section::InOrder => matches!(self, Kernel::Scatter { in_order: true, .. }),
                Section::CopyRows => matches!(
                    self,
                    Kernel::Scatter {
                        copy_rows: true,
                        ..
                    }
                ),
                Section::Word => unit == Unit::Word && self.family() != Family::StridedCopy,
                Section::SubWord => unit.is_sub_word() && self.family() != Family::StridedCopy,
                Section::Reduce => matches!(
                    self,
                    Kernel::ScatterReduce {
                        order: ReduceOrder::Any | ReduceOrder::FirstTie,
                        ..
                    }
                ),
                Section::InOrderReduce => matches!(
                    self,
                    Kernel::ScatterReduce {
                        order: ReduceOrder::InOrder,
                        ..
                    }
                ),
                Section::Ties => matches!(
                    self,
                    Kernel::ScatterReduce {
                        order: ReduceOrder::FirstTie,
                        ..
                    }
                ),
            })
            .collect()
    }

    /// The entry points of the module: its family's, in the sections it keeps.
    pub fn entries(self) -> Vec<Entry> {
        let (family, sections) = (self.family(), self.sections());
        Entry::ALL
            .into_iter()
            .filter(|entry| {
                let info = entry.info();
                info.families.contains(&family)
                    && info.sections.iter().all(|s| sections.contains(s))
            })
            .collect()
    }

    /// The storage bindings after the uniform, in binding order.
    pub fn bindings(self) -> &'static [Binding] {
        match self {
            Kernel::StridedCopy(_) => STRIDED_COPY_BINDINGS,
            Kernel::Scatter {
                copy_rows: true, ..
            } => SCATTER_COPY_ROWS_BINDINGS,
            Kernel::Scatter {
                in_order: false, ..
            } => SCATTER_BINDINGS,
            Kernel::Scatter { in_order: true, .. } => SCATTER_LAST_WINS_BINDINGS,
            Kernel::ScatterReduce { order, .. } => match order {
                ReduceOrder::Any => SCATTER_REDUCE_BINDINGS,
                ReduceOrder::FirstTie => SCATTER_REDUCE_TIES_BINDINGS,
                ReduceOrder::InOrder => SCATTER_IN_ORDER_REDUCE_BINDINGS,
            },
            Kernel::Gather(_) => GATHER_BINDINGS,
        }
    }

    /// The family's source with the sections this variant does not keep removed.
    fn family_source(self) -> String {
        let text = match self.family() {
            Family::StridedCopy => return STRIDED_COPY.to_string(),
            Family::Scatter => SCATTER,
            Family::Gather => GATHER,
        };
        let kept = self.sections();
        let mut text = text.to_string();
        for section in Section::ALL.into_iter().filter(|s| !kept.contains(s)) {
            text = without_section(&text, section);
        }
        let arithmetic = match self {
            Kernel::ScatterReduce { .. } => ARITHMETIC,
            _ => "",
        };
        format!(
            "{}{INDEX_MAP}\n{arithmetic}\n{text}",
            status::wgsl_constants()
        )
    }

    /// Whether a dispatch must bind every window of the kernel's tensors (the in-order fold
    /// reads updates wherever they lie, the tie passes check no window ownership), so slabs
    /// cannot run it.
    pub fn needs_every_window(self) -> bool {
        matches!(
            self,
            Kernel::ScatterReduce {
                order: ReduceOrder::InOrder | ReduceOrder::FirstTie,
                ..
            }
        )
    }

    /// What the kernel does, for errors about its needs.
    pub fn purpose(self) -> &'static str {
        match self {
            Kernel::StridedCopy(_) => "the strided-copy kernel's bindings",
            Kernel::Scatter {
                copy_rows: true, ..
            } => "the bindings of the scatter kernel that copies as it scatters",
            Kernel::Scatter {
                in_order: false, ..
            } => "the scatter kernel's bindings",
            Kernel::Scatter { in_order: true, .. } => {
                "the in-order scatter kernel's bindings (8-byte elements always use it)"
            }
            Kernel::ScatterReduce { order, .. } => match order {
                ReduceOrder::Any => "the scatter reduction kernel's bindings",
                ReduceOrder::FirstTie => {
                    "the in-order float Min or Max scatter reduction kernel's bindings"
                }
                ReduceOrder::InOrder => {
                    "the in-order scatter reduction kernel's bindings (8-byte elements always use it)"
                }
            },
            Kernel::Gather(_) => "the gather kernel's bindings",
        }
    }

    pub fn label(self) -> String {
        format!("dml-wgsl {:?}", self)
    }

    /// The label of the kernel under `windowing`.
    pub fn windowed_label(self, windowing: &Windowing) -> String {
        if *windowing == Windowing::default() {
            self.label()
        } else {
            format!("{} {:?}", self.label(), windowing)
        }
    }

    /// The complete WGSL module, every tensor bound whole.
    #[cfg(test)]
    pub fn source(self, workgroup_size: u32) -> String {
        self.windowed_source(workgroup_size, &Windowing::default())
    }

    /// The binding number of each storage binding's first slot, and the binding of the
    /// `windows` uniform after them (used where `windowing.partial`).
    pub fn binding_numbers(self, windowing: &Windowing) -> (Vec<u32>, u32) {
        let mut next = 1;
        let mut numbers = Vec::new();
        for binding in self.bindings() {
            numbers.push(next);
            next += windowing.slots(binding.role);
        }
        (numbers, next)
    }

    /// The complete WGSL module: the specialisation header, the common helpers, the family.
    pub fn windowed_source(self, workgroup_size: u32, windowing: &Windowing) -> String {
        let unit = self.unit();
        let mut header = format!(
            "// {label}\nconst WORKGROUP_SIZE: u32 = {workgroup_size}u;\nalias Unit = {ty};\n",
            label = self.windowed_label(windowing),
            ty = unit.wgsl_type(),
        );
        if let Kernel::StridedCopy(_) = self {
            header += &format!("const COPY_GROUP: u32 = {}u;\n", unit.copy_group());
        }
        if unit.is_sub_word() {
            let bits = unit.bytes() * 8;
            header += &format!(
                "const ELEMENT_BITS: u32 = {bits}u;\nconst ELEMENTS_PER_WORD: u32 = {}u;\nconst ELEMENT_MASK: u32 = {:#x}u;\n",
                32 / bits,
                (1u64 << bits) - 1,
            );
        }
        if let Kernel::ScatterReduce {
            data_type,
            reduction,
            ..
        } = self
        {
            header += &reduction_constants(data_type, reduction);
            header += &sort_constants(workgroup_size, data_type, reduction);
        }
        let (numbers, windows_binding) = self.binding_numbers(windowing);
        if windowing.partial {
            header += &format!(
                "{WINDOW_PARAMS}@group(0) @binding({windows_binding}) var<uniform> windows: WindowParams;\n"
            );
        }
        for (binding, number) in self.bindings().iter().zip(numbers) {
            header += &binding_source(number, binding, unit, windowing);
        }
        format!("{header}\n{COMMON}\n{}", self.family_source())
    }
}

/// The constants `shaders/arithmetic.wgsl` reads, and `combine_unit`, which combines values
/// of the kernel's unit.
fn reduction_constants(data_type: DataType, reduction: Reduction) -> String {
    let bits = data_type.size_in_bytes() * 8;
    let kind = if data_type.is_float() {
        2
    } else {
        data_type.is_signed() as u32
    };
    let operation = match reduction {
        Reduction::Add => 1,
        Reduction::Mul => 2,
        Reduction::Min => 3,
        Reduction::Max => 4,
        Reduction::None => unreachable!("a reduction kernel reduces"),
    };
    let mask = if bits >= 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    };
    let shift = 32u32.saturating_sub(bits);
    // The reduction's identity (x op identity = x, bits included), where the any-order pass
    // combines a workgroup's updates (units of at most 4 bytes).
    let signed = data_type.is_signed() && !data_type.is_float();
    let sign_bit = 1u64 << (bits - 1);
    let identity: u64 = match (reduction, data_type) {
        (Reduction::Add, DataType::Float16 | DataType::Float32) => sign_bit, // -0.0
        (Reduction::Mul, DataType::Float16) => 0x3c00,
        (Reduction::Mul, DataType::Float32) => 0x3f80_0000,
        (Reduction::Min, DataType::Float16) => 0x7c00, // +inf
        (Reduction::Min, DataType::Float32) => 0x7f80_0000,
        (Reduction::Max, DataType::Float16) => 0xfc00, // -inf
        (Reduction::Max, DataType::Float32) => 0xff80_0000,
        (Reduction::Add, _) => 0,
        (Reduction::Mul, _) => 1,
        (Reduction::Min, _) if signed => sign_bit - 1,
        (Reduction::Min, _) => mask as u64,
        (Reduction::Max, _) if signed => sign_bit,
        _ => 0,
    };
    // 8-byte elements always go in order: no identity needed.
    let identity = if bits == 64 { 0 } else { identity as u32 };
    let combine = if bits == 64 {
        "fn combine_unit(current: vec2<u32>, update: vec2<u32>) -> vec2<u32> {\n    return combine(current, update);\n}\n"
    } else {
        "fn combine_unit(current: u32, update: u32) -> u32 {\n    return combine(vec2<u32>(current, 0u), vec2<u32>(update, 0u)).x;\n}\n"
    };
    format!(
        "// {data_type:?} {reduction:?}\nconst REDUCTION: u32 = {operation}u;\nconst NUMBER_KIND: u32 = {kind}u;\n\
         const NUMBER_BITS: u32 = {bits}u;\nconst NUMBER_MASK: u32 = {mask:#x}u;\nconst NUMBER_SHIFT: u32 = {shift}u;\n\
         const IDENTITY: u32 = {identity:#x}u;\nconst REDUCE_GROUP: u32 = {REDUCE_GROUP}u;\n{combine}"
    )
}

/// Pairs a radix pass moves a workgroup: at most `RADIX_ROUNDS` rounds of one a thread
/// (`IndexParams::radix_rounds`: fewer where that leaves under `RADIX_TILES` workgroups).
pub(crate) const RADIX_ROUNDS: u32 = 16;
/// Workgroups a radix pass aims for before it gives each more rounds.
pub(crate) const RADIX_TILES: u32 = 1024;
/// Histogram entries a thread of the scan takes.
pub(crate) const SCAN_ITEMS: u32 = 8;
/// Runs longer than this are folded by a workgroup (`fold_long_runs`), not a thread.
pub(crate) const LONG_RUN: u32 = 64;
/// Updates each loading thread of `fold_long_runs` fetches a chunk (8-byte units: half as
/// many, so that the two chunks stay within 8 KiB of workgroup memory).
const LONG_LOADS: u32 = 8;

/// The most updates (or slices) one invocation folds in one dispatch: the library's bound on
/// every loop whose length the data sets. Mesa's llvmpipe and lavapipe silently end an
/// invocation's loops after 65535 iterations in all, counted per SIMD vector of up to 16
/// invocations (`LP_MAX_TGSI_LOOP_ITERATIONS`), and a GPU's watchdog resets a device whose
/// dispatch runs for seconds; a run longer than a pass folds goes on in the next pass, from
/// the partial result the last one stored. A quarter of Mesa's limit leaves room for four
/// folding invocations in a vector (`FOLDER_SPACING`) and for each kernel's other loops.
pub(crate) const FOLD_STEPS: u32 = 4096;
/// Threads between two folders of `fold_long_runs` (all below the loaders), so that a vector
/// of 16 holds eight.
const FOLDER_SPACING: u32 = 2;
/// Columns of a `fold_slice_runs` workgroup; its rows of threads take turns along the run
/// (a vector of 16 holds two rows: 2 * FOLD_STEPS iterations).
pub(crate) const SLICE_TILE: u32 = 8;

/// What one pass of the in-order folds covers of a run, for a workgroup of `workgroup_size`
/// threads (a power of two of at least 32) and units of `unit_bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FoldSpans {
    /// Updates `fold_long_runs` takes in a chunk (its loaders' loads).
    pub long_chunk: u32,
    /// Chunks a folder of `fold_long_runs` takes before the next one (FOLD_STEPS updates).
    pub folder_chunks: u32,
    /// Updates of a run a `fold_long_runs` workgroup folds in one pass.
    pub long_span: u32,
    /// Rows of `fold_slice_runs` threads that take turns, and the slices they fold a pass.
    pub slice_turns: u32,
    pub slice_span: u32,
}

impl FoldSpans {
    pub fn new(workgroup_size: u32, unit_bytes: u32) -> FoldSpans {
        let workgroup = workgroup_size.max(SLICE_TILE);
        let loaders = workgroup - workgroup / 2;
        let long_loads = if unit_bytes == 8 {
            LONG_LOADS / 2
        } else {
            LONG_LOADS
        };
        let long_chunk = loaders * long_loads;
        let folder_chunks = (FOLD_STEPS / long_chunk).max(1);
        let folders = (workgroup / 2 / FOLDER_SPACING).max(1);
        let slice_turns = workgroup / SLICE_TILE;
        FoldSpans {
            long_chunk,
            folder_chunks,
            long_span: folders * folder_chunks * long_chunk,
            slice_turns,
            slice_span: slice_turns * FOLD_STEPS,
        }
    }
}

/// The sorted in-order path's constants (`shaders/scatter.wgsl`, in-order-reduce section).
/// The radix digit has log2 `workgroup_size` bits, a digit a thread; the host takes that path
/// only for workgroups of a power of two of at least 32 threads (`RADIX_BITS` is then exact).
fn sort_constants(workgroup_size: u32, data_type: DataType, reduction: Reduction) -> String {
    let radix_bits = workgroup_size.max(1).ilog2();
    let mask_words = (workgroup_size * (workgroup_size / 32)).max(1);
    let spans = FoldSpans::new(workgroup_size, data_type.size_in_bytes());
    let long_loads = if data_type.size_in_bytes() == 8 {
        LONG_LOADS / 2
    } else {
        LONG_LOADS
    };
    let fast_chain =
        data_type == DataType::Float32 && matches!(reduction, Reduction::Add | Reduction::Mul);
    // 8-byte units travel as (low, high) word pairs.
    let (unit_words, unit_pair, pair_unit) = if data_type.size_in_bytes() == 8 {
        (2, "v", "p")
    } else {
        (1, "vec2<u32>(v, 0u)", "p.x")
    };
    let constants = [
        ("RADIX_BITS", radix_bits),
        ("RADIX_ROUNDS", RADIX_ROUNDS),
        ("RADIX_MASK_WORDS", mask_words),
        ("SCAN_ITEMS", SCAN_ITEMS),
        ("SCAN_BLOCK", workgroup_size * SCAN_ITEMS),
        ("LONG_RUN", LONG_RUN),
        ("LONG_LOADS", long_loads),
        ("LONG_CHUNK", spans.long_chunk),
        ("LONG_CHUNK_PAIR", 2 * spans.long_chunk),
        ("UNIT_WORDS", unit_words),
        ("FOLD_STEPS", FOLD_STEPS),
        ("FOLDER_CHUNKS", spans.folder_chunks),
        ("FOLDER_SPACING", FOLDER_SPACING),
        ("LONG_SPAN", spans.long_span),
        ("SLICE_TILE", SLICE_TILE),
        ("SLICE_TURNS", spans.slice_turns),
        ("SLICE_SPAN", spans.slice_span),
    ];
    let mut text: String = constants
        .iter()
        .map(|(name, value)| format!("const {name}: u32 = {value}u;\n"))
        .collect();
    text += &format!(
        "const FAST_CHAIN: bool = {fast_chain};\n\
         fn unit_pair(v: Unit) -> vec2<u32> {{\n    return {unit_pair};\n}}\n\
         fn pair_unit(p: vec2<u32>) -> Unit {{\n    return {pair_unit};\n}}\n\
         fn unit_word(v: Unit) -> u32 {{\n    return unit_pair(v).x;\n}}\n\
         fn word_unit(w: u32) -> Unit {{\n    return pair_unit(vec2<u32>(w, 0u));\n}}\n"
    );
    text
}

/// `text` without the lines from `// @<marker>-begin` to `// @<marker>-end` of `section`.
fn without_section(text: &str, section: Section) -> String {
    let marker = section.marker();
    let (begin, end) = (format!("// @{marker}-begin"), format!("// @{marker}-end"));
    let mut inside = false;
    let mut kept = String::new();
    for line in text.lines() {
        if line.trim() == begin {
            inside = true;
        } else if line.trim() == end {
            inside = false;
        } else if !inside {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    kept
}

/// Checks a family's section markers: each names a known section, and they pair up as
/// begin and end, nested or not; a misspelt marker would otherwise leave its lines in every
/// variant. (Run on every family source by a test.)
#[cfg(test)]
fn check_section_markers(text: &str) -> Result<(), String> {
    let mut open: Vec<&str> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let Some(marker) = line.trim().strip_prefix("// @") else {
            continue;
        };
        let (name, edge) = marker
            .rsplit_once('-')
            .ok_or_else(|| format!("line {}: `{line}` is no section marker", number + 1))?;
        if !Section::ALL.iter().any(|s| s.marker() == name) {
            return Err(format!("line {}: unknown section `{name}`", number + 1));
        }
        match edge {
            "begin" => open.push(name),
            "end" if open.last() == Some(&name) => {
                open.pop();
            }
            _ => return Err(format!("line {}: `{line}` out of order", number + 1)),
        }
    }
    match open.pop() {
        Some(name) => Err(format!("section `{name}` never ends")),
        None => Ok(()),
    }
}

/// The declarations of one storage binding (one array, or one per window bound) and its
/// accessors. Every accessor takes an index into the whole tensor's binding, in the units
/// its name says, and finds the window that holds it, so the kernels never see windows:
/// * elements (`ReadElements`, `WriteElements`): `load_<name>(element)`,
///   `store_<name>(element, value)`, and for 1- and 2-byte units `load_<name>_word(word)`,
///   `store_<name>_word(word, value)` and `store_<name>_bits(word, mask, bits)` (the bits
///   under `mask` replaced atomically);
/// * words (`ReadWords`): `load_<name>_word(word)`, `load_<name>_pair(pair)` (8-byte element);
/// * atomics (`AtomicWords`): `atomic_max_<name>`, `atomic_load_<name>`, `atomic_store_<name>`;
/// * `owns_<name>(index)` (and `owns_<name>_pair` for words): whether this dispatch handles
///   the element, always true unless the windowing is partial.
fn binding_source(slot: u32, binding: &Binding, unit: Unit, windowing: &Windowing) -> String {
    let name = binding.role.name();
    let sub_word = unit.is_sub_word();
    let bound = windowing.bound[binding.role.index()];
    // The array entry: its WGSL type, its declared type, its bytes and the storage access.
    let entry_bytes = binding.entry_bytes(unit);
    let (entry, declared, access) = match binding.access {
        Access::ReadElements if sub_word => ("u32", "u32", "read"),
        Access::ReadElements => (unit.wgsl_type(), unit.wgsl_type(), "read"),
        Access::WriteElements if sub_word => ("u32", "atomic<u32>", "read_write"),
        Access::WriteElements => (unit.wgsl_type(), unit.wgsl_type(), "read_write"),
        Access::ReadWords => ("u32", "u32", "read"),
        Access::AtomicWords => ("u32", "atomic<u32>", "read_write"),
        Access::ReduceElements if unit == Unit::DoubleWord => {
            ("vec2<u32>", "vec2<u32>", "read_write")
        }
        Access::ReduceElements => ("u32", "atomic<u32>", "read_write"),
    };
    let upper = name.to_uppercase();
    let mut text = String::new();
    // `site(index, body)`: `body` with `{a}` the array holding entry `index` and `{i}` the
    // entry's index in it.
    if bound == 0 {
        text += &format!(
            "@group(0) @binding({slot}) var<storage, {access}> {name}: array<{declared}>;\n"
        );
    } else {
        let shift = windowing.window_shift - entry_bytes.trailing_zeros();
        text += &format!(
            "const {upper}_SHIFT: u32 = {shift}u;\nconst {upper}_MASK: u32 = {:#x}u;\n",
            (1u64 << shift) - 1
        );
        for k in 0..bound {
            text += &format!(
                "@group(0) @binding({}) var<storage, {access}> {name}_{k}: array<{declared}>;\n",
                slot + k
            );
        }
    }
    let first = windowing.first_window(binding.role);
    // `body` with `{a}` the array holding the entry and `{i}` its index there: the entry
    // `whole` of the one array, or entry `local` of window `window` (WGSL expressions).
    let access = |whole: &str, window: &str, local: &str, body: &str| -> String {
        if bound == 0 {
            return format!("    {}\n", body.replace("{a}", name).replace("{i}", whole));
        }
        let mut code = format!("    let local = {local};\n    switch ({window}) - {first} {{\n");
        for k in 0..bound {
            let label = if k + 1 == bound {
                "default".to_string()
            } else {
                format!("case {k}u")
            };
            let array = format!("{name}_{k}");
            code += &format!(
                "        {label}: {{ {} }}\n",
                body.replace("{a}", &array).replace("{i}", "local")
            );
        }
        code + "    }\n"
    };
    // Entry `index`.
    let site = |index: &str, body: &str| {
        access(
            &format!("({index})"),
            &format!("({index}) >> {upper}_SHIFT"),
            &format!("({index}) & {upper}_MASK"),
            body,
        )
    };
    let owns = |parameter: &str, shift: &str| -> String {
        if windowing.partial && bound > 0 {
            let (begin, end) = windowing.owned_windows(binding.role);
            format!(
                "    let window = {parameter} >> ({shift});\n    return window >= {begin} && window < {end};\n"
            )
        } else {
            "    return true;\n".to_string()
        }
    };
    let shift = format!("{upper}_SHIFT");
    match binding.access {
        Access::ReadElements if sub_word => {
            text += &format!(
                "fn load_{name}_word(w: u32) -> u32 {{\n    var value: u32;\n{}    return value;\n}}\n\
                 fn load_{name}(e: u32) -> u32 {{\n    \
                     return (load_{name}_word(e / ELEMENTS_PER_WORD) >> ((e % ELEMENTS_PER_WORD) * ELEMENT_BITS)) & ELEMENT_MASK;\n}}\n\
                 fn owns_{name}(e: u32) -> bool {{\n{}}}\n",
                site("w", "value = {a}[{i}];"),
                owns("(e / ELEMENTS_PER_WORD)", &shift),
            );
        }
        Access::ReadElements => {
            text += &format!(
                "fn load_{name}(e: u32) -> {entry} {{\n    var value: {entry};\n{}    return value;\n}}\n\
                 fn owns_{name}(e: u32) -> bool {{\n{}}}\n",
                site("e", "value = {a}[{i}];"),
                owns("e", &shift),
            );
        }
        // Neighbouring elements share a word: replace only this element's bits, atomically,
        // so concurrent stores to the same word never lose each other's bytes or tear.
        Access::WriteElements if sub_word => {
            let exchange = "var old = atomicLoad(&{a}[{i}]); \
                loop { let swapped = atomicCompareExchangeWeak(&{a}[{i}], old, (old & ~mask) | (bits & mask)); \
                if swapped.exchanged { break; } old = swapped.old_value; }";
            text += &format!(
                "fn store_{name}_word(w: u32, value: u32) {{\n{}}}\n\
                 fn store_{name}_bits(w: u32, mask: u32, bits: u32) {{\n{}}}\n\
                 fn store_{name}(e: u32, value: u32) {{\n    \
                     let shift = (e % ELEMENTS_PER_WORD) * ELEMENT_BITS;\n    \
                     store_{name}_bits(e / ELEMENTS_PER_WORD, ELEMENT_MASK << shift, value << shift);\n}}\n\
                 fn owns_{name}(e: u32) -> bool {{\n{}}}\n",
                site("w", "atomicStore(&{a}[{i}], value);"),
                site("w", exchange),
                owns("(e / ELEMENTS_PER_WORD)", &shift),
            );
        }
        Access::WriteElements => {
            text += &format!(
                "fn store_{name}(e: u32, value: {entry}) {{\n{}}}\n\
                 fn owns_{name}(e: u32) -> bool {{\n{}}}\n",
                site("e", "{a}[{i}] = value;"),
                owns("e", &shift),
            );
        }
        Access::ReadWords => {
            // An 8-byte element's two words: pairs never straddle a window (windows are a
            // power of two of at least 16 bytes), and in a window `2 * pair` is never formed.
            let pair = access(
                "(2u * p)",
                &format!("p >> ({upper}_SHIFT - 1u)"),
                &format!("(p & ({upper}_MASK >> 1u)) << 1u"),
                "value = vec2<u32>({a}[{i}], {a}[{i} + 1u]);",
            );
            text += &format!(
                "fn load_{name}_word(w: u32) -> u32 {{\n    var value: u32;\n{}    return value;\n}}\n\
                 fn load_{name}_pair(p: u32) -> vec2<u32> {{\n    var value: vec2<u32>;\n{pair}    return value;\n}}\n\
                 fn owns_{name}(w: u32) -> bool {{\n{}}}\n\
                 fn owns_{name}_pair(p: u32) -> bool {{\n{}}}\n",
                site("w", "value = {a}[{i}];"),
                owns("w", &shift),
                owns("p", &format!("{shift} - 1u")),
            );
        }
        Access::AtomicWords => {
            text += &format!(
                "fn atomic_max_{name}(w: u32, value: u32) {{\n{}}}\n\
                 fn atomic_store_{name}(w: u32, value: u32) {{\n{}}}\n\
                 fn atomic_load_{name}(w: u32) -> u32 {{\n    var value: u32;\n{}    return value;\n}}\n\
                 fn atomic_exchange_{name}(w: u32, value: u32) -> u32 {{\n    var old: u32;\n{}    return old;\n}}\n\
                 fn atomic_add_{name}(w: u32, value: u32) -> u32 {{\n    var old: u32;\n{}    return old;\n}}\n\
                 fn owns_{name}(w: u32) -> bool {{\n{}}}\n",
                site("w", "atomicMax(&{a}[{i}], value);"),
                site("w", "atomicStore(&{a}[{i}], value);"),
                site("w", "value = atomicLoad(&{a}[{i}]);"),
                site("w", "old = atomicExchange(&{a}[{i}], value);"),
                site("w", "old = atomicAdd(&{a}[{i}], value);"),
                owns("w", &shift),
            );
        }
        // Only the reduction kernels' output: 8-byte units are stored by one thread each (the
        // in-order passes), narrower ones are words every access goes through atomically.
        Access::ReduceElements if unit == Unit::DoubleWord => {
            text += &format!(
                "fn load_{name}(e: u32) -> {entry} {{\n    var value: {entry};\n{}    return value;\n}}\n\
                 fn store_{name}(e: u32, value: {entry}) {{\n{}}}\n\
                 fn owns_{name}(e: u32) -> bool {{\n{}}}\n",
                site("e", "value = {a}[{i}];"),
                site("e", "{a}[{i}] = value;"),
                owns("e", &shift),
            );
        }
        Access::ReduceElements => {
            // The element's bits in its word: all of it for 4-byte units.
            let (word, place) = if sub_word {
                (
                    "e / ELEMENTS_PER_WORD",
                    "    let shift = (e % ELEMENTS_PER_WORD) * ELEMENT_BITS;\n    let mask = ELEMENT_MASK << shift;\n",
                )
            } else {
                ("e", "    let shift = 0u;\n    let mask = 0xffffffffu;\n")
            };
            let store = "var old = atomicLoad(&{a}[{i}]); \
                loop { let swapped = atomicCompareExchangeWeak(&{a}[{i}], old, (old & ~mask) | (value << shift)); \
                if swapped.exchanged { break; } old = swapped.old_value; }";
            // Combined with whatever the word holds when the exchange succeeds: no update is
            // lost to another thread's, and an unchanged element is not written at all.
            let reduce = "var old = atomicLoad(&{a}[{i}]); \
                loop { let current = (old & mask) >> shift; let combined = combine_unit(current, value); \
                if combined == current { break; } \
                let swapped = atomicCompareExchangeWeak(&{a}[{i}], old, (old & ~mask) | (combined << shift)); \
                if swapped.exchanged { break; } old = swapped.old_value; }";
            text += &format!(
                "fn load_{name}(e: u32) -> u32 {{\n    let word = {word};\n{place}    var value: u32;\n{}    return (value & mask) >> shift;\n}}\n\
                 fn store_{name}(e: u32, value: u32) {{\n    let word = {word};\n{place}{}}}\n\
                 fn reduce_{name}(e: u32, value: u32) {{\n    let word = {word};\n{place}{}}}\n\
                 fn owns_{name}(e: u32) -> bool {{\n{}}}\n",
                site("word", "value = atomicLoad(&{a}[{i}]);"),
                site("word", store),
                site("word", reduce),
                owns(&format!("({word})"), &shift),
            );
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_source_has_well_formed_section_markers() {
        for (file, text) in [
            ("strided_copy.wgsl", STRIDED_COPY),
            ("scatter.wgsl", SCATTER),
            ("gather.wgsl", GATHER),
            ("index_map.wgsl", INDEX_MAP),
            ("common.wgsl", COMMON),
        ] {
            assert_eq!(check_section_markers(text), Ok(()), "{file}");
        }
    }

    #[test]
    fn misspelt_or_unbalanced_markers_are_errors() {
        assert!(check_section_markers("// @sub-words-begin\n// @sub-words-end\n").is_err());
        assert!(check_section_markers("// @word-begin\n").is_err());
        assert!(check_section_markers("// @word-end\n").is_err());
        assert!(check_section_markers("// @word-begin\n// @sub-word-end\n").is_err());
        assert!(check_section_markers("// @word-begin\nx\n// @word-end\n").is_ok());
        let nested = "// @any-update-begin\n// @word-begin\n// @word-end\n// @any-update-end\n";
        assert!(check_section_markers(nested).is_ok());
    }

    #[test]
    fn every_entry_point_is_in_some_variant_and_defined_there() {
        for entry in Entry::ALL {
            let holders: Vec<Kernel> = Kernel::all()
                .into_iter()
                .filter(|k| k.entries().contains(&entry))
                .collect();
            assert!(!holders.is_empty(), "{entry:?} is in no variant");
            for kernel in holders {
                assert!(
                    kernel
                        .source(256)
                        .contains(&format!("fn {}(", entry.name())),
                    "{kernel:?} lacks {entry:?}"
                );
            }
        }
    }
}
