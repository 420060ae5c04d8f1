#!/usr/bin/env bash
# Sub-word stores by atomicAnd + atomicOr (a compare-exchange only when a duplicate came
# between) against a load + compare-exchange. before = 255a027, after = the same with the
# new store_NAME_bits. Tests on the H200, the sweep's 192 scatter shapes (out of place and in
# place) and the narrow workloads, before/after alternating, PyTorch's peers after.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
for t in scatter scatter_narrow; do
  timeout 60 .gpu/bin/$t > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep -E 'test result' $D/test-$t.log)"
done
ONLY=$(cat .gpu/only-scatter.txt),$(cat .gpu/only-inplace.txt)
W=scatter_elements_rows,scatter_elements_rows_u8,scatter_elements_rows_f16,scatter_elements_rows_i8_odd,scatter_elements_rows_f16_odd,gather_elements_rows_i8_odd,gather_elements_rows_f16_odd
for b in before after; do
  timeout 60 .gpu/bin/bench-$b --reps 50 --only $W --json $D/w-$b.jsonl > /dev/null 2>&1; echo "workloads $b rc=$?"
done
for b in before after; do
  timeout 150 .gpu/bin/bench-$b --sweep --reps 20 --only $ONLY --json $D/sweep-$b.jsonl > /dev/null 2>&1; echo "sweep $b rc=$? $(date +%T)"
done
(cd bench && timeout 100 python3 torch_sweep.py --reps 20 --only $ONLY --json $D/torch-sweep.jsonl > /dev/null 2>&1); echo "torch sweep rc=$? $(date +%T)"
timeout 60 .gpu/bin/bench-after --sweep --reps 20 --without-half-stores --only $(cat .gpu/only-scatter.txt | tr ',' '\n' | grep f16 | paste -sd,) --json $D/sweep-after-words.jsonl > /dev/null 2>&1; echo "after words rc=$?"
timeout 60 .gpu/bin/bench-before --sweep --reps 20 --without-half-stores --only $(cat .gpu/only-scatter.txt | tr ',' '\n' | grep f16 | paste -sd,) --json $D/sweep-before-words.jsonl > /dev/null 2>&1; echo "before words rc=$?"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
