#!/usr/bin/env bash
# Issue 28: the narrow sweep before and after alternating, PyTorch's peer, the whole benchmark
# before and after, and the release test binaries; one device command.
set -o pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
R=${REPS:-30}
if [ -z "$NOTESTS" ]; then
  for t in $(ls .gpu/t); do
    start=$(date +%s)
    timeout 200 .gpu/t/$t --test-threads=8 > $D/test-$t.log 2>&1; rc=$?
    echo "$t rc=$rc $(( $(date +%s) - start ))s $(grep 'test result' $D/test-$t.log | tail -1)"
  done
fi
[ -f .gpu/only.txt ] && ONLY=$(cat .gpu/only.txt)
ONLY=${ONLY:+--only $ONLY}
P=${PAIRS:-2}
for i in $(seq 1 $P); do
  .gpu/bench-before --sweep --reps $R $ONLY --json $D/sweep-before$i.jsonl > $D/sweep-before$i.log 2>&1
  .gpu/bench --sweep --reps $R $ONLY --json $D/sweep-after$i.jsonl > $D/sweep-after$i.log 2>&1
  for x in $EXTRA; do .gpu/$x --sweep --reps $R $ONLY --json $D/sweep-$x$i.jsonl > $D/sweep-$x$i.log 2>&1; done
  if [ $i = 1 ]; then (cd bench && python3 torch_sweep.py --reps $R ${ONLY} --json $D/sweep-torch.jsonl > $D/torch.log 2>&1); fi
done
echo "sweep done $(date)"
python3 scripts/sweep_report.py $D/sweep-torch.jsonl $D/sweep-before$P.jsonl $D/sweep-after$P.jsonl > $D/sweep.md 2>&1
python3 scripts/sweep_report.py $D/sweep-torch.jsonl $D/sweep-before1.jsonl $D/sweep-after1.jsonl > $D/sweep-run1.md 2>&1
for x in $EXTRA; do python3 scripts/sweep_report.py $D/sweep-torch.jsonl $D/sweep-after2.jsonl $D/sweep-${x}2.jsonl > $D/sweep-$x.md 2>&1; done
if [ -n "$FULL" ]; then
  .gpu/bench-before --reps $R --json $D/before.jsonl > $D/bench-before.log 2>&1
  .gpu/bench --reps $R --json $D/after.jsonl > $D/bench-after.log 2>&1
  echo "full done $(date)"
fi
sed -n "/^| class/,\$p" $D/sweep.md
tar cf $OUT/results.tar -C $D . && rm -rf $D
