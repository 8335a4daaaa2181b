#!/usr/bin/env bash
# Session 27, call 3: what the generated sequential version costs as a leaf. EPAQ fib(40)
# cutoff 10, policy off, leaves: fib-calls = hand-written u32 recursion (GTaP's); "fib" rows =
# explicit stack (base), the generated seq::fib (seqleaf PTX), hand-written u64 recursion
# (u64leaf PTX).
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/s27c3; rm -rf $R; mkdir -p $R
for v in seqleaf u64leaf; do xz -dc .gpu-exp/$v.ptx.xz > $R/$v.ptx; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
B=.gpu-bin/examples/bench
cfg() { # NAME FLAGS...
  local n=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 120 $B --gpu-only --runs 5 --config-name $n --no-auto-granularity "$@" --out $o/epaq.csv epaq fib --leaf both --cutoff 8,10,12 >$o/epaq.md 2>$o/epaq.log
  echo "$(date -u +%T) $n $?" >> $R/steps.txt
}
cfg base
cfg seqleaf --ptx $R/seqleaf.ptx
cfg u64leaf --ptx $R/u64leaf.ptx
cfg base-2
cfg seqleaf-2 --ptx $R/seqleaf.ptx
cfg u64leaf-2 --ptx $R/u64leaf.ptx
cat $R/steps.txt
tar czf $OUT/s27c3.tgz -C /tmp s27c3
