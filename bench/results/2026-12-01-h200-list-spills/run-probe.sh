#!/usr/bin/env bash
# Issue 26: the lists' rows past LIST_BOUND a block set aside (hubs). `before` is main at 94bef2f, `after`
# the work tree (LIST_BOUND 128, 4 rounds of 256 set-aside rows a workgroup), `bound32` and `bound512` the
# same with LIST_BOUND 32 and 512; `after` also with DML_WGSL_PROBE_SPILL_ROUNDS 1 and 16 (rounds1,
# rounds16). The narrow any-order row shapes of the collision sweep (edges, few targets, hubs, index_add),
# then the reduction workloads; PyTorch's peers in the same command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f16_in_order,index_add_rows_f64,scatter_max_f32_edges,scatter_max_f32_edges_in_order
S=$(date +%s)
(cd bench && timeout 70 python3 torch_collisions.py --sweep --reps 20 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 25 python3 torch_collisions.py --reps 20 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_\(edges\|few\|hub\|index_add\)_\(f16\|f32\|i16\)[a-z0-9_]*' $D/torch-sweep.log | grep -v in_order | sort -u | paste -sd,)
echo "$E" | tr , '\n' > $D/shapes.txt; echo "shapes $(wc -l < $D/shapes.txt)"
run() { # name binary env...
  local n=$1 b=$2; shift 2
  env "$@" timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 20 --only $E --json $D/s-$n.jsonl > $D/s-$n.log 2>&1; echo "s $n rc=$? t=$(( $(date +%s) - S ))"
  env "$@" timeout 20 .gpu/bin/bench-$b --reps 20 --only $W --json $D/w-$n.jsonl > $D/w-$n.log 2>&1; echo "w $n rc=$? t=$(( $(date +%s) - S ))"
}
run before-1 before X=1
run after-1 after X=1
run bound32-1 bound32 X=1
run bound512-1 bound512 X=1
run rounds1-1 after DML_WGSL_PROBE_SPILL_ROUNDS=1
run rounds16-1 after DML_WGSL_PROBE_SPILL_ROUNDS=16
run after-2 after X=1
run before-2 before X=1
