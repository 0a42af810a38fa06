# mk/cuda.mk: CUDA kernels built twice from the same .cu files.
#
#   emulator  always: the host compiler ($(CC)) builds kernels/*.cu and the
#             chapter drivers (chapters/NN-x/*.cu) as C against the SIMT
#             emulator (common/simt.h). C has no <<<...>>>, so a launcher per
#             kernel is generated from its signature (mk/simt-launchers.awk)
#             into $(BUILD)/gen/simt/<file>.launch.{h,c}.
#   nvcc      when nvcc is found (and no sanitizer is on): the same files for
#             the GPU, into $(BUILD)/gpu/. `make` builds them even without a
#             GPU, so code that nvcc rejects is caught by CI.
#
# A chapter with CUDA programs, in its chapter.mk after $(call chapter,...):
#   $(call cuda_chapter,NN,name,programs,kernel files,exercises)
#   programs   chapters/NN-name/<p>.cu -> $(BUILD)/chNN/<p> (emulator, smoke-tested)
#                                       and $(BUILD)/gpu/chNN/<p> (nvcc)
#   kernel files  kernels/<k>.cu, linked into every program of the chapter
#   exercises  exercises/NN-name/<e>.cu graded by check_<e>.c on the emulator;
#              the i-th is exercise N.i (ex-N.i, solution-N.i)
#
# Variables: CUDA_ARCH (default sm_80,sm_90: A100 and H100/H200; PTX of the
# last one is embedded too, for newer GPUs), NO_CUDA=1 (as if nvcc were missing).

comma := ,
CUDA_ARCH ?= sm_80,sm_90
SIMT_GEN  := $(BUILD)/gen/simt
SIMT_AWK  := mk/simt-launchers.awk
cuda_archs = $(subst $(comma), ,$(CUDA_ARCH))
NVCC_GENCODE = $(foreach a,$(cuda_archs),-gencode arch=compute_$(a:sm_%=%),code=$(a)) \
               -gencode arch=compute_$(lastword $(cuda_archs:sm_%=%)),code=compute_$(lastword $(cuda_archs:sm_%=%))
NVCC_FLAGS = -O3 -std=c++17 $(NVCC_GENCODE) -Icommon -Ikernels \
             -Xcompiler -Wall,-Wextra $(if $(filter 1,$(WERROR)),-Werror all-warnings -Xcompiler -Werror)
# The GPU build: nvcc present, and no sanitizer (nvcc cannot link ASan/TSan objects).
CUDA_GPU_BUILD := $(if $(HAVE_NVCC),$(if $(SAN),,1))
GPU_PROGRAMS :=

# ---- the emulator's launchers, generated from a source's __global__ definitions ----
define simt_gen
	@mkdir -p $(@D)
	awk -v mode=$(1) -v src=$< -f $(SIMT_AWK) $< > $@.tmp && mv $@.tmp $@
endef
$(SIMT_GEN)/%.launch.h: kernels/%.cu $(SIMT_AWK)
	$(call simt_gen,h)
$(SIMT_GEN)/%.launch.c: kernels/%.cu $(SIMT_AWK)
	$(call simt_gen,c)
$(SIMT_GEN)/test_%.launch.h: tests/test_%.c $(SIMT_AWK)
	$(call simt_gen,h)
$(SIMT_GEN)/test_%.launch.c: tests/test_%.c $(SIMT_AWK)
	$(call simt_gen,c)

# A kernel file on the emulator: the generated file includes the source.
$(BUILD)/simt/%.o: $(SIMT_GEN)/%.launch.c $(SIMT_GEN)/%.launch.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I. -I$(SIMT_GEN) -MMD -MP -c -o $@ $<

# The emulator's self-tests: the kernels are inside the test file itself.
# (The chapter kernels are tested by their programs, which check every
# kernel on odd sizes and several block sizes in each --tiny run.)
$(BUILD)/tests/test_simt: $(SIMT_GEN)/test_simt.launch.c $(SIMT_GEN)/test_simt.launch.h $(LIBPW)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I. -Itests -I$(SIMT_GEN) -MMD -MP -o $@ $< $(LIBPW) $(LDLIBS)
# Blocks on several OS threads (the atomics test): also under ThreadSanitizer.
TSAN_TESTS += test_simt

# ---- nvcc ---------------------------------------------------------------------------
$(BUILD)/gpu/kernels/%.o: kernels/%.cu
	@mkdir -p $(@D)
	$(HAVE_NVCC) $(NVCC_FLAGS) -c -o $@ $<
# `make` (the programs target) builds everything nvcc can build here; each
# chapter adds its programs and exercises (see cuda_chapter_template).
.PHONY: cuda-programs
programs: cuda-programs
cuda-programs:

