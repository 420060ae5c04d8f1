#!/usr/bin/env bash
# Issue 27 check: first compiles of every desc of benches/compile.rs, before = main at 8212ec4, after = bb9ec28 (this
# session's kernels), fresh processes alternating, three each, NVIDIA's shader disk cache off.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp __GL_SHADER_DISK_CACHE=0
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
for i in 1 2 3; do
  for n in $(.gpu/bin/compile-after list); do
    for b in before after; do
      echo "{\"build\": \"$b\", \"pass\": $i, \"line\": $(timeout 30 .gpu/bin/compile-$b cold $n | grep '^{')}" >> $D/cold.jsonl
    done
  done
  echo "pass $i t=$(( $(date +%s) - S ))"
done
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
