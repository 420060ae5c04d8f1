//! Operator descs from plain JavaScript objects: DirectML's members in camelCase, each
//! checked for its type with the member's path in the error (`desc.indices.sizes[1]`).
//! The rules of the operators themselves are the library's (`Context::compile` checks them).

use dml_wgsl::{
    DataType, DuplicateMode, GatherDesc, GatherElementsDesc, GatherNdDesc, OperatorDesc,
    OutOfRange, Reduction, ScatterElementsDesc, ScatterNdDesc, Slice1Desc, SliceDesc, TensorDesc,
    TensorScatterDesc, TensorScatterMode,
};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;

use crate::arrays::{data_type_names, parse_data_type};
use crate::errors::invalid_argument;

/// A desc and what `run` and `dispatch` take for it.
pub(crate) struct Parsed {
    pub desc: OperatorDesc,
    /// The input tensors in the order `run` takes their data: their names and data types.
    pub inputs: Vec<(&'static str, DataType)>,
    pub output: DataType,
}

/// One JavaScript object being read, with its path for messages.
struct Members<'a> {
    object: &'a JsValue,
    path: String,
}

type Result<T> = std::result::Result<T, JsValue>;

const INTEGER_RULE: &str = "a whole number in [0, 2^32)";

impl<'a> Members<'a> {
    /// `value` as an object whose members are in `allowed` (a misspelt member is an error,
    /// not an option silently left at its default).
    fn new(value: &'a JsValue, path: String, allowed: &[&str]) -> Result<Members<'a>> {
        if !value.is_object() || Array::is_array(value) {
            return Err(invalid_argument(&path, value, "an object"));
        }
        for key in Object::keys(value.unchecked_ref::<Object>()).iter() {
            let key = key.as_string().unwrap_or_default();
            if !allowed.contains(&key.as_str()) {
                return Err(invalid_argument(
                    &format!("{path}.{key}"),
                    &Reflect::get(value, &key.as_str().into()).unwrap_or_default(),
                    &format!("not a member here (the members: {})", allowed.join(", ")),
                ));
            }
        }
        Ok(Members {
            object: value,
            path,
        })
    }

    fn path(&self, name: &str) -> String {
        format!("{}.{name}", self.path)
    }

    /// The member `name`; `undefined` where it is absent.
    fn get(&self, name: &str) -> JsValue {
        Reflect::get(self.object, &name.into()).unwrap_or(JsValue::UNDEFINED)
    }

    fn present(&self, name: &str) -> bool {
        !self.get(name).is_undefined()
    }

    fn required(&self, name: &str) -> Result<JsValue> {
        let value = self.get(name);
        if value.is_undefined() {
            return Err(invalid_argument(&self.path(name), &value, "required"));
        }
        Ok(value)
    }

    fn u32(&self, name: &str) -> Result<u32> {
        unsigned(&self.required(name)?, &self.path(name))
    }

    fn u32_list(&self, name: &str) -> Result<Vec<u32>> {
        list(&self.required(name)?, &self.path(name), unsigned)
    }

    fn i32_list(&self, name: &str) -> Result<Vec<i32>> {
        list(&self.required(name)?, &self.path(name), signed)
    }

    fn tensor(&self, name: &str) -> Result<TensorDesc> {
        tensor(&self.required(name)?, self.path(name))
    }

    /// An option given by name, or `default` where it is absent.
    fn choice<T: Copy>(&self, name: &str, choices: &[(&str, T)], default: T) -> Result<T> {
        let value = self.get(name);
        if value.is_undefined() {
            return Ok(default);
        }
        let given = value.as_string();
        choices
            .iter()
            .find(|(n, _)| Some(*n) == given.as_deref())
            .map(|(_, t)| *t)
            .ok_or_else(|| {
                let names: Vec<_> = choices.iter().map(|(n, _)| format!("'{n}'")).collect();
                invalid_argument(
                    &self.path(name),
                    &value,
                    &format!("one of {}", names.join(", ")),
                )
            })
    }
}

/// A number that is a whole number in `[0, 2^32)`.
fn unsigned(value: &JsValue, path: &str) -> Result<u32> {
    match value.as_f64() {
        Some(n) if n.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&n) => Ok(n as u32),
        _ => Err(invalid_argument(path, value, INTEGER_RULE)),
    }
}

