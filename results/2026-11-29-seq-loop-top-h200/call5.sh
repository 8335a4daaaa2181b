# Session 38, call 5 (same machine as calls 3 and 4): the headline side by side with GTaP,
# then the size sweep.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; date -u
RUNS=5 ANCHOR_RUNS=3 bash scripts/side-by-side.sh /tmp/sbs > /tmp/sbs-console.log 2>&1; echo "sbs rc=$?"; date -u
RUNS=5 ANCHOR_RUNS=3 bash scripts/size-sweep.sh /tmp/sbs/sweep > /tmp/sweep-console.log 2>&1; echo "sweep rc=$?"; date -u
cp /tmp/sbs-console.log /tmp/sbs/console.log; cp /tmp/sweep-console.log /tmp/sbs/sweep/console.log
# The policy's depth and back-off for fib(40) without a cutoff now that inline calls are cheaper.
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
mkdir -p /tmp/sbs/policy
for d in 17 19 21 23; do timeout 60 $B --gpu-only --runs 5 --inline-min-depth $d fib --n 35,40 > /tmp/sbs/policy/depth$d.md 2>/tmp/sbs/policy/depth$d.log; done
for r in 2 8; do timeout 60 $B --gpu-only --runs 5 --inline-backoff-ratio $r fib --n 35,40 > /tmp/sbs/policy/ratio$r.md 2>/tmp/sbs/policy/ratio$r.log; done
date -u
tar czf $OUT/sbs.tgz -C /tmp sbs
