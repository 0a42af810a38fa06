# mk/cuda.mk: CUDA programs built twice from the same .cu files.
#
#   emulator  always: tools/pwcc builds each .cu as C++17 against the SIMT
#             emulator (common/simt/simt.h): tools/pwcc-tr rewrites <<<>>> and
#             __shared__, the host C++ compiler instruments every memory
#             access (-fsanitize=thread, hooks renamed to the emulator's).
#   nvcc      the same files for the GPU, into $(BUILD)/gpu/, when nvcc is
#             found, no sanitizer is on, and there is a CUDA device to run
#             them (or GPU=1 asks for them: `make gpu`, `make gpu-test`).
#             Without a device they could only say "skipped", and nvcc
#             spends about 40 s of a 2-core machine on them (two archs);
#             CI builds them with `make gpu`, so code nvcc rejects is
#             still caught. Every one links common/gpu_guard.cu: without a
#             device it prints one line on stderr and exits 77.
#
# A chapter with CUDA programs, in its chapter.mk after $(call chapter,...):
#   $(call cuda_chapter,NN,name,programs,kernel files,exercises)
#   programs   chapters/NN-name/<p>.cu -> $(BUILD)/chNN/<p> (emulator, smoke-tested)
#                                       and $(BUILD)/gpu/chNN/<p> (nvcc)
#   kernel files  kernels/<k>.cu, linked into every program of the chapter
#   exercises  exercises/NN-name/<e>.cu graded by check_<e>.c on the emulator;
#              the i-th is exercise N.i (ex-N.i, solution-N.i)
#
# A chapter whose GPU programs need a CUDA library sets it for them, e.g.
#   $(BUILD)/gpu/ch09/%: GPU_LIBS := -lcublas
# Variables: CUDA_ARCH (default sm_80,sm_90: A100 and H100/H200; PTX of the
# last one is embedded too, for newer GPUs), NO_CUDA=1 (as if nvcc were missing).

comma := ,
CUDA_ARCH ?= sm_80,sm_90
cuda_archs = $(subst $(comma), ,$(CUDA_ARCH))
NVCC_GENCODE = $(foreach a,$(cuda_archs),-gencode arch=compute_$(a:sm_%=%),code=$(a)) \
               -gencode arch=compute_$(lastword $(cuda_archs:sm_%=%)),code=compute_$(lastword $(cuda_archs:sm_%=%))
NVCC_FLAGS = -O3 -std=c++17 $(NVCC_GENCODE) -Icommon -Icommon/simt -Ikernels \
             -Xcompiler -Wall,-Wextra $(if $(filter 1,$(WERROR)),-Werror all-warnings -Xcompiler -Werror)
# The GPU build: nvcc present, no sanitizer (nvcc cannot link ASan/TSan
# objects), and a device or GPU=1. The banner (mk/detect.mk) says which.
GPU ?=
CUDA_GPU_WANTED := $(if $(HAVE_CUDA_DEVICE),1,$(filter 1,$(GPU)))
CUDA_GPU_BUILD := $(if $(HAVE_NVCC),$(if $(SAN),,$(CUDA_GPU_WANTED)))
# Why there is no GPU build, for the banner (empty when there is one).
CUDA_GPU_WHY_NOT := $(if $(HAVE_NVCC),$(if $(SAN),off under SAN=$(SAN),$(if $(CUDA_GPU_WANTED),,not built: no CUDA device here (make gpu or GPU=1 builds them anyway))),)
GPU_GUARD := $(BUILD)/gpu/common/gpu_guard.o
GPU_PROGRAMS :=

# ---- the emulator build ---------------------------------------------------------------
# The C++ compiler that goes with $(CC): g++ for gcc, clang++ for clang.
CC_IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -qi clang && echo 1)
CXX_EMU := $(if $(CC_IS_CLANG),$(subst clang,clang++,$(CC)),$(if $(findstring gcc,$(CC)),$(subst gcc,g++,$(CC)),c++))
SIMT_TR := $(BUILD)/tools/pwcc-tr
# Under ASan the .cu files keep UBSan only: ASan and the ThreadSanitizer
# instrumentation cannot share a file, and the emulator checks every access
# of kernel code itself (memcheck).
# (UBSan's alignment check is off there: a misaligned access is memcheck's to report, kernel and thread named.)
SIMT_SAN := $(if $(filter asan,$(SAN)),-fsanitize=undefined -fno-sanitize=alignment -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
SIMT_CUFLAGS = $(WARN) $(CFLAGS) $(SIMT_SAN) -Ikernels
SIMT_LINK = $(CXX_EMU) $(CFLAGS) $(OMP_FLAGS) $(SAN_FLAGS)
SIMT_LDLIBS := $(LDLIBS) -ldl

$(SIMT_TR): tools/pwcc-tr.c
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) -O2 -o $@ $<
.PHONY: pwcc-tools
pwcc-tools: $(SIMT_TR) $(LIBPW)

