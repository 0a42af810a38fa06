#!/usr/bin/env bash
# chapters/11-tensor-parallel/run.sh: what `make chapter-11` runs, in the
# order the README reads. Each program checks its results (the split block
# against the unsplit one, bytes and times against their closed forms)
# before it prints a table, and exits 1 if a check fails, which stops the
# chapter here.
#   BIN      where the programs are (default build/ch11)
#   RESULTS  where the CSV goes (default results/11-tensor-parallel)
#   MPI=1    also run the block over Open MPI (mpirun -np 4), if built
set -euo pipefail
BIN=${BIN:-build/ch11}
RESULTS=${RESULTS:-results/11-tensor-parallel}
mkdir -p "$RESULTS"

step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "1. the Megatron split of a transformer block, against the unsplit block" "$BIN/tp_block" --csv "$RESULTS/tp_block.csv"
step "2. placing the tensor groups: inside a node or across nodes" "$BIN/placement" --csv "$RESULTS/placement.csv"

if [ "${MPI:-}" = 1 ] && . "$(dirname "$0")/../mpi.sh" && mpi_ready "$BIN/mpi_tp"; then
    step "3. the same block over Open MPI, 4 processes" \
        mpirun --oversubscribe -np 4 "$BIN/mpi_tp" --csv "$RESULTS/mpi_tp.csv"
fi
