#!/usr/bin/env bash
# Issue 26 cleanup: one fold_partials for the bins and the 8-byte slots (shaders/partials.wgsl), its threads a unit derived
# in the shader. a = main (acbe71f), h = the change; collision sweep and reduction workloads alternating twice; tests with h.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
S=$(date +%s)
for i in 1 2; do
  for b in a h; do
    timeout 120 .gpu/bin/bench-$b --collision-sweep --reps 30 --json $D/sweep-$b-$i.jsonl > $D/sweep-$b-$i.log 2>&1; echo "sweep $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 120 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
(cd bench && timeout 150 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > /dev/null 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 100 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > /dev/null 2>&1); echo "torch w rc=$?"
(cd bench && timeout 100 python3 torch_reductions.py --reps 30 --json $D/torch-r.jsonl > /dev/null 2>&1); echo "torch r rc=$? t=$(( $(date +%s) - S ))"
for t in shaders pipelines scatter_wide scatter_reductions scatter_float_add fuzz; do
  timeout 150 .gpu/bin/$t > $D/test-$t.log 2>&1; echo "$t rc=$? t=$(( $(date +%s) - S ))"
done
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
