#!/usr/bin/env bash
# Runs the whole test suite: unit, GPU (on the default adapter; lavapipe without a GPU)
# and doc tests natively; then the browser tests (tests/web.rs, wasm32 in headless Chromium
# on WebGPU) and the tour page (examples/web, loaded in headless Chromium and checked).
# A missing adapter, native or WebGPU, fails the tests; nothing is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lavapipe.sh
ensure_vulkan_driver
. scripts/wasm.sh
ensure_wasm_tools
echo "== native: cargo test"
cargo test
echo "== browser: cargo test --target wasm32-unknown-unknown --test web (headless Chromium, WebGPU)"
# Only tests/web.rs: the other test files are native-only, and doc tests do not run in a browser.
cargo test --target wasm32-unknown-unknown --test web -- --nocapture
echo "== browser: the tour page (examples/web) in headless Chromium"
bash scripts/web.sh --build-only
python3 scripts/web_test.py
