#!/usr/bin/env bash
# Runs the tour of the operators (examples/tour.rs) on the default adapter.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lavapipe.sh
ensure_vulkan_driver
exec cargo run --quiet --example tour
