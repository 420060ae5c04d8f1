//! Sections: parts of a shader file that only some variants keep, between the lines
//! `// @<marker>-begin` and `// @<marker>-end`, removed by the registry for the others.

/// A part of a shader file that only some variants keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Section {
    /// Grouped entry points of 4-byte units; 4-byte units' accessors.
    Word,
    /// Grouped entry points of 1- and 2-byte units; their accessors.
    SubWord,
    /// The any-update scatter's kernels that take a workgroup a row.
    Rows,
    /// Of those, the one out of place, which copies each output row before scattering into it.
    CopyRows,
    /// Of those, the one in place (1- and 2-byte units).
    RowsInPlace,
    /// The reductions that copy `output = input` as they fold the lists or runs, or as they
    /// screen the output.
    CopyInput,
    /// The other variants: the screens read the output the copy left.
    ReadsOutput,
    /// Float Min and Max in order: the passes that settle tied zeros and NaNs.
    Ties,
    /// Units of 8 bytes, held as (low, high) word pairs.
    DoubleWord,
    /// Units of at most 4 bytes, held in one word.
    Narrow,
    /// Rows combined across workgroups (`reduce_spilled_rows`, `reduce_sorted_rows`): by the
    /// in-order kernels of units of at most 4 bytes, and for 8-byte units by their own kernel
    /// of 64-bit atomics (`ReduceOrder::RowsWide`).
    CombinesRows,
    /// Scatter reductions of floating-point numbers: their arithmetic.
    Float,
    /// Scatter reductions of integers: their arithmetic.
    Integer,
    /// Scatter reductions Min and Max.
    MinMax,
    /// Scatter reductions Add and Mul.
    AddMul,
    /// Scatter reduction Add.
    Add,
    /// Every scatter reduction but Add: Mul's arithmetic (Min and Max keep it too, never
    /// reaching it, so that a function holding an Add and a Mul section stays whole).
    NotAdd,
    /// Integer Add, Min and Max of units of at most 4 bytes: combined in workgroup memory by
    /// WGSL's own atomics on widened words (no compare-exchange loop).
    Native,
    /// Every other reduction: combined in workgroup memory by compare-exchange.
    Exchange,
    /// `Native` on 4-byte units: the output's words take WGSL's own atomics too.
    NativeOutput,
    /// Every other reduction of units of at most 4 bytes: the output's words by
    /// compare-exchange.
    ExchangeOutput,
    /// Float64 Add and Mul on a device with f64 (`SHADER_F64` and `SHADER_INT64`): the
    /// device's own arithmetic where it gives IEEE's bits, before the integer path.
    HardwareFloat64,
    /// The any-order bins' partials (`ReduceOrder::AnyWithPartials`): stored by each
    /// workgroup in the heads, folded by `fold_partials`.
    Partials,
    /// The compare-exchange reduction after the float atomics' screen
    /// (`ReduceOrder::Screened`): it reduces only where the screen found a value their add
    /// may get wrong.
    Screened,
    WordStores,
    HalfStores,
}

impl Section {
    pub const ALL: [Section; 26] = [
        Section::Word,
        Section::SubWord,
        Section::Rows,
        Section::CopyRows,
        Section::RowsInPlace,
        Section::CopyInput,
        Section::ReadsOutput,
        Section::Ties,
        Section::DoubleWord,
        Section::Narrow,
        Section::CombinesRows,
        Section::Float,
        Section::Integer,
        Section::MinMax,
        Section::AddMul,
        Section::Add,
        Section::NotAdd,
        Section::Native,
        Section::Exchange,
        Section::NativeOutput,
        Section::ExchangeOutput,
        Section::HardwareFloat64,
        Section::Partials,
        Section::Screened,
        Section::WordStores,
        Section::HalfStores,
    ];

