#!/usr/bin/env bash
# Run 4: the head's release test binaries (pipelines, scatter_shapes and context with one
# test thread); the whole benchmark before (050b43c) and after (the head), alternating twice.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in $(ls .gpu/t); do
  th=8; case $t in pipelines|scatter_shapes|context) th=1;; esac
  DML_WGSL_FUZZ_SECONDS=20 timeout 100 .gpu/t/$t --test-threads=$th > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1 | cut -c1-60)"
done
for i in 1 2; do
  for b in bench-before bench; do timeout 90 .gpu/$b --reps 30 --json $D/$b-$i.jsonl > $D/$b-$i.log 2>&1; echo "$b $i rc=$?"; done
done
tar cf $OUT/results.tar -C $D .
