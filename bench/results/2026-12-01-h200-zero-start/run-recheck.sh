#!/usr/bin/env bash
# Issue 26: run 6's two default-mode shapes that measured slower after (their path, the 64-bit
# compare-exchange, did not change), each alone in a fresh process (no shape before it), before
# and after alternating three times.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
for i in 1 2 3; do
  for b in before after; do
    for n in sweep_many_f64_add_67108864_to_16384 sweep_zeros_f64_add_4194304_to_16384; do
      timeout 30 .gpu/bin/bench-$b --collision-sweep --reps 10 --only $n --json $D/s-$b-$i-${n%%_add*}.jsonl >> $D/s-$b-$i.log 2>&1; echo "s $b $n rc=$? t=$(( $(date +%s) - S ))"
    done
  done
done
