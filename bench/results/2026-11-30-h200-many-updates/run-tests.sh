#!/usr/bin/env bash
# Issue 26: the work tree's release tests on the H200 (scatter_reductions, the library's unit tests,
# scatter_wide, scatter_float_add, scatter_rows, fuzz), then a probe of the same bench binary: Float32 Add of
# single elements onto 2049 to 16,384 units by the f32 atomics instead of the compare-exchange bins' ranges
# (`ratoms`: PROBE_RANGE_ATOMICS=1) against the work tree's plans (`after`), alternating twice. PyTorch first.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
for t in scatter_reductions dml_wgsl scatter_wide scatter_float_add scatter_rows fuzz; do
  timeout 150 .gpu/bin/$t --test-threads=4 > $D/test-$t.log 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-$t.log
done
(cd bench && timeout 100 python3 torch_collisions.py --sweep --reps 20 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_elements_f32[a-z0-9_]*\|^sweep_many_f32[a-z0-9_]*\|^sweep_few_f32[a-z0-9_]*\|^sweep_histogram[a-z0-9_]*' $D/torch-sweep.log | grep -v in_order | sort -u | paste -sd,)
for i in 1 2; do
  for b in after ratoms; do
    unset PROBE_RANGE_ATOMICS; [ $b = ratoms ] && export PROBE_RANGE_ATOMICS=1
    timeout 60 .gpu/bin/bench-after --collision-sweep --reps 20 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "e $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
