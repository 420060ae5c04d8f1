//! The case file of `tests/onnx.rs`: ONNX nodes and their tensors as
//! `scripts/onnx_cases.py` writes them (the script's header describes the format), read
//! without dependencies.

use std::collections::BTreeMap;

pub const CASE_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/onnx/node_cases.txt");

/// One tensor: numpy's dtype name, ONNX's shape, and the elements' little-endian bytes.
#[derive(Debug)]
pub struct Tensor {
    pub dtype: String,
    pub shape: Vec<u64>,
    pub bytes: Vec<u8>,
}

#[derive(Debug)]
#[allow(dead_code)] // no operator tests/onnx.rs maps has a float attribute; the file may hold them
pub enum Attribute {
    Int(i64),
    Ints(Vec<i64>),
    Float(f64),
    Floats(Vec<f64>),
    String(String),
}

/// The ONNX node of a case, as its model holds it.
#[derive(Debug, Default)]
pub struct Node {
    pub op_type: String,
    /// The model's opset of the default domain.
    pub opset: u32,
    /// Input names in order; `None` for an absent optional input.
    pub inputs: Vec<Option<String>>,
    pub outputs: Vec<String>,
    pub attributes: BTreeMap<String, Attribute>,
}

/// The graph inputs' values by name, and the expected outputs in order.
#[derive(Debug, Default)]
pub struct DataSet {
    pub inputs: BTreeMap<String, Tensor>,
    pub outputs: Vec<(String, Tensor)>,
}

#[derive(Debug)]
pub struct Case {
    pub name: String,
    pub node: Node,
    pub data_sets: Vec<DataSet>,
}

pub struct CaseFile {
    pub onnx_version: String,
    pub cases: Vec<Case>,
}

/// Reads the committed case file; a missing or malformed file fails the test.
pub fn load() -> CaseFile {
    let text = std::fs::read_to_string(CASE_FILE).unwrap_or_else(|e| {
        panic!("{CASE_FILE}: {e} (it is committed; python3 scripts/onnx_cases.py writes it)")
    });
    parse(&text).unwrap_or_else(|e| panic!("{CASE_FILE}: {e}"))
}

fn parse(text: &str) -> Result<CaseFile, String> {
    let mut onnx_version = None;
    let mut cases: Vec<Case> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        parse_line(line, &mut onnx_version, &mut cases)
            .map_err(|e| format!("line {}: {e}", number + 1))?;
    }
    let onnx_version = onnx_version.ok_or("no onnx_version line")?;
    Ok(CaseFile {
        onnx_version,
        cases,
    })
}

fn parse_line(
    line: &str,
    onnx_version: &mut Option<String>,
    cases: &mut Vec<Case>,
) -> Result<(), String> {
    if line.is_empty() || line.starts_with('#') {
        return Ok(());
    }
    let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
    let fields: Vec<&str> = rest.split(' ').filter(|f| !f.is_empty()).collect();
    match key {
        "onnx_version" => *onnx_version = Some(rest.to_string()),
        "case" => cases.push(Case {
            name: rest.to_string(),
            node: Node::default(),
            data_sets: Vec::new(),
        }),
        _ => {
            let case = cases.last_mut().ok_or("an item before the first case")?;
            let node = &mut case.node;
            match key {
                "op" => node.op_type = rest.to_string(),
                "opset" => node.opset = rest.parse().map_err(|e| format!("opset: {e}"))?,
                "inputs" => {
                    node.inputs = fields
                        .iter()
                        .map(|f| (*f != "-").then(|| f.to_string()))
                        .collect()
                }
                "outputs" => node.outputs = fields.iter().map(|f| f.to_string()).collect(),
                "attribute" => {
                    let (name, value) = parse_attribute(&fields)?;
                    node.attributes.insert(name, value);
                }
                "data_set" => case.data_sets.push(DataSet::default()),
                "input" | "output" => {
                    let data_set = case
                        .data_sets
                        .last_mut()
                        .ok_or("a tensor before data_set")?;
                    let (name, tensor) = parse_tensor(&fields)?;
                    if key == "input" {
                        data_set.inputs.insert(name, tensor);
                    } else {
                        data_set.outputs.push((name, tensor));
                    }
                }
                other => return Err(format!("unknown item {other:?}")),
            }
        }
    }
    Ok(())
}

fn parse_attribute(fields: &[&str]) -> Result<(String, Attribute), String> {
    let [name, kind, values @ ..] = fields else {
        return Err("an attribute needs a name and a type".into());
    };
    let integers = || -> Result<Vec<i64>, String> {
        values
            .iter()
            .map(|v| v.parse().map_err(|e| format!("{name}: {e}")))
            .collect()
    };
    let floats = || -> Result<Vec<f64>, String> {
        values
            .iter()
            .map(|v| v.parse().map_err(|e| format!("{name}: {e}")))
            .collect()
    };
    let one = |count: usize| match count {
        1 => Ok(()),
        _ => Err(format!("{name}: one value expected")),
    };
    let attribute = match *kind {
        "int" => one(values.len()).and_then(|()| Ok(Attribute::Int(integers()?[0])))?,
        "ints" => Attribute::Ints(integers()?),
        "float" => one(values.len()).and_then(|()| Ok(Attribute::Float(floats()?[0])))?,
        "floats" => Attribute::Floats(floats()?),
        "string" => one(values.len()).map(|()| Attribute::String(values[0].to_string()))?,
        other => return Err(format!("{name}: unknown attribute type {other:?}")),
    };
    Ok((name.to_string(), attribute))
}

fn parse_tensor(fields: &[&str]) -> Result<(String, Tensor), String> {
    let [name, dtype, shape, data] = fields else {
        return Err("a tensor is NAME DTYPE SHAPE hex=BYTES".into());
    };
    let shape = shape
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or(format!("{name}: shape {shape:?} is not [..]"))?;
    let shape: Vec<u64> = shape
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().map_err(|e| format!("{name}: size {s:?}: {e}")))
        .collect::<Result<_, _>>()?;
    let hex = data
        .strip_prefix("hex=")
        .ok_or(format!("{name}: data is not hex=.."))?;
    let bytes = hex
        .as_bytes()
        .chunks(2)
        .map(|pair| match pair {
            [high, low] => {
                Some(((*high as char).to_digit(16)? * 16 + (*low as char).to_digit(16)?) as u8)
            }
            _ => None,
        })
        .collect::<Option<Vec<u8>>>()
        .ok_or(format!("{name}: the data is not pairs of hex digits"))?;
    let elements = shape.iter().try_fold(1u64, |n, &s| n.checked_mul(s));
    let expected = element_bytes(dtype).and_then(|size| elements?.checked_mul(size as u64));
    if expected.is_some_and(|expected| expected != bytes.len() as u64) {
        return Err(format!(
            "{name}: {} bytes for {dtype} {shape:?}",
            bytes.len()
        ));
    }
    let tensor = Tensor {
        dtype: dtype.to_string(),
        shape,
        bytes,
    };
    Ok((name.to_string(), tensor))
}

/// Bytes per element of a numpy dtype name this test knows.
pub fn element_bytes(dtype: &str) -> Option<usize> {
    Some(match dtype {
        "float64" | "int64" | "uint64" => 8,
        "float32" | "int32" | "uint32" => 4,
        "float16" | "bfloat16" | "int16" | "uint16" => 2,
        "int8" | "uint8" | "bool" => 1,
        _ => return None,
    })
}
