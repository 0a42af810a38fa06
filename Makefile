# Parallel Workbook: the one entry point. `make help` lists every target.
#
# A chapter adds itself with chapters/NN-name/chapter.mk (see mk/chapter.mk);
# nothing in this file names a chapter.

SHELL := /bin/bash
.DEFAULT_GOAL := all
.SUFFIXES:
# Keep every intermediate file (the wrong answers' .o): make would delete
# them after `make test`, printing an rm line after "N passed, N failed".
.SECONDARY:
MAKEFLAGS += --no-builtin-rules
# Build on every core unless told how many (-jN): a fresh `make test` builds
# about 400 files. Only for one goal at a time (make chapter-1 chapter-2 must
# not run two chapters at once: their timings would share the machine), and
# only in GNU make 4 or later, where -j in MAKEFLAGS takes effect here.
ifeq ($(words $(MAKECMDGOALS)),$(filter 0 1,$(words $(MAKECMDGOALS))))
ifneq ($(filter 4.% 5.%,$(MAKE_VERSION)),)
ifeq ($(filter -j% j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
endif
endif
endif

BUILD   ?= build
FULL    ?=
THREADS ?=
WERROR  ?=
SAN     ?=

include mk/detect.mk

# -std=c11 (not gnu11) also keeps the compiler from fusing a*b+c into one
# FMA behind our back, so kernels round exactly like their references.
WARN       := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
OPT        ?= -O3
ASAN_FLAGS := -fsanitize=address -fsanitize=undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
TSAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
SAN_FLAGS  := $(if $(filter asan,$(SAN)),$(ASAN_FLAGS))$(if $(filter tsan,$(SAN)),$(TSAN_FLAGS))
OMP_FLAGS  := $(if $(HAVE_OMP),-fopenmp)
CFLAGS     ?= $(OPT) $(ARCH_FLAGS)
# OpenBLAS, where found, is the baseline GEMM of chapters 06-07: every program
# and checker may call it (PW_HAVE_OPENBLAS says it is there; without it the
# code skips the baseline with one line). AS_NEEDED (mk/detect.mk) keeps it
# out of the programs that do not call it.
BLAS_FLAGS := $(if $(HAVE_OPENBLAS),-DPW_HAVE_OPENBLAS=1)
ALL_CFLAGS  = -std=c11 $(WARN) $(CFLAGS) $(STACK_CLASH) $(OMP_FLAGS) $(SAN_FLAGS) $(BLAS_FLAGS) -Icommon -Icommon/simt -Icommon/cluster -Ikernels -I$(BUILD)/gen
LDLIBS     := -lm -lpthread $(if $(HAVE_OPENBLAS),$(AS_NEEDED) -lopenblas)

LIBPW      := $(BUILD)/libpw.a
COMMON_SRC := $(wildcard common/*.c common/simt/*.c common/cluster/*.c)
COMMON_OBJ := $(patsubst common/%.c,$(BUILD)/common/%.o,$(COMMON_SRC))
# kernels/*_mpi.c need mpi.h: mk/mpi.mk builds them with mpicc, where there is one.
KERNEL_OBJ := $(patsubst kernels/%.c,$(BUILD)/kernels/%.o,$(filter-out kernels/%_mpi.c,$(wildcard kernels/*.c)))
TEST_SRC   := $(wildcard tests/test_*.c)
TEST_BINS  := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
# Unit tests that start threads, also run under ThreadSanitizer by `make sanitize`.
TSAN_TESTS := test_barrier test_probe test_fiber test_overlap

CHAPTER_NUMS :=
CHAPTER_DIRS :=
PROGRAMS     :=
EXERCISES    :=
BUGHUNTS     :=
include mk/chapter.mk
# Tool-specific machinery (mk/cuda.mk: nvcc and the SIMT emulator; mk/mpi.mk:
# Open MPI) lives in its own fragment, included before the chapters use it.
include $(sort $(filter-out mk/detect.mk mk/chapter.mk,$(wildcard mk/*.mk)))
include $(sort $(wildcard chapters/*/chapter.mk))

EX_CHECKERS  := $(foreach e,$(EXERCISES),$(BUILD)/ex/$(e)/check $(BUILD)/sol/$(e)/check)

# ---- building ---------------------------------------------------------------

.PHONY: all banner programs
all: banner programs
banner:
	$(banner)
	@echo "  building into $(BUILD)/ ($(words $(PROGRAMS)) programs in $(words $(CHAPTER_NUMS)) chapters)"
programs: $(PROGRAMS)

# Build facts baked into every CSV's metadata, written when make reads this
# file and only when they change (not by a FORCE rule: then make -n and
# make -q would always see results.o out of date).
BUILDINFO := $(BUILD)/gen/buildinfo.h
BUILDINFO_TEXT := \#define PW_CFLAGS "$(strip $(CFLAGS) $(STACK_CLASH) $(OMP_FLAGS) $(SAN_FLAGS))"\n\#define PW_GIT_REV "$(GIT_REV)"\n
$(shell mkdir -p $(BUILD)/gen && printf '$(BUILDINFO_TEXT)' > $(BUILDINFO).tmp && \
  { cmp -s $(BUILDINFO).tmp $(BUILDINFO) && rm -f $(BUILDINFO).tmp || mv -f $(BUILDINFO).tmp $(BUILDINFO); })

$(BUILD)/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/common/results.o: $(BUILDINFO)
# The GPU model's device files (common/gpus/*.gpu) are found here unless
# $PW_GPU_DIR says otherwise.
$(BUILD)/common/gpu_device.o: ALL_CFLAGS += -DPW_GPU_DIR='"$(CURDIR)/common/gpus"'
$(LIBPW): $(COMMON_OBJ)
	@rm -f $@
	ar rcs $@ $^
$(BUILD)/kernels/%.o: kernels/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KFLAGS_$*) -MMD -MP -c -o $@ $<
$(BUILD)/tests/%: tests/%.c $(KERNEL_OBJ) $(LIBPW)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests -MMD -MP -o $@ $< $(KERNEL_OBJ) $(LIBPW) $(LDLIBS)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- running ----------------------------------------------------------------

