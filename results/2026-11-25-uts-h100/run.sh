# UTS T1L and T3L: the GPU (joined and detached programs) against sequential and rayon on the
# GPU machine's host, in one run; then fib(40) and nqueens(16) under the default granularity
# policy; then registers per kernel (ptxas -v). Runs the bench from .gpu-bin.
set -u
. scripts/jit-cache.sh
b=.gpu-bin/examples/bench
echo "== UTS, default configuration"
$b --runs 3 uts --tree t1l,t3l
echo "== UTS, policy off"
$b --gpu-only --runs 3 --no-auto-granularity --config-name policy-off uts --tree t1l,t3l
echo "== fib(40) and nqueens(16), default configuration (policy on)"
$b --gpu-only --runs 10 fib --n 40
$b --gpu-only --runs 10 nqueens --n 16 --cutoff 16,7
echo "== registers (ptxas -arch=sm_90 -v): 08268ef (before the redesign) and this build"
xz -dkf .ab/base.ptx.xz .ab/new.ptx.xz
for v in base new; do
  ptxas -arch=sm_90 -v .ab/$v.ptx -o /dev/null 2>&1 \
    | awk -v v=$v '/Compiling entry function/ {match($0, /\x27[a-z_]+\x27/); f=substr($0, RSTART+1, RLENGTH-2)} /Used [0-9]+ registers/ && f != "" {match($0, /Used [0-9]+ registers/); print v, f, substr($0, RSTART, RLENGTH); f=""}' \
    | grep -E " gtap_(fib|nqueens|cilksort|fib_epaq|nqueens_epaq|cilksort_epaq|bfs|spmv|mergesort|uts) "
done
