#!/usr/bin/env bash
# Float16 scatters with 16-bit stores row-major (after) against column blocks (before): the
# narrow tests on the H200, the sweep's 64 Float16 scatter shapes and the benchmark's 2-byte
# workloads alternating twice, PyTorch's peers after; one command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
for t in scatter_narrow scatter_shapes; do
  .gpu/bin/$t --test-threads=1 > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep -E 'test result' $D/test-$t.log)"
done
ONLY=$(cat .gpu/only-f16.txt)
W=scatter_elements_rows_f16,scatter_elements_rows_f16_odd,gather_elements_rows_f16_odd,scatter_elements_rows_u8,scatter_elements_rows
for i in 1 2; do
  for b in before after; do
    timeout 150 .gpu/bin/bench-$b --sweep --reps 30 --only $ONLY --json $D/sweep-$b$i.jsonl > /dev/null 2>&1; echo "sweep $b $i rc=$?"
    timeout 100 .gpu/bin/bench-$b --reps 50 --only $W --json $D/w-$b$i.jsonl > /dev/null 2>&1; echo "workloads $b $i rc=$?"
  done
done
(cd bench && timeout 150 python3 torch_sweep.py --reps 30 --only $ONLY --json $D/torch-sweep.jsonl > /dev/null 2>&1); echo "torch sweep rc=$?"
timeout 150 python3 .gpu/torch_peer.py --json $D/torch-peer.jsonl > /dev/null 2>&1; echo "peer rc=$?"
(cd bench && timeout 100 python3 torch_narrow.py --json $D/torch-narrow.jsonl > /dev/null 2>&1); echo "narrow rc=$?"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
