#!/usr/bin/env bash
# chapters/12-pipeline-parallel/run.sh: what `make chapter-12` runs, in the
# order the README reads. Before each step a question to answer first;
# after it, the program prints the answer from its own numbers. Each
# program checks its runs (gradients against the unsplit model, bubbles
# against their formulas) before it prints a table, and exits 1 if a check
# fails, which stops the chapter here.
#   BIN      where the programs are (default build/ch12)
#   RESULTS  where the CSV goes (default results/12-pipeline-parallel)
#   FULL=1   the same: every run is modelled and takes well under a second
set -euo pipefail
BIN=${BIN:-build/ch12}
RESULTS=${RESULTS:-results/12-pipeline-parallel}
mkdir -p "$RESULTS"

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

predict "a pipeline of p = 4 stages runs m = 8 micro-batches. Every stage's forward takes T_F, its
  backward 2 T_F. What fraction of the time does a stage stand idle under GPipe? Under 1F1B?
  How many micro-batches must stage 0 keep in memory under each?"
step "1. four schedules, one executor: bubble, memory, who works when" "$BIN/schedules" --csv "$RESULTS/schedules.csv"

predict "every schedule adds up the same per-sample gradients. Will the pipelined gradients
  equal the unsplit model's exactly, or only within rounding? And what happens if rank 0
  skips its warm-up while the last rank does p - 1 forwards first?"
step "2. gradients against the unsplit model; a wrong order" "$BIN/train" --csv "$RESULTS/train.csv"

predict "one of p = 4 stages holds 6 layers, the others 4 (the model grows by 1/8). By how
  much does the step grow? And with the same 18 layers split as evenly as they go?"
step "3. unbalanced stages set the pace" "$BIN/unbalanced" --csv "$RESULTS/unbalanced.csv"

if [ "${MPI:-}" = 1 ] && . "$(dirname "$0")/../mpi.sh" && mpi_ready "$BIN/mpi_pipeline"; then
    predict "the same executor, each stage now a separate process, messages through Open MPI.
  Will the gradients still equal the unsplit model's bit for bit, or only within rounding?"
    step "4. the same schedules across Open MPI processes" mpi_run 4 "$BIN/mpi_pipeline"
fi
