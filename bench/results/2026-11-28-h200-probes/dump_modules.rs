// Scratch: inlined size of every entry point (not committed).
use super::*;
use naga::{Block, Statement, Handle, Function, Module};
use std::collections::HashMap;

fn block_size(m: &Module, b: &Block, memo: &mut HashMap<Handle<Function>, usize>) -> usize {
    let mut n = 0;
    for s in b.iter() {
        n += 1;
        match s {
            Statement::Block(b) => n += block_size(m, b, memo),
            Statement::If { accept, reject, .. } => n += block_size(m, accept, memo) + block_size(m, reject, memo),
            Statement::Switch { cases, .. } => for c in cases { n += block_size(m, &c.body, memo) },
            Statement::Loop { body, continuing, .. } => n += block_size(m, body, memo) + block_size(m, continuing, memo),
            Statement::Call { function, .. } => n += fn_size(m, *function, memo),
            _ => {}
        }
    }
    n
}
fn fn_size(m: &Module, f: Handle<Function>, memo: &mut HashMap<Handle<Function>, usize>) -> usize {
    if let Some(&s) = memo.get(&f) { return s; }
    let func = &m.functions[f];
    let s = func.expressions.len() + block_size(m, &func.body, memo);
    memo.insert(f, s);
    s
}

#[test]
#[ignore]
fn print_entry_sizes() {
    let filter = std::env::var("KFILTER").unwrap_or_default();
    for kernel in Kernel::all() {
        let label = kernel.windowed_label(&Windowing::default());
        if !label.contains(&filter) { continue; }
        for entry in kernel.entries() {
            let src = kernel.entry_source(entry, 256, &Windowing::default());
            let module = naga::front::wgsl::parse_str(&src).expect("parses");
            let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all()).validate(&module).expect("valid");
            let mut constants = naga::back::PipelineConstants::default();
            for (name, v) in [("RANK", 3.0), ("TUPLE_SIZE", 1.0), ("INDEX_FLAGS", 3.0)] {
                if module.overrides.iter().any(|(_, o)| o.name.as_deref() == Some(name)) { constants.insert(name.to_string(), v); }
            }
            let (module, info) = naga::back::pipeline_constants::process_overrides(&module, &info, None, &constants).expect("overrides");
            let (module, info) = (module.into_owned(), info.into_owned());
            let ep = module.entry_points.iter().find(|e| e.name == entry.name()).unwrap();
            let mut memo = HashMap::new();
            let inl = ep.function.expressions.len() + block_size(&module, &ep.function.body, &mut memo);
            let po = naga::back::spv::PipelineOptions { shader_stage: naga::ShaderStage::Compute, entry_point: entry.name().to_string() };
            let spirv = naga::back::spv::write_vec(&module, &info, &naga::back::spv::Options::default(), Some(&po)).unwrap();
            println!("SIZE {:>7} {:>7} {:>5} {} {}", inl, spirv.len(), src.lines().count(), entry.name(), label);
        }
    }
}

#[test]
#[ignore]
fn dump_probe_modules() {
    let list = std::fs::read_to_string("/tmp/pipes.txt").unwrap();
    let out = std::path::Path::new("/tmp/probe");
    std::fs::create_dir_all(out).unwrap();
    let mut seen = std::collections::HashSet::new();
    for line in list.lines() {
        let (desc, rest) = line.split_once('\t').unwrap();
        let (head, constants) = rest.rsplit_once(" [").unwrap();
        let (label, entry_name) = head.rsplit_once(' ').unwrap();
        if !seen.insert((label.to_string(), entry_name.to_string(), constants.to_string())) { continue; }
        let kernel = Kernel::all().into_iter().find(|k| k.windowed_label(&Windowing::default()) == format!("dml-wgsl {label}")).unwrap_or_else(|| panic!("{label}"));
        let entry = kernel.entries().into_iter().find(|e| e.name() == entry_name).unwrap();
        let src = kernel.entry_source(entry, 256, &Windowing::default());
        let consts: Vec<String> = constants.trim_end_matches(']').split("), (").map(|c| {
            let c = c.trim_matches(|ch| ch == '(' || ch == ')');
            let (n, v) = c.split_once(", ").unwrap();
            format!("{}={}", n.trim_matches('"'), v)
        }).collect();
        let short: String = label.chars().filter(|c| c.is_alphanumeric()).collect();
        let name = format!("{desc}__{entry_name}__{}.wgsl", &short[..short.len().min(60)]);
        std::fs::write(out.join(&name), format!("// probe-entry: {entry_name}\n// probe-constants: {}\n{src}", consts.join(" "))).unwrap();
    }
}
