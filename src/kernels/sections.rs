//! Sections: parts of a shader file that only some variants keep, between the lines
//! `// @<marker>-begin` and `// @<marker>-end`, removed by the registry for the others.

/// A part of a shader file that only some variants keep.
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
    /// Units of 8 bytes, held as (low, high) word pairs.
    DoubleWord,
    /// Units of at most 4 bytes, held in one word.
    Narrow,
}

impl Section {
    pub const ALL: [Section; 10] = [
        Section::AnyUpdate,
        Section::InOrder,
        Section::Word,
        Section::SubWord,
        Section::Reduce,
        Section::InOrderReduce,
        Section::Ties,
        Section::CopyRows,
        Section::DoubleWord,
        Section::Narrow,
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
            Section::DoubleWord => "double-word",
            Section::Narrow => "narrow",
        }
    }
}

/// `text` without the lines from `// @<marker>-begin` to `// @<marker>-end` of `section`.
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

/// Checks a family's section markers: each names a known section, and they pair up as
/// begin and end, nested or not; a misspelt marker would otherwise leave its lines in every
/// variant. (Run on every family source by a test.)
#[cfg(test)]
pub(super) fn check_section_markers(text: &str) -> Result<(), String> {
    let mut open: Vec<&str> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let Some(marker) = line.trim().strip_prefix("// @") else {
            continue;
        };
        // The binding templates' access markers (src/kernels/source.rs).
        if marker == "end" || marker.contains(' ') {
            continue;
        }
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
        let nested = "// @any-update-begin\n// @word-begin\n// @word-end\n// @any-update-end\n";
        assert!(check_section_markers(nested).is_ok());
    }
}
