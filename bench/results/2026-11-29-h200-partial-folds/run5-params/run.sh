#!/usr/bin/env bash
# Issue 26: does BinParams' growth (16 bytes, the folds' fold_units and fold_slices) cost the
# histograms? a = main (90f8885), h = the head (fd278c1), h2 = h with the folds' units in
# per_thread (IndexParams as before); three passes alternating.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins2.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
ONLY=$(cat .gpu/only-hist.txt)
S=$(date +%s)
for i in 1 2 3; do
  for b in a h h2; do
    timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $ONLY --json $D/hist-$b-$i.jsonl > $D/hist-$b-$i.log 2>&1; echo "$b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
