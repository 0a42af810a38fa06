#!/usr/bin/env bash
# chapters/10-data-parallel/run.sh: what `make chapter-10` runs, in the order
# the README reads. Each program checks its results (against one-device
# training, the double-precision sum, the closed forms) before it prints a
# table, and exits 1 if a check fails, which stops the chapter here.
#   BIN      where the programs are (default build/ch10)
#   RESULTS  where the CSV goes (default results/10-data-parallel)
#   FULL=1   longer runs: more training steps, more repeats of the speed test
#   MPI=1    also run the collectives and the training over Open MPI
#            (mpirun -np 4), if built
set -euo pipefail
BIN=${BIN:-build/ch10}
RESULTS=${RESULTS:-results/10-data-parallel}
mkdir -p "$RESULTS"

steps=40
if [ "${FULL:-}" = 1 ]; then
    export PW_MIN_REPS=7
    steps=200
fi

step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "1. data parallelism learns what one device learns" "$BIN/dataparallel" -s "$steps" --csv "$RESULTS/dataparallel.csv"
step "2. all-reduce: naive, tree, ring, against their formulas" "$BIN/allreduce" --csv "$RESULTS/allreduce.csv"
step "3. strong and weak scaling, stragglers, accumulation" "$BIN/scaling" --csv "$RESULTS/scaling.csv"
step "4. overlapping the all-reduce with the backward pass" "$BIN/overlap" --csv "$RESULTS/overlap.csv"

if [ "${MPI:-}" = 1 ] && . "$(dirname "$0")/../mpi.sh" && mpi_ready "$BIN/mpi_train"; then
    step "5. the same collectives over Open MPI" \
        mpirun --oversubscribe -np 4 "$BIN/mpi_allreduce" --csv "$RESULTS/mpi_allreduce.csv"
    step "6. the same training over Open MPI: the virtual cluster's bits, measured times" \
        mpirun --oversubscribe -np 4 "$BIN/mpi_train" -s "$steps" --csv "$RESULTS/mpi_train.csv"
fi
