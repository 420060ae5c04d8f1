#!/usr/bin/env bash
# Runs the whole test suite: unit, GPU (on the default adapter; lavapipe without a GPU)
# and doc tests natively, then again on wgpu's GL backend (llvmpipe through EGL without a
# GPU); the application example (examples/decode.rs); then the browser tests (tests/web.rs,
# wasm32 in headless Chromium on WebGPU) and the tour page (examples/web, loaded in headless
# Chromium and checked); then the npm package (npm/), built, installed into a fresh folder,
# type-checked with tsc and used from a plain page in headless Chromium. A missing adapter,
# native, GL or WebGPU, fails the tests; nothing is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's header says how long the suite has run.
step() { echo "== [$SECONDS s] $*"; }
. scripts/lavapipe.sh
ensure_vulkan_driver
ensure_gl_driver
. scripts/wasm.sh
ensure_wasm_tools
step "native: cargo test"
cargo test
step "native on wgpu's GL backend: WGPU_BACKEND=gl cargo test"
WGPU_BACKEND=gl cargo test
step "an application on its own device: cargo run --release --example decode"
cargo run --release --example decode
step "browser: cargo test --target wasm32-unknown-unknown --test web (headless Chromium, WebGPU)"
# Only tests/web.rs: the other test files are native-only, and doc tests do not run in a browser.
cargo test --target wasm32-unknown-unknown --test web -- --nocapture
step "browser: the tour page (examples/web) in headless Chromium"
bash scripts/web.sh --build-only
python3 scripts/web_test.py
step "browser: the npm package, installed in a fresh folder and used from a plain page (scripts/npm_test.py)"
bash scripts/npm.sh
python3 scripts/npm_test.py