# ---- a chapter's CUDA programs and exercises --------------------------------------------
# $(1)=NN $(2)=name $(3)=programs $(4)=kernel files $(5)=exercises
define cuda_chapter_template
ch$(1)_cu_bins := $(addprefix $$(BUILD)/ch$(1)/,$(3))
ch$(1)_cu_kobjs := $(patsubst %,$$(BUILD)/simt/%.o,$(4))
ch$(1)_cu_khdrs := $(patsubst %,$$(SIMT_GEN)/%.launch.h,$(4))
ch$(1)_gpu_bins := $(addprefix $$(BUILD)/gpu/ch$(1)/,$(3))
ch$(1)_gpu_kobjs := $(patsubst %,$$(BUILD)/gpu/kernels/%.o,$(4))
PROGRAMS += $$(ch$(1)_cu_bins)

# A driver on the emulator: the .cu is C to the host compiler.
$$(ch$(1)_cu_bins): $$(BUILD)/ch$(1)/%: chapters/$(1)-$(2)/%.cu $$(ch$(1)_cu_kobjs) $$(ch$(1)_cu_khdrs) $$(LIBPW)
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_CFLAGS) -I$$(SIMT_GEN) -MMD -MP -x c -o $$@ $$< -x none $$(ch$(1)_cu_kobjs) $$(LIBPW) $$(LDLIBS)
# The same driver for the GPU.
$$(ch$(1)_gpu_bins): $$(BUILD)/gpu/ch$(1)/%: chapters/$(1)-$(2)/%.cu $$(ch$(1)_gpu_kobjs) $$(LIBPW)
	@mkdir -p $$(@D)
	$$(HAVE_NVCC) $$(NVCC_FLAGS) -o $$@ $$< $$(ch$(1)_gpu_kobjs) $$(LIBPW) $$(LDLIBS)
ifneq ($$(CUDA_GPU_BUILD),)
GPU_PROGRAMS += $$(ch$(1)_gpu_bins)
cuda-programs chapter-$$(ch$(1)_num): $$(ch$(1)_gpu_bins)
cuda-programs: $(foreach e,$(5),$$(BUILD)/gpu/ex/$(1)/$(e).o $$(BUILD)/gpu/sol/$(1)/$(e).o)
endif
chapter-$$(ch$(1)_num): $$(ch$(1)_cu_bins)

$$(foreach e,$(5),$$(eval $$(call cuda_exercise_template,$(1),$(2),$$(ch$(1)_num).$$(words $$(cu_ex_seen_$(1)) x),$$(e))))
endef

# $(1)=NN $(2)=name $(3)=N.K $(4)=exercise name
define cuda_exercise_template
cu_ex_seen_$(1) += x
EXERCISES += $(3)
$$(BUILD)/ex/$(3)/gen/$(4).launch.h: exercises/$(1)-$(2)/$(4).cu $$(SIMT_AWK)
	$$(call simt_gen,h)
$$(BUILD)/ex/$(3)/gen/$(4).launch.c: exercises/$(1)-$(2)/$(4).cu $$(SIMT_AWK)
	$$(call simt_gen,c)
$$(BUILD)/sol/$(3)/gen/$(4).launch.h: solutions/$(1)-$(2)/$(4).cu $$(SIMT_AWK)
	$$(call simt_gen,h)
$$(BUILD)/sol/$(3)/gen/$(4).launch.c: solutions/$(1)-$(2)/$(4).cu $$(SIMT_AWK)
	$$(call simt_gen,c)
