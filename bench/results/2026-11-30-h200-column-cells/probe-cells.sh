#!/usr/bin/env bash
# Issue 26 probe: cells a thread of the column folds takes (COLUMN_CELLS, 2 on main), by unit width
# (DML_PROBE_CELLS8 / DML_PROBE_CELLS4 / DML_PROBE_CELLS_NARROW; probe-cells.diff), on the index_add
# and edge shapes of the collision sweep (both modes) and the rows workloads; alternating three times.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
# Only a few files come back from $OUT: everything goes in one tar, also if the command is cut short.
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
B=.gpu/bin/bench-probe
S=$(date +%s)
(cd bench && timeout 170 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 100 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
names() { grep -o '^sweep_[a-z0-9_]*' $D/torch-sweep.log | grep -E "$1" | grep -v '_in_order$' | sort -u | paste -sd,; }
F64=$(names 'index_add_f64'); W64=index_add_rows_f64
F32=$(names 'index_add_f32|edges_f32'); W32=scatter_max_f32_edges,scatter_add_rows
F16=$(names 'index_add_f16|edges_f16'); W16=index_add_rows_f16
echo "$F64 $F32 $F16" > $D/shapes.txt
run() { # tag, sweep names, workload names, env...
  local tag=$1 only=$2 work=$3; shift 3
  env "$@" timeout 100 $B --collision-sweep --reps 30 --only $only --json $D/$tag.jsonl > $D/$tag.log 2>&1; echo "$tag rc=$? t=$(( $(date +%s) - S ))"
  env "$@" timeout 60 $B --reps 30 --only $work --json $D/w-$tag.jsonl > $D/w-$tag.log 2>&1; echo "w-$tag rc=$? t=$(( $(date +%s) - S ))"
}
for i in 1 2 3; do
  [ $(( $(date +%s) - S )) -gt 400 ] && break
  run base64-$i $F64 $W64 X=1
  run c8x4-$i $F64 $W64 DML_PROBE_CELLS8=4
  run c8x8-$i $F64 $W64 DML_PROBE_CELLS8=8
  run base32-$i $F32 $W32 X=1
  run c4x4-$i $F32 $W32 DML_PROBE_CELLS4=4
  run base16-$i $F16 $W16 X=1
  run cnx4-$i $F16 $W16 DML_PROBE_CELLS_NARROW=4
done
