#!/usr/bin/env bash
# Session 25, call 1: resident_gpu alone (serial, each test alone, in parallel 3x, pairs),
# then the 13 binaries the suite did not reach at 1d56f84.
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
R=/tmp/s25c1; rm -rf $R; mkdir -p $R
. scripts/jit-cache.sh
export GTAP_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/summary.txt
cat .gpu-bin/COMMIT >> $R/summary.txt
B=$(ls .gpu-bin/tests/resident_gpu-* | head -1)
run() { local name=$1; shift; local s=$(date +%s%N)
  ( sleep 20; nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader > $R/$name.smi 2>&1 ) &
  local w=$!
  timeout -k 5 $T "$@" > $R/$name.log 2>&1; local rc=$?
  kill $w 2>/dev/null
  echo "$name rc=$rc ms=$(( ($(date +%s%N) - s) / 1000000 ))" >> $R/summary.txt; }
T=150 run serial1 $B --test-threads 1
for t in roots_from_several_threads_all_get_their_results a_handle_can_be_polled_and_awaited a_failing_root_is_reported_on_its_handle dropped_handles_and_shutdown_with_work_in_flight_lose_nothing programs_a_session_cannot_run_are_refused; do
  T=40 run one-$t $B --exact $t; done
T=40 run par1 $B
T=40 run par2 $B
T=60 run serial2 $B --test-threads 1
# pairs: the two fib sessions; fib + nqueens session; fib session + refusal
T=40 run pair-roots-dropped $B --skip a_handle --skip a_failing --skip a_panicking --skip programs_a
T=40 run pair-roots-handle $B --skip dropped --skip a_failing --skip a_panicking --skip programs_a
T=40 run pair-handle-refused $B --skip dropped --skip a_failing --skip a_panicking --skip roots_from
tar czf $OUT/s25c1.tgz -C /tmp s25c1
for n in search_gpu soak_gpu stuck_gpu trap_gpu runtime_cpu search_cpu sequential storage_cpu stuck_data_cpu team_cpu uts_cpu; do
  T=150 run bin-$n $(ls .gpu-bin/tests/$n-* | head -1)
  tar czf $OUT/s25c1.tgz -C /tmp s25c1
done
T=100 run ex-fib .gpu-bin/examples/fib
T=100 run ex-smoke .gpu-bin/examples/smoke
tar czf $OUT/s25c1.tgz -C /tmp s25c1
