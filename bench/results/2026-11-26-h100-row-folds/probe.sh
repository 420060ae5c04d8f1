#!/usr/bin/env bash
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
cd .gpu
for W in $PROBE; do
  DML_PROBE_PRINT=1 ./bench-probe --reps 1 --only $W 2>&1 | grep "probe step" | sort -u -t: -k1,1 -V
  for n in $(seq 0 ${MAXSTEPS:-14}); do
    echo "$W steps<=$n: $(DML_PROBE_STEPS=$n ./bench-probe --reps 30 --only $W 2>&1 | grep -E '^(index|scatter)' | awk '{print $1, $2}' | tr '\n' ' ')"
  done
done
