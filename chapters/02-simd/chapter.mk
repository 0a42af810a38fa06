# Chapter 02: SIMD. Programs, the kernels they link, and the exercises
# (2.1 leaky_relu: intrinsics with a mask and a tail; 2.2 sumsq: a sum
# rewritten so the compiler vectorises it).
$(call chapter,02,simd,lanes dot branches,simd simd_scalar simd_notrap simd_x86 simd_neon,leaky_relu sumsq)

# The scalar rungs are the baseline every speedup divides: they must stay one
# float per instruction even under -O3 -march=native. Both gcc and clang
# accept these two spellings; tests/ch02.sh checks the object file with
# objdump (no packed arithmetic in it).
KFLAGS_simd_scalar := -fno-tree-vectorize -fno-tree-slp-vectorize

# piecewise_notrap: the piecewise loop of simd.c with the promise that no
# float traps are wanted, so computing both arms is allowed with any ISA
# (kernels/simd_notrap.c says why it matters). gcc and clang both accept it.
KFLAGS_simd_notrap := -fno-trapping-math
