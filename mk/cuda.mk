# mk/cuda.mk: CUDA with nvcc, and the SIMT emulator without it.

.PHONY: gpu-test
gpu-test:
	@$(if $(HAVE_CUDA_DEVICE),echo "gpu-test: no GPU kernels yet: they arrive with the SIMT chapters",echo "gpu-test: skipped: no CUDA device here ($(if $(HAVE_NVCC),nvcc found but nvidia-smi sees no GPU,nvcc not found))")
