//! The binding vocabulary: the element units kernels move, how a kernel uses each storage
//! binding, the roles that say what a binding holds, and how tensors past the binding window
//! are bound as windows.

/// The size class an element is moved as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Unit {
    /// 1-byte elements inside u32 words; stores go through compare-exchange on the word.
    Byte,
    /// 2-byte elements inside u32 words; stores go through compare-exchange on the word (or,
    /// with `Windowing::half_stores`, single 16-bit stores through an f16 view).
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
    pub(super) fn wgsl_type(self) -> &'static str {
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
    /// 8-byte integers combined by 64-bit atomics (`atomic<i64>` or `atomic<u64>`):
    /// `reduce_<name>(element, update)` only.
    ReduceWide,
    /// f32 elements added by the device's float atomics (`atomic<f32>`, wgpu's
    /// `SHADER_FLOAT32_ATOMIC`): `add_<name>(element, value)` and `load_<name>_bits(element)`.
    AddFloats,
    /// 2-byte elements as `f16`, read: a second binding of the tensor (`<name>_halves`),
    /// declared only (see `shaders/bindings/read_halves.wgsl`).
    ReadHalves,
    /// 2-byte elements as `f16`, written one 16-bit store each: a second binding of the
    /// tensor (`<name>_halves`), declared only (see `shaders/bindings/write_halves.wgsl`).
    WriteHalves,
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
        matches!(
            self.access,
            Access::ReadElements | Access::ReadWords | Access::ReadHalves
        )
    }

    /// The bytes of one entry of the binding's WGSL array, for a kernel of `unit`.
    pub fn entry_bytes(&self, unit: Unit) -> u32 {
        match self.access {
            Access::ReadElements
            | Access::WriteElements
            | Access::ReduceElements
            | Access::ReduceWide
                if !unit.is_sub_word() =>
            {
                unit.bytes()
            }
            // The f16 views (never bound as windows: `Kernel::writes_halves`).
            Access::ReadHalves | Access::WriteHalves => 2,
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
    /// A written binding of 2-byte elements is declared as f16 halves and stores an element
    /// by one 16-bit store (`shaders/bindings/write_halves.wgsl`) instead of a
    /// compare-exchange on its word: set where the device has `SHADER_F16` (see
    /// `ContextOptions::with_half_stores`) and the kernel has such a binding.
    pub half_stores: bool,
}

impl Windowing {
    /// The WGSL expression of the first window bound of `role`'s tensor.
    pub(super) fn first_window(&self, role: Role) -> String {
        if self.partial {
            let r = role.index();
            format!("windows.first[{}][{}]", r / 4, r % 4)
        } else {
            "0u".to_string()
        }
    }

    /// The WGSL expressions of the windows of `role` this dispatch owns, [begin, end).
    pub(super) fn owned_windows(&self, role: Role) -> (String, String) {
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

// The storage bindings of each kernel (`Kernel::bindings` picks one), after the uniform.

const fn binding(role: Role, access: Access) -> Binding {
    Binding { role, access }
}

pub(super) const STRIDED_COPY_BINDINGS: &[Binding] = &[
    binding(Role::Input, Access::ReadElements),
    binding(Role::Output, Access::WriteElements),
];
pub(super) const SCATTER_BINDINGS: &[Binding] = &[
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::WriteElements),
    binding(Role::Status, Access::AtomicWords),
];
pub(super) const SCATTER_COPY_ROWS_BINDINGS: &[Binding] = &[
    binding(Role::Input, Access::ReadElements),
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::WriteElements),
    binding(Role::Status, Access::AtomicWords),
];
pub(super) const GATHER_BINDINGS: &[Binding] = &[
    binding(Role::Input, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::WriteElements),
    binding(Role::Status, Access::AtomicWords),
];
pub(super) const SCATTER_IN_ORDER_BINDINGS: &[Binding] = &[
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::WriteElements),
    binding(Role::Status, Access::AtomicWords),
    binding(Role::Winners, Access::AtomicWords),
];

/// Declares a reduction kernel's storage bindings and those of its copying variant
/// (`Kernel::copying`: the same with the input bound first, which it copies `output = input`
/// from as it folds or screens).
macro_rules! reduce_bindings {
    ($(#[$doc:meta])* $plain:ident, $copying:ident: [$($entry:expr),* $(,)?]) => {
        $(#[$doc])*
        pub(super) const $plain: &[Binding] = &[$($entry),*];
        /// The copying variant's: the input first.
        pub(super) const $copying: &[Binding] =
            &[binding(Role::Input, Access::ReadElements), $($entry),*];
    };
}

reduce_bindings!(SCATTER_REDUCE_BINDINGS, SCATTER_REDUCE_COPY_BINDINGS: [
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::ReduceElements),
    binding(Role::Status, Access::AtomicWords),
]);
reduce_bindings!(
    /// Units of at most 4 bytes with the heads: the bins' partials, or float Min and Max's
    /// tie claims.
    SCATTER_REDUCE_HEADS_BINDINGS, SCATTER_REDUCE_HEADS_COPY_BINDINGS: [
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::ReduceElements),
    binding(Role::Status, Access::AtomicWords),
    binding(Role::Heads, Access::AtomicWords),
]);
reduce_bindings!(
    /// Float32 Add by the device's float atomics (the screen's word among the status words).
    SCATTER_ADD_FLOAT_ATOMICS_BINDINGS, SCATTER_ADD_FLOAT_ATOMICS_COPY_BINDINGS: [
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::AddFloats),
    binding(Role::Status, Access::AtomicWords),
]);
reduce_bindings!(
    /// The in-order reductions (by rows or by sorted updates).
    SCATTER_IN_ORDER_REDUCE_BINDINGS, SCATTER_IN_ORDER_REDUCE_COPY_BINDINGS: [
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::ReduceElements),
    binding(Role::Status, Access::AtomicWords),
    binding(Role::Heads, Access::AtomicWords),
    binding(Role::Links, Access::AtomicWords),
]);
/// 8-byte integers in any order, where the device has 64-bit atomics.
pub(super) const SCATTER_REDUCE_WIDE_BINDINGS: &[Binding] = &[
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::ReduceWide),
    binding(Role::Status, Access::AtomicWords),
];
/// The other 8-byte reductions in any order by 64-bit compare-exchange: the workgroups'
/// partials too (in the heads' scratch).
pub(super) const SCATTER_REDUCE_WIDE_EXCHANGE_BINDINGS: &[Binding] = &[
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::ReduceWide),
    binding(Role::Status, Access::AtomicWords),
    binding(Role::Heads, Access::AtomicWords),
];
/// 8-byte rows combined across workgroups by 64-bit atomics (`ReduceOrder::RowsWide`): the
/// in-order reductions' heads and links, the output as 64-bit atomics.
pub(super) const SCATTER_ROWS_WIDE_BINDINGS: &[Binding] = &[
    binding(Role::Updates, Access::ReadElements),
    binding(Role::Indices, Access::ReadWords),
    binding(Role::Output, Access::ReduceWide),
    binding(Role::Status, Access::AtomicWords),
    binding(Role::Heads, Access::AtomicWords),
    binding(Role::Links, Access::AtomicWords),
];