# $(call simt_cu,extra flags): $< (a .cu file) into $@, with its .d file.
simt_cu = @mkdir -p $(@D); echo "pwcc -c $< -o $@"; PW_NO_MAKE=1 PW_BUILD=$(BUILD) CC="$(CC)" CXX="$(CXX_EMU)" \
	bash tools/pwcc -c $< -o $@ $(SIMT_CUFLAGS) $(1) -MMD -MP

$(BUILD)/simt/kernels/%.o: kernels/%.cu $(SIMT_TR) tools/pwcc
	$(call simt_cu)

# The emulator's self-tests: kernels and checks in one .cu file.
$(BUILD)/simt/tests/%.o: tests/%.cu $(SIMT_TR) tools/pwcc
	$(call simt_cu,-Itests)
# test_wmma: the tensor cores (common/simt/cuda/mma.h).
$(BUILD)/tests/test_simt $(BUILD)/tests/test_wmma: $(BUILD)/tests/%: $(BUILD)/simt/tests/%.o $(LIBPW)
	@mkdir -p $(@D)
	$(SIMT_LINK) -o $@ $< $(LIBPW) $(SIMT_LDLIBS)
TEST_BINS += $(BUILD)/tests/test_simt $(BUILD)/tests/test_wmma
# Blocks on several OS threads (the atomics test): also under ThreadSanitizer.
TSAN_TESTS += test_simt

# ---- nvcc ---------------------------------------------------------------------------
$(BUILD)/gpu/kernels/%.o: kernels/%.cu
	@mkdir -p $(@D)
	$(HAVE_NVCC) $(NVCC_FLAGS) -c -o $@ $<
$(GPU_GUARD): common/gpu_guard.cu
	@mkdir -p $(@D)
	$(HAVE_NVCC) $(NVCC_FLAGS) -c -o $@ $<
# `make` (the programs target) builds everything nvcc can build here; each
# chapter adds its programs and exercises (see cuda_chapter_template).
.PHONY: cuda-programs
programs: cuda-programs
cuda-programs:

# The conformance suite (tests/cuda/) for the GPU: nvcc must accept every
# program as the emulator does (make gpu-test runs them where there is a GPU).
CUDA_SUITE := $(patsubst tests/cuda/%.cu,$(BUILD)/gpu/cuda/%,$(wildcard tests/cuda/*.cu))
$(BUILD)/gpu/cuda/%: tests/cuda/%.cu $(GPU_GUARD)
	@mkdir -p $(@D)
	$(HAVE_NVCC) -O2 -std=c++17 $(NVCC_GENCODE) -Itests/cuda -o $@ $< $(GPU_GUARD)
ifneq ($(CUDA_GPU_BUILD),)
cuda-programs: $(CUDA_SUITE)
endif

# ---- a chapter's CUDA programs and exercises --------------------------------------------
# $(1)=NN $(2)=name $(3)=programs $(4)=kernel files $(5)=exercises
define cuda_chapter_template
ch$(1)_cu_bins := $(addprefix $$(BUILD)/ch$(1)/,$(3))
ch$(1)_cu_kobjs := $(patsubst %,$$(BUILD)/simt/kernels/%.o,$(4))
ch$(1)_gpu_bins := $(addprefix $$(BUILD)/gpu/ch$(1)/,$(3))
ch$(1)_gpu_kobjs := $(patsubst %,$$(BUILD)/gpu/kernels/%.o,$(4))
PROGRAMS += $$(ch$(1)_cu_bins)

# A driver on the emulator.
$$(BUILD)/simt/ch$(1)/%.o: chapters/$(1)-$(2)/%.cu $$(SIMT_TR) tools/pwcc
	$$(call simt_cu)
$$(ch$(1)_cu_bins): $$(BUILD)/ch$(1)/%: $$(BUILD)/simt/ch$(1)/%.o $$(ch$(1)_cu_kobjs) $$(LIBPW)
	@mkdir -p $$(@D)
	$$(SIMT_LINK) -o $$@ $$< $$(ch$(1)_cu_kobjs) $$(LIBPW) $$(SIMT_LDLIBS)
# The same driver for the GPU.
$$(ch$(1)_gpu_bins): $$(BUILD)/gpu/ch$(1)/%: chapters/$(1)-$(2)/%.cu $$(ch$(1)_gpu_kobjs) $$(GPU_GUARD) $$(LIBPW)
	@mkdir -p $$(@D)
	$$(HAVE_NVCC) $$(NVCC_FLAGS) -o $$@ $$< $$(ch$(1)_gpu_kobjs) $$(GPU_GUARD) $$(LIBPW) $$(filter-out -Wl%,$$(LDLIBS)) $$(GPU_LIBS)
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
# A bug hunt (a `bughunt` line in its rules): the file given is a working-looking
# program with a planted bug, not a skeleton; tests/run.sh grades it so.
BUGHUNTS += $$(if $$(shell sed 's/\#.*//' exercises/$(1)-$(2)/check_$(4).rules 2>/dev/null | grep -w bughunt),$(3))
# The learner's .cu (or the solution's, or a wrong answer's) on the emulator,
# alone: tools/ex_build.sh reads its object file (tools/ex_inspect.sh) and
# links it with the checker, as for the C exercises (see mk/chapter.mk).
$$(BUILD)/ex/$(3)/cu/$(4).o: exercises/$(1)-$(2)/$(4).cu $$(SIMT_TR) tools/pwcc $$(wildcard exercises/$(1)-$(2)/*.h)
	$$(call simt_cu,-Iexercises/$(1)-$(2))
$$(BUILD)/sol/$(3)/cu/$(4).o: solutions/$(1)-$(2)/$(4).cu $$(SIMT_TR) tools/pwcc $$(wildcard exercises/$(1)-$(2)/*.h)
	$$(call simt_cu,-Iexercises/$(1)-$(2))
$$(BUILD)/wrong/$(3)-%/cu/$(4).o: tests/wrong/$(3)-%.cu $$(SIMT_TR) tools/pwcc $$(wildcard exercises/$(1)-$(2)/*.h)
	$$(call simt_cu,-Iexercises/$(1)-$(2))
# The ladder's kernels a checker runs beside the learner's kernel, when the
# chapter's chapter.mk names them (cu_ex_kernels_NN_NAME := gemm_gpu, before
# its cuda_chapter line): linked into the checker; tools/ex_inspect.sh then
# fails a graded file that calls any of them.
cu_ex_$(3)_kobjs := $$(patsubst %,$$(BUILD)/simt/kernels/%.o,$$(cu_ex_kernels_$(1)_$(4)))
$$(BUILD)/ex/$(3)/check: exercises/$(1)-$(2)/check_$(4).c $$(BUILD)/ex/$(3)/cu/$(4).o exercises/$(1)-$(2)/$(4).cu \
        $$(wildcard exercises/$(1)-$(2)/*.h exercises/$(1)-$(2)/check_$(4).rules) $$(cu_ex_$(3)_kobjs) $$(LIBPW) $$(EX_TOOLS)
	$$(call ex_build,$(3),exercises/$(1)-$(2)/$(4).cu,-I. -Iexercises/$(1)-$(2)) \
	  $$(BUILD)/ex/$(3)/cu/$(4).o exercises/$(1)-$(2)/check_$(4).c $$@ $$(cu_ex_$(3)_kobjs) $$(LIBPW)
$$(BUILD)/sol/$(3)/check: exercises/$(1)-$(2)/check_$(4).c $$(BUILD)/sol/$(3)/cu/$(4).o solutions/$(1)-$(2)/$(4).cu \
        $$(wildcard exercises/$(1)-$(2)/*.h exercises/$(1)-$(2)/check_$(4).rules) $$(cu_ex_$(3)_kobjs) $$(LIBPW) $$(EX_TOOLS)
	$$(call ex_build,$(3),solutions/$(1)-$(2)/$(4).cu,-I. -Iexercises/$(1)-$(2)) \
	  $$(BUILD)/sol/$(3)/cu/$(4).o exercises/$(1)-$(2)/check_$(4).c $$@ $$(cu_ex_$(3)_kobjs) $$(LIBPW)
# The wrong answers tests/ex_loopholes.sh grades (tests/wrong/N.K-what.cu).
$$(BUILD)/wrong/$(3)-%/check: $$(BUILD)/wrong/$(3)-%/cu/$(4).o tests/wrong/$(3)-%.cu \
        exercises/$(1)-$(2)/check_$(4).c $$(wildcard exercises/$(1)-$(2)/*.h) $$(cu_ex_$(3)_kobjs) $$(LIBPW) $$(EX_TOOLS)
	$$(call ex_build,$(3),tests/wrong/$(3)-$$*.cu,-I. -Iexercises/$(1)-$(2)) \
	  $$< exercises/$(1)-$(2)/check_$(4).c $$@ $$(cu_ex_$(3)_kobjs) $$(LIBPW)
test-build check-checkers-build: $$(patsubst tests/wrong/%.cu,$$(BUILD)/wrong/%/check,$$(wildcard tests/wrong/$(3)-*.cu))
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

# ---- make gpu: the nvcc build on request -------------------------------------------------
# Everything nvcc builds, device or not (what CI runs so that code nvcc
# rejects is caught on a machine without a GPU). CUDA_ARCH=sm_90 builds one
# arch instead of two, in half the time.
.PHONY: gpu
gpu:
	@if [ -z "$(HAVE_NVCC)" ]; then echo "gpu: skipped: nvcc not found (the CUDA toolkit from developer.nvidia.com)"; \
	elif [ -n "$(SAN)" ]; then echo "gpu: skipped: no nvcc build under SAN=$(SAN)"; \
	else $(MAKE) --no-print-directory GPU=1 cuda-programs; fi

# ---- make gpu-test: the kernels on a real device ------------------------------------------
# Builds the nvcc programs, then runs each with --tiny: each checks every
# kernel against the CPU before it times anything; then the conformance
# suite tests/cuda/ built by nvcc; then chapter 09's ladder at 4096, the
# model's time for the device at hand (its common/gpus file) beside the
# measured one, with the ratio. Without a device this says so in one line,
# with status 0, and builds nothing.
.PHONY: gpu-test
gpu-test:
	@if [ -z "$(HAVE_NVCC)" ]; then echo "gpu-test: skipped: nvcc not found (the CUDA toolkit from developer.nvidia.com)"; \
	elif [ -n "$(SAN)" ]; then echo "gpu-test: skipped: no nvcc build under SAN=$(SAN)"; \
	elif [ -z "$(HAVE_CUDA_DEVICE)" ]; then echo "gpu-test: skipped: no CUDA device here (nvidia-smi sees no GPU); the kernels ran on the emulator in make test"; \
	else $(MAKE) --no-print-directory cuda-programs || exit 1; fails=0; for p in $(GPU_PROGRAMS); do \
	    printf '%s\n' "== $$p"; "$$p" --tiny; rc=$$?; \
	    if [ $$rc -ne 0 ]; then echo "FAIL $$p (exit $$rc)"; fails=$$((fails + 1)); fi; done; \
	  echo "gpu-test: $(words $(GPU_PROGRAMS)) programs, $$fails failed"; \
	  PW_REUSE=1 CUDA_ARCH=$(CUDA_ARCH) bash tests/cuda/run.sh --nvcc $(BUILD) || fails=$$((fails + 1)); \
	  echo "== the GEMM ladder at 4096: the GPU model (from the emulator's counts) beside the measured time"; \
	  mkdir -p $(BUILD)/gpu-test && $(MAKE) --no-print-directory $(BUILD)/ch09/gemm && \
	    $(BUILD)/ch09/gemm --csv $(BUILD)/gpu-test/ch09_model.csv >$(BUILD)/gpu-test/ch09_model.txt && \
	    $(BUILD)/gpu/ch09/gemm --sizes 4096 --model-csv $(BUILD)/gpu-test/ch09_model.csv \
	      --csv $(BUILD)/gpu-test/ch09_gpu.csv || fails=$$((fails + 1)); [ $$fails -eq 0 ]; fi

# tools/simt_bench.cu: the emulator's hot paths timed (barrier crossings,
# checked accesses, shared atomics, shuffles per second; common/simt/README.md,
# "Speed"). `make simt-bench` builds and runs it on 1 and 2 workers.
$(BUILD)/simt/tools/simt_bench.o: tools/simt_bench.cu $(SIMT_TR) tools/pwcc
	$(call simt_cu)
$(BUILD)/tools/simt_bench: $(BUILD)/simt/tools/simt_bench.o $(LIBPW)
	@mkdir -p $(@D)
	$(SIMT_LINK) -o $@ $< $(LIBPW) $(SIMT_LDLIBS)
.PHONY: simt-bench
simt-bench: $(BUILD)/tools/simt_bench
	$(BUILD)/tools/simt_bench 1 2
