#!/usr/bin/env bash
# A probe of what the status description costs: every operator with indices ends with describe_status, a
# dispatch of one thread (the first out-of-range tuple's component and value, and the status words zeroed).
# probe-no-describe.diff leaves it out (DML_PROBE_NO_DESCRIBE; wrong for out-of-range indices: a price only).
# The head (after) against the probe, the whole benchmark alternating twice.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
for i in 1 2; do
  timeout 200 .gpu/bin/bench-after --json $D/all-after-$i.jsonl > $D/all-after-$i.log 2>&1; echo "after $i rc=$? t=$(( $(date +%s) - S ))"
  DML_PROBE_NO_DESCRIBE=1 timeout 200 .gpu/bin/bench-probe --json $D/all-probe-$i.jsonl > $D/all-probe-$i.log 2>&1; echo "probe $i rc=$? t=$(( $(date +%s) - S ))"
done
