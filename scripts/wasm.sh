# Sourced by scripts/test.sh, scripts/web.sh, scripts/npm.sh and .ci/run: what running in a
# browser takes.
# Chromium and its chromedriver (Debian packages; Chromium's SwiftShader WebGPU adapter
# serves machines without a GPU), the wasm32-unknown-unknown target, and wasm-bindgen-cli
# of exactly the wasm-bindgen version in Cargo.lock, installed into .tools/ (git-ignored).

# The wasm-bindgen version Cargo.lock resolves (Cargo.toml pins it exactly).
wasm_bindgen_version() {
    awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

. "$(dirname "${BASH_SOURCE[0]}")/debian.sh"

# Node.js and npm, to pack the npm package and test it installed (scripts/npm.sh).
ensure_node() {
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        install_debian_packages "Node.js and npm (for the npm package)" nodejs npm
    fi
}

# What building for the browser takes (no browser): the wasm32-unknown-unknown target and
# wasm-bindgen-cli of Cargo.lock's wasm-bindgen version (into .tools/, on PATH).
ensure_wasm_build_tools() {
    if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
        echo "Adding the Rust target: rustup target add wasm32-unknown-unknown"
        rustup target add wasm32-unknown-unknown
    fi

    local version
    version="$(wasm_bindgen_version)"
    if [ -z "$version" ]; then
        echo "Cargo.lock names no wasm-bindgen version" >&2
        return 1
    fi
    local tools="$PWD/.tools"
    if [ "$("$tools/bin/wasm-bindgen" --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
        echo "Installing wasm-bindgen-cli $version into .tools/ (a few minutes, once)"
        cargo install wasm-bindgen-cli --version "$version" --root "$tools" --locked --force \
            || cargo install wasm-bindgen-cli --version "$version" --root "$tools" --force
    fi

    export PATH="$tools/bin:$PATH"
}

# Installs what is missing (system packages only as root or with password-less sudo;
# otherwise prints the exact commands and fails), then exports PATH, CHROMEDRIVER and the
# wasm-bindgen-test settings.
ensure_wasm_tools() {
    if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
        install_debian_packages "Chromium and chromedriver (for the browser tests)" \
            chromium chromium-driver
    fi

    ensure_wasm_build_tools
    CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver)}"
    export CHROMEDRIVER
    # Chromium's flags: --enable-unsafe-webgpu lets it offer its CPU (SwiftShader) adapter.
    export WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/webdriver.json"
    # SwiftShader runs the shaders on the CPU: allow the whole browser run this long.
    export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-600}"
}
