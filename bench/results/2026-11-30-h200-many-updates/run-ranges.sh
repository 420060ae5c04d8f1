#!/usr/bin/env bash
# Issue 26, probe: Float32 Add of single elements onto 2049 to 16,384 units by the f32 atomics instead of the
# workgroup bins' ranges (`ratoms`: PROBE_RANGE_ATOMICS=1, the same binary) against the work tree's plans
# (`after`: the bins, a range a workgroup), alternating twice on the Float32 element and many-updates shapes (the
# sweep's element targets now include 2049, 8192 and 16,384) and once on the reduction workloads. PyTorch first.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
S=$(date +%s)
(cd bench && timeout 100 python3 torch_collisions.py --sweep --reps 20 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 30 python3 torch_collisions.py --reps 20 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_elements_[a-z0-9_]*\|^sweep_many_[a-z0-9_]*' $D/torch-sweep.log | grep -v in_order | sort -u | paste -sd,)
for i in 1 2; do
  for b in after ratoms; do
    unset PROBE_RANGE_ATOMICS; [ $b = ratoms ] && export PROBE_RANGE_ATOMICS=1
    timeout 60 .gpu/bin/bench-after --collision-sweep --reps 20 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "e $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
for b in after ratoms; do
  unset PROBE_RANGE_ATOMICS; [ $b = ratoms ] && export PROBE_RANGE_ATOMICS=1
  timeout 40 .gpu/bin/bench-after --reps 20 --only $W --json $D/w-$b-1.jsonl > $D/w-$b-1.log 2>&1; echo "w $b rc=$? t=$(( $(date +%s) - S ))"
done
