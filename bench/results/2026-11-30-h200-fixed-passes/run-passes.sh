#!/usr/bin/env bash
# Issue 26: the lists' fixed passes. head (127fe82); `nodesc` (probe: no describe_status after the lists' or sorted
# runs' passes: no status description); `endclear` (probe: the lists' clear_heads after their passes, not before:
# right only while no other operator uses the scratch between runs, as here); `both` (endclear with no
# describe_status for the lists, PROBE_NO_DESCRIBE). Alternating three times.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges,scatter_min_i64_segments,scatter_add_rows
E=sweep_index_add_f64_4096x512_into_32768,sweep_index_add_f64_2048x1024_into_32768,sweep_index_add_f16_4096x512_into_32768,sweep_index_add_f16_1024x1024_into_32768,sweep_index_add_f32_4096x512_into_32768,sweep_index_add_i16_4096x512_into_32768,sweep_index_add_f32_2048x1024_into_32768
S=$(date +%s)
(cd bench && timeout 30 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
for i in 1 2 3; do
  for b in head nodesc endclear both; do
    x=$b; env=""; if [ $b = both ]; then x=endclear; env="PROBE_NO_DESCRIBE=1"; fi
    env $env timeout 40 .gpu/bin/bench-$x --collision-sweep --reps 30 --only $E --json $D/ia-$b-$i.jsonl > $D/ia-$b-$i.log 2>&1; echo "ia $b $i rc=$? t=$(( $(date +%s) - S ))"
    env $env timeout 40 .gpu/bin/bench-$x --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
