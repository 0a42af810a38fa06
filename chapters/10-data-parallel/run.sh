#!/usr/bin/env bash
# chapters/10-data-parallel/run.sh: what `make chapter-10` runs, in the order
# the README reads. Each program checks its results (against one-device
# training, the double-precision sum, the closed forms) before it prints a
# table, and exits 1 if a check fails, which stops the chapter here. Before
# each step the questions to answer first; after it, the program prints its
# answers from its own numbers.
#   BIN      where the programs are (default build/ch10)
#   RESULTS  where the CSV goes (default results/10-data-parallel)
#   FULL=1   longer runs: more training steps, more repeats of the speed test
#   MPI=1    also run the collectives and the training over Open MPI
#            (mpirun -np 4), if built, and check the model against the
#            real transport (mpi_model: a ping-pong fit on 2 processes,
#            then all-reduce and a DP step predicted and measured on 2, 3, 4)
#   MPIRUN, HOSTFILE, NP, MPIRUN_FLAGS: how and where to launch (chapters/mpi.sh)
set -euo pipefail
BIN=${BIN:-build/ch10}
RESULTS=${RESULTS:-results/10-data-parallel}
mkdir -p "$RESULTS"

steps=40
if [ "${FULL:-}" = 1 ]; then
    export PW_MIN_REPS=7
    steps=200
fi

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

predict "trained on 3 or 16 replicas, will the weights equal one device's bit for bit, or only within
  rounding? And on 1 replica?"
step "1. data parallelism learns what one device learns" "$BIN/dataparallel" -s "$steps" --csv "$RESULTS/dataparallel.csv"
predict "on 8 ranks of one node, which all-reduce is fastest for 4 bytes, which for 256 MiB, and how
  many times faster than the tree is the ring at 256 MiB?"
predict "nodes of 8: how many times longer does a 64 MiB all-reduce take on 1024 ranks than on 2,
  under the ring? Under the naive root?"
step "2. all-reduce: naive, tree, ring, against their formulas" "$BIN/allreduce" --csv "$RESULTS/allreduce.csv"
predict "a 25M-parameter model, 512K tokens a step: how many replicas give the lowest step time?"
predict "one replica of 64 runs 1.5x slower: how much of its extra compute does the step lose? Half
  the replicas at 1.2x against one at 1.2x?"
predict "256 replicas: one all-reduce per 16 micro-batches instead of one per micro-batch. How much
  more throughput?"
step "3. strong and weak scaling, stragglers, accumulation" "$BIN/scaling" --csv "$RESULTS/scaling.csv"
predict "4 layers, each layer's gradients all-reduced as soon as the backward pass makes them: what
  fraction of the all-reduce time hides?"
step "4. overlapping the all-reduce with the backward pass" "$BIN/overlap" --csv "$RESULTS/overlap.csv"

if [ "${MPI:-}" = 1 ] && . "$(dirname "$0")/../mpi.sh" && mpi_ready "$BIN/mpi_train"; then
    predict "at 1M floats on 4 processes, will MPI_Allreduce beat our fastest all-reduce, and by how much?"
    step "5. the same collectives over Open MPI" \
        mpi_run 4 "$BIN/mpi_allreduce" --csv "$RESULTS/mpi_allreduce.csv"
    predict "will the weights over MPI equal the virtual cluster's bit for bit? How many times the
  modelled step will the measured one take: 1x, 10x or 100x?"
    step "6. the same training over Open MPI: the virtual cluster's bits, measured times" \
        mpi_run 4 "$BIN/mpi_train" -s "$steps" --csv "$RESULTS/mpi_train.csv"
    predict "one message costs alpha + n*beta: fit them to a ping-pong here. Where will one line miss:
  at Open MPI's eager limit (4 KiB), past the caches, nowhere? And with that fit, will the virtual
  cluster predict the ring all-reduce of 1 MiB and more within 25% on 2 processes?"
    # model_on P [ARGS]: mpi_model on exactly P processes (NP does not apply).
    model_on() { local p=$1; shift; NP=$p mpi_run "$p" "$BIN/mpi_model" "$@" --csv "$RESULTS/mpi_model_np$p.csv"; }
    step "7. the model meets a real transport: ping-pong fit, then all-reduce predicted and measured" model_on 2
    # The fit of the 2-process run predicts the others; with NP set, NP's.
    nps="3 4"
    [ -n "${NP:-}" ] && nps=$NP
    for np in $nps; do
        [ "$np" = 2 ] && continue
        predict "on $np processes (oversubscribed when they outnumber the cores): will the ratios grow, and at
  which sizes most?"
        step "7. the same prediction on $np processes, from the 2-process fit" model_on "$np" --fit "$RESULTS/mpi_model_np2.csv"
    done
    # One CSV for the figures: the 2-process run's, then the others' rows.
    { cat "$RESULTS/mpi_model_np2.csv"
      for np in $nps; do [ "$np" = 2 ] || grep -vE '^#|^program,' "$RESULTS/mpi_model_np$np.csv"; done
    } >"$RESULTS/mpi_model.csv"
fi
