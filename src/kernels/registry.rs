//! What the registry holds: every kernel variant ([`Kernel`]) and the bindings and entry
//! points ([`Entry`], declared once in `entries.rs`'s table) each kernel takes.

use super::bindings::{
    Access, Binding, GATHER_BINDINGS, ROLES, Role, SCATTER_ADD_FLOAT_ATOMICS_BINDINGS,
    SCATTER_ADD_FLOAT_ATOMICS_COPY_BINDINGS, SCATTER_BINDINGS, SCATTER_COPY_ROWS_BINDINGS,
    SCATTER_IN_ORDER_BINDINGS, SCATTER_IN_ORDER_REDUCE_BINDINGS,
    SCATTER_IN_ORDER_REDUCE_COPY_BINDINGS, SCATTER_REDUCE_BINDINGS, SCATTER_REDUCE_COPY_BINDINGS,
    SCATTER_REDUCE_HEADS_BINDINGS, SCATTER_REDUCE_HEADS_COPY_BINDINGS,
    SCATTER_REDUCE_WIDE_BINDINGS, SCATTER_REDUCE_WIDE_EXCHANGE_BINDINGS,
    SCATTER_ROWS_WIDE_BINDINGS, STRIDED_COPY_BINDINGS, Unit, Windowing,
};
use super::entries::Entry;
use super::files::ShaderFile;
use super::sections::Section;
use crate::options::Reduction;
use crate::tensor::DataType;

/// Every shader variant the library dispatches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kernel {
    /// `shaders/strided_copy.wgsl`: Slice, Slice1 and every strided copy.
    StridedCopy(Unit),
    /// ScatterElements and ScatterND: the single any-update pass (`shaders/scatter.wgsl`) or
    /// the two in-order passes (`shaders/scatter_in_order.wgsl`); with `rows` (any update),
    /// also a kernel that takes a workgroup a row (see [`RowKernel`]).
    Scatter {
        unit: Unit,
        in_order: bool,
        rows: RowKernel,
    },
    /// A scatter combining updates into their targets: in any order
    /// (`shaders/scatter_reduce.wgsl`) or in order (`shaders/sort.wgsl`, `scatter_runs.wgsl`,
    /// `scatter_slice_runs.wgsl`, `scatter_lists.wgsl`), with `shaders/arithmetic.wgsl`. The
    /// arithmetic depends on the data type, not just its width. With `copies`, also the input
    /// bound: in order, the first folds that copy `output = input` as they fold rows' lists
    /// (`fold_slice_list_copy`) or sorted runs (`fold_slice_columns_copy`); for Float32's
    /// atomics and ties claimed as placed, the screens that copy it as they read
    /// (`screen_output`, `screen_float_add`). With
    /// `hardware_float64` (Float64 Add and Mul, where the device has `SHADER_F64` and
    /// `SHADER_INT64`), the device's own f64 arithmetic where it gives IEEE's bits.
    ScatterReduce {
        data_type: DataType,
        reduction: Reduction,
        order: ReduceOrder,
        copies: bool,
        hardware_float64: bool,
    },
    /// `shaders/gather.wgsl`: Gather, GatherElements and GatherND.
    Gather(Unit),
}

/// Whether an any-update scatter kernel also takes a workgroup a row (`shaders/scatter.wgsl`'s
/// `rows` section: ScatterElements along an inner axis, the row in workgroup memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum RowKernel {
    /// Update by update only.
    No,
    /// Out of place, units of at most 4 bytes: also the input bound and `scatter_copy_rows`,
    /// which copies each row as it scatters into it.
    Copying,
    /// In place, 1- and 2-byte units: also `scatter_rows_in_place`, which reads each row
    /// from the output, scatters into it and writes it back as whole words.
    InPlace,
}

