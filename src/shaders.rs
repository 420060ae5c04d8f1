//! The closed shader registry: every kernel the library can dispatch, its WGSL source,
//! entry point, bindings and specialisation.
//!
//! A kernel is one operator family's shader specialised for an element *unit*: the kernels
//! move bits, so the 11 data types map onto five units (1, 2, 4, 8 and 16 bytes, the last
//! for runs of narrower elements moved 16 bytes at a time). The unit decides the WGSL
//! storage type and how elements are loaded and stored; the registry writes that into a
//! header it prepends to `shaders/common.wgsl` and the family's shader.

use crate::status;

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
    /// `atomic<u32>` words (status reports, last-wins claims).
    AtomicWords,
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
    /// The operator's own scratch: per-element winners of a last-wins scatter.
    Winners,
}

impl Role {
    /// The binding's name in WGSL.
    pub fn name(self) -> &'static str {
        match self {
            Role::Input => "input",
            Role::Indices => "indices",
            Role::Updates => "updates",
            Role::Output => "output",
            Role::Status => "status",
            Role::Winners => "winners",
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
}

/// Every shader variant the library dispatches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kernel {
    /// `shaders/strided_copy.wgsl`: Slice, Slice1 and every strided copy.
    StridedCopy(Unit),
    /// `shaders/scatter.wgsl`: ScatterElements and ScatterND, with either the single
    /// any-update pass or the two last-wins passes.
    Scatter { unit: Unit, last_wins: bool },
    /// `shaders/gather.wgsl`: Gather, GatherElements and GatherND.
    Gather(Unit),
}

/// A part of a family's shader that only some variants keep, between the lines
/// `// @<marker>-begin` and `// @<marker>-end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Section {
    /// The scatter's single pass in `DuplicateMode::AnyUpdate`.
    AnyUpdate,
    /// The scatter's claim and write passes in `DuplicateMode::LastWins`.
    LastWins,
    /// Grouped entry points of 4-byte units.
    Word,
    /// Grouped entry points of 1- and 2-byte units.
    SubWord,
}

impl Section {
    pub const ALL: [Section; 4] = [
        Section::AnyUpdate,
        Section::LastWins,
        Section::Word,
        Section::SubWord,
    ];

