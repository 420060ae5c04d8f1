#!/usr/bin/env bash
# First compiles of the whole set, before and after, two fresh processes each, driver cache off.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp __GL_SHADER_DISK_CACHE=0
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/c; mkdir -p $D; cd .gpu; tar xJf benches.tar.xz
for i in 1 2; do for b in before after; do ./compile-$b all --log > $D/all-$b-$i.jsonl 2> $D/all-$b-$i.log; done; done
tail -n 30 $D/all-*.jsonl | cut -c1-200
