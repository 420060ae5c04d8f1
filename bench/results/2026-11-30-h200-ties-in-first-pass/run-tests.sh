#!/usr/bin/env bash
# The head's release tests on the H200 (the folds by rows, the reductions, the fuzzer, the pipelines, the library's).
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
S=$(date +%s)
for t in shaders scatter_rows scatter_sort scatter_reductions fuzz lib; do
  timeout 120 .gpu/bin/test-$t > $D/test-$t.log 2>&1; echo "$t rc=$? t=$(( $(date +%s) - S ))"
done
timeout 60 .gpu/bin/test-pipelines --test-threads=1 > $D/test-pipelines.log 2>&1; echo "pipelines rc=$? t=$(( $(date +%s) - S ))"
