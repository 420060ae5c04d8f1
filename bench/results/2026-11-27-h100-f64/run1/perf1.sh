#!/usr/bin/env bash
# Run 1: Float64 Add and Mul by the device's f64 where it gives IEEE's bits (bench = bc9c8d6)
# against before (bench-before = 1e088fd): the wide and reduction tests; index_add_rows_f64
# alone (two processes each, alternating); the Float64 shapes of the collision sweep; PyTorch.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in scatter_wide scatter_reductions; do
  timeout 150 .gpu/t/$t --test-threads=8 > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1 | cut -c1-60)"
done
S=sweep_elements_f64_add_4194304_to_1,sweep_elements_f64_add_4194304_to_1000,sweep_elements_f64_add_4194304_to_131072,sweep_index_add_f64_4096x1_into_32768,sweep_index_add_f64_4096x16_into_32768,sweep_index_add_f64_4096x512_into_32768,sweep_index_add_f64_4096x2048_into_16384,sweep_index_add_f64_4096x4096_into_8192
W=index_add_rows_f64
for i in 1 2; do
  for b in bench-before bench; do timeout 60 .gpu/$b --reps 30 --only $W --json $D/$b-$i.jsonl > $D/$b-$i.log 2>&1; echo "$b $i rc=$?"; done
done
for i in 1 2; do
  for b in bench-before bench; do timeout 120 .gpu/$b --collision-sweep --reps 20 --only $S --json $D/coll-$b-$i.jsonl > $D/coll-$b-$i.log 2>&1; echo "$b coll $i rc=$?"; done
done
(cd bench && timeout 60 python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1); echo "torch coll rc=$?"
(cd bench && timeout 100 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch sweep rc=$?"
python3 scripts/ratio_table.py $D bench-before bench > $D/table.md; cat $D/table.md
tar cf $OUT/results.tar -C $D .
