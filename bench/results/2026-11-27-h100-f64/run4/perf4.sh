#!/usr/bin/env bash
# Run 4: 8-byte reductions without 64-bit atomics (the sort), long runs folded in any order
# across a workgroup (bench = 9d54d06) against one thread after another (bench-sequential =
# 9d54d06 with 337952c reverted), each with and without the device's f64
# (`--without-int64-atomics [--without-hardware-float64]`, the paths of devices that lack
# them: GL, Metal, the browser); the wide tests of 9d54d06; PyTorch's sweep (atomics).
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
timeout 150 .gpu/t/scatter_wide --test-threads=8 > $D/test-scatter_wide.log 2>&1; echo "scatter_wide rc=$? $(grep 'test result' $D/test-scatter_wide.log | tail -1 | cut -c1-60)"
S=sweep_elements_f64_add_4194304_to_1,sweep_elements_f64_add_4194304_to_1000,sweep_elements_f64_add_4194304_to_131072,sweep_index_add_f64_4096x1_into_32768,sweep_segments_i64_min_4194304_to_1000_sorted,sweep_segments_i64_min_4194304_to_1000_uniform,sweep_segments_i64_min_4194304_to_131072_uniform
for b in bench-sequential bench; do
  timeout 120 .gpu/$b --collision-sweep --reps 5 --without-int64-atomics --only $S --json $D/coll-$b-f64.jsonl > $D/coll-$b-f64.log 2>&1; echo "$b f64 rc=$?"
  timeout 120 .gpu/$b --collision-sweep --reps 5 --without-int64-atomics --without-hardware-float64 --only $S --json $D/coll-$b-software.jsonl > $D/coll-$b-software.log 2>&1; echo "$b software rc=$?"
done
(cd bench && timeout 100 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch sweep rc=$?"
python3 scripts/ratio_table.py $D bench-sequential-f64 bench-f64 bench-sequential-software bench-software > $D/table.md; cat $D/table.md
tar cf $OUT/results.tar -C $D .
