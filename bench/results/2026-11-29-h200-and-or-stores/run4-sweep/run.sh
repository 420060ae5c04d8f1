#!/usr/bin/env bash
# The whole narrow sweep (288 shapes) on main before (255a027) and on the head (GPU code as
# cc94b93: sub-word stores by atomicAnd + atomicOr), each once, then PyTorch's sweep peer;
# the release tests of the kernels the change reaches, on the head, first. One command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
for t in scatter scatter_narrow scatter_shapes scatter_rows gather windows fuzz tensor_scatter slice; do
  timeout 60 .gpu/bin/$t > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep -E 'test result' $D/test-$t.log)"
done
for b in before main; do
  timeout 170 .gpu/bin/bench-$b --sweep --reps 20 --json $D/sweep-$b.jsonl > /dev/null 2>&1; echo "sweep $b rc=$? $(date +%T)"
done
(cd bench && timeout 60 python3 torch_sweep.py --reps 20 --json $D/torch-sweep.jsonl > /dev/null 2>&1); echo "torch sweep rc=$? $(date +%T)"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
