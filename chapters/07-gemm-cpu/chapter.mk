# Chapter 07: the CPU GEMM ladder against OpenBLAS. (7.1 pack: the packing
# routines of the micro-kernel; 7.2 blocked: the loop order and blocking rung.)
# Kernels: the ladder (gemm.c) and its micro-kernels per ISA.
$(call chapter,07,gemm-cpu,gemm,gemm gemm_x86 gemm_neon gemm_scalar,$(filter $(basename $(notdir $(wildcard exercises/07-gemm-cpu/*.c))),pack blocked))

# The scalar micro-kernel is the fallback every vector one is measured
# against: it must stay one float per instruction under -O3 -march=native
# (as chapter 02's scalar rungs). gcc and clang both accept these flags.
KFLAGS_gemm_scalar := -fno-tree-vectorize -fno-tree-slp-vectorize
