# Session 43, call 8: per-warp profiles of the detached nqueens at 12, 14 and 16 (cutoff 8)
# with the register count, where GTaP with the same leaf is faster; a4aabf5's bundle.
set -u
AB_OUT=/tmp/c8 . scripts/ab-flags.sh
for n in 12 14 16; do
  ab_run nq$n --runs 5 nqueens --n $n --cutoff 8 --form detached
  ab_run prof$n --profile /tmp/c8/prof$n nqueens --n $n --cutoff 8 --form detached
done
ab_summary
rm -f /tmp/c8/prof*/*/trace.json /tmp/c8/prof*/*/timeline.csv
xz -9 /tmp/c8/prof*/*/round_times.csv 2>/dev/null
du -sh /tmp/c8
tar cf $OUT/c8.tar -C /tmp c8
