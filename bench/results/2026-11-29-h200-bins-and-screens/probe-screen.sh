#!/usr/bin/env bash
# Issue 26 probe: before = main (8212ec4); after = screens copy as they read (screen_output 4 units a thread);
# one = screen_output a unit a thread; nofuse = the sign atomics' screen alone (default mode) reads after the copy.
# Float32 Max both modes, Float32 Add onto 4 Mi and 1 Mi, the 16-unit edges; alternating three times; profiles.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
E=sweep_elements_f32_add_4194304_to_4194304,sweep_elements_f32_add_4194304_to_1048576,sweep_edges_f32_max_1048576x16_into_65536
S=$(date +%s)
for i in 1 2 3; do
  for b in before after one nofuse; do
    timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 60 .gpu/bin/bench-$b --reps 30 --only scatter_max_f32 --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
for b in after one nofuse; do
timeout 60 .gpu/bin/bench-$b --reps 30 --profile --only scatter_max_f32 > $D/profile-$b.log 2>&1; echo "profile $b rc=$? t=$(( $(date +%s) - S ))"
done
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
