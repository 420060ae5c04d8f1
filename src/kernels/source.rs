//! Code generation: a kernel's complete WGSL module, from a header of generated constants,
//! the bindings with their accessors, and the shader files it needs.

use super::bindings::{Access, Binding, ROLES, Unit, Windowing};
use super::entries::Entry;
use super::files::{ShaderFile, with_requirements};
use super::in_order::sort_constants;
use super::params;
use super::registry::{
    BIN_CAPACITY, BIN_GROUP, CLEAR_WORDS, Kernel, REDUCE_GROUP, WIDE_PARTIAL_GROUPS, WIDE_SLOTS,
};
use super::sections::Section;
#[cfg(test)]
use super::sections::without_section;
use crate::options::Reduction;
use crate::status;
use crate::tensor::DataType;

impl Kernel {
    /// The complete WGSL module, every tensor bound whole.
    #[cfg(test)]
    pub fn source(self, workgroup_size: u32) -> String {
        self.windowed_source(workgroup_size, &Windowing::default())
    }

    /// The complete WGSL module: the generated prelude, then the kernel's files with the
    /// sections it does not keep removed.
    pub fn windowed_source(self, workgroup_size: u32, windowing: &Windowing) -> String {
        let sections = self.sections_with(windowing);
        let mut text = self.prelude(workgroup_size, windowing);
        for file in self.files() {
            if !file.is_binding_template() {
                text += "\n";
                text += &kept_sections(file.text(), &sections);
            }
        }
        text
    }

    /// The module of one entry point: [`Kernel::windowed_source`] with every function the
    /// entry does not reach taken out (the other entry points included), so that the device
    /// parses and validates only the code the pipeline runs (an H100's host took 21 to 23 ms
    /// to build the whole in-order reduction module, about 2,700 lines, on the critical path
    /// of a first compile).
    pub fn entry_source(self, entry: Entry, workgroup_size: u32, windowing: &Windowing) -> String {
        reachable_from(
            &self.windowed_source(workgroup_size, windowing),
            entry.name(),
        )
    }

    /// The files of the module: its roots, the templates of its bindings, and everything
    /// they require.
    pub fn files(self) -> Vec<ShaderFile> {
        let mut roots = self.roots().to_vec();
        roots.extend(self.binding_templates());
        with_requirements(&roots)
    }

    /// The template of each binding's accessors (and of the f16 bindings 16-bit stores add).
    pub(super) fn binding_templates(self) -> Vec<ShaderFile> {
        let unit = self.unit();
        let mut templates: Vec<ShaderFile> = self
            .bindings()
            .iter()
            .map(|binding| binding_template(binding, unit).2)
            .collect();
        // The second, f16 bindings where the kernel stores 16 bits at a time.
        let halves = Windowing {
            half_stores: true,
            ..Windowing::default()
        };
        if self.writes_halves(&halves) {
            templates.extend([ShaderFile::ReadHalves, ShaderFile::WriteHalves]);
        }
        templates
    }

    /// What the registry generates for the variant: the specialisation constants, the status
    /// words' names, the reductions' and in-order constants, and the bindings with their
    /// accessors (`WindowParams` and the `windows` uniform where the windowing is partial).
    pub(super) fn prelude(self, workgroup_size: u32, windowing: &Windowing) -> String {
        let unit = self.unit();
        let sections = self.sections_with(windowing);
        // Before any declaration, as WGSL requires.
        let enable = if self.writes_halves(windowing) {
            "enable f16;\n"
        } else {
            ""
        };
        let mut header = format!(
            "{enable}// {label}\nconst WORKGROUP_SIZE: u32 = {workgroup_size}u;\nalias Unit = {ty};\n",
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
        // The indexed walk reports out-of-range tuples in the status words.
        if self.files().contains(&ShaderFile::IndexMap) {
            header += &status::wgsl_constants();
            header += &params::wgsl_constants();
            header += &format!("const CLEAR_WORDS: u32 = {CLEAR_WORDS}u;\n");
        }
        if let Kernel::ScatterReduce {
            data_type,
            reduction,
            ..
        } = self
        {
            header += &reduction_constants(data_type, reduction);
            // Only modules with 64-bit atomics name a 64-bit type (a device without
            // SHADER_INT64 refuses any module that does).
            if self.reduces_by_wide_atomics() {
                let wide = if data_type.is_signed()
                    && !data_type.is_float()
                    && matches!(reduction, Reduction::Min | Reduction::Max)
                {
                    "i64"
                } else {
                    "u64"
                };
                header += &format!("alias WideWord = {wide};\n");
            }
            header += &sort_constants(
                workgroup_size,
                data_type,
                reduction,
                self.uses_hardware_float64(),
            );
        }
        let (numbers, windows_binding) = self.binding_numbers(windowing);
        if windowing.partial {
            header += &format!(
                "{}@group(0) @binding({windows_binding}) var<uniform> windows: WindowParams;\n",
                ShaderFile::WindowParams.text()
            );
        }
        for (binding, number) in self.windowed_bindings(windowing).iter().zip(numbers) {
            header += &binding_source(number, binding, unit, windowing, &sections);
        }
        header
    }
}

/// A top-level function of a module's text: its name and its lines `[start, end]` (from its
/// attributes, if any, to its closing brace).
struct Function<'a> {
    name: &'a str,
    start: usize,
    end: usize,
}

