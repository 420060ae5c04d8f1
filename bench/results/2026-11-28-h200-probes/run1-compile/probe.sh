#!/usr/bin/env bash
# Issue 27 probe: the driver's build time of each variant module (3 fresh processes, the
# order shuffled), then the compile bench's cold compiles of main (3 processes a desc).
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp __GL_SHADER_DISK_CACHE=0
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf bins.tar.xz)
for i in 1 2 3; do
  .gpu/bin/compile_probe $(ls .gpu/variants/*.wgsl | shuf) >> $D/probe.log 2>> $D/probe.err
done
for i in 1 2 3; do for n in $(.gpu/bin/compile list); do
  timeout 30 .gpu/bin/compile cold $n --log 2>&1 | grep -E "built |^\{" | sed "s/^/$n $i: /" >> $D/cold.log
done; done
tail -2 $D/probe.err; wc -l $D/*.log