/// A number that is a whole number in `[-2^31, 2^31)`.
fn signed(value: &JsValue, path: &str) -> Result<i32> {
    match value.as_f64() {
        Some(n) if n.fract() == 0.0 && (i32::MIN as f64..=i32::MAX as f64).contains(&n) => {
            Ok(n as i32)
        }
        _ => Err(invalid_argument(
            path,
            value,
            "a whole number in [-2^31, 2^31)",
        )),
    }
}

/// An array (or any iterable of the Array kind) of `item`s.
fn list<T>(value: &JsValue, path: &str, item: fn(&JsValue, &str) -> Result<T>) -> Result<Vec<T>> {
    if !Array::is_array(value) {
        return Err(invalid_argument(path, value, "an array of numbers"));
    }
    Array::from(value)
        .iter()
        .enumerate()
        .map(|(i, v)| item(&v, &format!("{path}[{i}]")))
        .collect()
}

/// A tensor desc: `{ dataType, sizes, strides?, totalTensorSizeInBytes? }`.
fn tensor(value: &JsValue, path: String) -> Result<TensorDesc> {
    let members = Members::new(
        value,
        path,
        &["dataType", "sizes", "strides", "totalTensorSizeInBytes"],
    )?;
    let data_type_value = members.required("dataType")?;
    let data_type = data_type_value
        .as_string()
        .and_then(|name| parse_data_type(&name))
        .ok_or_else(|| {
            invalid_argument(
                &members.path("dataType"),
                &data_type_value,
                &format!("one of '{}'", data_type_names().join("', '")),
            )
        })?;
    let mut desc = TensorDesc::new(data_type, &members.u32_list("sizes")?);
    if members.present("strides") {
        desc = desc.with_strides(&members.u32_list("strides")?);
    }
    if members.present("totalTensorSizeInBytes") {
        let value = members.get("totalTensorSizeInBytes");
        let path = members.path("totalTensorSizeInBytes");
        desc = desc.with_total_size(byte_count(&value, &path)?);
    }
    Ok(desc)
}

/// A byte count: a whole number no larger than 2^53 - 1, or a BigInt below 2^64.
fn byte_count(value: &JsValue, path: &str) -> Result<u64> {
    const RULE: &str = "a whole number in [0, 2^53) or a BigInt in [0, 2^64)";
    if value.is_bigint() {
        return u64::try_from(value.clone()).map_err(|_| invalid_argument(path, value, RULE));
    }
    match value.as_f64() {
        Some(n) if n.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(&n) => Ok(n as u64),
        _ => Err(invalid_argument(path, value, RULE)),
    }
}

const DUPLICATES: [(&str, DuplicateMode); 2] = [
    ("anyUpdate", DuplicateMode::AnyUpdate),
    ("inOrder", DuplicateMode::InOrder),
];
const REDUCTIONS: [(&str, Reduction); 5] = [
    ("none", Reduction::None),
    ("add", Reduction::Add),
    ("mul", Reduction::Mul),
    ("min", Reduction::Min),
    ("max", Reduction::Max),
];
const OUT_OF_RANGE: [(&str, OutOfRange); 2] =
    [("report", OutOfRange::Report), ("clamp", OutOfRange::Clamp)];
const MODES: [(&str, TensorScatterMode); 2] = [
    ("linear", TensorScatterMode::Linear),
    ("circular", TensorScatterMode::Circular),
];

/// The operator types by name, each with its members (after `type`).
const OPERATORS: [(&str, &[&str]); 8] = [
    ("slice", &["input", "output", "offsets", "sizes", "strides"]),
    (
        "slice1",
        &[
            "input",
            "output",
            "inputWindowOffsets",
            "inputWindowSizes",
            "inputWindowStrides",
        ],
    ),
    (
        "scatterElements",
        &[
            "input",
            "indices",
            "updates",
            "output",
            "axis",
            "duplicates",
            "reduction",
            "outOfRange",
        ],
    ),
    (
        "scatterNd",
        &[
            "input",
            "indices",
            "updates",
            "output",
            "inputDimensionCount",
            "indicesDimensionCount",
            "duplicates",
            "reduction",
            "outOfRange",
        ],
    ),
    (
        "gather",
        &[
            "input",
            "indices",
            "output",
            "axis",
            "indexDimensions",
            "outOfRange",
        ],
    ),
    (
        "gatherElements",
        &["input", "indices", "output", "axis", "outOfRange"],
    ),
    (
        "gatherNd",
        &[
            "input",
            "indices",
            "output",
            "inputDimensionCount",
            "indicesDimensionCount",
            "batchDimensionCount",
            "outOfRange",
        ],
    ),
    (
        "tensorScatter",
        &[
            "input",
            "updates",
            "writeIndices",
            "output",
            "axis",
            "mode",
            "outOfRange",
        ],
    ),
];

