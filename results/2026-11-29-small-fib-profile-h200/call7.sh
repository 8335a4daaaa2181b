# Session 39, call 7: per-warp profiles of the small fib sizes where gtap trails GTaP
# (fib(24), fib(26)) and of fib(20) and fib(30) beside them, default configuration.
set -u
AB_OUT=/tmp/c7 . scripts/ab-flags.sh
for n in 20 24 26 30; do
  ab_run fib$n --runs 5 fib --n $n
  ab_run prof$n --profile /tmp/c7/prof$n fib --n $n
done
ab_summary
rm -f /tmp/c7/prof*/*/trace.json /tmp/c7/prof*/*/timeline.csv
xz -9 /tmp/c7/prof*/*/round_times.csv
du -sh /tmp/c7
tar cf $OUT/c7.tar -C /tmp c7
