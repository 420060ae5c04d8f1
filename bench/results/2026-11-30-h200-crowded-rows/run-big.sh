#!/usr/bin/env bash
# Issue 26, probe: crowded rows onto larger outputs. One binary (1d086f0 plus the sweep's 262,144 x 256 few-targets
# shapes and PROBE_NO_CROWD): `crowd` (1d086f0's rule: rows averaging more than 512 a block, 16 for Float32 Add by
# the f32 atomics, unit by unit at every output size) against `lists` (PROBE_NO_CROWD=1: no crowded rule),
# alternating twice, on the few-targets shapes; then both on the same shapes without f32 or 64-bit
# atomics. PyTorch's sweep peer first.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
(cd bench && timeout 150 python3 torch_collisions.py --sweep --reps 20 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_few[a-z0-9_]*' $D/torch-sweep.log | grep -v in_order | sort -u | paste -sd,)
for i in 1 2; do
  for b in crowd lists; do
    unset PROBE_NO_CROWD; [ $b = lists ] && export PROBE_NO_CROWD=1
    timeout 120 .gpu/bin/bench-big --collision-sweep --reps 20 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
F=$E
for b in crowd lists; do
  unset PROBE_NO_CROWD; [ $b = lists ] && export PROBE_NO_CROWD=1
  timeout 120 .gpu/bin/bench-big --collision-sweep --without-int64-atomics --without-float32-atomics --reps 10 --only $F --json $D/n-$b.jsonl > $D/n-$b.log 2>&1; echo "n $b rc=$? t=$(( $(date +%s) - S ))"
done
