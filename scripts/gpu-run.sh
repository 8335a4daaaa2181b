#!/usr/bin/env bash
# Runs everything scripts/gpu-build.sh put in .gpu-bin/, on a GPU machine without Rust.
# GPU tests fail instead of skipping here (GTAP_REQUIRE_GPU=1). Logs go to $OUT when set.
# Usage (from the repository root): bash scripts/gpu-run.sh [test-name-filter]
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
bin=.gpu-bin
log=${OUT:-/tmp}/gpu-run.log
: >"$log"
export GTAP_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee -a "$log"
pass=0; fail=0; failed=()
for t in "$bin"/tests/*; do
  echo "== $t" | tee -a "$log"
  if "$t" ${1:+"$1"} >>"$log" 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); failed+=("$t"); fi
  grep -E '^test result:' "$log" | tail -1
done
for e in "$bin"/examples/*; do
  # The benchmark harness is not a test: run it on its own (see results/).
  case "$(basename "$e")" in bench) continue ;; esac
  echo "== $e" | tee -a "$log"
  if "$e" >>"$log" 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); failed+=("$e"); fi
  tail -3 "$log"
done
[ ${#failed[@]} -gt 0 ] && printf 'FAILED: %s\n' "${failed[@]}"
echo "gpu-run: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
