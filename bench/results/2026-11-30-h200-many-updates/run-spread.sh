#!/usr/bin/env bash
# Issue 26: the bins and 8-byte slots keep their partials at 64 Mi updates. `before` (main at 8e2e341 plus the
# sweep's many-updates shapes) against `after` (the work tree: more updates a thread where the partials would
# otherwise not fit, where each workgroup's bins take an update each on average; BIN_GROUP 1024 as the loop's
# bound), the whole collision sweep and the reduction workloads once each; then the many-updates and 262,144 x 256
# few-targets shapes alternating twice with two probes of the same binary: `crowd4` (PROBE_SPREAD_CROWD=4: four
# updates a bin a workgroup) and `off` (PROBE_SPREAD=1: no extension, only the loop's bound). PyTorch first.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
S=$(date +%s)
(cd bench && timeout 150 python3 torch_collisions.py --sweep --reps 20 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 30 python3 torch_collisions.py --reps 20 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
for b in before after; do
  timeout 120 .gpu/bin/bench-$b --collision-sweep --reps 20 --json $D/s-$b-1.jsonl > $D/s-$b-1.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
  timeout 40 .gpu/bin/bench-$b --reps 20 --only $W --json $D/w-$b-1.jsonl > $D/w-$b-1.log 2>&1; echo "w $b rc=$? t=$(( $(date +%s) - S ))"
done
E=$(grep -o '^sweep_many[a-z0-9_]*\|^sweep_few_[a-z0-9]*_add_262144x256_into_[0-9]*' $D/torch-sweep.log | grep -v in_order | sort -u | paste -sd,)
for i in 2 3; do
  for b in before after crowd4 off; do
    unset PROBE_SPREAD PROBE_SPREAD_CROWD; bin=$b
    [ $b = crowd4 ] && { export PROBE_SPREAD_CROWD=4; bin=after; }
    [ $b = off ] && { export PROBE_SPREAD=1; bin=after; }
    timeout 60 .gpu/bin/bench-$bin --collision-sweep --reps 20 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "e $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
