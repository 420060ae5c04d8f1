#!/usr/bin/env bash
# Issue 26: the 16384- and 65536-bin histograms alone (each shape its own process), a / h /
# h2 as run2.sh, three passes alternating: is run2's +8 % at 16384 the shapes before it?
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins2.tar.xz)
S=$(date +%s)
for i in 1 2 3; do
  for b in a h h2; do
    for n in 256 16384 65536; do
      timeout 30 .gpu/bin/bench-$b --collision-sweep --reps 30 --only sweep_histogram_i32_add_4194304_to_$n --json $D/alone-$b-$i-$n.jsonl > /dev/null 2>&1
    done
    echo "$b $i t=$(( $(date +%s) - S ))"
  done
done
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
