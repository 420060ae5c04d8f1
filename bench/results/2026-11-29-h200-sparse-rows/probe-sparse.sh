#!/usr/bin/env bash
# Issue 26 probe: sparse rows (updates at most a quarter of the output's units) by the element path instead of the lists
# (DML_PROBE_SPARSE=4), with the sign atomics (s4) or the loop (s4loop). base = the same binary, env unset.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
E=sweep_index_add_f16_4096x512_into_32768,sweep_index_add_f16_4096x2048_into_32768,sweep_index_add_f16_4096x4096_into_32768,sweep_index_add_f16_16x1024_into_32768,sweep_index_add_f64_4096x512_into_32768,sweep_index_add_f64_4096x2048_into_16384,sweep_index_add_f64_16x1024_into_32768,sweep_edges_f32_max_65536x64_into_262144
W=index_add_rows_f16,index_add_rows_f64
B=.gpu/bin/bench-probe
S=$(date +%s)
run() { # config env...
  c=$1; shift
  env "$@" timeout 90 $B --collision-sweep --reps 30 --only $E --json $D/sweep-$c-$i.jsonl > $D/sweep-$c-$i.log 2>&1; echo "sweep $c $i rc=$? t=$(( $(date +%s) - S ))"
  env "$@" timeout 60 $B --reps 30 --only $W --json $D/w-$c-$i.jsonl > $D/w-$c-$i.log 2>&1; echo "w $c $i rc=$? t=$(( $(date +%s) - S ))"
}
for i in 1 2; do
  run base A=1
  run s4 DML_PROBE_SPARSE=4
  run s4loop DML_PROBE_SPARSE=4 DML_PROBE_NO_SIGN=1
done
i=p
DML_PROBE_SPARSE=4 timeout 90 $B --collision-sweep --reps 10 --profile --only $E > $D/profile-s4.log 2>&1
DML_PROBE_SPARSE=4 DML_PROBE_NO_SIGN=1 timeout 90 $B --collision-sweep --reps 10 --profile --only $E > $D/profile-s4loop.log 2>&1
timeout 90 $B --collision-sweep --reps 10 --profile --only $E > $D/profile-base.log 2>&1
echo "profiles t=$(( $(date +%s) - S ))"
timeout 200 python3 bench/torch_collisions.py --sweep --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1; echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
timeout 60 python3 bench/torch_collisions.py --json $D/torch-w.jsonl > $D/torch-w.log 2>&1; echo "torch w rc=$? t=$(( $(date +%s) - S ))"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
