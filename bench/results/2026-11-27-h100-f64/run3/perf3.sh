#!/usr/bin/env bash
# Run 3: 8-byte exchanges a batch of updates a thread at a time (bench-batch4 = 4 a batch,
# the commit after bc9c8d6; bench-batch8 = the same with 8) against the device's f64 alone
# (bench-f64 = bc9c8d6): the wide tests of batch4; the 8-byte shapes of the collision sweep
# (two processes each, alternating); PyTorch's sweep.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
timeout 150 .gpu/t/scatter_wide --test-threads=8 > $D/test-scatter_wide.log 2>&1; echo "scatter_wide rc=$? $(grep 'test result' $D/test-scatter_wide.log | tail -1 | cut -c1-60)"
S=sweep_elements_f64_add_4194304_to_1,sweep_elements_f64_add_4194304_to_1000,sweep_elements_f64_add_4194304_to_131072,sweep_index_add_f64_4096x1_into_32768,sweep_index_add_f64_4096x16_into_32768,sweep_segments_i64_min_4194304_to_131072_uniform,sweep_segments_i64_min_4194304_to_1000_uniform
for i in 1 2; do
  for b in bench-f64 bench-batch4 bench-batch8; do timeout 100 .gpu/$b --collision-sweep --reps 20 --only $S --json $D/coll-$b-$i.jsonl > $D/coll-$b-$i.log 2>&1; echo "$b coll $i rc=$?"; done
done
(cd bench && timeout 100 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch sweep rc=$?"
python3 scripts/ratio_table.py $D bench-f64 bench-batch8 bench-batch4 > $D/table.md; cat $D/table.md
tar cf $OUT/results.tar -C $D .
