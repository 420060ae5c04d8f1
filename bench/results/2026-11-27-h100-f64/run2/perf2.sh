#!/usr/bin/env bash
# Run 2: every release test binary of the head (pipelines, scatter_shapes and context with
# one test thread; scatter_wide's f64 test with its output, which names the adapter and says
# if it lacks f64); the reductions alone before (1e088fd) and after (bench = bc9c8d6),
# alternating twice; the Float64 sweep shapes of before, after and a probe build (probe:
# the device's f64 on every step, no integer fallback: wrong bits at the edges, a timing
# bound only); every PyTorch peer of the reductions.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in $(ls .gpu/t); do
  th=8; case $t in pipelines|scatter_shapes|context) th=1;; esac
  DML_WGSL_FUZZ_SECONDS=20 timeout 100 .gpu/t/$t --test-threads=$th > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1 | cut -c1-60)"
done
timeout 60 .gpu/t/scatter_wide float64_add_and_mul --nocapture > $D/test-scatter_wide-f64-output.log 2>&1; echo "f64 test rc=$? $(grep -c 'lacks f64' $D/test-scatter_wide-f64-output.log) lacks"
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
for i in 1 2; do
  for b in bench-before bench; do timeout 60 .gpu/$b --reps 30 --only $W --json $D/$b-$i.jsonl > $D/$b-$i.log 2>&1; echo "$b $i rc=$?"; done
done
S=sweep_elements_f64_add_4194304_to_1,sweep_elements_f64_add_4194304_to_1000,sweep_elements_f64_add_4194304_to_131072,sweep_index_add_f64_4096x1_into_32768,sweep_index_add_f64_4096x16_into_32768,sweep_index_add_f64_4096x512_into_32768,sweep_index_add_f64_4096x2048_into_16384,sweep_index_add_f64_4096x4096_into_8192
for b in bench-before bench bench-probe; do timeout 100 .gpu/$b --collision-sweep --reps 20 --only $S --json $D/coll-$b.jsonl > $D/coll-$b.log 2>&1; echo "$b coll rc=$?"; done
(cd bench && timeout 60 python3 torch_reductions.py --json $D/torch-reductions.jsonl > $D/torch-reductions.log 2>&1); echo "torch red rc=$?"
(cd bench && timeout 60 python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1); echo "torch coll rc=$?"
(cd bench && timeout 100 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch sweep rc=$?"
python3 scripts/ratio_table.py $D bench-before bench bench-probe > $D/table.md; cat $D/table.md
tar cf $OUT/results.tar -C $D .
