#!/usr/bin/env bash
# chapters/03-threads/run.sh: what `make chapter-3` runs, in the order the
# README reads. Each program checks its results before it times anything and
# exits 1 if a check fails, which stops the chapter here. (The racy counter's
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

step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "1. concurrency is not parallelism" "$BIN/concurrency" -s "$conc_steps" --csv "$RESULTS/concurrency.csv"
step "2. a race that loses updates, fixed three ways" "$BIN/race" -u "$updates" --csv "$RESULTS/race.csv"
step "3. false sharing" "$BIN/false_sharing" -u "$per" --csv "$RESULTS/false_sharing.csv"
step "4. a deadlock, detected, and the lock order that prevents it" "$BIN/deadlock" --transfers "$transfers" --csv "$RESULTS/deadlock.csv"
step "5. pi with pthreads: speedup and the Amdahl fit" "$BIN/pi" -s "$steps" --csv "$RESULTS/pi.csv"
