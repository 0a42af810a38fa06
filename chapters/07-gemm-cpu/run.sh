#!/usr/bin/env bash
# chapters/07-gemm-cpu/run.sh: what `make chapter-7` runs: the GEMM ladder
# against OpenBLAS, checked before it is timed (a wrong rung stops here).
# First the README's five questions to answer; after the table the program
# prints an answer: line for each, from its own numbers.
#   BIN, RESULTS   where the program is and where the CSV goes
#   FULL=1         more repeats (less noise in the ratios)
#   THREADS=1,2,4  the thread counts for 5_omp (default 1..cores, then 2x cores)
#
# OpenBLAS picks its kernel by CPU at start-up, unless OPENBLAS_CORETYPE
# pins one (this workbook's CI environment pins Haswell, an AVX2 kernel, on
# an AVX-512 machine) and OPENBLAS_L2_SIZE changes its blocking. The
# benchmark runs without both, so the comparison is against the kernel
# OpenBLAS itself would choose here; the program prints which one ran.
set -euo pipefail
BIN=${BIN:-build/ch07}
RESULTS=${RESULTS:-results/07-gemm-cpu}
mkdir -p "$RESULTS"
if [ "${FULL:-}" = 1 ]; then export PW_MIN_TIME=0.5 PW_MIN_REPS=15; fi

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

for v in OPENBLAS_CORETYPE OPENBLAS_L2_SIZE; do
    [ -n "${!v:-}" ] && echo "note: $v=${!v} is set here; the benchmark runs without it (OpenBLAS's own choice of kernel)"
done
predict "(1) how much faster is 2_ikj than 1_naive, with the same flops? (2) the top single-core
  rung than 1_naive? (3) what fraction of OpenBLAS will the micro-kernel reach on one core?
  (4) how much faster is 5_omp on all cores than 4_simd on one? (5) how long does 8192^3 take
  with 1_naive, and with the top rung?"
step "the ladder: naive to a packed SIMD micro-kernel, against OpenBLAS" \
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$BIN/gemm" --csv "$RESULTS/gemm.csv"
