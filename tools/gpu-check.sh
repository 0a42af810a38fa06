#!/usr/bin/env bash
# tools/gpu-check.sh: the GPU checks in one run, for a machine with an NVIDIA
# GPU (made for a short loan of one: everything it measures lands in OUT).
#
#   OUT=/path bash tools/gpu-check.sh        (default OUT: results/gpu-check)
#
# 1. builds the nvcc programs for the GPU at hand (CUDA_ARCH, default sm_90:
#    H100/H200; sm_80 for an A100) and the emulator ones;
# 2. make gpu-test: every CUDA program's --tiny (each verifies every kernel
#    against the CPU first) and the conformance suite tests/cuda/ on the GPU;
# 3. the GPU chapters for real: chapter 08's programs and chapter 09's ladder
#    at 4096 and 8192 (cuBLAS beside every rung, the model's time for the GPU
#    at hand, from its common/gpus file, beside the measured one: the ratio
#    is the model's check on this device) and its precision sweep, CSV into OUT;
# 4. nvidia-smi's view of the device and the commands run, into OUT/README.
# Commit what it wrote under results/reference/<gpu>/ with this command.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-results/gpu-check}
CUDA_ARCH=${CUDA_ARCH:-sm_90}
mkdir -p "$OUT"
log=$OUT/README
{
    echo "# tools/gpu-check.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), CUDA_ARCH=$CUDA_ARCH"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1 || echo "nvidia-smi: none"
    nvcc --version 2>&1 | tail -1
} >"$log"
fails=0
run() { echo "\$ $*" | tee -a "$log"; "$@" 2>&1 | tee -a "$OUT/log.txt"; local rc=${PIPESTATUS[0]}; echo "  -> exit $rc" >>"$log"; [ "$rc" -eq 0 ] || fails=$((fails + 1)); }

jobs=$(nproc 2>/dev/null || echo 4)
run make -j"$jobs" CUDA_ARCH="$CUDA_ARCH" programs
run make CUDA_ARCH="$CUDA_ARCH" gpu-test
for p in warps memory reduce; do
    [ -x build/gpu/ch08/$p ] && run build/gpu/ch08/$p --csv "$OUT/ch08_$p.csv"
done
# the model's predictions come from the emulator's counts, at the GPU's sizes
[ -x build/ch09/gemm ] && run build/ch09/gemm --model-n 4096,8192 --csv "$OUT/ch09_gemm_model.csv" \
    --published-csv "$OUT/ch09_published.csv"
[ -x build/gpu/ch09/gemm ] && run build/gpu/ch09/gemm --sizes 4096,8192 --model-csv "$OUT/ch09_gemm_model.csv" \
    --csv "$OUT/ch09_gemm.csv"
[ -x build/gpu/ch09/precision ] && run build/gpu/ch09/precision --csv "$OUT/ch09_precision.csv"
echo "gpu-check: $fails step(s) failed; CSV and logs in $OUT" | tee -a "$log"
[ "$fails" -eq 0 ]