/// The module `text` with only the functions `entry` reaches: every top-level function
/// (`fn name(` at the start of a line, its `@compute` line before it, its body to the next
/// `}` at the start of a line, as every file in `shaders/` and every generated accessor is
/// written) that is neither `entry` nor called, directly or not, from it is removed.
/// Reaching is read generously: any identifier of a function's body that names a function
/// counts, so nothing called is ever removed. Comment lines are removed too; everything else
/// (constants, structs, overrides, variables) stays.
pub(super) fn reachable_from(text: &str, entry: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut functions: Vec<Function> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(rest) = lines[i].strip_prefix("fn ") {
            let name = rest.split('(').next().unwrap_or_default().trim();
            let mut start = i;
            // An entry point's attributes (never a binding's `@group(..) var` before it).
            while start > 0 && lines[start - 1].starts_with("@compute") {
                start -= 1;
            }
            let end = (i..lines.len()).find(|&k| lines[k].starts_with('}'));
            // The body must close where the first `}` at the start of a line is: its braces
            // (outside comments) balance there. Otherwise the text is not in the shape every
            // file has, and it stays whole (a larger module, never a broken one).
            let Some(end) = end.filter(|&end| braces_balance(&lines[i..=end])) else {
                return text.to_string();
            };
            functions.push(Function { name, start, end });
            i = end;
        }
        i += 1;
    }
    let by_name: std::collections::HashMap<&str, usize> = functions
        .iter()
        .enumerate()
        .map(|(f, function)| (function.name, f))
        .collect();
    let index_of = |name: &str| by_name.get(name).copied();
    let Some(first) = index_of(entry) else {
        return text.to_string();
    };
    let mut reached = vec![false; functions.len()];
    let mut pending = vec![first];
    reached[first] = true;
    while let Some(f) = pending.pop() {
        let body = &lines[functions[f].start..=functions[f].end];
        for word in body
            .iter()
            .flat_map(|line| line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        {
            if let Some(g) = index_of(word)
                && !reached[g]
            {
                reached[g] = true;
                pending.push(g);
            }
        }
    }
    let mut removed = vec![false; lines.len()];
    for (f, function) in functions.iter().enumerate() {
        if !reached[f] {
            removed[function.start..=function.end].fill(true);
        }
    }
    // Comment lines go too (a third of `shaders/`' text): the module is for the device.
    let mut kept = String::with_capacity(text.len());
    for (line, _) in lines
        .iter()
        .zip(&removed)
        .filter(|(line, removed)| !**removed && !line.trim_start().starts_with("//"))
    {
        kept += line;
        kept += "\n";
    }
    kept
}

/// Whether the braces of `lines` (outside `//` comments) open and close as often.
fn braces_balance(lines: &[&str]) -> bool {
    let mut depth = 0i64;
    for line in lines {
        let code = line.split("//").next().unwrap_or_default();
        for c in code.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
        }
    }
    depth == 0
}

