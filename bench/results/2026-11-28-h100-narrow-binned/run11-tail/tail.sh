#!/usr/bin/env bash
# The workloads that moved in run 10's whole run, before and after alternating twice.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf benches.tar.xz ./bench-before ./bench-after)
W=decode_step_3d_tensor_scatter,decode_step_4d_scatter_nd,decode_step_4d_tensor_scatter,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges,scatter_add_histogram,scatter_min_i64_segments
for i in 1 2; do for b in before after; do timeout 40 .gpu/bench-$b --reps 30 --only $W --json $D/tail-$b-$i.jsonl > $D/tail-$b-$i.log 2>&1; echo "$b $i rc=$?"; done; done
python3 - $D <<'PY'
import json,sys
d=sys.argv[1]
def load(p): return {r["workload"]:r["ms"] for r in map(json.loads,open(p)) if r.get("ms")}
b=[load(f"{d}/tail-before-{i}.jsonl") for i in (1,2)]; a=[load(f"{d}/tail-after-{i}.jsonl") for i in (1,2)]
for n in a[0]:
    print(f"{n:40} before {b[0][n]:.4f} {b[1][n]:.4f} after {a[0][n]:.4f} {a[1][n]:.4f} {100*(min(x[n] for x in a)/min(x[n] for x in b)-1):+.1f}%")
PY
tar cf $OUT/results.tar -C $D .
