#!/usr/bin/env bash
# Issue 26: the sign atomics' path a pipeline constant (SIGN_ATOMICS_ON) instead of a uniform branch.
# before = main at c2e93be, after = the change; every edge shape (both modes) and scatter_max_f32 (both modes)
# alternating three times; then the release tests of the change.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
E=$(cat .gpu/only-edges.txt)
S=$(date +%s)
for i in 1 2 3; do
  for b in before after; do
    timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 60 .gpu/bin/bench-$b --reps 30 --only scatter_max_f32,scatter_max_f32_edges --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
for t in shaders scatter_reductions scatter_rows; do
  timeout 150 .gpu/bin/$t > $D/test-$t.log 2>&1; echo "$t rc=$? t=$(( $(date +%s) - S ))"
done
timeout 150 .gpu/bin/pipelines --test-threads=1 > $D/test-pipelines.log 2>&1; echo "pipelines rc=$? t=$(( $(date +%s) - S ))"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