/// How a scatter reduction kernel orders the updates of one target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ReduceOrder {
    /// One compare-exchange pass, in any order.
    Any,
    /// `Any`, its bins (units of at most 4 bytes) left as partials in the heads for
    /// `fold_partials`: the kernel binds the heads only then (downlevel devices may
    /// have 4 storage buffers a stage, all `Any` needs).
    AnyWithPartials,
    /// Float Min and Max in order (the first of tied zeros or NaNs wins): the any-order pass
    /// between `claim_ties` and `write_ties`, or claiming ties itself (`write_unit_ties`).
    FirstTie,
    /// The updates' order: runs sorted by target (8-byte elements always).
    InOrder,
    /// Float Min and Max in order by rows: the rows' lists folded in any order (as `InOrder`
    /// folds them in the default mode), each zero or NaN update claiming its unit by position:
    /// the first pass stores the first of the class each unit ended in where its list ends
    /// there, `write_list_ties` where it goes on.
    ListTies,
    /// 8-byte rows in any order combined across workgroups into the output by 64-bit atomics
    /// (integer Add, Min and Max by WGSL's own, the others by compare-exchange), where the
    /// device has every one of them: `reduce_spilled_rows` after `InOrder`'s lists (a hub's
    /// rows past the lists' bound) and `reduce_sorted_rows` after its sort (rows crowded
    /// onto few blocks). Only those passes: the lists' and the sort's are `InOrder`'s, whose
    /// kernel stores 8-byte units with plain stores.
    RowsWide,
    /// Float32 Add by the device's f32 atomics (`SHADER_FLOAT32_ATOMIC`): a screen of the
    /// output's values, then one `atomicAdd` an update whose value is safe for them
    /// (`shaders/scatter_float_add.wgsl`).
    FloatAtomics,
    /// `Any` after the float atomics: it reduces only what they left (the updates they
    /// refused, or all where the screen refused the output), as the status word `SCREENED`
    /// says.
    Screened,
}

/// Words of scratch a thread of `clear_heads` and `clear_winners` zeroes, a workgroup's width
/// apart. Measured on an H100 against `clear_buffer` (BENCHMARKS.md, "Nothing recorded outside
/// the compute pass"): a word a thread made the 64 MiB heads of scatter_max_f32_in_order 14 us
/// slower than the fill command, four 6 us faster.
pub(crate) const CLEAR_WORDS: u32 = 4;

/// The most updates a thread of the any-order reduction takes (`scatter_reduce`,
/// `scatter_reduce_wide`; `IndexParams::bins.per_thread`), a grid-stride apart.
pub(crate) const REDUCE_GROUP: u32 = 16;

/// Output units of at most this many are reduced into workgroup bins (`scatter_reduce_bins`;
/// by compare-exchange, up to `BIN_RANGES` times this many, a range a workgroup): 8 KiB of
/// workgroup memory, and 256 bytes of flags for floats, within WebGPU's least
/// `max_compute_workgroup_storage_size` (16 KiB). More where the device allows is no gain: an
/// H200's bins of 8192 units (32 KiB) ran every shape that takes bins 1.06 to 5.9 times
/// slower, 64 Mi Float16 updates onto 16,384 units in two ranges rather than eight included
/// (BENCHMARKS.md, issue 26's sixth session).
pub(crate) const BIN_CAPACITY: u32 = 2048;

/// The most updates a thread of `scatter_reduce_bins` takes (`BinParams::per_thread`), and of
/// `scatter_reduce_wide` by compare-exchange where it has a slot an output unit: 64 as a
/// rule, more only where fewer would make more workgroups than `fold_partials` folds (the
/// lowering's `BIN_SPREAD`).
pub(crate) const BIN_GROUP: u32 = 1024;

/// The workgroup slots of `scatter_reduce_wide` by compare-exchange: a slot an output unit
/// onto up to `BIN_RANGES` times this many units (a range of them a workgroup; no update
/// misses its slot), else the workgroup's width of slots shared by units: 12 KiB of
/// workgroup memory, within WebGPU's least `max_compute_workgroup_storage_size` (16 KiB).
/// More where the device allows is no gain: an H200's 2048 slots (24 KiB) ran the Float64
/// shapes -6 % to +83 % (onto 8192 units, in four ranges rather than eight, the same;
/// BENCHMARKS.md, issue 26's sixth session).
pub(crate) const WIDE_SLOTS: u32 = 1024;

