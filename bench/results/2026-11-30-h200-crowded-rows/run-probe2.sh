#!/usr/bin/env bash
# Issue 26, probe 2: the few-targets shapes (now also into 4 and 64 rows), one binary: `lists` (main's plans),
# `units` (PROBE_CROWDED_ROWS=0: every any-order row plan unit by unit) and `atomics` (units, and
# PROBE_ROW_ATOMICS: Float32 Add of rows of 64+ units past the bins' capacity by the f32 atomics instead of the
# bins' ranges), alternating twice; PyTorch's sweep peer in the same command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
(cd bench && timeout 120 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_few[a-z0-9_]*' $D/torch-sweep.log | sed 's/_in_order$//' | sort -u | paste -sd,)
for i in 1 2; do
  for b in lists units atomics; do
    unset PROBE_CROWDED_ROWS PROBE_ROW_ATOMICS
    case $b in units) export PROBE_CROWDED_ROWS=0;; atomics) export PROBE_CROWDED_ROWS=0 PROBE_ROW_ATOMICS=1;; esac
    timeout 150 .gpu/bin/bench-probe --collision-sweep --reps 30 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
PROBE_CROWDED_ROWS=0 PROBE_ROW_ATOMICS=1 timeout 60 .gpu/bin/bench-probe --collision-sweep --reps 5 --profile --only $E > $D/profile-atomics.log 2>&1; echo "profile rc=$? t=$(( $(date +%s) - S ))"
