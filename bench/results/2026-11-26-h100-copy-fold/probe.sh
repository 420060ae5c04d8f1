#!/usr/bin/env bash
# Per-step probe: DML_PROBE=N dispatches only the plan's first N steps (clears always run).
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/p; mkdir -p $D; cd .gpu
for n in 0 1 2 3 4 5 6 7 8 99; do
  DML_PROBE=$n ./bench-probe --reps 20 --only index_add_rows_f16,index_add_rows_f64 --json $D/rows-$n.jsonl > /dev/null 2>&1
  DML_PROBE=$n ./bench-probe --collision-sweep --reps 20 --only sweep_index_add_f16_16x1024_into_32768 --json $D/few-$n.jsonl > /dev/null 2>&1
done
for n in $(seq 0 24) 99; do
  DML_PROBE=$n ./bench-probe --reps 20 --only scatter_max_f32_edges_in_order --json $D/edges-$n.jsonl > /dev/null 2>&1
done
cd $D && for f in *.jsonl; do python3 -c "
import json,sys
for l in open('$f'):
    r=json.loads(l); print('$f', r['workload'], round(r['ms']*1000,1))
"; done | sort -t- -k2 -n
