#!/usr/bin/env bash
# Issue 27: a module a pipeline (only the code an entry reaches). First compiles of the 22
# descs before (58e2cd9) and after (3 fresh processes each, alternating, NVIDIA's disk
# cache off); release tests of the head; the benchmark's workloads before and after.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1 DML_WGSL_FUZZ_SECONDS=10
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for i in 1 2 3; do for b in before after; do for n in $(.gpu/compile-after list); do
  __GL_SHADER_DISK_CACHE=0 timeout 30 .gpu/compile-$b cold $n --log 2>&1 | grep -E "built |^\{" | sed "s/^/$b $n $i: /" >> $D/cold.log
done; done; done
grep '"first_ms"' $D/cold.log | python3 -c '
import sys,json,collections,statistics
d=collections.defaultdict(list)
for line in sys.stdin:
    head,js=line.split(": {",1); b,n,i=head.split()
    d[(n,b)].append(json.loads("{"+js)["first_ms"])
names=[]
[names.append(n) for n,_ in d if n not in names]
print("| desc | before (ms) | after (ms) |")
for n in names: print("| %s | %.1f | %.1f |" % (n, statistics.median(d[(n,"before")]), statistics.median(d[(n,"after")])))
' | tee $D/cold-table.md
for t in $(ls .gpu/t); do
  threads=8; case $t in pipelines|context) threads=1;; esac
  start=$(date +%s); timeout 120 .gpu/t/$t --test-threads=$threads > $D/test-$t.log 2>&1; rc=$?
  echo "$t rc=$rc $(( $(date +%s) - start ))s $(grep 'test result' $D/test-$t.log | tail -1)"
done
for b in before after; do timeout 100 .gpu/bench-$b --reps 20 --json $D/bench-$b.jsonl > $D/bench-$b.log 2>&1; echo "bench $b rc=$?"; done
python3 - $D <<'PY'
import json,sys
d=sys.argv[1]
def load(p): return {r["workload"]:r["ms"] for r in map(json.loads,open(p)) if r.get("ms")}
b=load(f"{d}/bench-before.jsonl"); a=load(f"{d}/bench-after.jsonl")
worst=sorted(((a[n]/b[n]-1)*100,n) for n in a if n in b)
print("workloads", len(worst), "change min %+.1f%% max %+.1f%%" % (worst[0][0], worst[-1][0]))
for c,n in worst[:3]+worst[-3:]: print(f"{n:40} {b[n]:.4f} -> {a[n]:.4f} {c:+.1f}%")
PY
tar cf $OUT/results.tar -C $D .
