# The GPU suite at the landed commit, part A, then the small-fib split (host or device code).
set -u
O=/tmp/s4; mkdir -p $O
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
date -u > $O/date.txt; git log -1 --format=%H >> $O/date.txt 2>/dev/null
GTAP_FIRST="programs_gpu language_gpu random_gpu uts_gpu sequential borrow_gpu search_gpu storage_gpu" GTAP_DEADLINE_S=330 OUT=$O bash .gpu-bin/gpu-run.sh > $O/suite-a.txt 2>&1
echo "suite rc=$?" >> $O/suite-a.txt
tail -5 $O/suite-a.txt
tar czf $OUT/s4.tgz -C /tmp s4
