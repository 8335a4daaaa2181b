# Session 44, call 9: is call 7's slowdown the layout? `s44cap56`: base with `FREED_CAP` 56 and
# a spare word (the layout of `s44pub`, no behaviour change), against `s44base` and `s44pub`.
set -u
AB_OUT=/tmp/s44c9 . scripts/ab-ptx.sh .gpu-exp/bench-ae81.xz s44base s44cap56 s44pub
for r in 1 2; do
  for v in s44base s44cap56 s44pub; do
    ab_run $v fib-r$r --runs 7 fib --n 16,20,24,28,30,35,40
    ab_run $v fiboff-r$r --runs 7 --no-auto-granularity fib --n 16,20,24
  done
done
ab_summary
tar czf $OUT/s44c9.tgz -C /tmp s44c9
echo "== done $(date -u +%T)"
