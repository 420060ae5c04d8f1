#!/usr/bin/env bash
# Issue 26, probe: rows into few targets. One binary (main at 4f24aa1 plus the sweep's few-targets shapes and
# PROBE_CROWDED_ROWS: any-order rows averaging more than that many a block go unit by unit instead of by the
# lists; unset: lists as main). `lists` (unset) against `units` (0: every any-order row plan unit by unit),
# alternating twice: the few-targets, edge and index_add list shapes, and the reduction workloads; PyTorch's
# peers in the same command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
S=$(date +%s)
(cd bench && timeout 90 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 30 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_[a-z0-9_]*' $D/torch-sweep.log | grep -E 'index_add_.*_(4096x512|2048x1024|1024x1024|4096x2048)_|edges|few' | sed 's/_in_order$//' | sort -u | paste -sd,)
for i in 1 2; do
  for b in lists units; do
    if [ $b = units ]; then export PROBE_CROWDED_ROWS=0; else unset PROBE_CROWDED_ROWS; fi
    timeout 120 .gpu/bin/bench-probe --collision-sweep --reps 30 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 40 .gpu/bin/bench-probe --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
unset PROBE_CROWDED_ROWS
timeout 60 .gpu/bin/bench-probe --collision-sweep --reps 5 --profile --only $(echo $E | tr , '\n' | grep few | paste -sd,) > $D/profile-lists.log 2>&1; echo "profile rc=$? t=$(( $(date +%s) - S ))"
PROBE_CROWDED_ROWS=0 timeout 60 .gpu/bin/bench-probe --collision-sweep --reps 5 --profile --only $(echo $E | tr , '\n' | grep few | paste -sd,) > $D/profile-units.log 2>&1; echo "profile rc=$? t=$(( $(date +%s) - S ))"
