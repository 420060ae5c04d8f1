#!/usr/bin/env bash
# Runs the whole test suite: unit, GPU (on the default adapter; lavapipe without a GPU)
# and doc tests. A missing adapter fails the GPU tests; nothing is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lavapipe.sh
ensure_vulkan_driver
cargo test