# make chapters and make test first install what this machine lacks (make
# deps, below), unless PW_INSTALL=0, then run again so that detect.mk finds
# what was installed. Two recipe lines: under make -n the first (the install)
# is only printed, and the second (a sub-make) plans the rest.
PW_INSTALL ?= 1
# What make deps installs: what detect.mk did not find.
DEPS_MISSING = $(if $(CC_VERSION),,cc) $(if $(HAVE_OMP)$(NO_OMP),,omp) $(if $(HAVE_GNUPLOT),,gnuplot) \
               $(if $(HAVE_OPENBLAS),,openblas) $(if $(HAVE_MPI),,mpi) \
               $(if $(shell command -v objdump 2>/dev/null),,objdump) $(if $(shell command -v $(CXX_EMU) 2>/dev/null),,cxx)
PW_AUTO_DEPS = $(if $(filter 0,$(PW_INSTALL)),,$(strip $(DEPS_MISSING)))
define install_then
	@CC="$(CC)" bash tools/deps.sh --auto $(PW_AUTO_DEPS)
	+@env -u PW_DETECTED $(MAKE) --no-print-directory PW_INSTALL=0 $(1)
endef

# Where the chapters write their CSV and figures (tests point them elsewhere).
RESULTS_ROOT ?= results
PLOTS_OUT    ?= plots/out
export RESULTS_ROOT PLOTS_OUT
# CHAPTERS="1 5": only those chapters (the gallery still lists every figure).
CHAPTERS ?= $(CHAPTER_NUMS)

# chapter-01 works as chapter-1; a chapter that does not exist gets the list
# of those that do, and exit 2 (make's own "No rule to make target" says
# nothing of what to type instead).
$(foreach n,$(CHAPTER_NUMS),$(eval .PHONY: chapter-0$(n))$(eval chapter-0$(n): chapter-$(n)))
chapter-%:
	@echo "make chapter-$*: no such chapter; the chapters are $(CHAPTER_NUMS) (make chapter-N, e.g. make chapter-5)" >&2; \
	exit 2

.PHONY: chapters chapters-run
chapters: $(if $(PW_AUTO_DEPS),,chapters-run)
	$(if $(PW_AUTO_DEPS),$(call install_then,chapters-run))
# The banner first, as plain make prints it: what was found (and so which
# chapters run on the emulator, which draw figures), then the chapters.
chapters-run: programs
	$(banner)
	@CHAPTERS="$(CHAPTERS)" CHAPTER_DIRS="$(CHAPTER_DIRS)" bash tools/chapters.sh

