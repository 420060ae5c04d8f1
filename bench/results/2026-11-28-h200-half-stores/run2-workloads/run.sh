#!/usr/bin/env bash
# Half stores: the benchmark's 2-byte workloads with and without 16-bit stores, alternating
# twice, PyTorch's peers beside; one command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
ONLY=scatter_elements_rows_f16,scatter_elements_rows_f16_odd,gather_elements_rows_f16_odd,decode_step_3d_scatter_nd,decode_step_3d_tensor_scatter,decode_step_4d_scatter_nd,decode_step_4d_tensor_scatter,scatter_elements_rows_u8,scatter_elements_rows
for i in 1 2; do
  timeout 100 .gpu/bin/bench --reps 50 --only $ONLY --without-half-stores --json $D/b-words$i.jsonl > /dev/null 2>&1; echo "words $i rc=$?"
  timeout 100 .gpu/bin/bench --reps 50 --only $ONLY --json $D/b-halves$i.jsonl > /dev/null 2>&1; echo "halves $i rc=$?"
done
timeout 150 python3 .gpu/torch_peer.py --json $D/torch-peer.jsonl > /dev/null 2>&1; echo "peer rc=$?"
(cd bench && timeout 100 python3 torch_narrow.py --json $D/torch-narrow.jsonl > /dev/null 2>&1); echo "narrow rc=$?"
cat $D/b-words2.jsonl $D/b-halves2.jsonl | cut -c1-150
