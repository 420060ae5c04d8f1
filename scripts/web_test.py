#!/usr/bin/env python3
"""Loads the tour page (built into $CARGO_TARGET_DIR/web/ by `scripts/web.sh --build-only`) in headless
Chromium through chromedriver's WebDriver API, and checks what it shows: WebGPU's adapter,
every example done, and the seed pages' outputs. Fails when the page has no WebGPU.

Only localhost traffic (scripts/chromium.py).
"""

import os
import re
import sys

import chromium

ROOT = chromium.ROOT
# scripts/web.sh builds into $CARGO_TARGET_DIR/web (target/web by default).
SITE = os.path.join(ROOT, os.environ.get("CARGO_TARGET_DIR", "target"), "web")

# What the page must show, whitespace removed: the seed examples and one of each family.
EXPECTED = {
    "DML_SLICE example 1": "OutputTensor:(Sizes:{1,1,3,2},DataType:FLOAT32)[[[[7,8],[11,12],[15,16]]]]",
    "DML_SLICE example 2": "OutputTensor:(Sizes:{1,1,2,2},DataType:FLOAT32)[[[[5,8],[13,16]]]]",
    "DML_SLICE1": "OutputTensor:(Sizes:{1,1,3,2},DataType:FLOAT32)[[[[16,14],[12,10],[8,6]]]]",
    "DML_SCATTER example 1": "OutputTensor:(Sizes:{5},DataType:FLOAT32)[8,6,2,7,4]",
    "DML_SCATTER example 2": "OutputTensor:(Sizes:{3,3},DataType:FLOAT32)[[20,11,0],[10,0,22],[0,21,12]]",
    "DML_SCATTER_ND example": "OutputTensor:(Sizes:{8},DataType:FLOAT32)[1,11,3,10,9,6,7,12]",
    "DML_GATHER:": "OutputTensor:(Sizes:{2,2},DataType:FLOAT32)[[3,1],[6,4]]",
    "DML_GATHER_ELEMENTS": "OutputTensor:(Sizes:{2,3},DataType:FLOAT32)[[4,8,3],[7,2,3]]",
    "index_add": "OutputTensor:(Sizes:{3,2},DataType:FLOAT32)[[7,9],[1,1],[4,5]]",
    "TensorScatter, circular": "OutputTensor:(Sizes:{2,4,2},DataType:FLOAT32)[[[0,0],[1,2],[3,4],[0,0]],[[7,8],[0,0],[0,0],[5,6]]]",
    "An out-of-range index": "Error:indices[1]=5isoutofrangeforadimensionofsize5",
}
SEED_INPUT = "InputTensor:(Sizes:{1,1,4,4},DataType:FLOAT32)[[[[1,2,3,4],[5,6,7,8],[9,10,11,12],[13,14,15,16]]]]"

READ_PAGE = """
const sections = [...document.querySelectorAll('#tour section')].map(s => [
  s.querySelector('h2').textContent, s.querySelector('pre').textContent]);
const status = document.getElementById('status');
return {state: status.dataset.state, status: status.textContent,
        adapter: document.getElementById('adapter').textContent,
        gpu: document.getElementById('gpu').textContent, sections};
"""


def main():
    if not os.path.exists(os.path.join(SITE, "pkg", "web.js")):
        sys.exit(f"{SITE} is not built: run `bash scripts/web.sh --build-only` first")
    shown = chromium.load_page(SITE, "index.html", READ_PAGE)

    print(f"page: {shown['adapter']}")
    print(f"page: {shown['gpu']}")
    print(f"page: {shown['status']}")
    failures = []
    if shown["state"] != "done":
        failures.append(f"the page did not finish: {shown['status']}")
    if "BrowserWebGpu" not in shown["adapter"]:
        failures.append(f"not the browser's WebGPU: {shown['adapter']!r}")
    texts = {title: re.sub(r"\s+", "", text) for title, text in shown["sections"]}
    for title, expected in EXPECTED.items():
        found = [t for t in texts if t.startswith(title)]
        if len(found) != 1:
            failures.append(f"{title!r}: {len(found)} sections with that title")
        elif expected not in texts[found[0]]:
            failures.append(f"{title!r} shows {texts[found[0]]!r}, not {expected!r}")
    if not any(SEED_INPUT in text for text in texts.values()):
        failures.append("the seed input tensor is not shown")
    checks = len(EXPECTED) + 3
    for failure in failures:
        print(f"FAILED: {failure}")
    print(f"page test: {checks - len(failures)} of {checks} checks passed "
          f"({len(shown['sections'])} examples shown)")
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
