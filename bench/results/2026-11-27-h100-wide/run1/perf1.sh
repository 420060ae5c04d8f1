#!/usr/bin/env bash
# Run 1: the head's release test binaries; the reductions alone (before/after alternating,
# two processes each), the collision sweep of each, a probe build's per-dispatch cumulative
# times of the list folds, then PyTorch's peers.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in scatter_wide scatter_reductions scatter_rows scatter_sort scatter_heavy fuzz; do
  th=8; DML_WGSL_FUZZ_SECONDS=20 timeout 120 .gpu/t/$t --test-threads=$th > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1 | cut -c1-60)"
done
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
for i in 1 2; do
  for b in bench-before bench; do timeout 60 .gpu/$b --reps 30 --only $W --json $D/$b-$i.jsonl > $D/$b-$i.log 2>&1; echo "$b $i rc=$?"; done
done
for b in bench-before bench; do timeout 100 .gpu/$b --collision-sweep --reps 30 --json $D/coll-$b.jsonl > $D/coll-$b.log 2>&1; echo "$b coll rc=$?"; done
for w in sweep_index_add_f16_4096x512_into_32768 index_add_rows_f16 index_add_rows_f64; do
  m=--collision-sweep; case $w in sweep*) ;; *) m=;; esac
  DML_WGSL_PROBE_PRINT=1 timeout 30 .gpu/bench-probe $m --reps 2 --only $w 2>&1 | grep PROBE | sort -u > $D/probe-steps-$w.txt
  for k in 1 2 3 4 5 6; do DML_WGSL_PROBE_STEPS=$k timeout 30 .gpu/bench-probe $m --reps 30 --only $w --json $D/probe-$w-$k.jsonl > /dev/null 2>&1; done
  echo "probe $w: $(for k in 1 2 3 4 5 6; do grep -h "\"$w\"" $D/probe-$w-$k.jsonl | python3 -c 'import sys,json; print(round(json.loads(sys.stdin.readline())["ms"],4))'; done | tr '\n' ' ')"
done
(cd bench && timeout 60 python3 torch_reductions.py --json $D/torch-reductions.jsonl > $D/torch-reductions.log 2>&1); echo "torch red rc=$?"
(cd bench && timeout 60 python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1); echo "torch coll rc=$?"
(cd bench && timeout 100 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch sweep rc=$?"
python3 scripts/ratio_table.py $D bench-before bench > $D/table.md; cat $D/table.md
tar cf $OUT/results.tar -C $D .
