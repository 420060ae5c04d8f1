# Sourced by scripts/tour.sh and scripts/test.sh: makes sure a Vulkan driver is present (on a
# machine without a GPU, Mesa's lavapipe: Debian package mesa-vulkan-drivers), and for the
# GL run, Mesa's EGL.
ensure_vulkan_driver() {
    # Any Vulkan driver manifest will do (an unmatched glob stays literal and does not exist).
    local manifest
    for manifest in /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json; do
        if [ -e "$manifest" ]; then
            return 0
        fi
    done
    local install="apt-get install -y --no-install-recommends mesa-vulkan-drivers"
    if command -v apt-get >/dev/null 2>&1; then
        if [ "$(id -u)" = 0 ]; then
            echo "Installing Mesa's lavapipe Vulkan driver: $install"
            (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive $install && return 0
        elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            echo "Installing Mesa's lavapipe Vulkan driver: sudo $install"
            (sudo apt-get update -qq || true) && sudo DEBIAN_FRONTEND=noninteractive $install && return 0
        fi
    fi
    echo "No Vulkan driver found. On Debian, install Mesa's CPU driver (lavapipe) with:" >&2
    echo "    sudo $install" >&2
    return 1
}
# wgpu's GL backend on a machine without a GPU: Mesa's llvmpipe through EGL (Debian packages
# libegl1, libegl-mesa0, libgles2).
ensure_gl_driver() {
    # The library list in a variable: `ldconfig -p | grep -q` fails under pipefail when grep
    # stops reading early.
    local libraries
    libraries="$(ldconfig -p 2>/dev/null || true)"
    if [[ "$libraries" == *libEGL_mesa.so* && "$libraries" == *libGLESv2.so* ]]; then
        return 0
    fi
    local install="apt-get install -y --no-install-recommends libegl1 libegl-mesa0 libgles2"
    if command -v apt-get >/dev/null 2>&1; then
        if [ "$(id -u)" = 0 ]; then
            echo "Installing Mesa's EGL and GLES (llvmpipe for wgpu's GL backend): $install"
            (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive $install && return 0
        elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            echo "Installing Mesa's EGL and GLES: sudo $install"
            (sudo apt-get update -qq || true) && sudo DEBIAN_FRONTEND=noninteractive $install && return 0
        fi
    fi
    echo "The GL run needs Mesa's EGL and GLES. On Debian:" >&2
    echo "    sudo $install" >&2
    return 1
}

# The Vulkan loader's window-system layers warn without this; nothing here opens a window.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
