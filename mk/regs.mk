# mk/regs.mk: ptxas's registers per thread for the GPU model's occupancy.
#
# Where nvcc is found (and no sanitizer is on: as mk/cuda.mk's GPU build),
# `make` writes $(BUILD)/gen/registers.tsv with tools/kernel-resources.sh:
# every .cu file that defines kernels (kernels/, chapters 08 and 09), on each
# arch of REGS_ARCHS, one part each ($(BUILD)/gen/regs/ARCH/FILE.tsv, compiled
# in parallel under make -j, again only when the file, a header it includes
# or nvcc changes), merged into one sorted table. common/gpu_regs.c reads it
# first, then the committed common/gpus/registers.tsv (the same tool's table,
# for machines without nvcc; `make registers-table` renews it). Without nvcc
# nothing here is built.
#
# Variables: REGS_ARCHS (default sm_80 sm_86 sm_90: A100, RTX A6000,
# H100/H200, the device files' archs).

REGS_ARCHS ?= sm_80 sm_86 sm_90
REGS_TSV := $(BUILD)/gen/registers.tsv
REGS_COMMITTED := common/gpus/registers.tsv

# Where common/gpu_regs.c looks (absolute, so a program finds them from any
# directory; $PW_REGS_BUILD / $PW_REGS_COMMITTED override them at run time).
$(BUILD)/common/gpu_regs.o: ALL_CFLAGS += -DPW_REGS_BUILD_TSV='"$(abspath $(REGS_TSV))"' \
                                          -DPW_REGS_COMMITTED_TSV='"$(CURDIR)/$(REGS_COMMITTED)"'

ifneq ($(CUDA_GPU_BUILD),)
REGS_SRC := $(shell bash tools/kernel-resources.sh --list 2>/dev/null)
REGS_PARTS := $(foreach a,$(REGS_ARCHS),$(patsubst %.cu,$(BUILD)/gen/regs/$(a)/%.tsv,$(REGS_SRC)))

# One part: one file on one arch (nvcc writes its .d: a header edited
# compiles the part again; nvcc itself is a prerequisite, for an upgrade).
define regs_arch_rule
$$(BUILD)/gen/regs/$(1)/%.tsv: %.cu tools/kernel-resources.sh $$(HAVE_NVCC)
	@mkdir -p $$(@D)
	@echo "ptxas -v $$< ($(1))"
	@NVCC=$$(HAVE_NVCC) bash tools/kernel-resources.sh --rows $(1) $$< -o $$@ --dep $$@.d
endef
$(foreach a,$(REGS_ARCHS),$(eval $(call regs_arch_rule,$(a))))

$(REGS_TSV): $(REGS_PARTS) tools/kernel-resources.sh
	@echo "registers per thread (ptxas) -> $@"
	@NVCC=$(HAVE_NVCC) bash tools/kernel-resources.sh --merge -o $@ $(REGS_PARTS)

# Before any program runs: `make`, `make test`, and the targets that run
# the GPU chapters' programs build it (the programs read it at run time, so
# it orders nothing else: no program is relinked when it changes).
programs cuda-programs test-build: $(REGS_TSV)
chapter-8 chapter-9 ladder $(BUILD)/tests/test_gpu_regs: | $(REGS_TSV)
endif

# Renews the committed table from this machine's nvcc (commit the result).
.PHONY: registers-table
registers-table:
	@if [ -z "$(HAVE_NVCC)" ]; then echo "registers-table: nvcc not found: the committed $(REGS_COMMITTED) stays"; exit 1; fi
	NVCC=$(HAVE_NVCC) bash tools/kernel-resources.sh -a "$(REGS_ARCHS)" -o $(REGS_COMMITTED)
