#!/usr/bin/env bash
# Issue 28: narrow sweep scatter shapes (ONLY file $1), each build in BUILDS alternating PAIRS
# times, PyTorch's peer once; one device command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
ONLY=$(cat .gpu/$1)
for i in $(seq 1 ${PAIRS:-1}); do for b in ${BUILDS:-before after}; do
  timeout 200 .gpu/bench-$b --sweep --reps 30 --only $ONLY --json $D/sweep-$b$i.jsonl > $D/sweep-$b$i.log 2>&1; echo "$b $i rc=$?"
done; done
(cd bench && timeout 200 python3 torch_sweep.py --reps 30 --only $ONLY --json $D/sweep-torch.jsonl > $D/torch.log 2>&1); echo "torch rc=$?"
for b in ${BUILDS:-before after}; do
  python3 scripts/sweep_report.py $D/sweep-torch.jsonl $D/sweep-${b}${PAIRS:-1}.jsonl > $D/sweep-$b.md 2>&1
  echo "== $b"; grep -E "^\| (scatter|gather)_" $D/sweep-$b.md | grep -v sweep_ ; grep "minimum ratio" $D/sweep-$b.md
done
tar cf $OUT/results.tar -C $D .
