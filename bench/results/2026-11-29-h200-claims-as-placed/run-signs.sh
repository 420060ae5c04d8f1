#!/usr/bin/env bash
# Issue 26: Float32 Min and Max past the bins take their side of the sign by atomicMax (Max on i32 words), after a screen
# of the output's NaNs, such NaN updates left to a pass after. before = main at 3ba64a1 (bench-after: its GPU code), after
# = the change (bench-signs); the whole collision sweep and the reduction workloads alternating twice, then the same builds
# with the benchmark's Float32 values of random sign (*signed: edge shapes and scatter_max_f32), PyTorch's peers, the
# per-dispatch profiles and the release tests of the change.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
E=$(cat .gpu/only-edges.txt),scatter_max_f32_edges
S=$(date +%s)
for i in 1 2; do
  for b in after signs; do
    timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 30 --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 100 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
for i in 1 2; do
  for b in aftersigned signssigned; do
    timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 100 .gpu/bin/bench-$b --reps 30 --only scatter_max_f32 --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
(cd bench && timeout 170 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 100 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 100 python3 torch_reductions.py --reps 30 --json $D/torch-r.jsonl > $D/torch-r.log 2>&1); echo "torch r rc=$? t=$(( $(date +%s) - S ))"
timeout 60 .gpu/bin/bench-signs --collision-sweep --reps 30 --profile --only $E > $D/profile-edges.log 2>&1; echo "profile rc=$? t=$(( $(date +%s) - S ))"
timeout 60 .gpu/bin/bench-signs --reps 30 --profile --only scatter_max_f32 > $D/profile-w.log 2>&1; echo "profile w rc=$? t=$(( $(date +%s) - S ))"
for t in shaders scatter_rows scatter_reductions scatter_sort scatter_float_rounding windows fuzz scatter_wide; do
  timeout 150 .gpu/bin/$t > $D/test-$t.log 2>&1; echo "$t rc=$? t=$(( $(date +%s) - S ))"
done
timeout 150 .gpu/bin/pipelines --test-threads=1 > $D/test-pipelines.log 2>&1; echo "pipelines rc=$? t=$(( $(date +%s) - S ))"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
