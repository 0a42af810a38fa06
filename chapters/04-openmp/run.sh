#!/usr/bin/env bash
# chapters/04-openmp/run.sh: what `make chapter-4` runs, in the order the
# README reads. Before each step a question to answer first; after it, the
# program prints the answer from its own numbers. Each program checks every variant against its sequential
# reference before it times anything and exits 1 if one is wrong, which
# stops the chapter here.
#   BIN      where the programs are (default build/ch04)
#   RESULTS  where the CSV goes (default results/04-openmp)
#   FULL=1   longer runs: bigger problems, more repeats
#   THREADS  thread counts of the sweeps (default 1, 2, ..., cores, 2x cores)
set -euo pipefail
BIN=${BIN:-build/ch04}
RESULTS=${RESULTS:-results/04-openmp}
mkdir -p "$RESULTS"

pi_n=20M mandel_w=480 mandel_i=500 docs=20000 nodes=200000
if [ "${FULL:-}" = 1 ]; then
    export PW_MIN_TIME=0.5 PW_MIN_REPS=15
    pi_n=200M mandel_w=1200 mandel_i=2000 docs=200000 nodes=2M
fi

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

predict "how many times faster than the sequential loop will pi run on as many threads as
  cores: close to the core count, or well below? And on twice as many threads as cores?"
step "1. parallel for with a reduction: pi" "$BIN/pi" -s "$pi_n" --csv "$RESULTS/pi.csv"

predict "which of the four schedules will be the slowest on all cores, and what speedup will it
  reach? Under static, what share of the steps will the busiest thread do?"
step "2. load imbalance: Mandelbrot under four schedules" \
    "$BIN/mandel" -n "$mandel_w" -i "$mandel_i" --csv "$RESULTS/mandel.csv"

predict "independent documents, private outputs: what efficiency (speedup / cores) will the
  batch reach on all cores: above 90%, or well below?"
step "3. an embarrassingly parallel batch: embedding documents" "$BIN/embed" -n "$docs" --csv "$RESULTS/embed.csv"

predict "which cut-off will be the fastest: 0 (no tasks), a few levels, or a task at every node?
  How many times the sequential walk's time will a task at every node take?"
step "4. tasks for an irregular problem: a tree walk" "$BIN/tasks" -n "$nodes" --csv "$RESULTS/tasks.csv"
