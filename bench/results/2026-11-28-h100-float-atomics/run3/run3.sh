#!/usr/bin/env bash
# Run 3: every release test binary of the final head (but shaders, host-only, and web, the
# browser's), on the H100.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in $(ls .gpu/t); do
  th=8; case $t in pipelines|scatter_shapes|context) th=1;; esac
  DML_WGSL_FUZZ_SECONDS=15 timeout 150 .gpu/t/$t --test-threads=$th > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1 | cut -c1-60)"
done
tar cf $OUT/results.tar -C $D .
rm -rf $D
