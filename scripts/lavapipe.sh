# Sourced by scripts/tour.sh and scripts/test.sh: makes sure a Vulkan driver is present (on a
# machine without a GPU, Mesa's lavapipe: Debian package mesa-vulkan-drivers), and for the
# GL run, Mesa's EGL.

. "$(dirname "${BASH_SOURCE[0]}")/debian.sh"

ensure_vulkan_driver() {
    # Any Vulkan driver manifest will do (an unmatched glob stays literal and does not exist).
    local manifest
    for manifest in /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json; do
        if [ -e "$manifest" ]; then
            return 0
        fi
    done
    install_debian_packages "Mesa's lavapipe Vulkan driver" mesa-vulkan-drivers
}

# wgpu's GL backend on a machine without a GPU: Mesa's llvmpipe through EGL.
ensure_gl_driver() {
    # The library list in a variable: `ldconfig -p | grep -q` fails under pipefail when grep
    # stops reading early.
    local libraries
    libraries="$(ldconfig -p 2>/dev/null || true)"
    if [[ "$libraries" == *libEGL_mesa.so* && "$libraries" == *libGLESv2.so* ]]; then
        return 0
    fi
    install_debian_packages "Mesa's EGL and GLES (llvmpipe for wgpu's GL backend)" \
        libegl1 libegl-mesa0 libgles2
}

# The Vulkan loader's window-system layers warn without this; nothing here opens a window.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
