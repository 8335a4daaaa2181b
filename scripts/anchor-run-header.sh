# Sourced by the scripts that run gtap beside GTaP's anchor (side-by-side.sh, size-sweep.sh),
# after they set `bench`: the record's header values (`commit`, `gpu`, `date`), a check that
# the bench and GTaP's anchor are where the scripts expect them, and `status=0`.
commit=${GTAP_COMMIT:-$(cat .gpu-bin/COMMIT 2>/dev/null || git rev-parse HEAD 2>/dev/null || echo unknown)}
gpu=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
[ -x "$bench" ] || { echo "no bench at $bench: run scripts/gpu-build.sh (and unpack its bundle)" >&2; exit 2; }
[ -f .anchor-gtap/run.sh ] || { echo "no .anchor-gtap/run.sh: cp -r ../shared/anchors/gtap .anchor-gtap" >&2; exit 2; }
echo "GPU: ${gpu:-unknown}; gtap $commit; $date" >&2
status=0
