#!/usr/bin/env bash
# Issue 26: float Min and Max in order without lists claim their ties as the any-order pass places them (inputs' claims
# over the output's units in place of the heads' clear, write_unit_ties after), where the updates are at least the units;
# list ties up to 4 tie words an update. before = main (2b58a65), after = the change; the whole collision sweep and the
# reduction workloads alternating twice, PyTorch's peers after; then (TESTS=1) profiles and the release test binaries.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
E=$(cat .gpu/only-edges.txt)
S=$(date +%s)
if [ "$TESTS" != 1 ]; then
for i in 1 2; do
  for b in ${BUILDS:-before after}; do
    timeout 150 .gpu/bin/bench-$b --collision-sweep --reps 30 --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 120 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
for b in $ONCE; do
  timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/edges-$b-1.jsonl > $D/edges-$b-1.log 2>&1; echo "edges $b rc=$? t=$(( $(date +%s) - S ))"
done
(cd bench && timeout 170 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 100 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 100 python3 torch_reductions.py --reps 30 --json $D/torch-r.jsonl > $D/torch-r.log 2>&1); echo "torch r rc=$? t=$(( $(date +%s) - S ))"
else
timeout 100 .gpu/bin/bench-after --collision-sweep --reps 30 --profile --only $E,sweep_index_add_f16_4096x512_into_32768 > $D/profile-edges.log 2>&1; echo "profile rc=$? t=$(( $(date +%s) - S ))"
timeout 60 .gpu/bin/bench-after --reps 30 --profile --only scatter_max_f32_edges,scatter_max_f32_in_order > $D/profile-w.log 2>&1; echo "profile w rc=$? t=$(( $(date +%s) - S ))"
for t in shaders scatter_rows scatter_reductions scatter_sort scatter_float_rounding windows fuzz scatter_wide; do
  timeout 150 .gpu/bin/$t > $D/test-$t.log 2>&1; echo "$t rc=$? t=$(( $(date +%s) - S ))"
done
timeout 150 .gpu/bin/pipelines --test-threads=1 > $D/test-pipelines.log 2>&1; echo "pipelines rc=$? t=$(( $(date +%s) - S ))"
fi
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
