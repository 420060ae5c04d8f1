#!/usr/bin/env bash
# The rows fuzzer (tests/fuzz_heavy.rs, fuzz_row_reductions_match_the_reference), release, on the H200:
# three processes side by side from distant seeds, 240 s of cases each.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
for seed in ${SEEDS:-1000000 2000000 3000000}; do
  DML_WGSL_FUZZ_SECONDS=${SECONDS_TOTAL:-800} DML_WGSL_FUZZ_SEED=$seed timeout 400 .gpu/bin/fuzz_heavy fuzz_row --nocapture > $D/fuzz-rows-$seed.log 2>&1 &
done
wait
for seed in ${SEEDS:-1000000 2000000 3000000}; do echo "== $seed"; grep -E "fuzz rows|test result|failed|panicked" $D/fuzz-rows-$seed.log | head; done
