#!/usr/bin/env bash
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp
export D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf benches.tar.xz)
W=gather_elements_rows_i8_odd,scatter_elements_rows_u8,decode_step_3d_scatter_nd,decode_step_4d_tensor_scatter,index_add_rows_f64,scatter_nd_rows,slice_strided
for i in 1 2; do
  .gpu/bench-before --reps 30 --only $W --json $D/before$i.jsonl > $D/before$i.log 2>&1
  .gpu/bench --reps 30 --only $W --json $D/after$i.jsonl > $D/after$i.log 2>&1
  PROBE_NO_STATUS_CLEAR=1 .gpu/bench-probe --reps 30 --only $W --json $D/nostatus$i.jsonl > $D/nostatus$i.log 2>&1
done
python3 - $D <<'PY'
import json, sys
d = sys.argv[1]
def load(p):
    return {json.loads(l)["workload"]: json.loads(l)["ms"] for l in open(p)}
runs = {n: [load(f"{d}/{n}{i}.jsonl") for i in (1, 2)] for n in ("before", "after", "nostatus")}
names = list(runs["after"][0])
print("| workload | " + " | ".join(runs) + " |")
for w in names:
    print(f"| {w} | " + " | ".join(f"{min(r[w] for r in rs):.4f}" for rs in runs.values()) + " |")
PY
tar cf $OUT/results.tar -C $D . && rm -rf $D
