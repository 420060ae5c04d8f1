#!/usr/bin/env bash
# Issue 26: in-order Float32 and Float64 Add chains start from a chunk's first update where the
# partial result is a zero (after) against main at b4080db (before; both with the sweep's new
# shapes: sums from zeros, `sweep_zeros_*`, and Float32's element shapes timed in order too).
# First the work tree's release scatter_reductions; PyTorch's sweep; before and after alternating
# twice on the element and zero shapes; after's profiles of the zero shapes.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
timeout 150 .gpu/bin/scatter_reductions --test-threads=4 > $D/test-scatter_reductions.log 2>&1; echo "test rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-scatter_reductions.log
Z=""
for e in f32 f64; do for t in 1000 16384 65536; do Z="$Z,sweep_zeros_${e}_add_4194304_to_$t"; done; done
for e in f32 f64; do for t in 1 1000 2049 4096 8192 16384 16385 65536 131072 1048576 4194304; do Z="$Z,sweep_elements_${e}_add_4194304_to_$t"; done; done
E=${Z#,}
(cd bench && timeout 150 python3 torch_collisions.py --sweep --reps 10 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
for i in 1 2; do
  for b in before after; do
    timeout 90 .gpu/bin/bench-$b --collision-sweep --reps 10 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
  done
done
Q=""; for e in f32 f64; do for t in 1000 16384 65536; do Q="$Q,sweep_zeros_${e}_add_4194304_to_$t"; done; done
for b in before after; do
  timeout 40 .gpu/bin/bench-$b --collision-sweep --reps 3 --profile --only ${Q#,} > $D/p-$b.log 2>&1; echo "p $b rc=$? t=$(( $(date +%s) - S ))"
done
