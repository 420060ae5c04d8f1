#!/usr/bin/env bash
# The shapes run 4 had slower on the head: Float16 gathers along the inner axis and in-place
# Float16 row scatters, 4095 and 4096 rows (32 shapes), before (255a027) and the head
# alternating three times, the gather workloads of odd rows beside; PyTorch's peer after.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
ONLY=$(for r in 4095 4096; do for c in 2048 2049 2050 2051; do for i in i32 i64; do echo -n "sweep_gather_f16_cols_${r}x${c}_$i,sweep_scatter_inplace_f16_rows_${r}x${c}_$i,"; done; done; done)
ONLY=${ONLY%,}
for i in 1 2 3; do
  for b in before main; do
    timeout 30 .gpu/bin/bench-$b --sweep --reps 30 --only $ONLY --json $D/sweep-$b$i.jsonl > /dev/null 2>&1; echo "sweep $b rc=$? $(date +%T)"
    timeout 20 .gpu/bin/bench-$b --reps 50 --only gather_elements_rows_f16_odd,gather_elements_rows_i8_odd --json $D/w-$b$i.jsonl > /dev/null 2>&1; echo "w $b rc=$?"
  done
done
(cd bench && timeout 30 python3 torch_sweep.py --reps 30 --only $ONLY --json $D/torch-sweep.jsonl > /dev/null 2>&1); echo "torch sweep rc=$? $(date +%T)"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
