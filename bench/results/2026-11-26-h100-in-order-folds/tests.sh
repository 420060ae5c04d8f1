#!/usr/bin/env bash
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/t; mkdir -p $D; mkdir -p .gpu/t && tar xJf .gpu/tests.tar.xz -C .gpu/t
for t in $(ls .gpu/t); do
  threads=8; case $t in pipelines|context) threads=1;; esac
  start=$(date +%s)
  timeout 200 .gpu/t/$t --test-threads=$threads > $D/test-$t.log 2>&1; rc=$?
  echo "$t rc=$rc $(( $(date +%s) - start ))s $(grep 'test result' $D/test-$t.log | tail -1)"
done
tar cf $OUT/tests.tar -C $D . && rm -rf $D
