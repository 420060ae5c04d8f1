#!/usr/bin/env bash
# Issue 26: the second review head (a4439af: the set-aside rows' tie claim by claim_tie, one combines_rows predicate) release scatter_rows on the H200.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
for t in scatter_rows; do
  timeout 150 .gpu/bin/$t --test-threads=4 > $D/test-$t.log 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-$t.log
done
