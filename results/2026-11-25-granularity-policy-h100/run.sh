# Automatic granularity on the GPU: fib(40) and nqueens(16) with no cutoff in the source,
# policy on (the default) and off, against the hand-cutoff versions; a sweep of the depth
# threshold. Runs the bench from .gpu-bin (scripts/gpu-build.sh).
set -u
. scripts/jit-cache.sh
b=.gpu-bin/examples/bench
echo "== fib(40), one task per call in the source"
$b --gpu-only --runs 10 --config-name default fib --n 40
$b --gpu-only --runs 10 --no-auto-granularity --config-name policy-off fib --n 40
for d in 12 16 22; do
  $b --gpu-only --runs 10 --inline-min-depth $d --config-name min-depth-$d fib --n 40
done
$b --gpu-only --runs 10 --inline-min-queued 64 --config-name min-queued-64 fib --n 40
echo "== fib(40), hand cutoff 10 (GTaP's EPAQ benchmark, recursive leaves)"
$b --gpu-only --runs 10 --no-auto-granularity --config-name hand-cutoff epaq fib --n 40 --cutoff 10 --queues 1,3
$b --gpu-only --runs 10 --no-auto-granularity --queue-order most-generated --top-up 2 --resume-inline --warps-per-sm 24 --max-registers 80 --config-name hand-cutoff-tuned epaq fib --n 40 --cutoff 10 --queues 3
echo "== nqueens(16): cutoff 16 (a task per placement at every depth) and 7"
$b --gpu-only --runs 10 --config-name default nqueens --n 16 --cutoff 16,7
$b --gpu-only --runs 10 --no-auto-granularity --config-name policy-off nqueens --n 16 --cutoff 16,7
for d in 4 6 8; do
  $b --gpu-only --runs 10 --inline-min-depth $d --config-name min-depth-$d nqueens --n 16 --cutoff 16
done
