#!/usr/bin/env bash
# chapters/01-measure/run.sh: what `make chapter-1` runs, in the order the
# README reads. Before each step a question to answer first; after it, the
# program prints the answer from its own numbers. Each program checks its
# results before it times anything and exits 1 if a check fails, which
# stops the chapter here.
#   BIN      where the programs are (default build/ch01)
#   RESULTS  where the CSV goes (default results/01-measure)
#   FULL=1   longer runs: more repeats, bigger sizes
set -euo pipefail
BIN=${BIN:-build/ch01}
RESULTS=${RESULTS:-results/01-measure}
mkdir -p "$RESULTS"

loop_sizes=1K,4K,16K,64K,256K,1M,4M,16M
if [ "${FULL:-}" = 1 ]; then
    export PW_MIN_TIME=0.5 PW_MIN_REPS=15
    loop_sizes=1K,2K,4K,8K,16K,32K,64K,128K,256K,512K,1M,2M,4M,8M,16M,32M,64M
fi

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

predict "an FMA's result is ready about 4 cycles after it starts. How many independent
  accumulators does one core need to come within 10% of its best FMA rate: 1, 2, 4, 8 or 16?
  What share of the best does one accumulator get?"
step "1. what this machine can do" "$BIN/probe" --csv "$RESULTS/probe.csv"

predict "running_sum is one chain of adds. Will sum (s += x[i]) run at the chain's speed or at
  square's? How many times faster than sum will 8 partial sums run: about 1x, 2x, 6x or 8x?"
step "2. dependent and independent iterations" "$BIN/dependence" --csv "$RESULTS/dependence.csv"

predict "how many times the median call will the first (cold) call on a fresh 64 MiB array
  take: 1x, 2x, 5x or 50x? How much longer will the median take while another thread
  streams memory on the other core: the same, 1.2x, 2x?"
step "3. timing honestly" "$BIN/timing" --csv "$RESULTS/timing.csv"

predict "square does 1 flop per 8 bytes. With its arrays in DRAM, what share of the FMA peak
  will it reach: about 50%, 10% or 2%? And what share of the triad's bandwidth?"
step "4. four loops from L1 to DRAM" "$BIN/loops" -n "$loop_sizes" --csv "$RESULTS/loops.csv"
