# Sourced by scripts/tour.sh and scripts/test.sh: makes sure a Vulkan driver is present.
# On a machine without a GPU that is Mesa's lavapipe (Debian package mesa-vulkan-drivers).
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
# The Vulkan loader's window-system layers warn without this; nothing here opens a window.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