    pub fn marker(self) -> &'static str {
        match self {
            Section::AnyUpdate => "any-update",
            Section::LastWins => "last-wins",
            Section::Word => "word",
            Section::SubWord => "sub-word",
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
    Gather,
    GatherWords,
    GatherRows,
    GatherBlocks,
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
    pub const ALL: [Entry; 14] = [
        Entry::StridedCopy,
        Entry::StridedCopyBlocks,
        Entry::StridedCopyPlanes,
        Entry::Scatter,
        Entry::ScatterWords,
        Entry::ScatterRows,
        Entry::ScatterBlocks,
        Entry::ClaimTargets,
        Entry::WriteWinners,
        Entry::Gather,
        Entry::GatherWords,
        Entry::GatherRows,
        Entry::GatherBlocks,
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
            Entry::ClaimTargets => ("claim_targets", &[F::Scatter], &[S::LastWins]),
            Entry::WriteWinners => ("write_winners", &[F::Scatter], &[S::LastWins]),
            Entry::Gather => ("gather", &[F::Gather], &[]),
            Entry::GatherWords => ("gather_words", &[F::Gather], &[S::SubWord]),
            Entry::GatherRows => ("gather_rows", &[F::Gather], &[S::Word]),
            Entry::GatherBlocks => ("gather_blocks", &[F::Gather], &[S::Word]),
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

impl Kernel {
    /// Every variant, for tests and tools.
    pub fn all() -> Vec<Kernel> {
        let mut all: Vec<Kernel> = Unit::ALL.iter().map(|&u| Kernel::StridedCopy(u)).collect();
        for unit in Unit::ALL {
            for last_wins in [false, true] {
                all.push(Kernel::Scatter { unit, last_wins });
            }
            all.push(Kernel::Gather(unit));
        }
        all
    }

    pub fn unit(self) -> Unit {
        match self {
            Kernel::StridedCopy(unit) | Kernel::Scatter { unit, .. } | Kernel::Gather(unit) => unit,
        }
    }

    pub fn family(self) -> Family {
        match self {
            Kernel::StridedCopy(_) => Family::StridedCopy,
            Kernel::Scatter { .. } => Family::Scatter,
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
                Section::AnyUpdate => {
                    self == Kernel::Scatter {
                        unit,
                        last_wins: false,
                    }
                }
                Section::LastWins => {
                    self == Kernel::Scatter {
                        unit,
                        last_wins: true,
                    }
                }
                Section::Word => unit == Unit::Word && self.family() != Family::StridedCopy,
                Section::SubWord => unit.is_sub_word() && self.family() != Family::StridedCopy,
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
                last_wins: false, ..
            } => SCATTER_BINDINGS,
            Kernel::Scatter {
                last_wins: true, ..
            } => SCATTER_LAST_WINS_BINDINGS,
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
        format!("{}{INDEX_MAP}\n{text}", status::wgsl_constants())
    }

    /// What the kernel does, for errors about its needs.
    pub fn purpose(self) -> &'static str {
        match self {
            Kernel::StridedCopy(_) => "the strided-copy kernel's bindings",
            Kernel::Scatter {
                last_wins: false, ..
            } => "the scatter kernel's bindings",
            Kernel::Scatter {
                last_wins: true, ..
            } => "the last-wins scatter kernel's bindings (8-byte elements always use it)",
            Kernel::Gather(_) => "the gather kernel's bindings",
        }
    }

    pub fn label(self) -> String {
        format!("dml-wgsl {:?}", self)
    }

    /// The complete WGSL module: the specialisation header, the common helpers, the family.
    pub fn source(self, workgroup_size: u32) -> String {
        let unit = self.unit();
        let mut header = format!(
            "// {label}\nconst WORKGROUP_SIZE: u32 = {workgroup_size}u;\nalias Unit = {ty};\n",
            label = self.label(),
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
        for (i, binding) in self.bindings().iter().enumerate() {
            header += &binding_source(i as u32 + 1, binding, unit);
        }
        format!("{header}\n{COMMON}\n{}", self.family_source())
    }
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

/// The declaration of one storage binding and its element accessors.
fn binding_source(index: u32, binding: &Binding, unit: Unit) -> String {
    let name = binding.role.name();
    let ty = unit.wgsl_type();
    match (binding.access, unit.is_sub_word()) {
        (Access::ReadElements, false) => format!(
            "@group(0) @binding({index}) var<storage, read> {name}: array<{ty}>;\n\
             fn load_{name}(e: u32) -> Unit {{ return {name}[e]; }}\n"
        ),
        (Access::ReadElements, true) => format!(
            "@group(0) @binding({index}) var<storage, read> {name}: array<u32>;\n\
             fn load_{name}(e: u32) -> u32 {{\n    \
                 return ({name}[e / ELEMENTS_PER_WORD] >> ((e % ELEMENTS_PER_WORD) * ELEMENT_BITS)) & ELEMENT_MASK;\n}}\n"
        ),
        (Access::WriteElements, false) => format!(
            "@group(0) @binding({index}) var<storage, read_write> {name}: array<{ty}>;\n\
             fn store_{name}(e: u32, value: Unit) {{ {name}[e] = value; }}\n"
        ),
        (Access::ReadWords, _) => {
            format!("@group(0) @binding({index}) var<storage, read> {name}: array<u32>;\n")
        }
        (Access::AtomicWords, _) => format!(
            "@group(0) @binding({index}) var<storage, read_write> {name}: array<atomic<u32>>;\n"
        ),
        // Neighbouring elements share a word: replace only this element's bits, atomically,
        // so concurrent stores to the same word never lose each other's bytes or tear.
        (Access::WriteElements, true) => format!(
            "@group(0) @binding({index}) var<storage, read_write> {name}: array<atomic<u32>>;\n\
             fn store_{name}(e: u32, value: u32) {{\n    \
                 let word = e / ELEMENTS_PER_WORD;\n    \
                 let shift = (e % ELEMENTS_PER_WORD) * ELEMENT_BITS;\n    \
                 let mask = ELEMENT_MASK << shift;\n    \
                 var old = atomicLoad(&{name}[word]);\n    \
                 loop {{\n        \
                     let swapped = atomicCompareExchangeWeak(&{name}[word], old, (old & ~mask) | (value << shift));\n        \
                     if swapped.exchanged {{ break; }}\n        \
                     old = swapped.old_value;\n    \
                 }}\n}}\n"
        ),
    }
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
