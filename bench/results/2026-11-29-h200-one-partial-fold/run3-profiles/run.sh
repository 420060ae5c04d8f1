#!/usr/bin/env bash
# Profiles (--profile: each dispatch's GPU time) of the head eb4fd8f: the whole benchmark, the collision sweep, the narrow
# sweep's scatters of issue 28.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
timeout 300 .gpu/bin/bench-h --reps 30 --profile --json $D/all.jsonl > $D/all.log 2>&1; echo "all rc=$? t=$(( $(date +%s) - S ))"
timeout 200 .gpu/bin/bench-h --collision-sweep --reps 30 --profile --json $D/collisions.jsonl > $D/collisions.log 2>&1; echo "collisions rc=$? t=$(( $(date +%s) - S ))"
timeout 200 .gpu/bin/bench-h --sweep --reps 30 --profile --only $(cat .gpu/only-scatter.txt) --json $D/narrow.jsonl > $D/narrow.log 2>&1; echo "narrow rc=$? t=$(( $(date +%s) - S ))"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
