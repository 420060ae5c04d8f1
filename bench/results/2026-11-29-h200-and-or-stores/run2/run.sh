#!/usr/bin/env bash
# Sub-word stores. before = 255a027 (a load + compare-exchange); after = atomicAnd + atomicOr
# (a compare-exchange only when a duplicate came between); after2 = the same with a thread's
# elements set all before any is settled (store_alone). Tests on the H200 (after2), the
# sweep's 192 scatter shapes and the narrow workloads, the workloads alternating twice, the sweep once, PyTorch's
# peer after; 2-byte elements also without 16-bit stores.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
for t in scatter scatter_narrow; do
  timeout 60 .gpu/bin/$t > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep -E 'test result' $D/test-$t.log)"
done
ONLY=$(cat .gpu/only-scatter.txt),$(cat .gpu/only-inplace.txt)
F16=$(echo $ONLY | tr ',' '\n' | grep f16 | paste -sd,)
W=scatter_elements_rows,scatter_elements_rows_u8,scatter_elements_rows_f16,scatter_elements_rows_i8_odd,scatter_elements_rows_f16_odd,gather_elements_rows_i8_odd,gather_elements_rows_f16_odd
for i in 1 2; do
  for b in before after after2; do
    timeout 60 .gpu/bin/bench-$b --reps 50 --only $W --json $D/w-$b$i.jsonl > /dev/null 2>&1; echo "workloads $b rc=$?"
  done
done
for b in before after after2; do
  timeout 110 .gpu/bin/bench-$b --sweep --reps 20 --only $ONLY --json $D/sweep-$b.jsonl > /dev/null 2>&1; echo "sweep $b rc=$? $(date +%T)"
done
(cd bench && timeout 100 python3 torch_sweep.py --reps 20 --only $ONLY --json $D/torch-sweep.jsonl > /dev/null 2>&1); echo "torch sweep rc=$? $(date +%T)"
for b in before after after2; do
  timeout 60 .gpu/bin/bench-$b --sweep --reps 20 --without-half-stores --only $F16 --json $D/words-$b.jsonl > /dev/null 2>&1; echo "words $b rc=$?"
done
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
