#!/usr/bin/env bash
# Issue 26: sorted rows with runs of rows a workgroup sized to the rows (at least SORTED_RUN_WORKGROUPS
# workgroups, runs of 32 to 1024 rows) and only onto more than the bins' 2048 units. `after` is the work tree
# (SORTED_ROWS_MEAN 64, SORTED_RUN_WORKGROUPS 4096); its release unit tests and scatter_rows first; then the
# collision sweep, and the row shapes with the probes' DML_WGSL_PROBE_SORTED_MEAN 16 and 32 and
# DML_WGSL_PROBE_SORTED_WORKGROUPS 1024 and 16384. PyTorch's figures: run 1.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
for t in dml_wgsl scatter_rows; do
  timeout 90 .gpu/bin/$t --test-threads=4 > $D/test-$t.log 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-$t.log
done
timeout 115 .gpu/bin/bench-after --collision-sweep --reps 20 --json $D/s-after-1.jsonl > $D/s-after-1.log 2>&1; echo "s after rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_\(edges\|few\|hub\|index_add\)_\(f16\|f32\|i16\)[a-z0-9_]*' $D/s-after-1.log | grep -v in_order | sort -u | paste -sd,)
for v in SORTED_MEAN=16 SORTED_MEAN=32 SORTED_WORKGROUPS=1024 SORTED_WORKGROUPS=16384; do
  n=$(echo $v | tr -d '_=' | tr A-Z a-z)
  env DML_WGSL_PROBE_$v timeout 60 .gpu/bin/bench-after --collision-sweep --reps 20 --only $E --json $D/s-$n-1.jsonl > $D/s-$n-1.log 2>&1; echo "s $n rc=$? t=$(( $(date +%s) - S ))"
done
