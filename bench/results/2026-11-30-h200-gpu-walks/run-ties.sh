#!/usr/bin/env bash
# Issue 26: the edge sweep's shapes (both modes) and the reduction workloads: main at 9030d1f, gpu2 (the head's
# kernels and plans) and gpu3 (probe: in-order float Min and Max by lists plan as for a device that bounds loops,
# the lists' wide copy walking a part's share), alternating three times; PyTorch's peers in the same command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_max_f32_edges,scatter_nd_rows,index_add_rows_f16
E=sweep_edges_f32_max_1048576x16_into_65536,sweep_edges_f32_max_1048576x64_into_4096,sweep_edges_f32_max_131072x64_into_262144,sweep_edges_f32_max_262144x256_into_65536,sweep_edges_f32_max_65536x64_into_262144
S=$(date +%s)
(cd bench && timeout 60 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
for i in 1 2 3; do
  for b in main gpu2 gpu3; do
    timeout 40 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/e-$b-$i.jsonl > $D/e-$b-$i.log 2>&1; echo "e $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 30 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
