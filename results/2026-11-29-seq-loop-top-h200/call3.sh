# Session 38, call 3: the GPU suite at the commit of the bundle (.gpu-bin/COMMIT).
set -u
mkdir -p /tmp/x .gpu-bin && tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; nvidia-smi -L; date -u
GTAP_FIRST="programs_gpu language_gpu random_gpu uts_gpu sequential borrow_gpu search_gpu storage_gpu" GTAP_DEADLINE_S=540 OUT=/tmp/x bash .gpu-bin/gpu-run.sh
rc=$?; date -u; echo "suite rc=$rc"
mkdir -p $OUT/suite && cp -r /tmp/x/* $OUT/suite/ 2>/dev/null; exit $rc
