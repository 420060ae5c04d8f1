#!/usr/bin/env bash
# Issue 26: run 4's slowest shapes again (their paths did not change), before and after alternating three times.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
E=sweep_segments_i64_min_4194304_to_1000_sorted,sweep_index_add_i16_16x1024_into_32768,sweep_few_f16_add_4096x1024_into_256,sweep_elements_f64_add_4194304_to_16385,sweep_few_f32_add_262144x256_into_1,sweep_index_add_i16_1024x1024_into_32768
for i in 1 2 3; do for b in before after; do
  timeout 40 .gpu/bin/bench-$b --collision-sweep --reps 20 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b $i rc=$? t=$(( $(date +%s) - S ))"
  timeout 25 .gpu/bin/bench-$b --reps 20 --only scatter_add_histogram --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
done; done
