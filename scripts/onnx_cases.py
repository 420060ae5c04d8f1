#!/usr/bin/env python3
"""Writes ONNX's backend node tests for the operators this library implements into
tests/onnx/node_cases.txt, which tests/onnx.rs runs through `Context::run`.

    pip install onnx==1.23.2   # the version that made the committed file
    python3 scripts/onnx_cases.py

The cases are those of the `onnx` package's `onnx.backend.test.case.node` whose graph is
one node of Slice, Gather, GatherElements, GatherND, Scatter, ScatterElements, ScatterND or
TensorScatter: every one, whether the library passes it or not (tests/onnx.rs keeps the
list of those it expects to fail). ONNX seeds numpy before each case, so the same onnx
version writes the same file. The file holds the raw ONNX node (operator, opset,
attributes, input and output names) and the tensors; mapping a node to the library's
descriptors is the Rust test's work, as an ONNX runtime would do it. CI needs no Python:
the file is committed; run this again after changing the onnx version, then update the
counts in tests/onnx.rs if ONNX added cases.

The format, one item a line, fields separated by single spaces (no name holds a space):

    onnx_version 1.23.2
    case NAME                 starts a case
    op OP_TYPE
    opset VERSION             the default ONNX domain's opset of the model
    inputs NAME ..            the node's inputs in order; "-" for an absent optional one
    outputs NAME ..
    attribute NAME int V | ints V .. | float V | floats V .. | string S
    data_set                  starts one set of tensors (a case may have several)
    input NAME DTYPE SHAPE hex=BYTES     a graph input's value
    output NAME DTYPE SHAPE hex=BYTES    the expected value of a graph output

DTYPE is numpy's name (float32, int64, ..), SHAPE `[20,10,5]` (`[]` for a scalar), BYTES
the elements' little-endian bytes in row-major order, in hex (empty for no elements).
No dependencies beyond the onnx package (and the numpy it brings).
"""
import os
import sys
import warnings

import numpy as np
import onnx
from onnx import helper
from onnx.backend.test.case.node import collect_testcases

OPERATORS = (
    "Slice",
    "Gather",
    "GatherElements",
    "GatherND",
    "Scatter",
    "ScatterElements",
    "ScatterND",
    "TensorScatter",
)
OUTPUT = os.path.join(os.path.dirname(__file__), "..", "tests", "onnx", "node_cases.txt")


def token(text):
    """A name or string as one field: non-empty, no whitespace."""
    if not text or any(c.isspace() for c in text):
        sys.exit(f"cannot write {text!r} as one field")
    return text


def attribute_line(attribute):
    value = helper.get_attribute_value(attribute)
    kind = attribute.type
    A = onnx.AttributeProto
    if kind == A.INT:
        return f"attribute {token(attribute.name)} int {value}"
    if kind == A.INTS:
        return f"attribute {token(attribute.name)} ints " + " ".join(map(str, value))
    if kind == A.FLOAT:
        return f"attribute {token(attribute.name)} float {value!r}"
    if kind == A.FLOATS:
        return f"attribute {token(attribute.name)} floats " + " ".join(map(repr, value))
    if kind == A.STRING:
        return f"attribute {token(attribute.name)} string {token(value.decode())}"
    sys.exit(f"attribute {attribute.name}: type {kind} is not written by this script")


def tensor_line(role, name, array):
    if not isinstance(array, np.ndarray) or array.dtype.kind not in "biuf":
        sys.exit(f"{name}: only numeric tensors are written, not {type(array)}")
    little = array.astype(array.dtype.newbyteorder("<"), copy=False)
    shape = "[" + ",".join(map(str, array.shape)) + "]"
    return f"{role} {token(name)} {array.dtype.name} {shape} hex={np.ascontiguousarray(little).tobytes().hex()}"


def case_lines(case):
    graph = case.model.graph
    node = graph.node[0]
    opsets = [o.version for o in case.model.opset_import if o.domain in ("", "ai.onnx")]
    if len(opsets) != 1:
        sys.exit(f"{case.name}: expected one default-domain opset, found {opsets}")
    graph_inputs = [i.name for i in graph.input]
    graph_outputs = [o.name for o in graph.output]
    if graph.initializer or graph_inputs != [n for n in node.input if n]:
        sys.exit(f"{case.name}: the graph's inputs are not the node's present inputs")
    lines = [
        f"case {token(case.name)}",
        f"op {node.op_type}",
        f"opset {opsets[0]}",
        "inputs " + " ".join(token(n) if n else "-" for n in node.input),
        "outputs " + " ".join(map(token, node.output)),
    ]
    lines += [attribute_line(a) for a in node.attribute]
    for inputs, outputs in case.data_sets:
        lines.append("data_set")
        lines += [tensor_line("input", n, a) for n, a in zip(graph_inputs, inputs, strict=True)]
        lines += [tensor_line("output", n, a) for n, a in zip(graph_outputs, outputs, strict=True)]
    return lines


def main():
    with warnings.catch_warnings():
        # Other operators' generators (Cast, ReduceMax, ..) warn about the overflows they make.
        warnings.simplefilter("ignore", RuntimeWarning)
        every_case = collect_testcases()
    cases = [
        c
        for c in every_case
        if c.kind == "node"
        and len(c.model.graph.node) == 1
        and c.model.graph.node[0].op_type in OPERATORS
    ]
    cases.sort(key=lambda c: (OPERATORS.index(c.model.graph.node[0].op_type), c.name))
    lines = [
        "# ONNX's backend node tests (onnx.backend.test.case.node) of the operators tests/onnx.rs",
        "# maps to this library. Written by scripts/onnx_cases.py; do not edit by hand.",
        f"onnx_version {onnx.__version__}",
    ]
    for case in cases:
        lines += case_lines(case)
    os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
    with open(OUTPUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    counts = {op: 0 for op in OPERATORS}
    for case in cases:
        counts[case.model.graph.node[0].op_type] += 1
    print(f"onnx {onnx.__version__}: {len(cases)} cases to {os.path.normpath(OUTPUT)}")
    print(", ".join(f"{op} {n}" for op, n in counts.items()))


if __name__ == "__main__":
    main()
