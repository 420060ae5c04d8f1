#!/usr/bin/env bash
# Issue 26: `before` (main at 8e2e341 with this session's bench shapes: many updates, element targets 2049, 8192
# and 16,384) against `after` (the work tree, no probes: more updates a thread where the bins' partials need
# it; Float32 Add that the f32 atomics take past two ranges of bins by them), the whole collision sweep and
# the reduction workloads once each, then the changed classes again; first the work tree's release tests
# (scatter_float_add, unit tests, scatter_reductions). PyTorch's peers in the same command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
S=$(date +%s)
for t in scatter_float_add dml_wgsl scatter_reductions; do
  timeout 100 .gpu/bin/$t --test-threads=4 > $D/test-$t.log 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-$t.log
done
(cd bench && timeout 60 python3 torch_collisions.py --sweep --reps 20 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 20 python3 torch_collisions.py --reps 20 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
for b in before after; do
  timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 20 --json $D/s-$b-1.jsonl > $D/s-$b-1.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
  timeout 20 .gpu/bin/bench-$b --reps 20 --only $W --json $D/w-$b-1.jsonl > $D/w-$b-1.log 2>&1; echo "w $b rc=$? t=$(( $(date +%s) - S ))"
done
E=$(grep -o '^sweep_elements_f32[a-z0-9_]*\|^sweep_many[a-z0-9_]*\|^sweep_few_[a-z0-9]*_add_262144x256_into_[0-9]*' $D/torch-sweep.log | grep -v in_order | sort -u | paste -sd,)
for b in before after; do
  timeout 40 .gpu/bin/bench-$b --collision-sweep --reps 20 --only $E --json $D/s-$b-2.jsonl > $D/s-$b-2.log 2>&1; echo "e $b rc=$? t=$(( $(date +%s) - S ))"
done
