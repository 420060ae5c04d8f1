//! Code generation: a kernel's complete WGSL module, from a header of generated constants,
//! the bindings with their accessors, and the shader files it needs.

use super::bindings::{Access, Binding, Unit, Windowing};
use super::in_order::sort_constants;
use super::registry::{Family, Kernel, REDUCE_GROUP};
use super::sections::{Section, without_section};
use crate::ops::Reduction;
use crate::status;
use crate::tensor::DataType;

const COMMON: &str = include_str!("../../shaders/common.wgsl");
const INDEX_MAP: &str = include_str!("../../shaders/index_map.wgsl");
const STRIDED_COPY: &str = include_str!("../../shaders/strided_copy.wgsl");
const SCATTER: &str = include_str!("../../shaders/scatter.wgsl");
const GATHER: &str = include_str!("../../shaders/gather.wgsl");
const ARITHMETIC: &str = include_str!("../../shaders/arithmetic.wgsl");

/// The WGSL mirror of `WindowParams` (src/params.rs), declared by partial windowings.
const WINDOW_PARAMS: &str = "// Mirrors WindowParams in src/params.rs.
struct WindowParams {
    first: array<vec4<u32>, 2>,
    own_begin: array<vec4<u32>, 2>,
    own_end: array<vec4<u32>, 2>,
}
";

impl Kernel {
    /// The complete WGSL module, every tensor bound whole.
    #[cfg(test)]
    pub fn source(self, workgroup_size: u32) -> String {
        self.windowed_source(workgroup_size, &Windowing::default())
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
    use crate::kernels::sections::check_section_markers;

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
}
