#!/usr/bin/env bash
# The head's 18 release test binaries, then the reductions alone before and after (three
# processes each) with PyTorch's reduction and collision peers.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf benches.tar.xz)
for t in $(ls .gpu/t); do
  th=8; [ $t = pipelines ] && th=1
  timeout 120 .gpu/t/$t --test-threads=$th > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1)"
done
tar cf $OUT/tests.tar -C $D .
bash .gpu/reductions.sh