/// `text` without the sections `kept` leaves out (as `without_section` for each of them,
/// in one pass: markers nest, so a dropped section's lines go with everything inside).
pub(super) fn kept_sections(text: &str, kept: &[Section]) -> String {
    let dropped: Vec<(String, String)> = Section::ALL
        .into_iter()
        .filter(|s| !kept.contains(s))
        .map(|s| {
            let marker = s.marker();
            (format!("// @{marker}-begin"), format!("// @{marker}-end"))
        })
        .collect();
    let mut depth = 0usize;
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("// @") {
            if dropped.iter().any(|(begin, _)| trimmed == begin) {
                depth += 1;
                continue;
            }
            if dropped.iter().any(|(_, end)| trimmed == end) {
                depth = depth.saturating_sub(1);
                continue;
            }
        }
        if depth == 0 {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The constants `shaders/arithmetic.wgsl` reads.
fn reduction_constants(data_type: DataType, reduction: Reduction) -> String {
    let bits = data_type.size_in_bytes() * 8;
    // shaders/integers.wgsl's number kinds: UNSIGNED, SIGNED, FLOAT (IEEE binary), BFLOAT.
    let kind = match data_type {
        DataType::BFloat16 => 3,
        _ if data_type.is_float() => 2,
        _ => data_type.is_signed() as u32,
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
    let identity = reduction_identity(data_type, reduction);
    let (identity_low, identity_high) = (identity as u32, (identity >> 32) as u32);
    // Signed Min and Max by WGSL's own atomics act on i32 words holding the values
    // sign-extended; every other reduction's words are u32.
    let signed_order = data_type.is_signed()
        && !data_type.is_float()
        && matches!(reduction, Reduction::Min | Reduction::Max);
    // Float32 Min and Max take their side of the sign by atomicMax (where a pipeline sets
    // `SIGN_ATOMICS_ON`): Max on i32 words, where positive floats order as their bits.
    let sign_atomics =
        data_type == DataType::Float32 && matches!(reduction, Reduction::Min | Reduction::Max);
    let signed_words = signed_order || (sign_atomics && reduction == Reduction::Max);
    let word = if signed_words { "i32" } else { "u32" };
    format!(
        "// {data_type:?} {reduction:?}\nconst REDUCTION: u32 = {operation}u;\nconst NUMBER_KIND: u32 = {kind}u;\n\
         const NUMBER_BITS: u32 = {bits}u;\nconst NUMBER_MASK: u32 = {mask:#x}u;\nconst NUMBER_SHIFT: u32 = {shift}u;\n\
         const IDENTITY: u32 = {identity_low:#x}u;\n\
         const WIDE_IDENTITY: vec2<u32> = vec2<u32>({identity_low:#x}u, {identity_high:#x}u);\n\
         const REDUCE_GROUP: u32 = {REDUCE_GROUP}u;\n\
         alias ReduceWord = {word};\nconst SIGN_EXTENDED: bool = {signed_order};\n\
         const BIN_CAPACITY: u32 = {BIN_CAPACITY}u;\nconst BIN_GROUP: u32 = {BIN_GROUP}u;\n\
         const WIDE_SLOTS: u32 = {WIDE_SLOTS}u;\nconst WIDE_PARTIAL_GROUPS: u32 = {WIDE_PARTIAL_GROUPS}u;\n"
    )
}

/// The reduction's identity (`x op identity = identity op x = x`, bits included, for every x
/// but a NaN, which Add and Mul quiet), where the any-order passes combine a workgroup's
/// updates first (`IDENTITY`, and `WIDE_IDENTITY` as a (low, high) pair for 8-byte units).
fn reduction_identity(data_type: DataType, reduction: Reduction) -> u64 {
    let bits = data_type.size_in_bytes() * 8;
    let signed = data_type.is_signed() && !data_type.is_float();
    let sign_bit = 1u64 << (bits - 1);
    let all_ones = u64::MAX >> (64 - bits);
    match (reduction, data_type) {
        (Reduction::Add, DataType::Float16 | DataType::BFloat16)
        | (Reduction::Add, DataType::Float32 | DataType::Float64) => sign_bit, // -0.0
        (Reduction::Mul, DataType::Float16) => 0x3c00,
        (Reduction::Mul, DataType::BFloat16) => 0x3f80,
        (Reduction::Mul, DataType::Float32) => 0x3f80_0000,
        (Reduction::Mul, DataType::Float64) => 0x3ff0_0000_0000_0000,
        (Reduction::Min, DataType::Float16) => 0x7c00, // +inf
        (Reduction::Min, DataType::BFloat16) => 0x7f80,
        (Reduction::Min, DataType::Float32) => 0x7f80_0000,
        (Reduction::Min, DataType::Float64) => 0x7ff0_0000_0000_0000,
        (Reduction::Max, DataType::Float16) => 0xfc00, // -inf
        (Reduction::Max, DataType::BFloat16) => 0xff80,
        (Reduction::Max, DataType::Float32) => 0xff80_0000,
        (Reduction::Max, DataType::Float64) => 0xfff0_0000_0000_0000,
        (Reduction::Add, _) => 0,
        (Reduction::Mul, _) => 1,
        (Reduction::Min, _) if signed => sign_bit - 1,
        (Reduction::Min, _) => all_ones,
        (Reduction::Max, _) if signed => sign_bit,
        _ => 0,
    }
}

/// The declarations of one storage binding (one array, or one per window bound) and its
/// accessors, instantiated from the access kind's template in `shaders/bindings/` (each says
/// what it defines). Every accessor takes an index into the whole tensor's binding, in the
/// units its name says, and finds the window that holds it, so the kernels never see windows.
fn binding_source(
    slot: u32,
    binding: &Binding,
    unit: Unit,
    windowing: &Windowing,
    sections: &[Section],
) -> String {
    // A second binding of a tensor (as f16 halves) has a name of its own.
    let name = match binding.access {
        Access::ReadHalves | Access::WriteHalves => format!("{}_halves", binding.role.name()),
        _ => binding.role.name().to_string(),
    };
    let name = name.as_str();
    let bound = windowing.bound[binding.role.index()];
    let (declared, access, template) = binding_template(binding, unit);
    let upper = name.to_uppercase();
    let mut text = String::new();
    if bound == 0 {
        text += &format!(
            "@group(0) @binding({slot}) var<storage, {access}> {name}: array<{declared}>;\n"
        );
    } else {
        let shift = windowing.window_shift - binding.entry_bytes(unit).trailing_zeros();
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
    // `body` (the lines of an `// @at` block) touching entry `whole` of the one array, or
    // entry `local` of window `window` (WGSL expressions).
    let access = |whole: &str, window: &str, local: &str, body: &str| -> String {
        let instance = |array: &str, index: &str| {
            body.replace("NAME[", &format!("{array}["))
                .replace("[AT", &format!("[{index}"))
        };
        if bound == 0 {
            return instance(name, whole);
        }
        let mut code = format!("    let local = {local};\n    switch ({window}) - {first} {{\n");
        for k in 0..bound {
            let label = if k + 1 == bound {
                "default".to_string()
            } else {
                format!("case {k}u")
            };
            code += &format!(
                "        {label}: {{\n{}        }}\n",
                instance(&format!("{name}_{k}"), "local")
            );
        }
        code + "    }\n"
    };
    // The lines of an `// @owns` block (`return true;`), or the check of the window of entry
    // `index`, `shift` its window's shift.
    let owns = |index: &str, shift: &str, body: &str| -> String {
        if windowing.partial && bound > 0 {
            let (begin, end) = windowing.owned_windows(binding.role);
            format!(
                "    let window = {index} >> ({shift});\n    return window >= {begin} && window < {end};\n"
            )
        } else {
            body.to_string()
        }
    };
    let shift = format!("{upper}_SHIFT");
    let expand = |marker: &str, index: &str, body: &str| -> String {
        match marker {
            "at" => access(
                &format!("({index})"),
                &format!("({index}) >> {shift}"),
                &format!("({index}) & {upper}_MASK"),
                body,
            ),
            // An 8-byte element's two words: entries 2 * index and the next.
            "at-pair" => access(
                &format!("(2u * {index})"),
                &format!("{index} >> ({shift} - 1u)"),
                &format!("({index} & ({upper}_MASK >> 1u)) << 1u"),
                body,
            ),
            "owns" => owns(index, &shift, body),
            "first-slabs" if windowing.partial => {
                let first: Vec<String> = (0..ROLES.div_ceil(4))
                    .map(|i| format!("all(windows.own_begin[{i}] == vec4<u32>())"))
                    .collect();
                format!("    return {};\n", first.join(" && "))
            }
            "first-slabs" => body.to_string(),
            "owns-pair" => owns(index, &format!("{shift} - 1u"), body),
            _ => unreachable!(
                "binding templates mark `at`, `at-pair`, `owns`, `owns-pair` or `first-slabs`"
            ),
        }
    };
    text + &instantiate(template.text(), sections, name, expand)
}

/// A binding's array entry (its declared type), its storage access, and the template of its
/// accessors.
fn binding_template(binding: &Binding, unit: Unit) -> (&'static str, &'static str, ShaderFile) {
    use ShaderFile as F;
    match binding.access {
        Access::ReadHalves => ("f16", "read", F::ReadHalves),
        Access::WriteHalves => ("f16", "read_write", F::WriteHalves),
        Access::ReadElements if unit.is_sub_word() => ("u32", "read", F::ReadSubWords),
        Access::ReadElements => (unit.wgsl_type(), "read", F::ReadElements),
        Access::WriteElements if unit.is_sub_word() => {
            ("atomic<u32>", "read_write", F::WriteSubWords)
        }
        Access::WriteElements => (unit.wgsl_type(), "read_write", F::WriteElements),
        Access::ReadWords => ("u32", "read", F::ReadWords),
        Access::AtomicWords => ("atomic<u32>", "read_write", F::AtomicWords),
        Access::ReduceElements if unit == Unit::DoubleWord => {
            ("vec2<u32>", "read_write", F::ReduceElements)
        }
        // i32 words where signed Min and Max take WGSL's own atomics (`ReduceWord`).
        Access::ReduceElements => ("atomic<ReduceWord>", "read_write", F::ReduceElements),
        Access::ReduceWide => ("atomic<WideWord>", "read_write", F::ReduceWide),
        Access::AddFloats => ("atomic<f32>", "read_write", F::AddFloats),
    }
}

/// A binding template with the sections `kept` leaves out removed, its comments dropped,
/// `NAME` replaced by `name`, and each block from `// @<marker> <index>` to `// @end` replaced
/// by `expand(marker, index, block)`.
fn instantiate(
    template: &str,
    kept: &[Section],
    name: &str,
    expand: impl Fn(&str, &str, &str) -> String,
) -> String {
    let text = kept_sections(template, kept);
    let mut out = String::new();
    let mut block: Option<(&str, &str, String)> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(marker) = trimmed.strip_prefix("// @") {
            match (marker.split_once(' '), block.take()) {
                (Some((opened, index)), None) => block = Some((opened, index, String::new())),
                (None, Some((opened, index, body))) if marker == "end" => {
                    out += &expand(opened, index, &body).replace("NAME", name);
                }
                // A kept section's marker.
                (None, None) if marker != "end" => {}
                _ => unreachable!("unbalanced binding template markers at `{line}`"),
            }
        } else if let Some((_, _, body)) = &mut block {
            *body += line;
            body.push('\n');
        } else if !trimmed.starts_with("//") && !trimmed.is_empty() {
            out += &line.replace("NAME", name);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::{bf16_to_f32, f16_to_f32, reduce_element};

    #[test]
    fn one_pass_over_the_sections_keeps_what_removing_each_in_turn_keeps() {
        for kernel in Kernel::all() {
            let sections = kernel.sections();
            for file in kernel.files() {
                let mut expected = file.text().to_string();
                for section in Section::ALL.into_iter().filter(|s| !sections.contains(s)) {
                    expected = without_section(&expected, section);
                }
                assert_eq!(
                    kept_sections(file.text(), &sections),
                    expected,
                    "{kernel:?} {}",
                    file.path()
                );
            }
        }
    }

    #[test]
    fn an_entry_module_keeps_its_entry_and_what_it_calls_and_nothing_else() {
        let text = "const A: u32 = 1u;\n// a comment\nfn helper() -> u32 {\n    return A;\n}\n\
                    fn unused() -> u32 {\n    return 2u;\n}\n@group(0) @binding(0) var<uniform> u: u32;\n\
                    @compute @workgroup_size(1)\nfn first() {\n    let x = helper();\n}\n\
                    @compute @workgroup_size(1)\nfn second() {\n    let y = unused();\n}\n";
        let kept = reachable_from(text, "first");
        assert_eq!(
            kept,
            "const A: u32 = 1u;\nfn helper() -> u32 {\n    return A;\n}\n\
             @group(0) @binding(0) var<uniform> u: u32;\n@compute @workgroup_size(1)\n\
             fn first() {\n    let x = helper();\n}\n"
        );
        // A body whose braces do not close at its first `}` line keeps the text whole (no
        // file in `shaders/` is written so: the modules below would then hold every entry).
        let nested = "fn outer() {\n    if true {\n}\n}\nfn unused() {\n}\n";
        assert_eq!(reachable_from(nested, "outer"), nested);
        // Every entry point of every variant, bound whole and in each windowing the library
        // builds (as `shader_variants`): its module parses and validates, holds the entry
        // and no other entry point.
        let split = |bound, partial| Windowing {
            window_shift: 12,
            bound: [bound; ROLES],
            partial,
            half_stores: false,
        };
        let windowings = [
            Windowing::default(),
            split(3, false),
            split(1, true),
            split(2, true),
            Windowing {
                half_stores: true,
                ..Windowing::default()
            },
        ];
        for (kernel, windowing) in Kernel::all()
            .into_iter()
            .flat_map(|k| windowings.iter().map(move |w| (k, w)))
        {
            for entry in kernel.entries() {
                let source = kernel.entry_source(entry, 256, windowing);
                let module = naga::front::wgsl::parse_str(&source).unwrap_or_else(|e| {
                    panic!("{kernel:?} {entry:?}: {}", e.emit_to_string(&source))
                });
                let names: Vec<&str> = module
                    .entry_points
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect();
                assert_eq!(names, [entry.name()], "{kernel:?} {windowing:?}");
                naga::valid::Validator::new(
                    naga::valid::ValidationFlags::all(),
                    naga::valid::Capabilities::all(),
                )
                .validate(&module)
                .unwrap_or_else(|e| panic!("{kernel:?} {entry:?}: {}", e.emit_to_string(&source)));
            }
        }
    }

    fn is_nan(data_type: DataType, x: &[u8]) -> bool {
        match data_type {
            DataType::Float16 => f16_to_f32(u16::from_le_bytes([x[0], x[1]])).is_nan(),
            DataType::BFloat16 => bf16_to_f32(u16::from_le_bytes([x[0], x[1]])).is_nan(),
            DataType::Float32 => f32::from_le_bytes([x[0], x[1], x[2], x[3]]).is_nan(),
            DataType::Float64 => f64::from_le_bytes(x.try_into().expect("8 bytes")).is_nan(),
            _ => false,
        }
    }

    #[test]
    fn each_reduction_identity_leaves_every_value_of_its_type_alone() {
        for data_type in DataType::ALL {
            let width = data_type.size_in_bytes() as usize;
            // Every pattern of 1 and 2 bytes; 4- and 8-byte ones sampled, every exponent
            // included (an 8-byte sample's high word steps over every exponent too).
            let patterns: Vec<u64> = match width {
                8 => (0..=u32::MAX as u64)
                    .step_by(65_521)
                    .map(|high| (high << 32) | (high.wrapping_mul(0x9e37_79b9) & 0xffff_ffff))
                    .chain([1 << 63, 1, u64::MAX, 0x7ff0_0000_0000_0000])
                    .collect(),
                4 => (0..=u32::MAX as u64)
                    .step_by(65_521)
                    .chain([0x8000_0000, 1])
                    .collect(),
                _ => (0..1u64 << (8 * width)).collect(),
            };
            for reduction in Reduction::COMBINING {
                let identity = reduction_identity(data_type, reduction).to_le_bytes();
                let identity = &identity[..width];
                for x in &patterns {
                    let x = &x.to_le_bytes()[..width];
                    // Add and Mul quiet a NaN (a signalling one comes back changed): skipped.
                    if matches!(reduction, Reduction::Add | Reduction::Mul) && is_nan(data_type, x)
                    {
                        continue;
                    }
                    let label = format!("{data_type:?} {reduction:?} {x:02x?}");
                    assert_eq!(
                        reduce_element(data_type, reduction, x, identity),
                        x,
                        "{label}"
                    );
                    assert_eq!(
                        reduce_element(data_type, reduction, identity, x),
                        x,
                        "{label}"
                    );
                }
            }
        }
    }
}