/// The most workgroups (of a range) of `scatter_reduce_wide` or `scatter_reduce_bins` whose
/// slots or bins `fold_partials` folds (more combine theirs into the
/// output): 12 or 8 bytes a unit each, and units times workgroups at most `BIN_PARTIALS` (the
/// lowering's): 48 or 32 MiB at most.
pub(crate) const WIDE_PARTIAL_GROUPS: u32 = 2048;

impl Kernel {
    /// Every variant, for tests and tools.
    pub fn all() -> Vec<Kernel> {
        let mut all: Vec<Kernel> = Unit::ALL.iter().map(|&u| Kernel::StridedCopy(u)).collect();
        for unit in Unit::ALL {
            for in_order in [false, true] {
                all.push(Kernel::Scatter {
                    unit,
                    in_order,
                    rows: RowKernel::No,
                });
            }
            if unit.bytes() <= 4 {
                all.push(Kernel::Scatter {
                    unit,
                    in_order: false,
                    rows: RowKernel::Copying,
                });
            }
            if unit.is_sub_word() {
                all.push(Kernel::Scatter {
                    unit,
                    in_order: false,
                    rows: RowKernel::InPlace,
                });
            }
            all.push(Kernel::Gather(unit));
        }
        for data_type in DataType::ALL {
            for reduction in Reduction::COMBINING {
                // 8-byte elements in order, and in any order too by 64-bit atomics (where the
                // device has them).
                for order in [
                    ReduceOrder::Any,
                    ReduceOrder::AnyWithPartials,
                    ReduceOrder::FirstTie,
                    ReduceOrder::ListTies,
                    ReduceOrder::InOrder,
                    ReduceOrder::FloatAtomics,
                    ReduceOrder::Screened,
                    ReduceOrder::RowsWide,
                ] {
                    let wide = data_type.size_in_bytes() == 8;
                    // 8-byte rows combined by 64-bit atomics (narrower ones by InOrder's kernel).
                    if order == ReduceOrder::RowsWide && !wide {
                        continue;
                    }
                    // The float atomics add Float32 only.
                    let float32_add = data_type == DataType::Float32 && reduction == Reduction::Add;
                    if matches!(order, ReduceOrder::FloatAtomics | ReduceOrder::Screened)
                        && !float32_add
                    {
                        continue;
                    }
                    let ties = data_type.is_float()
                        && matches!(reduction, Reduction::Min | Reduction::Max);
                    // The tie passes and claims only for float Min and Max narrower than 8 bytes.
                    if matches!(order, ReduceOrder::FirstTie | ReduceOrder::ListTies)
                        && (wide || !ties)
                    {
                        continue;
                    }
                    // Partials only from the bins (units of at most 4 bytes).
                    if order == ReduceOrder::AnyWithPartials && wide {
                        continue;
                    }
                    // Float64 Add and Mul with and without the device's f64.
                    let arithmetic = data_type == DataType::Float64
                        && matches!(reduction, Reduction::Add | Reduction::Mul);
                    for hardware_float64 in [false, true] {
                        if hardware_float64 && !arithmetic {
                            continue;
                        }
                        let kernel = |copies| Kernel::ScatterReduce {
                            data_type,
                            reduction,
                            order,
                            copies,
                            hardware_float64,
                        };
                        all.push(kernel(false));
                        // The copying variants: the in-order folds', and the screens'
                        // before Float32's atomics and ties claimed as placed (the sign
                        // atomics' screen alone reads after the copy).
                        let screens_copy = data_type == DataType::Float32
                            && match order {
                                ReduceOrder::FloatAtomics => true,
                                ReduceOrder::FirstTie => ties,
                                _ => false,
                            };
                        if matches!(order, ReduceOrder::InOrder | ReduceOrder::ListTies)
                            || screens_copy
                        {
                            all.push(kernel(true));
                        }
                    }
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

    /// The shader files the kernel's entry points are in (the module adds what they require).
    pub fn roots(self) -> &'static [ShaderFile] {
        use ShaderFile as F;
        match self {
            Kernel::StridedCopy(_) => &[F::StridedCopy],
            Kernel::Scatter {
                in_order: false, ..
            } => &[F::Scatter],
            Kernel::Scatter { in_order: true, .. } => &[F::ScatterInOrder],
            Kernel::ScatterReduce {
                copies: true,
                order: ReduceOrder::InOrder,
                ..
            } => &[F::ScatterSliceRuns, F::ScatterLists, F::Heads],
            Kernel::ScatterReduce { order, .. } => match order {
                ReduceOrder::Any | ReduceOrder::AnyWithPartials => {
                    &[F::ScatterReduceWide, F::ScatterBins]
                }
                ReduceOrder::Screened => &[F::ScatterReduceWide, F::ScatterBins],
                ReduceOrder::FirstTie => &[
                    F::ScatterReduceWide,
                    F::ScatterBins,
                    F::Heads,
                    F::ScatterSlices,
                ],
                ReduceOrder::FloatAtomics => &[F::ScatterFloatAdd],
                ReduceOrder::ListTies => &[F::ScatterLists, F::Heads],
                ReduceOrder::RowsWide => &[F::ScatterListSpills],
                ReduceOrder::InOrder => &[
                    F::Sort,
                    F::ScatterRuns,
                    F::ScatterSliceRuns,
                    F::ScatterLists,
                    F::Heads,
                ],
            },
            Kernel::Gather(_) => &[F::Gather],
        }
    }

    /// The sections this variant keeps of its files: the grouped entry points of its unit's
    /// width, the scatter's row kernels, the float ties, the unit's accessors and helpers.
    pub fn sections(self) -> Vec<Section> {
        let unit = self.unit();
        Section::ALL
            .into_iter()
            .filter(|section| match section {
                Section::Rows | Section::CopyRows | Section::RowsInPlace => match self {
                    Kernel::Scatter { rows, .. } => match section {
                        Section::Rows => rows != RowKernel::No,
                        Section::CopyRows => rows == RowKernel::Copying,
                        _ => rows == RowKernel::InPlace,
                    },
                    _ => false,
                },
                Section::CopyInput => matches!(self, Kernel::ScatterReduce { copies: true, .. }),
                Section::ReadsOutput => !matches!(self, Kernel::ScatterReduce { copies: true, .. }),
                Section::Word => unit == Unit::Word,
                Section::SubWord => unit.is_sub_word(),
                Section::Ties => matches!(
                    self,
                    Kernel::ScatterReduce {
                        order: ReduceOrder::FirstTie | ReduceOrder::ListTies,
                        ..
                    }
                ),
                Section::DoubleWord => unit == Unit::DoubleWord,
                Section::Narrow => unit.bytes() <= 4,
                Section::CombinesRows => {
                    unit.bytes() <= 4
                        || matches!(
                            self,
                            Kernel::ScatterReduce {
                                order: ReduceOrder::RowsWide,
                                ..
                            }
                        )
                }
                // A reduction's arithmetic: its kind of number and its operation only.
                Section::Float | Section::Integer => match self {
                    Kernel::ScatterReduce { data_type, .. } => {
                        data_type.is_float() == (*section == Section::Float)
                    }
                    _ => false,
                },
                Section::MinMax | Section::AddMul | Section::Add | Section::NotAdd => match self {
                    Kernel::ScatterReduce { reduction, .. } => match section {
                        Section::MinMax => matches!(reduction, Reduction::Min | Reduction::Max),
                        Section::AddMul => matches!(reduction, Reduction::Add | Reduction::Mul),
                        Section::Add => reduction == Reduction::Add,
                        _ => reduction != Reduction::Add,
                    },
                    _ => false,
                },
                Section::Native | Section::Exchange => match self {
                    Kernel::ScatterReduce { .. } => {
                        self.combines_natively() == (*section == Section::Native)
                    }
                    _ => false,
                },
                // The output's narrow accessors: one of the two.
                Section::NativeOutput | Section::ExchangeOutput => match self {
                    Kernel::ScatterReduce { .. } if unit.bytes() <= 4 => {
                        (self.combines_natively() && unit == Unit::Word)
                            == (*section == Section::NativeOutput)
                    }
                    _ => false,
                },
                Section::HardwareFloat64 => self.uses_hardware_float64(),
                // The narrow bins' where asked for; the 8-byte slots' of compare-exchange
                // reductions always (their pass binds the heads either way).
                Section::Partials => match self {
                    Kernel::ScatterReduce { order, .. } => {
                        order == ReduceOrder::AnyWithPartials
                            || (unit == Unit::DoubleWord && !self.combines_natively())
                    }
                    _ => false,
                },
                Section::Screened => matches!(
                    self,
                    Kernel::ScatterReduce {
                        order: ReduceOrder::Screened,
                        ..
                    }
                ),
                // An element copied from the updates to the output by its word's accessors;
                // `sections_with` swaps in the 16-bit stores where the windowing has them.
                Section::WordStores => true,
                Section::HalfStores => false,
            })
            .collect()
    }

    /// [`Kernel::sections`] as `windowing` binds the kernel: with 2-byte outputs stored 16
    /// bits at a time ([`Kernel::writes_halves`]), `half-stores` instead of `word-stores`.
    pub fn sections_with(self, windowing: &Windowing) -> Vec<Section> {
        let mut sections = self.sections();
        if self.writes_halves(windowing) {
            sections.retain(|s| *s != Section::WordStores);
            sections.push(Section::HalfStores);
        }
        sections
    }

    /// Whether the variant, as `windowing` binds it, stores 2-byte elements by 16-bit stores:
    /// the any-order scatters of 2-byte units (not the row kernels, which store whole words
    /// or row edges), bound whole, where the windowing asks for it (the device has
    /// `SHADER_F16`). Its module then enables f16 and binds the updates and the output a
    /// second time, as `f16` (`updates_halves`, `output_halves`).
    pub fn writes_halves(self, windowing: &Windowing) -> bool {
        windowing.half_stores
            && windowing.bound == [0; ROLES]
            && matches!(
                self,
                Kernel::Scatter {
                    unit: Unit::Half,
                    in_order: false,
                    rows: RowKernel::No,
                }
            )
    }

    /// [`Kernel::bindings`] as `windowing` binds the kernel: with the second, `f16` bindings of
    /// the updates and the output where it [`Kernel::writes_halves`].
    pub fn windowed_bindings(self, windowing: &Windowing) -> Vec<Binding> {
        let mut bindings = self.bindings().to_vec();
        if self.writes_halves(windowing) {
            bindings.push(Binding {
                role: Role::Updates,
                access: Access::ReadHalves,
            });
            bindings.push(Binding {
                role: Role::Output,
                access: Access::WriteHalves,
            });
        }
        bindings
    }

    /// Whether the kernel adds by the device's float atomics (the module then needs
    /// `SHADER_FLOAT32_ATOMIC`).
    pub fn uses_float32_atomics(self) -> bool {
        matches!(
            self,
            Kernel::ScatterReduce {
                order: ReduceOrder::FloatAtomics,
                ..
            }
        )
    }

    /// Whether the kernel's Float64 arithmetic tries the device's f64 first (the module then
    /// needs `SHADER_F64` and `SHADER_INT64`).
    pub fn uses_hardware_float64(self) -> bool {
        matches!(
            self,
            Kernel::ScatterReduce {
                hardware_float64: true,
                ..
            }
        )
    }

    /// The reduction's variant that binds the input too and copies `output = input` as it
    /// folds rows' lists or sorted runs (in order) or as it screens the output (before
    /// Float32's atomics, or ties claimed as placed); any other kernel as it is.
    pub fn copying(self) -> Kernel {
        match self {
            Kernel::ScatterReduce {
                data_type,
                reduction,
                order,
                hardware_float64,
                ..
            } => Kernel::ScatterReduce {
                data_type,
                reduction,
                order,
                copies: true,
                hardware_float64,
            },
            other => other,
        }
    }

    /// Whether a reduction combines 8-byte units by 64-bit atomics (any order, or rows
    /// combined across workgroups: only where the device has them).
    pub fn reduces_by_wide_atomics(self) -> bool {
        matches!(
            self,
            Kernel::ScatterReduce {
                order: ReduceOrder::Any | ReduceOrder::RowsWide,
                ..
            }
        ) && self.unit() == Unit::DoubleWord
    }

    /// The kernel of the passes that combine rows across workgroups (`reduce_spilled_rows`,
    /// `reduce_sorted_rows`) after this in-order kernel's lists or sort: the same for units
    /// of at most 4 bytes, `ReduceOrder::RowsWide`'s (64-bit atomics) for 8-byte ones.
    pub fn combining_rows(self) -> Kernel {
        match self {
            Kernel::ScatterReduce {
                data_type,
                reduction,
                hardware_float64,
                ..
            } if self.unit() == Unit::DoubleWord => Kernel::ScatterReduce {
                data_type,
                reduction,
                order: ReduceOrder::RowsWide,
                copies: false,
                hardware_float64,
            },
            other => other,
        }
    }

    /// Whether a reduction combines by WGSL's own atomics (integer Add, Min and Max: their
    /// bits do not depend on the order; 8-byte ones by 64-bit atomics, in any order or rows
    /// combined across workgroups only), not by compare-exchange.
    pub fn combines_natively(self) -> bool {
        match self {
            Kernel::ScatterReduce {
                data_type,
                reduction,
                ..
            } => {
                !data_type.is_float()
                    && (data_type.size_in_bytes() <= 4 || self.reduces_by_wide_atomics())
                    && reduction != Reduction::Mul
            }
            _ => false,
        }
    }

    /// The entry points of the module: those of its files, in the sections it keeps.
    pub fn entries(self) -> Vec<Entry> {
        let (files, sections) = (self.files(), self.sections());
        Entry::ALL
            .iter()
            .copied()
            .filter(|entry| {
                let info = entry.info();
                files.contains(&info.file) && info.sections.iter().all(|s| sections.contains(s))
            })
            .collect()
    }

    /// The storage bindings after the uniform, in binding order.
    pub fn bindings(self) -> &'static [Binding] {
        match self {
            Kernel::StridedCopy(_) => STRIDED_COPY_BINDINGS,
            Kernel::Scatter {
                rows: RowKernel::Copying,
                ..
            } => SCATTER_COPY_ROWS_BINDINGS,
            Kernel::Scatter {
                in_order: false, ..
            } => SCATTER_BINDINGS,
            Kernel::Scatter { in_order: true, .. } => SCATTER_IN_ORDER_BINDINGS,
            Kernel::ScatterReduce {
                copies: true,
                order,
                ..
            } => match order {
                ReduceOrder::FirstTie => SCATTER_REDUCE_HEADS_COPY_BINDINGS,
                ReduceOrder::FloatAtomics => SCATTER_ADD_FLOAT_ATOMICS_COPY_BINDINGS,
                ReduceOrder::InOrder | ReduceOrder::ListTies => {
                    SCATTER_IN_ORDER_REDUCE_COPY_BINDINGS
                }
                _ => SCATTER_REDUCE_COPY_BINDINGS,
            },
            Kernel::ScatterReduce { order, .. } => match order {
                ReduceOrder::Any if self.reduces_by_wide_atomics() => {
                    if self.combines_natively() {
                        SCATTER_REDUCE_WIDE_BINDINGS
                    } else {
                        SCATTER_REDUCE_WIDE_EXCHANGE_BINDINGS
                    }
                }
                ReduceOrder::Any | ReduceOrder::Screened => SCATTER_REDUCE_BINDINGS,
                ReduceOrder::AnyWithPartials | ReduceOrder::FirstTie => {
                    SCATTER_REDUCE_HEADS_BINDINGS
                }
                ReduceOrder::FloatAtomics => SCATTER_ADD_FLOAT_ATOMICS_BINDINGS,
                ReduceOrder::InOrder | ReduceOrder::ListTies => SCATTER_IN_ORDER_REDUCE_BINDINGS,
                ReduceOrder::RowsWide => SCATTER_ROWS_WIDE_BINDINGS,
            },
            Kernel::Gather(_) => GATHER_BINDINGS,
        }
    }

    /// Whether a dispatch must bind every window of the kernel's tensors (the in-order fold
    /// reads updates wherever they lie, the tie passes check no window ownership), so slabs
    /// cannot run it.
    pub fn needs_every_window(self) -> bool {
        matches!(
            self,
            Kernel::ScatterReduce {
                order: ReduceOrder::InOrder
                    | ReduceOrder::FirstTie
                    | ReduceOrder::ListTies
                    | ReduceOrder::RowsWide,
                ..
            }
        )
    }

    /// What the kernel does, for errors about its needs.
    pub fn purpose(self) -> &'static str {
        match self {
            Kernel::StridedCopy(_) => "the strided-copy kernel's bindings",
            Kernel::Scatter {
                rows: RowKernel::Copying,
                ..
            } => "the bindings of the scatter kernel that copies as it scatters",
            Kernel::Scatter {
                rows: RowKernel::InPlace,
                ..
            } => "the bindings of the scatter kernel that scatters rows in place",
            Kernel::Scatter {
                in_order: false, ..
            } => "the scatter kernel's bindings",
            Kernel::Scatter { in_order: true, .. } => {
                "the in-order scatter kernel's bindings (8-byte elements always use it)"
            }
            Kernel::ScatterReduce {
                copies: true,
                order,
                ..
            } => match order {
                ReduceOrder::InOrder | ReduceOrder::ListTies => {
                    "the bindings of the scatter reduction (by rows or sorted updates) that \
                     copies as it folds"
                }
                _ => "the bindings of the scatter reduction whose screen copies as it reads",
            },
            Kernel::ScatterReduce { order, .. } => match order {
                ReduceOrder::Any => "the scatter reduction kernel's bindings",
                ReduceOrder::AnyWithPartials => {
                    "the bindings of the scatter reduction kernel whose bins leave partials"
                }
                ReduceOrder::FirstTie => {
                    "the in-order float Min or Max scatter reduction kernel's bindings"
                }
                ReduceOrder::FloatAtomics => {
                    "the bindings of the Float32 Add scatter reduction by float atomics"
                }
                ReduceOrder::Screened => {
                    "the bindings of the scatter reduction kernel after the float atomics' screen"
                }
                ReduceOrder::InOrder => {
                    "the in-order scatter reduction kernel's bindings (8-byte elements always use it)"
                }
                ReduceOrder::ListTies => {
                    "the bindings of the in-order float Min or Max scatter reduction by rows"
                }
                ReduceOrder::RowsWide => {
                    "the bindings of the scatter reduction combining 8-byte rows by 64-bit atomics"
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

    /// The binding number of each storage binding's first slot, and the binding of the
    /// `windows` uniform after them (used where `windowing.partial`).
    pub fn binding_numbers(self, windowing: &Windowing) -> (Vec<u32>, u32) {
        let mut next = 1;
        let mut numbers = Vec::new();
        for binding in self.windowed_bindings(windowing) {
            numbers.push(next);
            next += windowing.slots(binding.role);
        }
        (numbers, next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_point_is_in_some_variant_and_defined_there() {
        let mut held = Vec::new();
        for kernel in Kernel::all() {
            let module = naga::front::wgsl::parse_str(&kernel.source(256))
                .unwrap_or_else(|e| panic!("{kernel:?}: {e}"));
            for entry in kernel.entries() {
                assert!(
                    module.entry_points.iter().any(|e| e.name == entry.name()),
                    "{kernel:?} lacks {entry:?}"
                );
                held.push(entry);
            }
        }
        for entry in Entry::ALL {
            assert!(held.contains(entry), "{entry:?} is in no variant");
        }
    }
}
