#!/usr/bin/env bash
# Builds the tour page (examples/web) for the browser into target/web/ and serves it on
# http://localhost:${PORT:-8000}/ (Ctrl-C stops it). `--build-only` builds and exits.
# Open it in a browser with WebGPU; Chromium on a machine without a GPU needs
# `--enable-unsafe-webgpu` to offer its CPU adapter (SwiftShader).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/wasm.sh
ensure_wasm_tools
cargo build --example web --target wasm32-unknown-unknown
rm -rf target/web
mkdir -p target/web
wasm-bindgen --target web --no-typescript --out-dir target/web/pkg \
    target/wasm32-unknown-unknown/debug/examples/web.wasm
cp examples/web/index.html target/web/
if [ "${1:-}" = --build-only ]; then
    echo "Built target/web/"
    exit 0
fi
port="${PORT:-8000}"
echo "Serving the tour on http://localhost:$port/"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory target/web
