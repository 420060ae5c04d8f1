#!/usr/bin/env bash
# One device command: before and after alternating, PyTorch's peers in the same command.
set -o pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
W=${W:-scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges}
cd .gpu && tar xJf benches.tar.xz
if [ -n "$TESTS" ]; then
  mkdir -p t && tar xJf tests.tar.xz -C t
  for t in $TESTS; do
    threads=8; case $t in pipelines|context) threads=1;; esac
    (cd .. && timeout 300 .gpu/t/$t --test-threads=$threads) > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1)"
  done
fi
R=${REPS:-30}
for i in 1 2; do
  ./bench-before --reps $R --only $W --json $D/before$i.jsonl > $D/bench-before$i.log 2>&1
  ./bench --reps $R --only $W --json $D/after$i.jsonl > $D/bench-after$i.log 2>&1
  for x in $EXTRA; do ./$x --reps $R --only $W --json $D/$x-$i.jsonl > $D/$x-$i.log 2>&1; done
done
python3 torch_collisions.py --reps $R --json $D/torch_collisions.jsonl > $D/torch.log 2>&1
python3 torch_reductions.py --reps $R --json $D/torch_reductions.jsonl >> $D/torch.log 2>&1
if [ -n "$SWEEP" ]; then
  ./bench-before --collision-sweep --reps $R --json $D/sweep-before.jsonl > $D/sweep.log 2>&1
  ./bench --collision-sweep --reps $R --json $D/sweep-after.jsonl >> $D/sweep.log 2>&1
  for x in $EXTRA; do ./$x --collision-sweep --reps $R --json $D/sweep-$x.jsonl >> $D/sweep.log 2>&1; done
  python3 torch_collisions.py --sweep --reps $R --json $D/torch_sweep.jsonl >> $D/torch.log 2>&1
fi
python3 - <<'PY'
import json, os
out = os.environ["D"]
extra = os.environ.get("EXTRA", "").split()
def load(p):
    d = {}
    if os.path.exists(p):
        for l in open(p):
            r = json.loads(l); d[r["workload"]] = r["ms"]
    return d
def best(*ds):
    keys = [k for d in ds for k in d]
    return {k: min(d[k] for d in ds if k in d) for k in dict.fromkeys(keys)}
t = {}
for n in ["torch_collisions", "torch_reductions", "torch_sweep"]:
    t.update(load(f"{out}/{n}.jsonl"))
cols = {"before": best(load(f"{out}/before1.jsonl"), load(f"{out}/before2.jsonl"), load(f"{out}/sweep-before.jsonl")),
        "after": best(load(f"{out}/after1.jsonl"), load(f"{out}/after2.jsonl"), load(f"{out}/sweep-after.jsonl"))}
for x in extra:
    cols[x] = best(load(f"{out}/{x}-1.jsonl"), load(f"{out}/{x}-2.jsonl"), load(f"{out}/sweep-{x}.jsonl"))
names = list(cols)
print("| workload | torch ms | " + " | ".join(f"{n} ms (x)" for n in names) + " |")
for w in cols["after"]:
    tm = t.get(w)
    cells = []
    for n in names:
        v = cols[n].get(w)
        cells.append(f"{v:.4f} ({tm/v:.2f}x)" if v and tm else (f"{v:.4f}" if v else ""))
    print(f"| {w} | {tm:.4f} | " if tm else f"| {w} | | ", " | ".join(cells), "|")
PY
tar cf $OUT/results.tar -C $D . && rm -rf $D
