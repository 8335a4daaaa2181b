# Session 44, call 6: inline resumes at the small sizes, policy off: unprofiled times and
# per-warp profiles of fib(16) and fib(20) at the full grid, with and without them.
set -u
# The bundle's bench alone (the tree with the whole bundle is past the device tool's limit).
mkdir -p .gpu-bin/examples && xz -dc .gpu-exp/bench-ae81.xz > .gpu-bin/examples/bench && chmod +x .gpu-bin/examples/bench
echo ae81c6e60e39a39b8b2f9d2d6ef3b6e59e271d76 > .gpu-bin/COMMIT
AB_OUT=/tmp/s44c6 . scripts/ab-flags.sh
for r in 1 2; do
  ab_run off-r$r --no-auto-granularity --runs 7 fib --n 16,20,24
  ab_run ri-r$r --no-auto-granularity --resume-inline --runs 7 fib --n 16,20,24
  ab_run def-r$r --runs 7 fib --n 16,20,24
  ab_run defri-r$r --resume-inline --runs 7 fib --n 16,20,24
done
for n in 16 20; do
  ab_run prof-off-f$n --no-auto-granularity --profile /tmp/s44c6/prof-off-f$n fib --n $n
  ab_run prof-ri-f$n --no-auto-granularity --resume-inline --profile /tmp/s44c6/prof-ri-f$n fib --n $n
done
ab_summary
rm -f /tmp/s44c6/prof*/*/trace.json /tmp/s44c6/prof*/*/timeline.csv
xz -9 /tmp/s44c6/prof*/*/round_times.csv
tar czf $OUT/s44c6.tgz -C /tmp s44c6
