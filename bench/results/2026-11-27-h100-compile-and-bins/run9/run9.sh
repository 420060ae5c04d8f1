#!/usr/bin/env bash
# Run 9: release tests of b200ac3 (pipelines, scatter_shapes, context with one thread); first
# compiles of before (261c4c0) and after (b200ac3), three fresh processes
# each, alternating, NVIDIA's disk cache off.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp __GL_SHADER_DISK_CACHE=0
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in $(ls .gpu/t); do
  th=8; case $t in pipelines|scatter_shapes|context) th=1;; esac
  DML_WGSL_FUZZ_SECONDS=20 timeout 150 .gpu/t/$t --test-threads=$th > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1 | cut -c1-60)"
done
NAMES=$(.gpu/compile-after list | tr -d '",[]')
for i in 1 2 3; do for b in before after; do for n in $NAMES; do
  timeout 30 .gpu/compile-$b cold $n --log >> $D/cold-$b.jsonl 2>> $D/cold-$b.log
done; done; done
echo "compile done"
tar cf $OUT/results.tar -C $D .
rm -rf $D
