#!/usr/bin/env bash
# Runs everything scripts/gpu-build.sh put in .gpu-bin/, on a GPU machine without Rust.
# GPU tests fail instead of skipping here (GTAP_REQUIRE_GPU=1). Logs go to $OUT when set.
#
# A watchdog limits each binary to GTAP_WATCHDOG_S seconds (default 300): one that has not
# ended by then is killed, reported on a FAILED line that names it, and the rest still run.
# (A kernel stuck inside a task keeps the GPU until its process ends; killing the process
# frees it for the next binary.)
#
# The whole suite takes longer than one call of a time-limited GPU machine allows (about 9
# minutes on an H100), so it can run in parts; binaries are named as in their file names
# without the hash (`storage_gpu`, `fib`):
#   GTAP_FIRST="a b"     run these first (the rest follow in name order);
#   GTAP_ONLY="a b"      run only these; GTAP_SKIP="a b": all but these;
#   GTAP_DEADLINE_S=N    start no binary after N seconds (the first always runs): the ones
#                        left are listed on a NOT RUN line, with the GTAP_ONLY=... that
#                        runs them, and the exit status is 2 (3 if a binary failed too).
#
# Usage (from the repository root): bash scripts/gpu-run.sh [test-name-filter]
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
bin=${GTAP_BIN:-.gpu-bin}
log=${OUT:-/tmp}/gpu-run.log
limit=${GTAP_WATCHDOG_S:-300}
deadline=${GTAP_DEADLINE_S:-}
: >"$log"
export GTAP_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee -a "$log"
pass=0; fail=0; failed=(); left=()

# A binary's name: a test's without cargo's hash, an example's as it is.
name_of() {
  local n
  n=$(basename "$1")
  case "$1" in */examples/*) echo "$n" ;; *) echo "${n%-*}" ;; esac
}

# Whether word $1 is in the space-separated list $2.
listed() {
  case " $2 " in *" $1 "*) return 0 ;; esac
  return 1
}

# Runs one binary under the watchdog; counts and reports it.
run_one() {
  local exe=$1; shift
  echo "== $exe" | tee -a "$log"
  timeout --kill-after=10 "$limit" "$exe" "$@" >>"$log" 2>&1
  local rc=$?
  if [ $rc -eq 0 ]; then
    pass=$((pass+1))
  else
    fail=$((fail+1))
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
      failed+=("$exe (hung: still running after ${limit} s, killed by the watchdog)")
      echo "FAILED: $exe hung: still running after ${limit} s, killed by the watchdog" | tee -a "$log"
    else
      failed+=("$exe (exit $rc)")
    fi
  fi
}

# The binaries in the order they run: GTAP_FIRST's, then the tests, then the examples (the
# benchmark harness is not a test: run it on its own, see results/), less the ones
# GTAP_ONLY and GTAP_SKIP leave out.
order=()
for f in ${GTAP_FIRST:-}; do
  for exe in "$bin"/tests/"$f"-* "$bin"/examples/"$f"; do
    [ -f "$exe" ] && order+=("$exe")
  done
done
for exe in "$bin"/tests/* "$bin"/examples/*; do
  [ -f "$exe" ] || continue
  n=$(name_of "$exe")
  [ "$n" = bench ] && continue
  listed "$n" "${GTAP_FIRST:-}" && continue
  order+=("$exe")
done
start=$SECONDS
for exe in "${order[@]}"; do
  n=$(name_of "$exe")
  if [ -n "${GTAP_ONLY:-}" ] && ! listed "$n" "$GTAP_ONLY"; then continue; fi
  listed "$n" "${GTAP_SKIP:-}" && continue
  # The first binary always runs, so that each part makes progress.
  if [ -n "$deadline" ] && [ $((pass + fail)) -gt 0 ] && [ $((SECONDS - start)) -ge "$deadline" ]; then
    left+=("$n")
    continue
  fi
  case "$exe" in
    */examples/*) run_one "$exe"; tail -3 "$log" ;;
    *) run_one "$exe" ${1:+"$1"}; grep -E '^test result:' "$log" | tail -1 ;;
  esac
done
[ ${#failed[@]} -gt 0 ] && printf 'FAILED: %s\n' "${failed[@]}" | tee -a "$log"
if [ ${#left[@]} -gt 0 ]; then
  echo "NOT RUN (past GTAP_DEADLINE_S=$deadline): run them with GTAP_ONLY=\"${left[*]}\"" | tee -a "$log"
fi
echo "gpu-run: $pass passed, $fail failed, ${#left[@]} not run" | tee -a "$log"
if [ ${#left[@]} -gt 0 ]; then
  [ "$fail" -eq 0 ] && exit 2
  exit 3
fi
[ "$fail" -eq 0 ]
