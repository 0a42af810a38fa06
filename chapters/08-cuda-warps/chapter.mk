# Chapter 08: CUDA warps. The programs are .cu drivers, built against the
# SIMT emulator always and with nvcc when it is present (mk/cuda.mk), so the
# chapter template gets no programs; exercises 8.1-8.3 are CUDA kernels to write, 8.4 a CUDA bug hunt, 8.5-8.19 the GPU puzzles.
$(call chapter,08,cuda-warps,,,)
$(call cuda_chapter,08,cuda-warps,warps memory reduce,warps,block_sum warp_scan stencil quantize map zip guards map2d broadcast blocks shared pool dot conv1d prefix_sum axis_sum matmul coalesce bank_conflicts)
# make chapter-8 draws the access pictures of the GPU puzzles (8.5 on) from
# their solutions' checkers (run.sh's step 4).
PUZZLES_08 = $(filter-out 8.1 8.2 8.3 8.4,$(filter 8.%,$(EXERCISES)))
chapter-8: $(foreach p,$(PUZZLES_08),$(BUILD)/sol/$(p)/check)
