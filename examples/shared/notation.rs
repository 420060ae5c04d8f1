//! Tensors printed in the notation of DirectML's operator pages, shared by the tour
//! (`examples/tour.rs`) and its web page (`examples/web`).

use dml_wgsl::{DataType, TensorDesc};
use half::{bf16, f16};

/// One element's value, read from its little-endian bytes.
pub fn element(t: DataType, b: &[u8]) -> String {
    let mut word = [0u8; 8];
    word[..b.len()].copy_from_slice(b);
    let w = u64::from_le_bytes(word);
    match t {
        DataType::Float64 => f64::from_bits(w).to_string(),
        DataType::Float32 => f32::from_bits(w as u32).to_string(),
        DataType::Float16 => f16::from_bits(w as u16).to_string(),
        DataType::BFloat16 => bf16::from_bits(w as u16).to_string(),
        DataType::Int64 => (w as i64).to_string(),
        DataType::Int32 => (w as i32).to_string(),
        DataType::Int16 => (w as i16).to_string(),
        DataType::Int8 => (w as i8).to_string(),
        DataType::UInt64 | DataType::UInt32 | DataType::UInt16 | DataType::UInt8 => w.to_string(),
        // A type added after this example was written (`DataType` is non-exhaustive): its bits.
        _ => format!("{w:#x}"),
    }
}

/// "input" becomes "Input", "write_indices" "WriteIndices" (the pages' member names).
pub fn title_case(name: &str) -> String {
    name.split('_')
        .flat_map(|word| {
            let mut c = word.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
        })
        .collect()
}

/// `(Sizes:{..}, DataType:..)` and the nested-bracket listing the DirectML pages use.
pub fn tensor(t: &TensorDesc, bytes: &[u8]) -> String {
    let sizes: Vec<String> = t.sizes.iter().map(|s| s.to_string()).collect();
    let width = t.data_type.size_in_bytes() as usize;
    let mut values = Vec::new();
    let mut c = vec![0u32; t.rank()];
    for _ in 0..t.element_count() {
        let at = t.byte_offset(&c) as usize;
        values.push(element(t.data_type, &bytes[at..at + width]));
        for d in (0..t.rank()).rev() {
            c[d] += 1;
            if c[d] < t.sizes[d] {
                break;
            }
            c[d] = 0;
        }
    }
    let pad = values.iter().map(|v| v.len()).max().unwrap_or(0);
    let values: Vec<String> = values.iter().map(|v| format!("{v:>pad$}")).collect();
    format!(
        "(Sizes:{{{}}}, DataType:{})\n{}",
        sizes.join(", "),
        format!("{:?}", t.data_type).to_uppercase(),
        nested(&t.sizes, &values, 0)
    )
}

fn nested(sizes: &[u32], values: &[String], depth: usize) -> String {
    if sizes.len() == 1 {
        return format!("[{}]", values.join(", "));
    }
    let chunk = values.len() / sizes[0] as usize;
    let parts: Vec<String> = values
        .chunks(chunk)
        .map(|part| nested(&sizes[1..], part, depth + 1))
        .collect();
    let separator = format!(
        ",{}\n{}",
        "\n".repeat(sizes.len() - 2),
        " ".repeat(depth + 1)
    );
    format!("[{}]", parts.join(&separator))
}
