#!/usr/bin/env bash
# Probe: Int64 indices read as one vec2<u32> load (bench-vec2, the library with
# index_pairs_patch.py applied) against two u32 loads (bench, main), the sweep's 144
# Int64-index shapes alternating twice, PyTorch's peer after. (The second vec2 pass and the
# workloads were not fetched: the run's file limit.)
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
ONLY=$(cat .gpu/only-i64.txt)
for i in 1 2; do
  timeout 200 .gpu/bin/bench --sweep --reps 30 --only $ONLY --json $D/base$i.jsonl > $D/base$i.log 2>&1; echo "base $i rc=$?"
  timeout 200 .gpu/bin/bench-vec2 --sweep --reps 30 --only $ONLY --json $D/vec2$i.jsonl > $D/vec2$i.log 2>&1; echo "vec2 $i rc=$?"
done
(cd bench && timeout 200 python3 torch_sweep.py --reps 30 --only $ONLY --json $D/torch.jsonl > /dev/null 2>&1); echo "torch rc=$?"
