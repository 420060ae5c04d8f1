#!/usr/bin/env bash
# Issue 27: first compiles of every desc of benches/compile.rs (3 fresh processes each,
# NVIDIA's disk cache off), with the library's log: each shader module and pipeline built
# and its milliseconds.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp __GL_SHADER_DISK_CACHE=0
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for i in 1 2 3; do for n in $(.gpu/compile list); do
  timeout 30 .gpu/compile cold $n --log 2>&1 | grep -E "built |^\{" | sed "s/^/$n $i: /" >> $D/cold.log
done; done
grep '"first_ms"' $D/cold.log | python3 -c '
import sys,json,collections,statistics
d=collections.defaultdict(list)
for line in sys.stdin:
    head,js=line.split(": {",1); n,i=head.split()
    d[n].append(json.loads("{"+js)["first_ms"])
print("| desc | first compile, median of 3 (ms) | runs |")
for n,v in d.items(): print("| %s | %.1f | %s |" % (n, statistics.median(v), " ".join("%.1f"%x for x in v)))
' | tee $D/table.md
tar cf $OUT/results.tar -C $D .
