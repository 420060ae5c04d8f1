#!/usr/bin/env bash
# Issue 26: screen_nans four units a thread. crowd = main at eeadb92 (a thread a unit), screen4 = the change; after = main
# at 3ba64a1 (no sign atomics). scatter_max_f32 both modes and the 16-unit edges, alternating three times.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
for i in 1 2 3; do
  for b in after crowd screen4; do
    timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 30 --only sweep_edges_f32_max_1048576x16_into_65536 --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 60 .gpu/bin/bench-$b --reps 30 --only scatter_max_f32 --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
timeout 60 .gpu/bin/bench-screen4 --reps 30 --profile --only scatter_max_f32 > $D/profile-w.log 2>&1
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
