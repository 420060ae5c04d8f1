#!/usr/bin/env bash
# Issue 26: the review head's release scatter_sort (its new test of long runs over three later passes),
# scatter_rows and the rows fuzzer (60 s) on the H200.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
for t in scatter_sort scatter_rows; do
  timeout 120 .gpu/bin/$t --test-threads=4 > $D/test-$t.log 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-$t.log
done
DML_WGSL_FUZZ_SECONDS=200 DML_WGSL_FUZZ_SEED=6000000 timeout 90 .gpu/bin/fuzz_heavy --nocapture > $D/fuzz-heavy.log 2>&1; echo "fuzz rc=$? t=$(( $(date +%s) - S ))"; grep -E "^fuzz |test result" $D/fuzz-heavy.log
