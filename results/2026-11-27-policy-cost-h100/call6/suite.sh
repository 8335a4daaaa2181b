#!/usr/bin/env bash
# Runs the GPU suite's binaries (as scripts/gpu-run.sh does: GTAP_REQUIRE_GPU=1, a watchdog per
# binary) whose names are not in $SKIP, in name order, with start and end times; stops starting
# binaries after $DEADLINE s and lists the ones left. Log: $R/suite.log.
set -u
R=$1; DEADLINE=${DEADLINE:-470}; SKIP=${SKIP:-}
start=$(date +%s)
export GTAP_REQUIRE_GPU=1
log=$R/suite.log; : > $log
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >> $log
cat .gpu-bin/COMMIT >> $log
left=()
FIRST=${FIRST:-}
order=()
for f in $FIRST; do order+=($(ls .gpu-bin/tests/$f-* | head -1)); done
for exe in .gpu-bin/tests/* .gpu-bin/examples/fib .gpu-bin/examples/smoke; do
  name=$(basename $exe); name=${name%%-*}
  case " $FIRST " in *" $name "*) continue ;; esac
  order+=($exe)
done
for exe in "${order[@]}"; do
  name=$(basename $exe); name=${name%%-*}
  case " $SKIP " in *" $name "*) continue ;; esac
  now=$(( $(date +%s) - start ))
  if [ $now -gt $DEADLINE ]; then left+=($name); continue; fi
  echo "== $exe (start $now s)" >> $log
  timeout --kill-after=10 200 $exe >> $log 2>&1
  rc=$?
  echo "== $name rc=$rc (end $(( $(date +%s) - start )) s)" >> $log
done
echo "LEFT: ${left[*]:-}" >> $log
grep -E "^== .* rc=" $log | awk '{print $2, $3}' | sort | uniq -c | awk '{print}' > $R/summary.txt
grep -cE "rc=0 " $log >> $R/summary.txt
