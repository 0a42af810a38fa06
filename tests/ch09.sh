# tests/ch09.sh: chapter 09 (Tensor Core GEMM), sourced by tests/run.sh.
# The generic tests already ran every program with --tiny (which verifies
# every rung on odd sizes before it counts anything) and fed them bad input;
# the emulator's Tensor Cores have their own unit test (tests/test_wmma.cu)
# and conformance programs (tests/cuda/wmma_gemm.cu, bad_wmma_*.cu). Here:
# the ladder's counters and model (ch09_gemm.sh), the precision lesson
# (ch09_precision.sh) and the exercises' wrong answers (ch09_exercises.sh).
# The answer lines against the CSV and the predict/answers structure: ch09_answers.sh.
for ch09_part in tests/ch09_gemm.sh tests/ch09_model.sh tests/ch09_precision.sh tests/ch09_exercises.sh tests/ch09_answers.sh; do
    [ -f "$ch09_part" ] && . "$ch09_part"
done
