# Sourced by scripts/ab-ptx.sh and scripts/ab-flags.sh (not by call scripts): the two
# functions every A/B call script uses, one bench process per row and the summary of their
# logs. The sourcing script sets `ab_out` (the output folder) first.
#
#   ab_bench_run BENCH NAME BENCH-ARGS...  one bench process (`--gpu-only`, `--config-name
#                                          NAME`); its table, CSV and log in
#                                          $ab_out/NAME.{md,csv,log}; a failure is reported on
#                                          a FAIL line and the script goes on. AB_TIMEOUT
#                                          (default 150) bounds it in seconds.
#   ab_summary                             every log's medians and policy statistics into
#                                          $ab_out/summary.txt.

ab_bench_run() {
  local bench=$1 name=$2
  shift 2
  echo "== $name $(date -u +%T)"
  timeout "${AB_TIMEOUT:-150}" "$bench" --gpu-only --out "$ab_out/$name.csv" \
    --config-name "$name" "$@" >"$ab_out/$name.md" 2>"$ab_out/$name.log" \
    || echo "FAIL $name: $(tail -n 3 "$ab_out/$name.log")"
}

ab_summary() {
  local f
  for f in "$ab_out"/*.log; do
    echo "## $(basename "$f")"
    grep -E "median|spawns inline|back-off|stopped|heavy|PoolExhausted|error" "$f" \
      | sed 's/\[gpu[^]]*\]//' | cut -c1-200
  done >"$ab_out/summary.txt"
}