/// An operator desc: `{ type: 'scatterElements', input, indices, ... }`.
pub(crate) fn operator_desc(value: &JsValue) -> Result<Parsed> {
    let type_value = if value.is_object() {
        Reflect::get(value, &"type".into()).unwrap_or_default()
    } else {
        JsValue::UNDEFINED
    };
    let type_name = type_value.as_string().unwrap_or_default();
    let Some((op, members)) = OPERATORS.iter().find(|(name, _)| *name == type_name) else {
        let names: Vec<_> = OPERATORS.iter().map(|(n, _)| format!("'{n}'")).collect();
        return Err(invalid_argument(
            "desc.type",
            &type_value,
            &format!("one of {}", names.join(", ")),
        ));
    };
    let allowed: Vec<&str> = std::iter::once("type")
        .chain(members.iter().copied())
        .collect();
    let m = Members::new(value, "desc".into(), &allowed)?;
    let out_of_range = m.choice("outOfRange", &OUT_OF_RANGE, OutOfRange::Report)?;
    let input = m.tensor("input")?;
    let output = m.tensor("output")?;
    let output_type = output.data_type;
    let mut inputs = vec![("input", input.data_type)];
    let desc: OperatorDesc = match *op {
        "slice" => SliceDesc::new(
            input,
            output,
            &m.u32_list("offsets")?,
            &m.u32_list("sizes")?,
            &m.u32_list("strides")?,
        )
        .into(),
        "slice1" => Slice1Desc::new(
            input,
            output,
            &m.u32_list("inputWindowOffsets")?,
            &m.u32_list("inputWindowSizes")?,
            &m.i32_list("inputWindowStrides")?,
        )
        .into(),
        "scatterElements" | "scatterNd" => {
            let indices = m.tensor("indices")?;
            let updates = m.tensor("updates")?;
            inputs.push(("indices", indices.data_type));
            inputs.push(("updates", updates.data_type));
            let duplicates = m.choice("duplicates", &DUPLICATES, DuplicateMode::AnyUpdate)?;
            let reduction = m.choice("reduction", &REDUCTIONS, Reduction::None)?;
            if *op == "scatterElements" {
                ScatterElementsDesc::new(input, indices, updates, output, m.u32("axis")?)
                    .with_duplicates(duplicates)
                    .with_reduction(reduction)
                    .with_out_of_range(out_of_range)
                    .into()
            } else {
                ScatterNdDesc::new(
                    input,
                    indices,
                    updates,
                    output,
                    m.u32("inputDimensionCount")?,
                    m.u32("indicesDimensionCount")?,
                )
                .with_duplicates(duplicates)
                .with_reduction(reduction)
                .with_out_of_range(out_of_range)
                .into()
            }
        }
        "gather" | "gatherElements" | "gatherNd" => {
            let indices = m.tensor("indices")?;
            inputs.push(("indices", indices.data_type));
            match *op {
                "gather" => GatherDesc::new(
                    input,
                    indices,
                    output,
                    m.u32("axis")?,
                    m.u32("indexDimensions")?,
                )
                .with_out_of_range(out_of_range)
                .into(),
                "gatherElements" => GatherElementsDesc::new(input, indices, output, m.u32("axis")?)
                    .with_out_of_range(out_of_range)
                    .into(),
                _ => GatherNdDesc::new(
                    input,
                    indices,
                    output,
                    m.u32("inputDimensionCount")?,
                    m.u32("indicesDimensionCount")?,
                    m.u32("batchDimensionCount")?,
                )
                .with_out_of_range(out_of_range)
                .into(),
            }
        }
        _ => {
            let updates = m.tensor("updates")?;
            inputs.push(("updates", updates.data_type));
            // writeIndices may be absent (or null): every batch entry writes at 0.
            let write_indices = if m.present("writeIndices") && !m.get("writeIndices").is_null() {
                let write_indices = m.tensor("writeIndices")?;
                inputs.push(("writeIndices", write_indices.data_type));
                Some(write_indices)
            } else {
                None
            };
            let mode = m.choice("mode", &MODES, TensorScatterMode::Linear)?;
            TensorScatterDesc::new(input, updates, write_indices, output, m.u32("axis")?)
                .with_mode(mode)
                .with_out_of_range(out_of_range)
                .into()
        }
    };
    Ok(Parsed {
        desc,
        inputs,
        output: output_type,
    })
}
