#!/usr/bin/env bash
# After the run_folded refactor: the in-order reduction tests, then the reductions alone,
# before (bb857e7, the kernels of 391cf03) and after, alternating.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf benches.tar.xz)
for t in scatter_sort scatter_reductions scatter_rows windows pipelines; do
  timeout 60 .gpu/t/$t --test-threads=1 > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | cut -c1-60)"
done
W=scatter_add_rows,scatter_add_heavy,scatter_max_f32,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
for i in 1 2; do for b in bench-before bench; do timeout 50 .gpu/$b --reps 30 --only $W --json $D/$b-$i.jsonl > $D/$b-$i.log 2>&1; done; done
python3 - $D <<'PY'
import json, sys
d = sys.argv[1]
def load(p):
    r = {}
    for line in open(p):
        try: j = json.loads(line)
        except Exception: continue
        if "workload" in j: r.setdefault(j["workload"], j["ms"])
    return r
runs = {b: [load(f"{d}/{b}-{i}.jsonl") for i in (1, 2)] for b in ("bench-before", "bench")}
for n in runs["bench"][0]:
    print(n, "before", [round(x[n], 4) for x in runs["bench-before"]], "after", [round(x[n], 4) for x in runs["bench"]])
PY
tar cf $OUT/results.tar -C $D .
