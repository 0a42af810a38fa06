#!/usr/bin/env bash
# chapters/13-3d-parallelism/run.sh: what `make chapter-13` runs, in the
# order the README reads. Before each step a question to answer first;
# after it, the program prints the answer from its own numbers. validate
# checks every composed run against the unsplit model and the planner's
# formula before it prints, and exits 1 if a check fails, which stops the
# chapter here.
#   BIN      where the programs are (default build/ch13)
#   RESULTS  where the CSV goes (default results/13-3d-parallelism)
#   FULL=1   the same: everything is modelled and takes well under a second
set -euo pipefail
BIN=${BIN:-build/ch13}
RESULTS=${RESULTS:-results/13-3d-parallelism}
mkdir -p "$RESULTS"

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

predict "GPT-3 175B has 175B parameters. Mixed-precision Adam keeps 16 bytes of each. How many
  80 GB devices does the model state alone need? On 1024 H100-like devices, what tensor degree t
  will the best plan use, and what share of the peak (MFU) do you expect: 20%, 45% or 70%?"
step "1. the planner: every d x t x p that fits, the fastest few, the wrong mapping" \
    "$BIN/planner" --csv "$RESULTS/planner.csv"

predict "the closed form behind the planner (p3_time_model) is a formula. Run the composed code (real data, groups by
  coll_comm_split, chapter 12's schedules, a DP all-reduce at the end) on up to 64 modelled
  devices: will the formula's step be exact, longer than the run's or shorter, for GPipe? For 1F1B?"
step "2. validated, not believed: the formula against the composed run" \
    "$BIN/validate" --csv "$RESULTS/validate.csv"

predict "Megatron-LM's 2021 paper trained GPT models from 1.7B to 1T parameters on 32 to 3072 A100s and
  measured 137 TFLOP/s a GPU at the small end, 163 at the large. Will the planner, given the paper's
  own mappings, land within 10% on every row? Will it rise with the model size, as the paper does?"
step "2b. held to published runs: SC21 Table 1 beside the model (BLOOM-176B in the CSV)" \
    "$BIN/published" --csv "$RESULTS/published.csv"

predict "a 1.3B model, 512 sequences a step. From 8 devices, double them again and again: at
  what device count does the step stop getting faster? With 4x the batch?"
step "3. strong scaling: where more devices make the step slower" \
    "$BIN/scaling" --csv "$RESULTS/scaling.csv"
