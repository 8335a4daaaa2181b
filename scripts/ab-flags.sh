# Sourced by a GPU call script that compares settings of one build: the bench of the bundle
# that scripts/gpu-build.sh made (`.gpu-bin/bundle.tar.xz`, carried; unpacked here), run once
# per row with the flags the row names, so that the build, the machine and the call are the
# same for all and only the settings differ. (Builds of the device code are compared with
# scripts/ab-ptx.sh.)
#
#   AB_OUT=/tmp/c1 . scripts/ab-flags.sh
#
# Unpacks the bundle when it was carried, sources scripts/jit-cache.sh, JIT-compiles the
# bench's PTX once, writes the bundle's commit, `nvidia-smi` and the date into AB_OUT, and
# defines (scripts/ab-common.sh):
#
#   ab_run NAME BENCH-ARGS...  one bench process (`--gpu-only`, `--config-name NAME`): its
#                              table, CSV and log in $AB_OUT/NAME.{md,csv,log}; a failure is
#                              reported on a FAIL line and the script goes on. AB_TIMEOUT
#                              (default 150) bounds it in seconds.
#   ab_summary                 every log's medians and policy statistics into
#                              $AB_OUT/summary.txt.
#
# e.g. for r in 1 2; do ab_run def-r$r epaq fib --n 40; ab_run off-r$r --no-auto-granularity
# epaq fib --n 40; done. Alternate the settings inside each round: machines of one kind
# differ by a few percent, and one machine drifts within a call.

# Kept under its own name: `AB_OUT=dir . script` sets AB_OUT for the sourcing only.
ab_out=${AB_OUT:-/tmp/ab}
ab_bench=${AB_BENCH:-.gpu-bin/examples/bench}
mkdir -p "$ab_out"
if [ -f .gpu-bin/bundle.tar.xz ]; then
  tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin || { echo "ab-flags: cannot unpack the bundle" >&2; return 1; }
fi
[ -x "$ab_bench" ] || { echo "ab-flags: no $ab_bench: carry .gpu-bin/bundle.tar.xz (scripts/gpu-build.sh)" >&2; return 1; }
. scripts/ab-common.sh
. scripts/jit-cache.sh
cat .gpu-bin/COMMIT >"$ab_out/commit.txt" 2>/dev/null
nvidia-smi >"$ab_out/smi.txt" 2>&1
date -u >"$ab_out/date.txt"

ab_run() {
  ab_bench_run "$ab_bench" "$@"
}

# The driver compiles the PTX on its first load (about 30 s); every later process reuses it.
"$ab_bench" --gpu-only --runs 1 fib --n 20 >/dev/null 2>&1
echo "== ab-flags: $(cat "$ab_out/commit.txt" 2>/dev/null) compiled $(date -u +%T)"
