# Sourced by scripts/lavapipe.sh and scripts/wasm.sh: installing the Debian packages a script
# needs.

# Installs Debian packages `$2...` (what they are for: `$1`) as root or with password-less
# sudo; otherwise prints the command and fails.
install_debian_packages() {
    local what="$1"
    shift
    local install="apt-get install -y --no-install-recommends $*"
    if command -v apt-get >/dev/null 2>&1; then
        if [ "$(id -u)" = 0 ]; then
            echo "Installing $what: $install"
            (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive $install && return 0
        elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            echo "Installing $what: sudo $install"
            (sudo apt-get update -qq || true) && sudo DEBIAN_FRONTEND=noninteractive $install && return 0
        fi
    fi
    echo "$what is missing. On Debian, install it with:" >&2
    echo "    sudo $install" >&2
    return 1
}
