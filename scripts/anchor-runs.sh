# Sourced by the scripts that run GTaP's program binaries one process per run, as the anchor's
# run.sh does (scripts/size-sweep.sh, scripts/anchor-leaf.sh). Defines:
#
#   anchor_runs LABEL N BINARY ARGS...  runs $GTAP_ANCHOR_BUILD/BINARY ARGS $ANCHOR_RUNS times
#                                       (default 5), each bounded to 120 s, its stderr appended
#                                       to $ANCHOR_ERR (default /dev/null); prints a `# FAIL` line
#                                       per failed run, `# runs LABEL N 1: TIMES`, and the CSV row
#                                       `LABEL,N,1,MEDIAN_MS` when a run succeeded (the anchor's
#                                       columns program,n,queues,kernel_ms). Returns 1 if a run
#                                       failed.
#   median                              the median of the numbers on stdin, to 3 decimals.
#   anchor_loading_line                 the `# module loading: ..` line that says how GTaP's
#                                       CUDA module was loaded, for the anchor's CSV (the
#                                       side-by-side table's header shows it).
#
# GTaP's processes run with `CUDA_MODULE_LOADING=$ANCHOR_MODULE_LOADING` (default EAGER; the
# scripts pass it to the anchor's run.sh too). By default CUDA loads a kernel at its first
# launch, and GTaP's harness times its first and only launch, so its time would carry the
# load, a cost of starting the process that gtap's warm-up run keeps out of gtap's time
# (results/2026-11-30-anchor-loading-h200.md). Eager loading does the load at context
# creation, before GTaP's timed region. `ANCHOR_MODULE_LOADING=LAZY` times GTaP as its own
# harness does.

anchor_module_loading=${ANCHOR_MODULE_LOADING:-EAGER}

anchor_loading_line() {
  echo "# module loading: CUDA_MODULE_LOADING=$anchor_module_loading for GTaP's processes (scripts/anchor-runs.sh)"
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) printf "%.3f", a[(NR+1)/2]; else printf "%.3f", (a[NR/2]+a[NR/2+1])/2}'; }

anchor_runs() {
  local label=$1 n=$2 bin=$3 times=() line failed=0 i
  shift 3
  for ((i = 1; i <= ${ANCHOR_RUNS:-5}; i++)); do
    if line=$(CUDA_MODULE_LOADING=$anchor_module_loading timeout 120 "$GTAP_ANCHOR_BUILD/$bin" "$@" \
        2>>"${ANCHOR_ERR:-/dev/null}") &&
        [ -n "$line" ]; then
      times+=("${line##*,}")
    else
      echo "# FAIL $label $n run $i"
      failed=1
    fi
  done
  echo "# runs $label $n 1: ${times[*]:-none}"
  if [ ${#times[@]} -gt 0 ]; then
    echo "$label,$n,1,$(printf '%s\n' "${times[@]}" | median)"
  fi
  return $failed
}
