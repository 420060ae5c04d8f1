#!/usr/bin/env bash
# Builds the tour page (examples/web) for the browser into $CARGO_TARGET_DIR/web/ (target/web/
# by default) and serves it on
# http://localhost:${PORT:-8000}/ (Ctrl-C stops it). `--build-only` builds and exits.
# Open it in a browser with WebGPU; Chromium on a machine without a GPU needs
# `--enable-unsafe-webgpu` to offer its CPU adapter (SwiftShader).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/wasm.sh
ensure_wasm_tools
target="${CARGO_TARGET_DIR:-target}"
site="$target/web"
cargo build --example web --target wasm32-unknown-unknown
rm -rf "$site"
mkdir -p "$site"
wasm-bindgen --target web --no-typescript --out-dir "$site/pkg" \
    "$target/wasm32-unknown-unknown/debug/examples/web.wasm"
cp examples/web/index.html "$site/"
if [ "${1:-}" = --build-only ]; then
    echo "Built $site/"
    exit 0
fi
port="${PORT:-8000}"
echo "Serving the tour on http://localhost:$port/"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site"