.PHONY: test test-run test-build
test: $(if $(PW_AUTO_DEPS),,test-run)
	$(if $(PW_AUTO_DEPS),$(call install_then,test-run))
# test-build: what make test runs, built and not run (CI builds one pass
# while make chapters runs).
test-build: $(PROGRAMS) $(TEST_BINS) $(EX_CHECKERS) pwcc-tools
test-run: test-build
	@CC="$(CC)" BUILD=$(BUILD) UNITS="$(TEST_BINS)" PROGRAMS="$(PROGRAMS)" EXERCISES="$(EXERCISES)" BUGHUNTS="$(BUGHUNTS)" SAN=$(SAN) \
	  bash tests/run.sh

# make check-checkers: only the checkers' own test (a part of make test):
# every planted wrong answer (tests/wrong/) graded, and the table of them,
# exercise by exercise: planted, caught, skipped.
.PHONY: check-checkers check-checkers-build
check-checkers-build: $(EX_CHECKERS)
check-checkers: check-checkers-build
	@BUILD=$(BUILD) EXERCISES="$(EXERCISES)" SAN=$(SAN) PARTS=checkers bash tests/run.sh

# The tests whose outcome depends on the SIMD ISA the build targets: every
# unit test but the SIMT emulator's (its kernels are C++ with no vector
# intrinsics; make test runs them under gcc, clang and the sanitizers), and
# chapters 01, 02 and 07 (their programs, exercises and tests/chNN.sh). CI runs them once per ISA build, each in its own folder:
#   make ARCH=x86-64-v3 BUILD=build/isa-v3 test-isa      (AVX2, as on Zen 3)
#   make ARCH=x86-64-v2 BUILD=build/isa-v2 test-isa      (SSE4.2)
ISA_CHAPTERS  := 01 02 07
ISA_PROGRAMS   = $(foreach c,$(ISA_CHAPTERS),$(ch$(c)_bins))
ISA_EXERCISES  = $(filter $(foreach c,$(ISA_CHAPTERS),$(patsubst 0%,%,$(c)).%),$(EXERCISES))
.PHONY: test-isa test-isa-build
ISA_WRONG      = $(patsubst tests/wrong/%.c,$(BUILD)/wrong/%/check,$(wildcard $(foreach e,$(ISA_EXERCISES),tests/wrong/$(e)-*.c)))
ISA_UNITS      = $(filter-out $(BUILD)/tests/test_simt $(BUILD)/tests/test_wmma,$(TEST_BINS))
test-isa-build: $(ISA_PROGRAMS) $(ISA_UNITS) $(foreach e,$(ISA_EXERCISES),$(BUILD)/ex/$(e)/check $(BUILD)/sol/$(e)/check) $(ISA_WRONG)
test-isa: test-isa-build
	@echo "==> ISA-dependent tests: $(SIMD_ISA) build ($(CC), $(or $(CFLAGS),$(ARCH_FLAGS))) in $(BUILD)/"
	@BUILD=$(BUILD) UNITS="$(ISA_UNITS)" PROGRAMS="$(ISA_PROGRAMS)" EXERCISES="$(ISA_EXERCISES)" \
	  CHAPTER_TESTS="$(ISA_CHAPTERS)" SAN=$(SAN) bash tests/run.sh

# Under ThreadSanitizer only the tests that start threads are run: the rest
# are single-threaded, and ASan+UBSan already covers them.
# It builds only what it runs: the programs, the threaded unit tests and the
# checkers tests/ch03.sh grades under TSan (chapter 03's solutions).
TSAN_CHECKERS = $(foreach id,$(filter 3.%,$(EXERCISES)),$(BUILD)/sol/$(id)/check)
.PHONY: test-threads
test-threads: $(PROGRAMS) $(addprefix $(BUILD)/tests/,$(TSAN_TESTS)) $(TSAN_CHECKERS)
	@BUILD=$(BUILD) UNIT_ONLY="$(TSAN_TESTS)" PROGRAMS="$(PROGRAMS)" SAN=$(SAN) bash tests/run.sh

.PHONY: sanitize
sanitize:
	@echo "==> AddressSanitizer + UndefinedBehaviorSanitizer: every test"
	@$(MAKE) --no-print-directory BUILD=build/asan SAN=asan PW_INSTALL=0 test
	@echo "==> ThreadSanitizer: the threaded tests"
	@$(MAKE) --no-print-directory BUILD=build/tsan SAN=tsan test-threads

