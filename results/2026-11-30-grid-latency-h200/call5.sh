# Session 44, call 5: per-warp profiles of fib(16) and fib(20), policy off, on grids of 1, 8,
# 32, 132 and 1,056 warps (the profiler's build): which phase of a round grows with the grid.
set -u
AB_OUT=/tmp/s44c5 . scripts/ab-flags.sh
for g in 1 8 32 132 1056; do
  for n in 16 20; do
    ab_run prof-g$g-f$n --no-auto-granularity --grid $g --profile /tmp/s44c5/prof-g$g-f$n fib --n $n
  done
done
ab_summary
rm -f /tmp/s44c5/prof*/*/trace.json /tmp/s44c5/prof*/*/timeline.csv
xz -9 /tmp/s44c5/prof*/*/round_times.csv
du -sh /tmp/s44c5
tar czf $OUT/s44c5.tgz -C /tmp s44c5
