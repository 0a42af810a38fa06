#!/usr/bin/env bash
# chapters/11-tensor-parallel/run.sh: what `make chapter-11` runs, in the
# order the README reads. Each program checks its results (the split block
# against the unsplit one, bytes and times against their closed forms)
# before it prints a table, and exits 1 if a check fails, which stops the
# chapter here. Before each step the questions to answer first; after it,
# the program prints its answers from its own numbers.
#   BIN      where the programs are (default build/ch11)
#   RESULTS  where the CSV goes (default results/11-tensor-parallel)
#   MPI=1    also run the block over Open MPI (mpirun -np 4), if built
set -euo pipefail
BIN=${BIN:-build/ch11}
RESULTS=${RESULTS:-results/11-tensor-parallel}
mkdir -p "$RESULTS"

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

predict "the split adds the same products in another order: how far from the unsplit block are its
  results, relative to their scale? And at t = 1?"
predict "b = 2, s = 8, h = 24: how many bytes does a rank send per block at t = 2, and at t = 4?"
predict "GPT-3's layer on t = 8 devices: what fraction of the unsplit activations does each keep with
  tensor parallelism alone? With sequence parallelism?"
step "1. the Megatron split of a transformer block, against the unsplit block" "$BIN/tp_block" --csv "$RESULTS/tp_block.csv"
predict "8 nodes of 8: should a tensor group of t = 8 sit inside a node or across 8 nodes, and by how
  much does it matter?"
step "2. placing the tensor groups: inside a node or across nodes" "$BIN/placement" --csv "$RESULTS/placement.csv"

if [ "${MPI:-}" = 1 ] && . "$(dirname "$0")/../mpi.sh" && mpi_ready "$BIN/mpi_tp"; then
    predict "will 4 MPI processes end with the cluster's results bit for bit? How many times the
  modelled time will the measured one take?"
    step "3. the same block over Open MPI, 4 processes" \
        mpi_run 4 "$BIN/mpi_tp" --csv "$RESULTS/mpi_tp.csv"
fi
