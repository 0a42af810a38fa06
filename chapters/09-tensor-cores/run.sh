#!/usr/bin/env bash
# chapters/09-tensor-cores/run.sh: what `make chapter-9` runs, in the order
# the README reads. On the emulator each program verifies every rung, then
# counts what each kernel does and models its time on an H100 and an H200
# from the counts (DEVICE=name or a .gpu file: another GPU's tables), and
# holds the model against SGEMM_CUDA's measured ladder on an RTX A6000; where nvcc built the same programs for a GPU
# (build/gpu/ch09/) they run there too and time for real, beside the model,
# or say in one line that there is no GPU. Before each step the questions to
# answer first; after it, the program prints its answers from its own numbers.
#   BIN      the emulator programs (default build/ch09); GPU ones in BIN/../gpu/ch09
#   RESULTS  where the CSV goes (default results/09-tensor-cores)
#   DEVICE   the GPU of the model's tables (default h100-sxm; common/gpus/)
#   FULL=1   a bigger emulated size (512 instead of 256), GPU sizes 4096 and 8192
set -euo pipefail
BIN=${BIN:-build/ch09}
RESULTS=${RESULTS:-results/09-tensor-cores}
GPU=$(dirname "$BIN")/gpu/ch09
mkdir -p "$RESULTS"

n=256; gpu_sizes=4096
if [ "${FULL:-}" = 1 ]; then
    export PW_MIN_TIME=0.5 PW_MIN_REPS=15
    n=512; gpu_sizes=4096,8192
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

# Counts are exact at any worker count; two OS threads halve the wait.
export PW_SIMT_WORKERS=${PW_SIMT_WORKERS:-2}
# The model predicts for the GPU run's sizes; the GPU run reads those
# predictions from the emulator's CSV and prints them beside its times.
predict "rungs 1 and 2 do the same loads in another order: how many times fewer global sectors does
  rung 2 need, and how much faster is it?"
predict "which single rung cuts global traffic per flop the most, and by what factor?"
predict "on an H100 (67 TFLOP/s fp32, 989.5 bf16 Tensor Core, 3.35 TB/s), what fraction of its peak
  can the best fp32 rung reach? The best Tensor Core rung?"
predict "the H200 has 43% more memory bandwidth than the H100: how much faster is a 4096^3 bf16 GEMM?"
step "1. the GEMM ladder: counted, then modelled on an H100 and an H200" \
    "$BIN/gemm" ${DEVICE:+--device "$DEVICE"} -n "$n" --model-n "$gpu_sizes" --csv "$RESULTS/gemm.csv" --published-csv "$RESULTS/published.csv"
gpu gemm --sizes "$gpu_sizes" --model-csv "$RESULTS/gemm.csv" --csv "$RESULTS/gemm_gpu.csv"
predict "fp16 inputs, fp32 sums, inputs in [-1, 1): how large is the error relative to the answer at
  k = 16? At k = 4096: 256x larger, 16x, or the same?"
predict "how many times fp16's error is bf16's?"
predict "the worst-case bound is 2u x sum|ab|: does the worst element come within 2x of it, 10x, or 100x?"
predict "a 16x16x16 product on the Tensor Core rung with inputs of 7e4, in fp16 and in bf16; and with
  inputs of 1e-8?"
step "2. precision: fp16 and bf16 inputs, fp32 accumulation, as k grows" \
    "$BIN/precision" --csv "$RESULTS/precision.csv"
gpu precision --csv "$RESULTS/precision_gpu.csv"
