#!/usr/bin/env python3
"""What a call through the npm package costs over the same operator from Rust, in headless
Chromium's WebGPU (SwiftShader without a GPU): builds the package's module with the `bench`
feature (its Rust-side loops) into $CARGO_TARGET_DIR/npm-bench/, loads npm/bench/bench.html
and prints the table (per dispatch in us, per run in ms; the median of 5 alternating rounds).
`python3 scripts/npm_bench.py`.
Needs what scripts/npm.sh and the browser tests need (scripts/wasm.sh).
"""

import os
import shutil
import subprocess
import sys

import chromium

ROOT = chromium.ROOT
TARGET = os.path.join(ROOT, os.environ.get("CARGO_TARGET_DIR", "target"))
SITE = os.path.join(TARGET, "npm-bench")
READ_PAGE = "return window.benchResults || {state: 'running'};"


def main():
    subprocess.run(["cargo", "build", "-p", "dml-wgsl-js", "--target", "wasm32-unknown-unknown",
                    "--profile", "npm", "--features", "bench"], cwd=ROOT, check=True)
    shutil.rmtree(SITE, ignore_errors=True)
    os.makedirs(SITE)
    subprocess.run(["wasm-bindgen", "--target", "web", "--out-name", "dml_wgsl", "--out-dir",
                    os.path.join(SITE, "wasm"),
                    os.path.join(TARGET, "wasm32-unknown-unknown", "npm", "dml_wgsl_js.wasm")],
                   check=True)
    shutil.copy(os.path.join(ROOT, "npm", "package", "index.js"), SITE)
    for name in ("bench.html", "bench.js"):
        shutil.copy(os.path.join(ROOT, "npm", "bench", name), SITE)
    version = subprocess.run(["chromium", "--version"], capture_output=True, text=True).stdout.strip()
    shown = chromium.load_page(SITE, "bench.html", READ_PAGE, timeout=600)
    if shown.get("state") != "done":
        sys.exit(f"the benchmark did not finish: {shown.get('error', shown.get('state'))}")
    print(f"adapter: {shown['adapter']}")
    print(f"browser: {version}; {shown['userAgent']}")
    print("| workload | dispatch: submit, JS (us) | Rust (us) | added | done, JS (us) | Rust (us) "
          "| run: JS (ms) | Rust (ms) | added |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in shown["rows"]:
        print(f"| {row['workload']} | {row['jsSubmitUs']:.1f} | {row['rustSubmitUs']:.1f} | "
              f"{row['jsSubmitUs'] - row['rustSubmitUs']:+.1f} | {row['jsDispatchUs']:.1f} | "
              f"{row['rustDispatchUs']:.1f} | {row['jsRunMs']:.3f} | {row['rustRunMs']:.3f} | "
              f"{row['jsRunMs'] - row['rustRunMs']:+.3f} |")

if __name__ == "__main__":
    main()
