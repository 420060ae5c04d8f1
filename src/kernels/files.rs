//! The shader files: every file in `shaders/` (one table, checked against the directory by a
//! test), and what each requires.
//!
//! A file's first line may declare the files it calls into, `// requires: common index_map`
//! (paths without `.wgsl`); the registry builds a kernel's module from its root files and
//! everything they require, transitively, each once. Beside that, every file may use the
//! prelude the registry generates for a variant (src/kernels/source.rs): the specialisation
//! constants, the status words, the bindings and their accessors (instantiated from
//! `shaders/bindings/`, whose own requirements are added too).

/// Declares [`ShaderFile`] and its table from rows `Variant => "path in shaders/"`.
macro_rules! shader_files {
    ($($(#[$doc:meta])* $file:ident => $path:literal,)*) => {
        /// A file in `shaders/`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub(crate) enum ShaderFile {
            $($(#[$doc])* $file,)*
        }

        impl ShaderFile {
            pub const ALL: &'static [ShaderFile] = &[$(ShaderFile::$file),*];

            /// The file's path in `shaders/`.
            pub const fn path(self) -> &'static str {
                match self {
                    $(ShaderFile::$file => $path,)*
                }
            }

            pub const fn text(self) -> &'static str {
                match self {
                    $(ShaderFile::$file => include_str!(concat!("../../shaders/", $path)),)*
                }
            }
        }
    };
}

shader_files! {
    /// Helpers shared by every kernel.
    Common => "common.wgsl",
    /// The indexed walk of the scatters and gathers, and their status reports.
    IndexMap => "index_map.wgsl",
    StridedCopy => "strided_copy.wgsl",
    Gather => "gather.wgsl",
    /// The any-update scatter.
    Scatter => "scatter.wgsl",
    /// The in-order scatter's two passes.
    ScatterInOrder => "scatter_in_order.wgsl",
    /// The any-order scatter reduction and the float Min and Max ties.
    ScatterReduce => "scatter_reduce.wgsl",
    /// The any-order scatter reduction of 8-byte units (64-bit atomics).
    ScatterReduceWide => "scatter_reduce_wide.wgsl",
    /// The any-order scatter reduction onto a small output, in workgroup bins.
    ScatterBins => "scatter_bins.wgsl",
    /// The partials the bins and the 8-byte slots leave onto a small output, and their fold.
    Partials => "partials.wgsl",
    /// Float32 Add in any order by the device's float atomics, and their screen.
    ScatterFloatAdd => "scatter_float_add.wgsl",
    /// The in-order scatter reduction: the radix sort, the slices, the run folds (of updates,
    /// of slices), the lists.
    Sort => "sort.wgsl",
    ScatterSlices => "scatter_slices.wgsl",
    ScatterRuns => "scatter_runs.wgsl",
    ScatterSliceRuns => "scatter_slice_runs.wgsl",
    ScatterLists => "scatter_lists.wgsl",
    /// The rows the lists set aside past a block's bound, and their reduction.
    ScatterListSpills => "scatter_list_spills.wgsl",
    /// The reductions' heads zeroed.
    Heads => "heads.wgsl",
    /// The reductions' arithmetic, by number kind.
    Arithmetic => "arithmetic.wgsl",
    Integers => "integers.wgsl",
    Binary64 => "binary64.wgsl",
    Binary32 => "binary32.wgsl",
    /// The reductions' values of the kernel's unit (double-word and narrow sections).
    Units => "units.wgsl",
    /// 8-byte units as the 64-bit words of 64-bit atomics.
    Wide => "wide.wgsl",
    /// Declared by partial windowings.
    WindowParams => "window_params.wgsl",
    /// The bindings' accessors, a template per access kind.
    ReadElements => "bindings/read_elements.wgsl",
    ReadSubWords => "bindings/read_sub_words.wgsl",
    WriteElements => "bindings/write_elements.wgsl",
    WriteSubWords => "bindings/write_sub_words.wgsl",
    ReadHalves => "bindings/read_halves.wgsl",
    WriteHalves => "bindings/write_halves.wgsl",
    ReadWords => "bindings/read_words.wgsl",
    AtomicWords => "bindings/atomic_words.wgsl",
    ReduceElements => "bindings/reduce_elements.wgsl",
    ReduceWide => "bindings/reduce_wide.wgsl",
    AddFloats => "bindings/add_floats.wgsl",
}

impl ShaderFile {
    /// The file a `// requires:` line names: its path without `.wgsl`.
    fn named(name: &str) -> Option<ShaderFile> {
        ShaderFile::ALL
            .iter()
            .copied()
            .find(|file| file.path().strip_suffix(".wgsl") == Some(name))
    }

    /// The files this one declares it requires, in its first line.
    pub fn requires(self) -> Vec<ShaderFile> {
        let first = self.text().lines().next().unwrap_or_default();
        let Some(names) = first.strip_prefix("// requires:") else {
            return Vec::new();
        };
        names
            .split_whitespace()
            .map(|name| {
                ShaderFile::named(name).unwrap_or_else(|| {
                    unreachable!("{} requires `{name}`, no file in shaders/", self.path())
                })
            })
            .collect()
    }

    /// Whether the file is a template the registry instantiates per binding.
    pub fn is_binding_template(self) -> bool {
        self.path().starts_with("bindings/")
    }
}

/// `roots` and every file they require, transitively, each once: requirements first. (No
/// file requires itself through others: a test checks.)
pub(crate) fn with_requirements(roots: &[ShaderFile]) -> Vec<ShaderFile> {
    fn visit(file: ShaderFile, files: &mut Vec<ShaderFile>) {
        if files.contains(&file) {
            return;
        }
        for required in file.requires() {
            visit(required, files);
        }
        files.push(file);
    }
    let mut files = Vec::new();
    for &root in roots {
        visit(root, &mut files);
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::Kernel;
    use crate::kernels::bindings::Windowing;
    use crate::kernels::sections::check_section_markers;
    use crate::kernels::source::kept_sections;
    use naga::valid::{Capabilities, ValidationFlags, Validator};
    use std::path::Path;

    /// The `.wgsl` files under `dir`, as paths relative to `shaders/`.
    fn listed(dir: &Path, prefix: &str, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("shaders/ lists") {
            let entry = entry.expect("shaders/ lists");
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_dir() {
                listed(&entry.path(), &format!("{prefix}{name}/"), found);
            } else if name.ends_with(".wgsl") {
                found.push(format!("{prefix}{name}"));
            }
        }
    }

    #[test]
    fn the_table_lists_every_file_in_shaders() {
        let mut found = Vec::new();
        listed(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders"),
            "",
            &mut found,
        );
        found.sort();
        let mut table: Vec<String> = ShaderFile::ALL
            .iter()
            .map(|f| f.path().to_string())
            .collect();
        table.sort();
        assert_eq!(found, table);
    }

    #[test]
    fn every_file_has_well_formed_markers_and_requires_no_cycle() {
        for &file in ShaderFile::ALL {
            assert_eq!(
                check_section_markers(file.text()),
                Ok(()),
                "{}",
                file.path()
            );
            // Depth-first along the requirements: a file met again on the path is a cycle.
            fn walk(file: ShaderFile, path: &mut Vec<ShaderFile>) {
                assert!(
                    !path.contains(&file),
                    "a cycle of requirements: {path:?} {file:?}"
                );
                path.push(file);
                for required in file.requires() {
                    walk(required, path);
                }
                path.pop();
            }
            walk(file, &mut Vec::new());
        }
    }

    /// Each file with the prelude of a kernel that includes it and only the files it requires
    /// (its own, and those of the kernel's binding templates, which the prelude instantiates)
    /// parses and validates: every file declares what it needs. One kernel of each shape
    /// (sections kept and templates used) is enough; tests/shaders.rs checks every variant.
    #[test]
    fn every_file_validates_with_the_prelude_and_what_it_requires() {
        for &file in ShaderFile::ALL {
            let mut shapes = Vec::new();
            for kernel in Kernel::all() {
                if !kernel.files().contains(&file) {
                    continue;
                }
                let templates = kernel.binding_templates();
                let shape = (kernel.sections(), templates.clone(), kernel.unit());
                if shapes.contains(&shape) {
                    continue;
                }
                shapes.push(shape);
                let mut roots: Vec<ShaderFile> =
                    templates.iter().flat_map(|t| t.requires()).collect();
                if !file.is_binding_template() {
                    roots.push(file);
                }
                let mut source = kernel.prelude(256, &Windowing::default());
                for required in with_requirements(&roots) {
                    source += &kept_sections(required.text(), &kernel.sections());
                }
                let label = format!("{} in {kernel:?}", file.path());
                let module = naga::front::wgsl::parse_str(&source)
                    .unwrap_or_else(|e| panic!("{label}: {}", e.emit_to_string(&source)));
                // 64-bit atomics only where the kernel uses them (the device must offer them);
                let mut capabilities = Capabilities::empty();
                if kernel.reduces_by_wide_atomics() {
                    capabilities |=
                        Capabilities::SHADER_INT64 | Capabilities::SHADER_INT64_ATOMIC_ALL_OPS;
                }
                // f32 atomics only where the kernel adds by them.
                if kernel.uses_float32_atomics() {
                    capabilities |= Capabilities::SHADER_FLOAT32_ATOMIC;
                }
                // f64 only where the kernel uses it.
                if kernel.uses_hardware_float64() {
                    capabilities |= Capabilities::FLOAT64 | Capabilities::SHADER_INT64;
                }
                Validator::new(ValidationFlags::all(), capabilities)
                    .validate(&module)
                    .unwrap_or_else(|e| panic!("{label}: {}", e.emit_to_string(&source)));
            }
            if file == ShaderFile::WindowParams {
                // Declared by partial windowings' preludes: it stands alone.
                naga::front::wgsl::parse_str(file.text()).expect("window_params.wgsl parses");
            } else {
                assert!(!shapes.is_empty(), "{} is in no kernel", file.path());
            }
        }
    }
}
