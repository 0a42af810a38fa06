# Chapter 09: Tensor Core GEMM. Like chapter 08, the programs are .cu drivers
# built against the SIMT emulator always and with nvcc when it is present
# (mk/cuda.mk); the ladder's kernels are one file, kernels/gemm_gpu.cu.
# Exercises 9.1-9.4 are CUDA kernels graded on the emulator.
$(call chapter,09,tensor-cores,,,)
# 9.4's checker runs the ladder's rungs 3 and 5 beside the learner's kernel (mk/cuda.mk).
cu_ex_kernels_09_reg_tile := gemm_gpu
$(call cuda_chapter,09,tensor-cores,gemm precision,gemm_gpu,smem_tile wmma_tile wmma_edges reg_tile flash)
# cuBLAS is rung 0 of the ladder on a GPU (the emulator build has no rung 0).
$(BUILD)/gpu/ch09/%: GPU_LIBS := -lcublas
