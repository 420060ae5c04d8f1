#!/usr/bin/env bash
# The splits (src/ops/scatter_bins.rs, shaders/scatter_reduce_wide.wgsl): release tests of the
# head on the H100, and the reduction workloads before (2d8ab99) and after, alternating.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1 DML_WGSL_FUZZ_SECONDS=15
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in $(ls .gpu/t); do
  threads=8; case $t in pipelines|context) threads=1;; esac
  start=$(date +%s); timeout 200 .gpu/t/$t --test-threads=$threads > $D/test-$t.log 2>&1; rc=$?
  echo "$t rc=$rc $(( $(date +%s) - start ))s $(grep 'test result' $D/test-$t.log | tail -1)"
done
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
for i in 1 2; do for b in before after; do timeout 60 .gpu/bench-$b --reps 30 --only $W --json $D/bench-$b-$i.jsonl > $D/bench-$b-$i.log 2>&1; echo "$b $i rc=$?"; done; done
python3 - $D <<'PY'
import json,sys,statistics
d=sys.argv[1]
def load(p): return {r["workload"]:r["ms"] for r in map(json.loads,open(p)) if r.get("ms")}
b=[load(f"{d}/bench-before-{i}.jsonl") for i in (1,2)]; a=[load(f"{d}/bench-after-{i}.jsonl") for i in (1,2)]
for n in a[0]:
    bb=min(x[n] for x in b); aa=min(x[n] for x in a)
    print(f"{n:40} before {bb:.4f} after {aa:.4f} {100*(aa/bb-1):+.1f}%")
PY
tar cf $OUT/results.tar -C $D .
