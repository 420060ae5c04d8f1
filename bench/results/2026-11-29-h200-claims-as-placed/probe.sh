#!/usr/bin/env bash
# Issue 26 probe (not landed): Float32 Max in any order, positive non-NaN updates by WGSL's atomicMax on i32 words
# (no compare-exchange loop, no load), the rest by the loop as before. after = main with the tie claims (e964647);
# probe = after + probe-positive-max.diff; *signed = the same builds with the benchmark's Float32 values of random sign
# (half negative, which the probe sends to the loop). Edge shapes and scatter_max_f32, both modes, alternating twice.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
E=$(cat .gpu/only-edges.txt),scatter_max_f32_edges
S=$(date +%s)
for i in 1 2; do
  for b in after probe aftersigned probesigned; do
    timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 100 .gpu/bin/bench-$b --reps 30 --only scatter_max_f32 --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
timeout 60 .gpu/bin/bench-probe --collision-sweep --reps 30 --profile --only sweep_edges_f32_max_1048576x16_into_65536 > $D/profile-probe.log 2>&1; echo "profile rc=$?"
timeout 60 .gpu/bin/bench-probesigned --collision-sweep --reps 30 --profile --only sweep_edges_f32_max_1048576x16_into_65536 > $D/profile-probesigned.log 2>&1; echo "profile rc=$?"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
