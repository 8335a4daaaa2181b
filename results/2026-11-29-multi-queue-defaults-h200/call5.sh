# Session 39, call 5: where the granularity policy's cost goes in the 3-queue EPAQ fib(40) at
# cutoff 10 (GTaP's leaves): ncu's source view with the policy on (default), with only its
# memory-short rule (no spawn runs inline: its bookkeeping alone), and off. e3694ab's bundle.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; date -u
O=/tmp/c5; mkdir -p $O
A="epaq fib --n 40 --cutoff 10 --leaf calls --queues 3"
SAMPLING=2 bash scripts/ncu-source.sh $O on gtap_fib_epaq -- --gpu-only --runs 0 $A || echo FAIL on
date -u
SAMPLING=2 bash scripts/ncu-source.sh $O mem gtap_fib_epaq -- --gpu-only --runs 0 --inline-min-depth 200 --inline-wide-tasks 0 $A || echo FAIL mem
date -u
SAMPLING=2 bash scripts/ncu-source.sh $O off gtap_fib_epaq -- --gpu-only --runs 0 --no-auto-granularity $A || echo FAIL off
date -u
grep -h -E "Executed Instructions  |Duration|Issued Warp|Warp Cycles Per Issued" $O/*.txt | head -30
tar cJf $OUT/c5.txz -C /tmp c5
