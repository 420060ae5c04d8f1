#!/usr/bin/env bash
# Issue 26 probe: the lists' copy as they fold. base = the binary with env unset; nocopy4 = no copy as it folds where the
# rows are at most a quarter of the blocks (strided copy first, the fold by slices); b32/b64 = the wide copy's bytes a
# thread 32/64 instead of 16; s4loop = sparse rows by the element path (the loop).
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
E=sweep_index_add_f16_4096x1_into_32768,sweep_index_add_f16_4096x16_into_32768,sweep_index_add_f16_4096x512_into_32768,sweep_index_add_f16_4096x2048_into_32768,sweep_index_add_f16_4096x4096_into_32768,sweep_index_add_f16_16x1024_into_32768,sweep_index_add_f64_4096x1_into_32768,sweep_index_add_f64_4096x16_into_32768,sweep_index_add_f64_4096x512_into_32768,sweep_index_add_f64_4096x2048_into_16384,sweep_index_add_f64_4096x4096_into_8192,sweep_index_add_f64_16x1024_into_32768,sweep_edges_f32_max_262144x256_into_65536,sweep_edges_f32_max_1048576x64_into_16384,sweep_edges_f32_max_1048576x64_into_4096,sweep_edges_f32_max_65536x64_into_262144,sweep_edges_f32_max_1048576x16_into_65536,sweep_edges_f16_max_1048576x64_into_65536
W=index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
B=.gpu/bin/bench-probe
S=$(date +%s)
run() { # config env...
  c=$1; shift
  env "$@" timeout 120 $B --collision-sweep --reps 30 --only $E --json $D/sweep-$c-$i.jsonl > $D/sweep-$c-$i.log 2>&1; echo "sweep $c $i rc=$? t=$(( $(date +%s) - S ))"
  env "$@" timeout 60 $B --reps 30 --only $W --json $D/w-$c-$i.jsonl > $D/w-$c-$i.log 2>&1; echo "w $c $i rc=$? t=$(( $(date +%s) - S ))"
}
for i in 1 2; do
  run base A=1
  run nocopy4 DML_PROBE_NOCOPY=4
  run b32 DML_PROBE_COPY_BYTES=32
  run b64 DML_PROBE_COPY_BYTES=64
  run s4loop DML_PROBE_SPARSE=4 DML_PROBE_NO_SIGN=1
done
DML_PROBE_NOCOPY=4 timeout 90 $B --collision-sweep --reps 10 --profile --only $E > $D/profile-nocopy4.log 2>&1
DML_PROBE_COPY_BYTES=64 timeout 90 $B --collision-sweep --reps 10 --profile --only $E > $D/profile-b64.log 2>&1
echo "profiles t=$(( $(date +%s) - S ))"
timeout 200 python3 bench/torch_collisions.py --sweep --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1; echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
timeout 60 python3 bench/torch_collisions.py --json $D/torch-w.jsonl > $D/torch-w.log 2>&1; echo "torch w rc=$? t=$(( $(date +%s) - S ))"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
