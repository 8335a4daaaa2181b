# Session 44, call 1: (A) GTaP's fixed cost per process: its programs with the CUDA module loaded
# lazily (the driver's default) and eagerly, and ncu's kernel durations of GTaP's and gtap's
# small runs; (B) inline resumes on one queue for the joined nqueens and fib (flags only, on
# a4aabf5's bundle: main's device code).
set -u
O=/tmp/s44c1; mkdir -p $O
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
export GTAP_ANCHOR_BUILD=/tmp/s44anchor
GTAP_ANCHOR_ONLY='^no program$' bash .anchor-gtap/run.sh > $O/anchor-build.log 2>&1 || echo "anchor build failed"
. scripts/anchor-runs.sh
nvidia-smi > $O/smi.txt 2>&1; date -u > $O/date.txt
echo "== A $(date -u +%T)"
for mode in LAZY EAGER; do
  export CUDA_MODULE_LOADING=$mode
  for n in 1 10 20 24 26 28 30; do anchor_runs fib-$mode $n fib $n; done
  for n in 8 10 12 14; do anchor_runs nq-$mode $n nq $n 7; done
  anchor_runs fibc10q3-$mode 40 fib_cutoff_q3 40 10
  anchor_runs fibc10q1-$mode 40 fib_cutoff_q1 40 10
done > $O/anchor-modes.txt 2>&1
unset CUDA_MODULE_LOADING
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" > $O/ncu.txt
M="--clock-control none --metrics gpu__time_duration.sum"
for n in 1 20 26; do echo "## GTaP fib $n"; $NCU $M $GTAP_ANCHOR_BUILD/fib $n; done >> $O/ncu.txt 2>&1
for n in 10 12; do echo "## GTaP nq $n 7"; $NCU $M $GTAP_ANCHOR_BUILD/nq $n 7; done >> $O/ncu.txt 2>&1
echo "## gtap fib 1,20,26 (4 launches each: warm-up + 3)" >> $O/ncu.txt
$NCU $M -k regex:gtap_fib .gpu-bin/examples/bench --gpu-only --runs 3 fib --n 1,20,26 >> $O/ncu.txt 2>&1
echo "## gtap nqueens detached 10,12 c8" >> $O/ncu.txt
$NCU $M -k regex:gtap_nqueens .gpu-bin/examples/bench --gpu-only --runs 3 nqueens --n 10,12 --cutoff 8 --form detached >> $O/ncu.txt 2>&1
tar czf $OUT/s44c1.tgz -C /tmp s44c1
echo "== B $(date -u +%T)"
AB_OUT=$O/b . scripts/ab-flags.sh
for r in 1 2; do
  ab_run def-nq-r$r --runs 5 nqueens --n 10,12,14,16 --cutoff 8 --form joined
  ab_run ri-nq-r$r --resume-inline --runs 5 nqueens --n 10,12,14,16 --cutoff 8 --form joined
  ab_run def-fib-r$r --runs 5 fib --n 1,20,26,30,35,40
  ab_run ri-fib-r$r --resume-inline --runs 5 fib --n 20,26,30,35,40
done
ab_run def-uts --runs 3 uts --tree t1l,t3l
ab_run ri-uts --resume-inline --runs 3 uts --tree t1l,t3l
ab_summary
tar czf $OUT/s44c1.tgz -C /tmp s44c1
echo "== done $(date -u +%T)"
