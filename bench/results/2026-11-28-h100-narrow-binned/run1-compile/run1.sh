#!/usr/bin/env bash
# Diagnostic: cold first compiles (fresh process each, NVIDIA disk cache off) of variants of
# the index walk's floor_mod loops and scatter_reduce's step bound; per-pipeline build times.
# Builds: compile-<variant> from `variants.py <variant>` applied to main at 2d8ab99.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp __GL_SHADER_DISK_CACHE=0
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for i in 1 2 3; do for v in base seqopaque noseq seqopaque-stepsopaque; do
  for n in slice gather_elements scatter_elements scatter_add_f32 scatter_add_f32_in_order scatter_max_f32 scatter_min_f32_in_order scatter_add_i64 scatter_max_f16_in_order; do
    timeout 30 .gpu/compile-$v cold $n --log 2>&1 | grep -E "built pipeline|^\{" | sed "s/^/$v $n $i: /" >> $D/variants.log
  done
done; done
# (then the medians of first_ms per desc and variant into table.md)
tar cf $OUT/results.tar -C $D .
