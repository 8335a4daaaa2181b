# Session 44, call 3: how long a round's path is, gtap against GTaP: instructions executed
# (ncu) per task on one warp (GTaP rebuilt with a grid of one block of 32 threads) and at the
# full grid, and both kernels' SASS source counters for fib(12) on one warp.
set -u
O=/tmp/s44c3; mkdir -p $O/src
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt 2>&1; date -u > $O/date.txt
A=.anchor-gtap; B=/tmp/s44g; mkdir -p $B
C=(-O3 -arch=sm_90 -I$A/runtime -I$A/src -DGTAP_BLOCK_SIZE=32 -DGTAP_MAX_TASKS_PER_WARP=100000 -DGTAP_NUM_QUEUES=1)
nvcc "${C[@]}" -DGTAP_GRID_SIZE=1 $A/src/fib.cu -o $B/fib_g1 > $B/fib_g1.log 2>&1 &
nvcc "${C[@]}" -DGTAP_GRID_SIZE=4000 $A/src/fib.cu -o $B/fib_g4000 > $B/fib_g4000.log 2>&1 &
nvcc "${C[@]}" -DGTAP_GRID_SIZE=1 -DGTAP_ASSUME_NO_TASKWAIT $A/src/nq.cu -o $B/nq_g1 > $B/nq_g1.log 2>&1 &
wait
cat $B/*.log > $O/build.log
export CUDA_MODULE_LOADING=EAGER
bench=.gpu-bin/examples/bench
M=smsp__inst_executed.sum,smsp__thread_inst_executed.sum,sm__cycles_elapsed.max,gpu__time_duration.sum
N="ncu --clock-control none --metrics $M"
{
for n in 12 16; do echo "## GTaP fib grid 1, n $n"; $N -k regex:exec $B/fib_g1 $n; done
echo "## GTaP nq grid 1, 10 7"; $N -k regex:my_kernel $B/nq_g1 10 7
for n in 20 26; do echo "## GTaP fib grid 4000, n $n"; $N -k regex:exec $B/fib_g4000 $n; done
echo "## gtap fib grid 1, policy off, 12 16 (warm-up + 1 each)"; $N -k regex:^gtap_fib\$ $bench --gpu-only --runs 1 --grid 1 --no-auto-granularity fib --n 12,16
echo "## gtap fib grid 1, default, 12 16"; $N -k regex:^gtap_fib\$ $bench --gpu-only --runs 1 --grid 1 fib --n 12,16
echo "## gtap nqueens detached grid 1, policy off, 10 c8"; $N -k regex:^gtap_nqueens_detached\$ $bench --gpu-only --runs 1 --grid 1 --no-auto-granularity nqueens --n 10 --cutoff 8 --form detached
echo "## gtap fib default grid, 20 26"; $N -k regex:^gtap_fib\$ $bench --gpu-only --runs 1 fib --n 20,26
} > $O/ncu-inst.txt 2>&1
unset CUDA_MODULE_LOADING
$bench --gpu-only --runs 5 --grid 1 --no-auto-granularity fib --n 12,16 > $O/g1-off.md 2> $O/g1-off.log
$bench --gpu-only --runs 5 --grid 1 fib --n 12,16 > $O/g1-def.md 2> $O/g1-def.log
$bench --gpu-only --runs 5 --grid 1 --no-auto-granularity nqueens --n 10 --cutoff 8 --form detached > $O/g1-nq.md 2> $O/g1-nq.log
for n in 12 16; do for i in 1 2 3; do CUDA_MODULE_LOADING=EAGER $B/fib_g1 $n; done; done > $O/GTaP-g1.txt 2>&1
for i in 1 2 3; do CUDA_MODULE_LOADING=EAGER $B/nq_g1 10 7; done >> $O/GTaP-g1.txt 2>&1
tar czf $OUT/s44c3.tgz -C /tmp s44c3
bash scripts/ncu-source.sh $O/src gtap-fib12 gtap_fib -- --gpu-only --runs 0 --grid 1 --no-auto-granularity fib --n 12 2>> $O/src/err.txt
S=(--section LaunchStats --section WarpStateStats --section SourceCounters --section InstructionStats --section SchedulerStats)
CUDA_MODULE_LOADING=EAGER ncu --kernel-name regex:exec -c 1 "${S[@]}" --warp-sampling-interval 0 -o /tmp/s44gf $B/fib_g1 12 > $O/src/GTaP-fib12-run.txt 2>&1
ncu -i /tmp/s44gf.ncu-rep --page details > $O/src/GTaP-fib12.txt 2>&1
ncu -i /tmp/s44gf.ncu-rep --page source --csv --print-source sass 2>&1 | xz > $O/src/GTaP-fib12-sass.csv.xz
tar czf $OUT/s44c3.tgz -C /tmp s44c3
echo "== done $(date -u +%T)"
