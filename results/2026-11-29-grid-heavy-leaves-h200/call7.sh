# Where small fib's time goes: the per-warp profiler on fib(20), fib(24), fib(28) (landed code).
set -u
O=/tmp/s7; mkdir -p $O
xz -dc .gpu-exp/bench-new.xz > /tmp/b1 && chmod +x /tmp/b1
. scripts/jit-cache.sh
date -u > $O/date.txt
/tmp/b1 --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
/tmp/b1 --gpu-only --runs 10 --out $O/plain.csv fib --n 20,24,28 > $O/plain.md 2> $O/plain.log
/tmp/b1 --profile $O/prof --runs 3 --out $O/prof.csv fib --n 20,24,28 > $O/prof.md 2> $O/prof.log
du -sh $O/prof; ls $O/prof
for d in $O/prof/*/; do rm -f $d/trace.json; done
tar czf $OUT/s7.tgz -C /tmp s7
