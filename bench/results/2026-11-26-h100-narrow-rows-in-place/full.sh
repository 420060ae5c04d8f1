#!/usr/bin/env bash
# The whole benchmark before and after in one command, then the release test binaries.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/f; mkdir -p $D
(cd .gpu && tar xJf benches.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
s=$(date +%s)
timeout 200 .gpu/bench-before --reps 30 --json $D/before.jsonl > $D/bench-before.log 2>&1; echo "before rc=$? $(( $(date +%s) - s ))s"
s=$(date +%s)
timeout 200 .gpu/bench --reps 30 --json $D/after.jsonl > $D/bench-after.log 2>&1; echo "after rc=$? $(( $(date +%s) - s ))s"
python3 - "$D" <<'PY'
import json, sys
d = sys.argv[1]
def load(p):
    r = {}
    for l in open(p):
        x = json.loads(l)
        if x.get("ms"): r[x["workload"]] = x["ms"]
    return r
b, a = load(f"{d}/before.jsonl"), load(f"{d}/after.jsonl")
with open(f"{d}/compare.md", "w") as f:
    f.write("| workload | before ms | after ms | after/before |\n| --- | ---: | ---: | ---: |\n")
    for w in a:
        if w in b: f.write(f"| {w} | {b[w]:.4f} | {a[w]:.4f} | {a[w]/b[w]:.3f} |\n")
moved = [(w, a[w]/b[w]) for w in a if w in b and abs(a[w]/b[w]-1) > 0.02]
print("moved by more than 2%:", moved)
PY
tar cf $OUT/full.tar -C $D . && rm -rf $D
bash .gpu/tests.sh
