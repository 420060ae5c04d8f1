#!/usr/bin/env bash
# Issue 26 probe: where the list ties' claims sit in the column fold. before = main (c17cd14); all = claims after the
# fold, reloading the updates; v3 = claims after the fold from the values the fold loaded (both: the link loaded first,
# lists for every mean length); profiles of both.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
E=$(cat .gpu/only-edges.txt)
S=$(date +%s)
for i in 1 2; do
  for b in before all v3; do
    timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 120 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
for b in all v3; do
  timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 30 --profile --only $E > $D/profile-edges-$b.log 2>&1; echo "profile $b rc=$? t=$(( $(date +%s) - S ))"
  timeout 60 .gpu/bin/bench-$b --reps 30 --profile --only scatter_max_f32_edges > $D/profile-w-$b.log 2>&1
done
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
