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

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) printf "%.3f", a[(NR+1)/2]; else printf "%.3f", (a[NR/2]+a[NR/2+1])/2}'; }

anchor_runs() {
  local label=$1 n=$2 bin=$3 times=() line failed=0 i
  shift 3
  for ((i = 1; i <= ${ANCHOR_RUNS:-5}; i++)); do
    if line=$(timeout 120 "$GTAP_ANCHOR_BUILD/$bin" "$@" 2>>"${ANCHOR_ERR:-/dev/null}") &&
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