    pub fn marker(self) -> &'static str {
        match self {
            Section::Word => "word",
            Section::SubWord => "sub-word",
            Section::Rows => "rows",
            Section::CopyRows => "copy-rows",
            Section::RowsInPlace => "rows-in-place",
            Section::CopyInput => "copy-input",
            Section::ReadsOutput => "reads-output",
            Section::Ties => "ties",
            Section::DoubleWord => "double-word",
            Section::Narrow => "narrow",
            Section::CombinesRows => "combines-rows",
            Section::Float => "float",
            Section::Integer => "integer",
            Section::MinMax => "min-max",
            Section::AddMul => "add-mul",
            Section::Add => "add",
            Section::NotAdd => "not-add",
            Section::Native => "native",
            Section::Exchange => "exchange",
            Section::NativeOutput => "native-output",
            Section::ExchangeOutput => "exchange-output",
            Section::HardwareFloat64 => "hardware-float64",
            Section::Partials => "partials",
            Section::Screened => "screened",
            Section::WordStores => "word-stores",
            Section::HalfStores => "half-stores",
        }
    }
}

/// `text` without the lines from `// @<marker>-begin` to `// @<marker>-end` of `section`.
#[cfg(test)]
pub(super) fn without_section(text: &str, section: Section) -> String {
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

/// Checks a file's markers: each section marker names a known section, and they pair up as
/// begin and end, a section inside at most one other; a misspelt marker would otherwise leave
/// its lines in every variant. The binding templates' access blocks, `// @<access> <index>`
/// to `// @end` (src/kernels/source.rs), name a known access and close. (Run on every file
/// in `shaders/` by a test.)
#[cfg(test)]
pub(super) fn check_section_markers(text: &str) -> Result<(), String> {
    let mut open: Vec<&str> = Vec::new();
    let mut in_access = false;
    for (number, line) in text.lines().enumerate() {
        let Some(marker) = line.trim().strip_prefix("// @") else {
            continue;
        };
        let at = number + 1;
        if let Some((access, _index)) = marker.split_once(' ') {
            if in_access || !["at", "at-pair", "owns", "owns-pair", "first-slabs"].contains(&access)
            {
                return Err(format!("line {at}: `{line}` is no access marker here"));
            }
            in_access = true;
            continue;
        }
        if marker == "end" {
            if !in_access {
                return Err(format!("line {at}: `{line}` ends no access block"));
            }
            in_access = false;
            continue;
        }
        let (name, edge) = marker
            .rsplit_once('-')
            .ok_or_else(|| format!("line {at}: `{line}` is no section marker"))?;
        if !Section::ALL.iter().any(|s| s.marker() == name) {
            return Err(format!("line {at}: unknown section `{name}`"));
        }
        match edge {
            "begin" if open.len() < 2 => open.push(name),
            "begin" => return Err(format!("line {at}: sections nested more than one level")),
            "end" if open.last() == Some(&name) => {
                open.pop();
            }
            _ => return Err(format!("line {at}: `{line}` out of order")),
        }
    }
    if in_access {
        return Err("an access block never ends".to_string());
    }
    match open.pop() {
        Some(name) => Err(format!("section `{name}` never ends")),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelt_or_unbalanced_markers_are_errors() {
        assert!(check_section_markers("// @sub-words-begin\n// @sub-words-end\n").is_err());
        assert!(check_section_markers("// @word-begin\n").is_err());
        assert!(check_section_markers("// @word-end\n").is_err());
        assert!(check_section_markers("// @word-begin\n// @sub-word-end\n").is_err());
        assert!(check_section_markers("// @word-begin\nx\n// @word-end\n").is_ok());
        let nested = "// @narrow-begin\n// @word-begin\n// @word-end\n// @narrow-end\n";
        assert!(check_section_markers(nested).is_ok());
        let deeper = "// @narrow-begin\n// @word-begin\n// @ties-begin\n// @ties-end\n\
            // @word-end\n// @narrow-end\n";
        assert!(check_section_markers(deeper).is_err());
        assert!(check_section_markers("// @at w\nx\n// @end\n").is_ok());
        assert!(check_section_markers("// @at w\nx\n").is_err());
        assert!(check_section_markers("// @store w\nx\n// @end\n").is_err());
    }
}
