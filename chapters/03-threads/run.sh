#!/usr/bin/env bash
# chapters/03-threads/run.sh: what `make chapter-3` runs, in the order the
# README reads. Before each step a question to answer first; after it, the
# program prints the answer from its own numbers (or says why this run
# cannot show it). Each program checks its results before it times anything
# and exits 1 if a check fails, which stops the chapter here. (The racy counter's
# lost updates and the detected deadlock are the lessons, not failures: those
# programs exit 0.)
#   BIN      where the programs are (default build/ch03)
#   RESULTS  where the CSV goes (default results/03-threads)
#   FULL=1   longer runs: more repeats, more work per run
#   THREADS  thread counts for the sweeps (default 1, 2, ... cores, 2x cores)
set -euo pipefail
BIN=${BIN:-build/ch03}
RESULTS=${RESULTS:-results/03-threads}
mkdir -p "$RESULTS"

steps=50M conc_steps=20M updates=4M per=10M transfers=200000
if [ "${FULL:-}" = 1 ]; then
    export PW_MIN_TIME=0.5 PW_MIN_REPS=15
    steps=200M conc_steps=100M updates=20M per=50M transfers=1000000
fi

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

predict "the same job, cut into one block per thread. With every thread pinned to one core,
  how fast will 2 threads be against the sequential loop: 0.5x, 1x or 2x? Spread over 2 cores?"
step "1. concurrency is not parallelism" "$BIN/concurrency" -s "$conc_steps" --csv "$RESULTS/concurrency.csv"

predict "two threads on two cores increment one unprotected counter: what share of the updates
  is lost: none, about 1%, about a third, half? Which fix costs least per update: a mutex,
  an atomic add, or private counts combined once?"
step "2. a race that loses updates, fixed three ways" "$BIN/race" -u "$updates" --csv "$RESULTS/race.csv"

predict "two threads, each with its own counter. With the counters in one cache line, how many
  times as long as with them 64 bytes apart: 1x, 1.5x or 4x?"
step "3. false sharing" "$BIN/false_sharing" -u "$per" --csv "$RESULTS/false_sharing.csv"

predict "two threads take two locks in opposite orders, with no pause between them. Will
  $transfers transfers each finish? If not, after about how many: 10, 1000 or 100000?"
step "4. a deadlock, detected, and the lock order that prevents it" "$BIN/deadlock" --transfers "$transfers" --csv "$RESULTS/deadlock.csv"

predict "how many times faster than the sequential loop will 2 threads compute pi on 2 cores:
  1x, 1.5x or 2x? And 4 threads on the same 2 cores: faster, the same, or slower?"
step "5. pi with pthreads: speedup and the Amdahl fit" "$BIN/pi" -s "$steps" --csv "$RESULTS/pi.csv"
