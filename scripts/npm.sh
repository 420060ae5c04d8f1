#!/usr/bin/env bash
# Builds the npm package `dml-wgsl` (the crate in npm/, a wasm-bindgen binding of this
# library) into $CARGO_TARGET_DIR/npm/ (target/npm/ by default): the package's files in
# package/, and the tarball `npm pack` makes of them, dml-wgsl-<version>.tgz (the version is
# Cargo.toml's). Prints the .wasm's size, raw and gzipped. Needs the wasm32 target,
# wasm-bindgen-cli (both installed here if missing, as for the browser tests) and npm.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/wasm.sh
ensure_wasm_build_tools
ensure_node
target="${CARGO_TARGET_DIR:-target}"
out="$target/npm"
package="$out/package"

echo "== cargo build -p dml-wgsl-js --target wasm32-unknown-unknown --profile npm"
cargo build -p dml-wgsl-js --target wasm32-unknown-unknown --profile npm
rm -rf "$out"
mkdir -p "$package/wasm"
wasm-bindgen --target web --out-name dml_wgsl --out-dir "$package/wasm" \
    "$target/wasm32-unknown-unknown/npm/dml_wgsl_js.wasm"
cp npm/package/index.js npm/package/index.d.ts npm/package/README.md LICENSE-MIT \
    LICENSE-APACHE "$package/"
version="$(awk -F'"' '/^version/ { print $2; exit }' Cargo.toml)"
node -e '
const fs = require("fs");
const manifest = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
manifest.version = process.argv[2];
fs.writeFileSync(process.argv[3], JSON.stringify(manifest, null, 2) + "\n");
' npm/package/package.json "$version" "$package/package.json"

echo "== npm pack"
tarball="$(cd "$out" && npm pack ./package --pack-destination . --silent 2>/dev/null | tail -n 1)"
wasm="$package/wasm/dml_wgsl_bg.wasm"
raw=$(stat -c %s "$wasm")
gzipped=$(gzip -9 -c "$wasm" | wc -c)
packed=$(stat -c %s "$out/$tarball")
echo "Built $out/$tarball ($packed bytes): dml_wgsl_bg.wasm is $raw bytes, $gzipped gzipped (gzip -9)"
