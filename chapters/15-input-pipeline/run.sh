#!/usr/bin/env bash
# chapters/15-input-pipeline/run.sh: what `make chapter-15` runs, in the
# order the README reads. Before each step a question to answer first;
# after it, the program prints the answer from its own numbers. Each
# program checks its runs (the same batches and the same weights, bit for
# bit, with and without loader threads; modelled steps against their closed
# forms) before it prints a table, and exits 1 if a check fails, which stops
# the chapter here.
#   BIN      where the programs are (default build/ch15)
#   RESULTS  where the CSV goes (default results/15-input-pipeline)
#   THREADS  the loader counts of step 2 (default 1..cores, then 2 x cores)
#   FULL=1   four times the steps (steadier medians)
set -euo pipefail
BIN=${BIN:-build/ch15}
RESULTS=${RESULTS:-results/15-input-pipeline}
mkdir -p "$RESULTS"
steps=()
[ "${FULL:-}" = 1 ] && steps=(-s 240)

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

predict "a training step decodes and augments a batch of 64 samples, then computes the MLP's
  gradient and update on it. Guess the split: what share of the step is loading? If loader
  threads made the next batches while this one computes, what would the step become?"
step "1. profile first: load against compute, then prefetch on loader threads (cores - 1)" \
    "$BIN/profile" "${steps[@]}" --csv "$RESULTS/profile.csv"

predict "with L loader threads the step should approach max(compute, load / L). On this
  machine's cores, from how many loaders on does the loop stop waiting? And what do loaders
  beyond the cores do?"
step "2. the loader pool swept: speedup, the Amdahl fit, where more loaders stop helping" \
    "$BIN/loaders" "${steps[@]}" --csv "$RESULTS/loaders.csv"

predict "the same loop on 1, 2, 4, 8 data-parallel devices of one node, whose loaders share
  the node's CPU. By how much does the step shrink from 1 to 8 devices? And with 8 loaders
  prefetching instead of 1 loader in the loop?"
step "3. more devices do not feed a starved loader (virtual cluster)" \
    "$BIN/starved_dp" "${steps[@]}" --csv "$RESULTS/starved_dp.csv"
