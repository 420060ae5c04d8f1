#!/usr/bin/env bash
# Probe (issue 28): what an Int8 element alone in its word costs by other atomics. main =
# 3b4661a (atomicAnd, then a returning atomicOr); p1 = a returning atomicOr alone (wrong
# bytes: a cost floor); p2 = a load of another word, then a returning atomicXor (the cost of
# an exclusive-or with a known old byte); p3 = atomicAnd and atomicOr, neither returning.
# Nothing settles in the probes. Int8 rows and diag scatters of the sweep, out of place and
# in place, the four alternating twice, PyTorch's peer after.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
ONLY=$( (cat .gpu/only-scatter.txt; echo; cat .gpu/only-inplace.txt) | tr ',' '\n' | grep -E "_i8_(rows|diag)" | paste -sd,)
for i in 1 2; do
  for b in main p1 p2 p3; do
    timeout 60 .gpu/bin/bench-$b --sweep --reps 20 --only $ONLY --json $D/sweep-$b$i.jsonl > /dev/null 2>&1; echo "sweep $b rc=$? $(date +%T)"
  done
done
(cd bench && timeout 100 python3 torch_sweep.py --reps 20 --only $ONLY --json $D/torch-sweep.jsonl > /dev/null 2>&1); echo "torch sweep rc=$? $(date +%T)"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