# The checker, with the learner's kernels (ex) or the solution's (sol): the
# generated launcher (which includes the .cu) is compiled alone first, and
# read by tools/ex_inspect.sh, as for the C exercises (see mk/chapter.mk).
$$(BUILD)/ex/$(3)/check: exercises/$(1)-$(2)/check_$(4).c $$(BUILD)/ex/$(3)/gen/$(4).launch.c \
        $$(BUILD)/ex/$(3)/gen/$(4).launch.h exercises/$(1)-$(2)/$(4).cu $$(wildcard exercises/$(1)-$(2)/*.h \
        exercises/$(1)-$(2)/check_$(4).rules) $$(LIBPW) $$(EX_TOOLS)
	$$(call ex_build,$(3),exercises/$(1)-$(2)/$(4).cu,-I. -Iexercises/$(1)-$(2) -I$$(BUILD)/ex/$(3)/gen) \
	  $$(BUILD)/ex/$(3)/gen/$(4).launch.c exercises/$(1)-$(2)/check_$(4).c $$@ $$(LIBPW)
$$(BUILD)/sol/$(3)/check: exercises/$(1)-$(2)/check_$(4).c $$(BUILD)/sol/$(3)/gen/$(4).launch.c \
        $$(BUILD)/sol/$(3)/gen/$(4).launch.h solutions/$(1)-$(2)/$(4).cu $$(wildcard exercises/$(1)-$(2)/*.h \
        exercises/$(1)-$(2)/check_$(4).rules) $$(LIBPW) $$(EX_TOOLS)
	$$(call ex_build,$(3),solutions/$(1)-$(2)/$(4).cu,-I. -Iexercises/$(1)-$(2) -I$$(BUILD)/sol/$(3)/gen) \
	  $$(BUILD)/sol/$(3)/gen/$(4).launch.c exercises/$(1)-$(2)/check_$(4).c $$@ $$(LIBPW)
# The wrong answers tests/ex_loopholes.sh grades (tests/wrong/N.K-what.cu).
$$(BUILD)/wrong/$(3)-%/gen/$(4).launch.h: tests/wrong/$(3)-%.cu $$(SIMT_AWK)
	$$(call simt_gen,h)
$$(BUILD)/wrong/$(3)-%/gen/$(4).launch.c: tests/wrong/$(3)-%.cu $$(SIMT_AWK)
	$$(call simt_gen,c)
$$(BUILD)/wrong/$(3)-%/check: $$(BUILD)/wrong/$(3)-%/gen/$(4).launch.c $$(BUILD)/wrong/$(3)-%/gen/$(4).launch.h \
        tests/wrong/$(3)-%.cu exercises/$(1)-$(2)/check_$(4).c $$(wildcard exercises/$(1)-$(2)/*.h) $$(LIBPW) $$(EX_TOOLS)
	$$(call ex_build,$(3),tests/wrong/$(3)-$$*.cu,-I. -Iexercises/$(1)-$(2) -I$$(BUILD)/wrong/$(3)-$$*/gen) \
	  $$< exercises/$(1)-$(2)/check_$(4).c $$@ $$(LIBPW)
test: $$(patsubst tests/wrong/%.cu,$$(BUILD)/wrong/%/check,$$(wildcard tests/wrong/$(3)-*.cu))
.PRECIOUS: $$(BUILD)/wrong/$(3)-%/gen/$(4).launch.c $$(BUILD)/wrong/$(3)-%/gen/$(4).launch.h
# nvcc must accept the skeleton and the solution too.
$$(BUILD)/gpu/ex/$(1)/$(4).o: exercises/$(1)-$(2)/$(4).cu
	@mkdir -p $$(@D)
	$$(HAVE_NVCC) $$(NVCC_FLAGS) -Iexercises/$(1)-$(2) -c -o $$@ $$<
$$(BUILD)/gpu/sol/$(1)/$(4).o: solutions/$(1)-$(2)/$(4).cu
	@mkdir -p $$(@D)
	$$(HAVE_NVCC) $$(NVCC_FLAGS) -Iexercises/$(1)-$(2) -c -o $$@ $$<

.PHONY: ex-$(3) solution-$(3)
ex-$(3): $$(BUILD)/ex/$(3)/check
	@bash tools/grade.sh $(3) $$< exercises/$(1)-$(2)/$(4).cu
solution-$(3): $$(BUILD)/sol/$(3)/check
	@bash tools/grade.sh $(3) $$< solutions/$(1)-$(2)/$(4).cu
endef

cuda_chapter = $(eval $(call cuda_chapter_template,$(1),$(2),$(3),$(4),$(5)))

# ---- make gpu-test: the kernels on a real device ------------------------------------------
# Builds the nvcc programs, then runs each with --tiny: each checks every
# kernel against the CPU before it times anything. Without a device the
# programs would exit 77 (skipped); this target says so in one line instead,
# with status 0, and builds nothing.
.PHONY: gpu-test
gpu-test:
	@if [ -z "$(HAVE_NVCC)" ]; then echo "gpu-test: skipped: nvcc not found (the CUDA toolkit from developer.nvidia.com)"; \
	elif [ -n "$(SAN)" ]; then echo "gpu-test: skipped: no nvcc build under SAN=$(SAN)"; \
	elif [ -z "$(HAVE_CUDA_DEVICE)" ]; then echo "gpu-test: skipped: no CUDA device here (nvidia-smi sees no GPU); the kernels ran on the emulator in make test"; \
	else $(MAKE) --no-print-directory cuda-programs || exit 1; fails=0; for p in $(GPU_PROGRAMS); do \
	    printf '%s\n' "== $$p"; "$$p" --tiny; rc=$$?; \
	    if [ $$rc -ne 0 ]; then echo "FAIL $$p (exit $$rc)"; fails=$$((fails + 1)); fi; done; \
	  echo "gpu-test: $(words $(GPU_PROGRAMS)) programs, $$fails failed"; [ $$fails -eq 0 ]; fi

# The generated launchers are intermediate files of a pattern chain: keep
# them, or make deletes them after each build and regenerates them next time.
.PRECIOUS: $(SIMT_GEN)/%.launch.c $(SIMT_GEN)/%.launch.h