.PHONY: check-exercises
check-exercises: $(LIBPW)
	@bash tools/scoreboard.sh $(EXERCISES)

.PHONY: clean
clean:
	rm -rf build plots/out
	find results -mindepth 1 -maxdepth 1 ! -name reference -exec rm -rf {} +

.PHONY: help
help:
	@echo "Parallel Workbook: make targets"
	@echo "  make                   build everything this machine can build; print what it found"
	@echo "  make chapter-N         run chapter N (quick): tables, terminal plot, CSV in results/, figures in plots/out/"
	@echo "  make chapters          every chapter in order, the ladder, then the gallery plots/out/index.html"
	@echo "  make test              every test; ends with 'N passed, N failed'"
	@echo "  make check-checkers    every planted wrong answer graded by its checker, and the table (part of make test)"
	@echo "  make deps              install the optional tools this machine lacks (make chapters and make test do it first)"
	@echo "  make test-isa          only the tests that depend on the SIMD ISA (unit tests, chapters 01, 02, 07)"
	@echo "  make check-exercises   grade every exercise in exercises/ and print a scoreboard"
	@echo "  make ex-N.K            grade one exercise (your file in exercises/)"
	@echo "  make solution-N.K      the same checker on the solution in solutions/"
	@echo "  make ladder            one GEMM's speedup ladder from the loop to the virtual cluster (runs chapters 07 and 09 if their CSVs are missing)"
	@echo "  make grade SUBMISSIONS=dir/  grade a class (one folder or .tar.gz per student): results/grades/grades.csv, a table, plots/out/grades.html; JOBS=N, EXERCISES=\"1.1 3.1\""
	@echo "  make hint-N.K          hints for exercise N.K, one level per run (1 think, 2 structure, 3 near the code); LEVEL=L shows level L again; make hint-reset-N.K starts over"
	@echo "  make sanitize          the tests under ASan+UBSan, threaded ones under TSan"
	@echo "  make gpu-test          kernel tests on a real CUDA device (skips without one)"
	@echo "  make mpi-check         the MPI set-up: ranks, hosts, the transport, a ping-pong (HOSTFILE=, NP=)"
	@echo "  make simt-bench        the SIMT emulator's hot paths per second (barriers, checked accesses, atomics, shuffles)"
	@echo "  make gpu               build the GPU programs with nvcc even without a device (as GPU=1 does)"
	@echo "  make clean             remove build/, plots/out/ and results/ (not results/reference/)"
	@echo "variables:"
	@echo "  CC=clang               compiler (default: cc)"
	@echo "  FULL=1                 longer, more accurate runs"
	@echo "  THREADS=1,2,4          thread counts for sweeps"
	@echo "  NO_OMP=1  NO_CUDA=1    build as if OpenMP / nvcc were missing"
	@echo "  CUDA_ARCH=sm_90        GPU architecture for nvcc"
	@echo "  GPU=1                  build the nvcc programs without a device too"
	@echo "  PW_INSTALL=0           make chapters / make test: install nothing first"
	@echo "  CHAPTERS=\"1 5\"         make chapters: only these chapters"
	@echo "  PARTS=\"ch05 units\"     make test: only these parts (tests/run.sh lists them)"
	@echo "  PW_TEST_JOBS=N         make test: side-by-side parts at once (default: the cores)"
	@echo "  MPI=1                  also run the multi-process (Open MPI) parts"
	@echo "  WERROR=1               warnings are errors (CI sets it)"
	@echo "  BUILD=dir              build directory (default: build)"
	@echo "  ARCH=x86-64-v3         build for that -march instead of native (x86-64-v2: SSE4.2); use its own BUILD"
	@echo "chapters: $(CHAPTER_DIRS)"
	@echo "exercises: $(EXERCISES)"

# ---- make deps: the optional tools this machine lacks ------------------------
# detect.mk found what is here; tools/deps.sh maps what is missing to the
# package manager's names (one table for apt-get, dnf, zypper, pacman, apk,
# brew), prints the one command and runs it where no password is needed.
.PHONY: deps
deps:
	@CC="$(CC)" bash tools/deps.sh $(strip $(DEPS_MISSING))
