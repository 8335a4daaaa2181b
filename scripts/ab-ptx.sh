# Sourced by a GPU call script that compares builds of the examples' device code: one bench
# host runs each variant's PTX (`bench --ptx`), so that the host, the machine and the call are
# the same for all, and only the kernels differ. The variants must share the host's layout of
# records and arguments (the kernels check it at start and report a mismatch).
#
#   AB_OUT=/tmp/c1 . scripts/ab-ptx.sh HOST.xz VARIANT...
#
# HOST.xz: a stripped bench binary, xz-compressed (`strip -o /tmp/b target/release/examples/bench
# && xz -9 -c /tmp/b > .gpu-exp/bench.xz`); VARIANT: `.gpu-exp/ptx/VARIANT.ptx.xz`, the examples'
# PTX of a build (`target/release/build/gtap-examples-*/out/gtap_examples.ptx`) compressed with
# xz. Carry them with the working tree (`.gpu-exp/` is git-ignored). Unpacks them, sources
# scripts/jit-cache.sh, JIT-compiles every variant at once (one bench process each), and defines:
#
#   ab_run VARIANT NAME BENCH-ARGS...  one bench process with VARIANT's PTX (`--gpu-only`,
#                                      `--config-name VARIANT-NAME`); its table, CSV and log in
#                                      $AB_OUT/VARIANT-NAME.{md,csv,log}; a failure is reported
#                                      on a FAIL line and the script goes on. AB_TIMEOUT (default
#                                      150) bounds it in seconds.
#   ab_summary                         every log's medians and policy statistics into
#                                      $AB_OUT/summary.txt (both from scripts/ab-common.sh).
#
# Settings of one build are compared with scripts/ab-flags.sh.
#
# Alternate the variants inside each round (`for r in 1 2; do for v in a b; do ab_run ...`):
# machines of one kind differ by a few percent, and one machine drifts within a call.

ab_bench=/tmp/ab-bench
# Kept under its own name: `AB_OUT=dir . script` sets AB_OUT for the sourcing only.
ab_out=${AB_OUT:-/tmp/ab}
mkdir -p "$ab_out"
if [ $# -lt 2 ]; then
  echo "ab-ptx: usage: AB_OUT=DIR . scripts/ab-ptx.sh HOST.xz VARIANT..." >&2
  return 1
fi
xz -dc "$1" >"$ab_bench" && chmod +x "$ab_bench" || { echo "ab-ptx: cannot unpack $1" >&2; return 1; }
shift
ab_variants=("$@")
for v in "${ab_variants[@]}"; do
  xz -dc ".gpu-exp/ptx/$v.ptx.xz" >"/tmp/ab-$v.ptx" || { echo "ab-ptx: no .gpu-exp/ptx/$v.ptx.xz" >&2; return 1; }
done
. scripts/ab-common.sh
. scripts/jit-cache.sh
nvidia-smi >"$ab_out/smi.txt" 2>&1
date -u >"$ab_out/date.txt"

ab_run() {
  local v=$1 name=$2
  shift 2
  ab_bench_run "$ab_bench" "$v-$name" --ptx "/tmp/ab-$v.ptx" "$@"
}

# The JIT of every variant at once: the driver compiles a PTX on its first load, about 30 s.
for v in "${ab_variants[@]}"; do
  "$ab_bench" --ptx "/tmp/ab-$v.ptx" --gpu-only --runs 1 fib --n 20 >/dev/null 2>&1 &
done
wait
echo "== ab-ptx: ${ab_variants[*]} compiled $(date -u +%T)"
