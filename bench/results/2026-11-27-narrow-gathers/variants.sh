#!/usr/bin/env bash
# Variants of the bench binary on the sweep (names in .gpu/only.txt), PyTorch once, reports vs before.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf benches.tar.xz)
R=${REPS:-30}
ONLY="--only $(cat .gpu/only.txt)"
for i in $(seq 1 ${PAIRS:-1}); do
  for b in $BINS; do
    .gpu/$b --sweep --reps $R $ONLY --json $D/sweep-$b$i.jsonl > $D/sweep-$b$i.log 2>&1
  done
  if [ $i = 1 ]; then (cd bench && python3 torch_sweep.py --reps $R $ONLY --json $D/sweep-torch.jsonl > $D/torch.log 2>&1); fi
done
last=${PAIRS:-1}
for b in $BINS; do
  python3 scripts/sweep_report.py $D/sweep-torch.jsonl $D/sweep-bench-before$last.jsonl $D/sweep-$b$last.jsonl > $D/sweep-$b.md 2>&1
  echo "== $b"; sed -n "/^| class/,\$p" $D/sweep-$b.md
done
tar cf $OUT/results.tar -C $D . && rm -rf $D
