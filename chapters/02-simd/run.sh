#!/usr/bin/env bash
# chapters/02-simd/run.sh: what `make chapter-2` runs, in the order the
# README reads. Before each step a question to answer first; after it, the
# program prints the answer from its own numbers. Each program checks every
# variant before it times anything and exits 1 if a check fails, which
# stops the chapter here.
#   BIN      where the programs are (default build/ch02)
#   RESULTS  where the CSV goes (default results/02-simd)
#   FULL=1   longer runs: more repeats, more sizes
set -euo pipefail
BIN=${BIN:-build/ch02}
RESULTS=${RESULTS:-results/02-simd}
mkdir -p "$RESULTS"

lane_sizes=2K,64K,16M            # L1, L2, DRAM for x and y on a 32 KiB / 1 MiB / 32 MiB machine
dot_sizes=4K
if [ "${FULL:-}" = 1 ]; then
    export PW_MIN_TIME=0.5 PW_MIN_REPS=15
    lane_sizes=1K,2K,8K,64K,256K,1M,4M,16M,64M
    dot_sizes=2K,4K,64K
fi

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

predict "AVX-512 squares 16 floats per instruction (AVX2 8, SSE 4). How many times faster than
  scalar will the widest square rung run in L1: 16x, about 8x, or less? And from DRAM?"
step "1. lanes: scalar, auto, SSE, AVX2, AVX-512 from L1 to DRAM" "$BIN/lanes" -n "$lane_sizes" --csv "$RESULTS/lanes.csv"

predict "a dot product is the FMA loop plus two loads per FMA. What share of the best FMA
  loop will the best dot rung reach in L1: about 100%, 50% or 25%? With how many accumulators?"
step "2. a dot product needs several accumulators" "$BIN/dot" -n "$dot_sizes" --csv "$RESULTS/dot.csv"

predict "will the plain loop piecewise_auto cost the same on random signs as on sorted ones
  (does it depend on the compiler, the ISA)? How many times slower will piecewise_branch be
  on random signs: 1x, 2x or 5x?"
step "3. masks instead of branches" "$BIN/branches" --csv "$RESULTS/branches.csv"
