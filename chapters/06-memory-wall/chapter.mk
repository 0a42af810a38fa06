# Chapter 06: the memory wall and the roofline. Programs are every .c file
# here; exercises come in the order listed (6.1 intensity, 6.2 transpose,
# 6.3 online_softmax), those that exist.
#
# Kernels: the chapter's own (kernels/stream.c, memlevels.c, transpose.c,
# softmax.c), and, for the roofline program, the kernels of the chapters it
# places on the roofline: 01 (elementwise), 02 (simd ladder) and 07 (gemm).
ch06_progs   := $(sort $(basename $(notdir $(wildcard chapters/06-memory-wall/*.c))))
ch06_own     := $(basename $(notdir $(wildcard kernels/stream.c kernels/memlevels.c kernels/transpose.c kernels/softmax.c)))
ch06_gemm    := $(basename $(notdir $(wildcard kernels/gemm*.c)))
ch06_kernels := $(ch06_own) elementwise simd simd_scalar simd_notrap simd_x86 simd_neon $(ch06_gemm)
ch06_ex      := $(filter $(basename $(notdir $(wildcard exercises/06-memory-wall/*.c))),intensity transpose online_softmax)
$(call chapter,06,memory-wall,$(ch06_progs),$(ch06_kernels),$(ch06_ex))
