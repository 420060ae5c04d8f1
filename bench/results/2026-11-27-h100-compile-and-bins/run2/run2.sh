#!/usr/bin/env bash
# Run 2: what an H100's driver spends a reduction's compile on: diagnostic builds (wrong
# results; compile time only) with parts of scatter_reduce and fold_long_runs removed.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp __GL_SHADER_DISK_CACHE=0
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf benches.tar.xz)
for i in 1 2; do for v in before after nochain noslowfold nochain-noslowfold noloop noslots trivial noloop-noslots-trivial; do
  for n in scatter_add_f32 scatter_add_f32_in_order scatter_mul_f32 scatter_min_f32; do
    timeout 30 .gpu/compile-$v cold $n --log 2>&1 | grep -E "built pipeline|^\{" | sed "s/^/$v $n $i: /" >> $D/variants.log
  done
done; done
grep -E "scatter_reduce in|fold_long_runs in" $D/variants.log | sed -E 's/: built pipeline.*\} (\w+) in ([0-9.]+) ms/ \1 \2/' | awk '{k=$1" "$2" "$4; a[k]=a[k]" "$5} END {for (k in a) print k":"a[k]}' | sort
tar cf $OUT/results.tar -C $D .
