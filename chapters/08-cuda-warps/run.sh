#!/usr/bin/env bash
# chapters/08-cuda-warps/run.sh: what `make chapter-8` runs, in the order the
# README reads. Before each step a question to answer first; after it, the
# program prints the answer from its own counts (or times, on a GPU). Each
# program runs its kernels on the SIMT emulator and prints
# what they did per warp; where nvcc built the same program for the GPU
# (build/gpu/ch08/) it runs that too, or says in one line that there is no GPU.
# The emulator's programs also print the time their counts would take on a GPU,
# modelled (common/gpu_model.h) for DEVICE; their CSVs carry the counts scaled
# to the GPU run's sizes, so the GPU run prints the model beside its measurement.
#   BIN      the emulator programs (default build/ch08); GPU ones in BIN/../gpu/ch08
#   RESULTS  where the CSV goes (default results/08-cuda-warps)
#   DEVICE   the GPU the model is for (default h100-sxm; a100-sxm, h200-sxm, rtx-a6000, or a .gpu file)
#   FULL=1   bigger sizes
set -euo pipefail
BIN=${BIN:-build/ch08}
RESULTS=${RESULTS:-results/08-cuda-warps}
GPU=$(dirname "$BIN")/gpu/ch08
mkdir -p "$RESULTS"

n=1M; gpu_n=64M
if [ "${FULL:-}" = 1 ]; then
    export PW_MIN_TIME=0.5 PW_MIN_REPS=15
    n=4M; gpu_n=256M
fi

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"
# The GPU run of a program, when nvcc built it: exit 77 means no device.
gpu() {
    local p=$1; shift
    [ -x "$GPU/$p" ] || return 0
    printf '\n$ %s\n' "$GPU/$p $*"
    local rc=0
    "$GPU/$p" "$@" || rc=$?
    if [ $rc -eq 77 ]; then return 0; fi
    return $rc
}

# --device for the model, when DEVICE is set (an empty array is unset to `set -u` in old bash: hence the +)
dev=(); [ -n "${DEVICE:-}" ] && dev=(--device "$DEVICE")

predict "element 99 of 100, blocks of 64 threads: in which block, warp and lane does it run, and
  how many of its warp's 32 lanes have an element?"
predict "a branch on lane parity against one on warp parity, the same work per thread: what SIMT
  efficiency does each reach, and how many times the warp instructions does the first issue?"
predict "262144 random floats in [0, 1), threshold 0.5: about how many atomics does one atomic per
  match make, and how many one ballot per warp?"
step "1. grid, block, warp, lane; divergence; vote" "$BIN/warps" ${dev[@]+"${dev[@]}"} --csv "$RESULTS/warps.csv"
gpu warps -n 16M ${dev[@]+"${dev[@]}"} --model-csv "$RESULTS/warps.csv" --csv "$RESULTS/warps_gpu.csv"
predict "how many 32-byte sectors does one warp load take at stride 2, 8 and 32, and for one field
  of a 12-byte struct?"
predict "a 32x32 float tile in shared memory read by column: how many ways conflicted? And with one
  padding column, tile[32][33]?"
predict "on an H100 the stride-8 copy moves 8x the sectors of stride 1: how many times slower will the
  model make it, and which resource will bind each of the two?"
step "2. coalescing and shared-memory bank conflicts" "$BIN/memory" --model-n 4096 ${dev[@]+"${dev[@]}"} --csv "$RESULTS/memory.csv"
gpu memory -n 4096 ${dev[@]+"${dev[@]}"} --model-csv "$RESULTS/memory.csv" --csv "$RESULTS/memory_gpu.csv"
predict "which reduction rung has the lowest SIMT efficiency, which the most bank conflicts, and
  how many times fewer warp instructions per element does the last rung issue than the first?"
predict "on an H100 at n = 4M, which step of the ladder will the model call the biggest, and which term
  (DRAM, latency, shared memory...) will bind the last rung?"
step "3. the reduction ladder" "$BIN/reduce" -n "$n" --model-n "4M,$gpu_n" ${dev[@]+"${dev[@]}"} --csv "$RESULTS/reduce.csv"
gpu reduce -n "$gpu_n" ${dev[@]+"${dev[@]}"} --model-csv "$RESULTS/reduce.csv" --csv "$RESULTS/reduce_gpu.csv"

# The GPU puzzles (exercises 8.5 on): each solution's checker prints the
# access picture of its tiny launch and writes it for the gallery
# (PW_PICTURE_DIR: results/08-cuda-warps/puzzle_<name>.csv, drawn by
# plots/08-cuda-warps/puzzle_*.gp). `make chapter-8` builds these checkers.
SOL=$(dirname "$BIN")/sol
puzzles() {
    local c id
    # in exercise order (8.5 ... 8.10, not 8.10 before 8.5)
    for c in $(printf '%s\n' "$SOL"/8.*/check | sort -V); do
        [ -x "$c" ] || continue
        id=$(basename "$(dirname "$c")")
        (( ${id#8.} >= 5 )) || continue
        printf '\n$ PW_PICTURE_DIR=%s %s\n' "$RESULTS" "$c"
        PW_PICTURE_DIR=$RESULTS "$c"
    done
}
predict "puzzle 8.5 (map): one block of 8 threads adds 10 to 8 elements. Draw the picture: which thread
  reads which element of a and writes which of out?"
step "4. the GPU puzzles' access pictures (their solutions)" puzzles
