#!/usr/bin/env bash
# Ragged copies as one word dispatch. before = 6b01054 (a wide body and a narrow tail), v2 =
# b601371 (the merged word by the first thread, checked once a thread in every copy), after =
# 6071629 (the check only in pipelines built with MERGES_LAST_WORD). Tests on the H200, the
# copy workloads (three builds alternating three times), the sweep's 96 out-of-place scatter
# shapes (before/after alternating twice), PyTorch's peers after; one command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
for t in slice scatter_narrow pipelines scatter_shapes; do
  timeout 120 .gpu/bin/$t --test-threads=1 > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep -E 'test result' $D/test-$t.log)"
done
ONLY=$(cat .gpu/only-scatter.txt)
W=slice_contig,slice_strided,slice_nchw_crop,scatter_elements_rows,scatter_elements_rows_u8,scatter_elements_rows_f16,scatter_elements_rows_i8_odd,scatter_elements_rows_f16_odd
for i in 1 2 3; do
  for b in before v2 after; do
    timeout 120 .gpu/bin/bench-$b --reps 50 --only $W --json $D/w-$b$i.jsonl > /dev/null 2>&1; echo "workloads $b $i rc=$?"
  done
done
for i in 1 2; do
  for b in before after; do
    timeout 150 .gpu/bin/bench-$b --sweep --reps 30 --only $ONLY --json $D/sweep-$b$i.jsonl > /dev/null 2>&1; echo "sweep $b $i rc=$?"
  done
done
(cd bench && timeout 150 python3 torch_sweep.py --reps 30 --only $ONLY --json $D/torch-sweep.jsonl > /dev/null 2>&1); echo "torch sweep rc=$?"
(cd bench && timeout 100 python3 torch_narrow.py --json $D/torch-narrow.jsonl > /dev/null 2>&1); echo "narrow rc=$?"
timeout 120 python3 .gpu/torch_peer.py --json $D/torch-peer.jsonl > /dev/null 2>&1; echo "peer rc=$?"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
