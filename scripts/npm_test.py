#!/usr/bin/env python3
"""Tests the npm package as a page author uses it: in a fresh folder outside the repository,
`npm install` of the tarball scripts/npm.sh built ($CARGO_TARGET_DIR/npm/dml-wgsl-*.tgz),
then
  1. `tsc` (npm's typescript) type-checks npm/test/types.ts against the installed
     declarations, and
  2. a plain HTML page (npm/test/page.html) imports the installed package as an ES module
     through an import map, no bundler, and runs in headless Chromium on WebGPU: every case
     of npm/test/operators.js (expected values written there), the README's "From JavaScript"
     snippets (what their comments say they print), and the API's checks (npm/test/tests.js).
Fails on any failure, on a page that does not finish, and where WebGPU is missing.
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import chromium

ROOT = chromium.ROOT
TARGET = os.path.join(ROOT, os.environ.get("CARGO_TARGET_DIR", "target"))
TYPESCRIPT = "typescript@5.9.3"
TEST_FILES = [
    "page.html", "tests.js", "operators.js", "scatter_cases.js", "edge_cases.js", "tensors.js",
    "types.ts", "tsconfig.json",
]

READ_PAGE = "return window.testResults || {state: 'running'};"


def readme_snippets():
    """The README's "From JavaScript" code blocks, each with the lines its console.log calls
    print by their comments (`console.log(x); // [1,2]`)."""
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    section = re.search(r"^## From JavaScript\n(.*?)(?=^## )", readme, re.S | re.M)
    if not section:
        sys.exit("README.md has no '## From JavaScript' section")
    snippets = []
    for code in re.findall(r"^```js\n(.*?)^```", section.group(1), re.S | re.M):
        expected = [line.rsplit("// ", 1)[1].strip() for line in code.splitlines()
                    if "console.log(" in line and "// " in line]
        snippets.append((code, expected))
    return snippets


def run(command, cwd):
    print("$ " + " ".join(command), flush=True)
    subprocess.run(command, cwd=cwd, check=True)


def main():
    tarballs = sorted(glob.glob(os.path.join(TARGET, "npm", "dml-wgsl-*.tgz")))
    if not tarballs:
        sys.exit(f"no package in {TARGET}/npm: run `bash scripts/npm.sh` first")
    tarball = tarballs[-1]
    folder = tempfile.mkdtemp(prefix="dml-wgsl-npm-test-")
    try:
        with open(os.path.join(folder, "package.json"), "w") as f:
            json.dump({"name": "dml-wgsl-page", "private": True, "type": "module"}, f)
        run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", tarball, TYPESCRIPT],
            folder)
        for name in TEST_FILES:
            shutil.copy(os.path.join(ROOT, "npm", "test", name), folder)
        listed = []
        for i, (code, expected) in enumerate(readme_snippets(), 1):
            name = f"readme-{i}.js"
            with open(os.path.join(folder, name), "w") as f:
                f.write(code)
            listed.append({"file": name, "expected": expected})
        with open(os.path.join(folder, "readme.json"), "w") as f:
            json.dump(listed, f)
        print(f"installed {os.path.basename(tarball)} into {folder}")

        print("== tsc: npm/test/types.ts against the installed declarations")
        run([os.path.join(folder, "node_modules", ".bin", "tsc"), "-p", "tsconfig.json"], folder)
        print("tsc: no errors")

        print("== the page (import map, no bundler) in headless Chromium")
        shown = chromium.load_page(folder, "page.html", READ_PAGE)
    finally:
        if os.environ.get("KEEP_NPM_TEST") is None:
            shutil.rmtree(folder, ignore_errors=True)

    print(f"page: adapter {shown.get('adapter')}")
    failed = list(shown.get("failed", []))
    passed = shown.get("passed", [])
    if shown.get("state") != "done":
        failed.append(f"the page did not finish ({len(passed)} checks passed by then)")
    if "BrowserWebGpu" not in str(shown.get("adapter")):
        failed.append(f"not the browser's WebGPU: {shown.get('adapter')!r}")
    for name in passed:
        print(f"passed: {name}")
    for failure in failed:
        print(f"FAILED {failure}")
    print(f"npm package test: {len(passed)} passed, {len(failed)} failed")
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
