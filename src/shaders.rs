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

/// One storage binding (binding 0 is always the uniform `params`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Binding {
    pub name: &'static str,
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

const COMMON: &str = include_str!("../shaders/common.wgsl");
const INDEX_MAP: &str = include_str!("../shaders/index_map.wgsl");
const STRIDED_COPY: &str = include_str!("../shaders/strided_copy.wgsl");
const SCATTER: &str = include_str!("../shaders/scatter.wgsl");
const GATHER: &str = include_str!("../shaders/gather.wgsl");

const fn binding(name: &'static str, access: Access) -> Binding {
    Binding { name, access }
}

const STRIDED_COPY_BINDINGS: &[Binding] = &[
    binding("input", Access::ReadElements),
    binding("output", Access::WriteElements),
];
const SCATTER_BINDINGS: &[Binding] = &[
    binding("updates", Access::ReadElements),
    binding("indices", Access::ReadWords),
    binding("output", Access::WriteElements),
    binding("status", Access::AtomicWords),
];
const GATHER_BINDINGS: &[Binding] = &[
    binding("input", Access::ReadElements),
    binding("indices", Access::ReadWords),
    binding("output", Access::WriteElements),
    binding("status", Access::AtomicWords),
];
const SCATTER_LAST_WINS_BINDINGS: &[Binding] = &[
    binding("updates", Access::ReadElements),
    binding("indices", Access::ReadWords),
    binding("output", Access::WriteElements),
    binding("status", Access::AtomicWords),
    binding("winners", Access::AtomicWords),
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

    /// The entry points of the module.
    pub fn entry_points(self) -> &'static [&'static str] {
        match self {
            Kernel::StridedCopy(_) => {
                &["strided_copy", "strided_copy_blocks", "strided_copy_planes"]
            }
            Kernel::Scatter {
                unit: Unit::Byte | Unit::Half,
                last_wins: false,
            } => &["scatter", "scatter_words", "describe_status"],
            Kernel::Scatter {
                unit: Unit::Word,
                last_wins: false,
            } => &[
                "scatter",
                "scatter_rows",
                "scatter_blocks",
                "describe_status",
            ],
            Kernel::Scatter {
                last_wins: false, ..
            } => &["scatter", "describe_status"],
            Kernel::Scatter {
                last_wins: true, ..
            } => &["claim_targets", "write_winners", "describe_status"],
            Kernel::Gather(Unit::Byte | Unit::Half) => {
                &["gather", "gather_words", "describe_status"]
            }
            Kernel::Gather(Unit::Word) => {
                &["gather", "gather_rows", "gather_blocks", "describe_status"]
            }
            Kernel::Gather(_) => &["gather", "describe_status"],
        }
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

    /// The family's source, with the sections this variant does not use removed: the
    /// grouped entry points exist for 4-byte units (`word`) and 1- and 2-byte ones (`sub-word`).
    fn family_source(self) -> String {
        let unit_sections = |text: &str, unit: Unit| {
            let mut text = text.to_string();
            if unit != Unit::Word {
                text = without_section(&text, "word");
            }
            if !unit.is_sub_word() {
                text = without_section(&text, "sub-word");
            }
            text
        };
        match self {
            Kernel::StridedCopy(_) => STRIDED_COPY.to_string(),
            Kernel::Scatter { unit, last_wins } => {
                let text =
                    without_section(SCATTER, if last_wins { "any-update" } else { "last-wins" });
                format!(
                    "{}{INDEX_MAP}\n{}",
                    status::wgsl_constants(),
                    unit_sections(&text, unit)
                )
            }
            Kernel::Gather(unit) => format!(
                "{}{INDEX_MAP}\n{}",
                status::wgsl_constants(),
                unit_sections(GATHER, unit)
            ),
        }
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

/// `text` without the lines from `// @<name>-begin` to `// @<name>-end`.
fn without_section(text: &str, name: &str) -> String {
    let (begin, end) = (format!("// @{name}-begin"), format!("// @{name}-end"));
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

/// The declaration of one storage binding and its element accessors.
fn binding_source(index: u32, binding: &Binding, unit: Unit) -> String {
    let name = binding.name;
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
