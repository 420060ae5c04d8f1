#!/usr/bin/env bash
# Issue 26: profiles (each dispatch timed alone) of the sweep's worst shapes, main (9ce37f0) and the
# run-3 probe slots2k (64-bit slots of 2048), for the notes: where the time goes.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
E=sweep_elements_f64_add_4194304_to_2049,sweep_elements_f64_add_4194304_to_4096,sweep_elements_f64_add_4194304_to_8192,sweep_elements_f64_add_4194304_to_16384,sweep_elements_f64_add_4194304_to_4194304,sweep_elements_f32_add_4194304_to_16384,sweep_elements_f32_add_4194304_to_4194304,sweep_many_f16_add_67108864_to_16384,sweep_many_f32_add_67108864_to_16384,sweep_edges_f32_max_65536x64_into_262144,sweep_edges_f32_max_131072x64_into_262144,sweep_edges_f32_max_1048576x16_into_65536,sweep_index_add_f16_4096x512_into_32768,sweep_few_f16_add_65536x64_into_64,sweep_histogram_i32_add_4194304_to_16384
for b in main slots2k; do
  timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 3 --profile --only $E > $D/p-$b.log 2>&1; echo "p $b rc=$? t=$(( $(date +%s) - S ))"
done
