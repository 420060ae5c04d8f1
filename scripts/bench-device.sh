#!/usr/bin/env bash
# The benchmark against PyTorch on the lent NVIDIA machine, in two halves.
#
#   bash scripts/bench-device.sh build    # here: release build, staged with the Vulkan loader
#   (device run, carry [".gl", ".gpu"])  bash scripts/bench-device.sh run
#
# `build` puts the benchmark binary, a copy of shared/bench/torch_peer.py and of our peers
# bench/torch_reductions.py (scatter reductions) and bench/torch_narrow.py (odd narrow rows)
# in .gpu/ and Debian's libvulkan1
# in .gl/ (both ignored by git). `run`, on the GPU machine, installs the loader, runs our
# benchmark and the PyTorch peers in the same command, and writes ours.jsonl, torch.jsonl,
# torch_reductions.jsonl, torch_narrow.jsonl, report.md and the logs under $OUT (or
# ./bench-out). A binary staged as .gpu/bench-before (a build from before a change) runs
# first in the same command, and the report compares the two.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
build)
    mkdir -p .gl .gpu
    if ! ls .gl/libvulkan1_*.deb .gl/libglx0_*.deb >/dev/null 2>&1; then
        mkdir -p /tmp/amd64/partial
        o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
        apt-get $o update >/dev/null
        # The Vulkan loader, and the GL dispatch libraries NVIDIA's Vulkan driver loads.
        (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
    fi
    binary=$(cargo bench --bench bench --no-run --message-format=json 2>/dev/null |
        python3 -c 'import json,sys; print([m["executable"] for m in map(json.loads, sys.stdin) if m.get("executable") and m["target"]["name"] == "bench"][-1])')
    cp "$binary" .gpu/bench
    cp ../shared/bench/torch_peer.py .gpu/torch_peer.py
    cp bench/torch_reductions.py .gpu/torch_reductions.py
    cp bench/torch_narrow.py .gpu/torch_narrow.py
    cp bench/torch_timing.py .gpu/torch_timing.py
    cp scripts/bench_report.py .gpu/bench_report.py
    ls -la .gl .gpu
    ;;
run)
    out="${OUT:-bench-out}"
    mkdir -p "$out"
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
    export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
    # The driver's Vulkan manifest lives outside the loader's search path there.
    for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
        if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
    done
    ls /usr/local/nvidia/share/vulkan/icd.d/ /usr/share/vulkan/icd.d/ /etc/vulkan/icd.d/ 2>/dev/null || true
    nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv 2>&1 | tee "$out/gpu.txt" || true
    # A build from before a change, if staged as .gpu/bench-before: run first, same command.
    before=()
    if [ -x .gpu/bench-before ]; then
        .gpu/bench-before --reps "${REPS:-50}" --json "$out/before.jsonl" ${BEFORE_ONLY:+--only "$BEFORE_ONLY"} 2>&1 |
            tee "$out/before.log"
        before=(--before "$out/before.jsonl")
    fi
    .gpu/bench --reps "${REPS:-50}" --json "$out/ours.jsonl" ${ONLY:+--only "$ONLY"} 2>&1 | tee "$out/ours.log"
    python3 .gpu/torch_peer.py --reps "${REPS:-50}" --json "$out/torch.jsonl" 2>&1 | tee "$out/torch.log"
    python3 .gpu/torch_reductions.py --reps "${REPS:-50}" --json "$out/torch_reductions.jsonl" 2>&1 |
        tee "$out/torch_reductions.log"
    python3 .gpu/torch_narrow.py --reps "${REPS:-50}" --json "$out/torch_narrow.jsonl" 2>&1 |
        tee "$out/torch_narrow.log"
    python3 .gpu/bench_report.py "${before[@]}" "$out/ours.jsonl" "$out/torch.jsonl" \
        "$out/torch_reductions.jsonl" "$out/torch_narrow.jsonl" | tee "$out/report.md"
    ;;
*)
    echo "usage: $0 build|run" >&2
    exit 2
    ;;
esac
