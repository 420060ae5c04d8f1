#!/usr/bin/env bash
# Issue 26: head against `rounds` on the workloads whose passes moved in run 4 (scatter_nd_rows, whose plan neither
# build changed: 0.17 or 0.43 ms from pass to pass in both; scatter_max_f32, 0.8 to 1.4 % slower in runs 3 and 4),
# alternating four times, then both builds' profiles of scatter_max_f32.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
W=scatter_nd_rows,scatter_add_rows,scatter_max_f32
S=$(date +%s)
for i in 1 2 3 4; do
  for b in head rounds; do
    timeout 30 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
for b in head rounds; do
  timeout 30 .gpu/bin/bench-$b --reps 10 --profile --only scatter_max_f32 > $D/profile-$b.log 2>&1; echo "profile $b rc=$? t=$(( $(date +%s) - S ))"
done
