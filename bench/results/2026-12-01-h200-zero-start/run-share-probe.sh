#!/usr/bin/env bash
# Issue 26 probe: wide rows few against the output go unit by unit (the element path: f32 atomics,
# sign atomics, compare-exchange) where the updates' units are at most a sparse_rows_share-th of the
# output's (32 for 4-byte and 8-byte units, 64 for narrower). A probe build of 9ce37f0 with
# DML_WGSL_PROBE_SPARSE_SHARE=N (every unit width): main (unset), 16, 4 and 1; two passes each.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
Z="sweep_edges_f32_max_65536x64_into_262144,sweep_edges_f32_max_131072x64_into_262144"
for e in f16 f32 f64 i16; do for r in 16x1024 1024x1024 2048x1024 4096x512; do Z="$Z,sweep_index_add_${e}_${r}_into_32768"; done; done
Z="$Z,sweep_index_add_f16_4096x2048_into_32768,sweep_index_add_f32_4096x2048_into_32768,sweep_index_add_i16_4096x2048_into_32768,sweep_index_add_f64_4096x2048_into_16384"
Z="$Z,sweep_index_add_f16_4096x4096_into_32768,sweep_index_add_f32_4096x4096_into_16384,sweep_index_add_i16_4096x4096_into_32768,sweep_index_add_f64_4096x4096_into_8192"
for i in 1 2; do
  timeout 60 .gpu/bin/bench-probe --collision-sweep --reps 10 --only $Z --json $D/s-main-$i.jsonl > $D/s-main-$i.log 2>&1; echo "s main rc=$? t=$(( $(date +%s) - S ))"
  for n in 16 4 1; do
    DML_WGSL_PROBE_SPARSE_SHARE=$n timeout 60 .gpu/bin/bench-probe --collision-sweep --reps 10 --only $Z --json $D/s-share$n-$i.jsonl > $D/s-share$n-$i.log 2>&1; echo "s share$n rc=$? t=$(( $(date +%s) - S ))"
  done
done
