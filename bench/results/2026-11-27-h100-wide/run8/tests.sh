#!/usr/bin/env bash
# Run 8: the head's (b45ac6d) wide and reduction test binaries.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in scatter_wide scatter_reductions; do
  timeout 120 .gpu/t/$t --test-threads=8 > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1 | cut -c1-60)"
done
tar cf $OUT/results.tar -C $D .
