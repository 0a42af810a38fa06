# mk/detect.mk: what this machine has, found once per `make` and exported to
# sub-makes. Each probe is a tiny compile or a `command -v`; nothing here is
# required except a C compiler and make.

ifndef PW_DETECTED
export PW_DETECTED := 1

# Compiler name and version, for the banner and the CSV metadata.
export CC_VERSION := $(shell $(CC) --version 2>/dev/null | head -n 1)

# -march=native lets the compiler use every instruction this CPU has (on
# x86 it turns on AVX2/AVX-512 and FMA). Some compilers spell it -mcpu.
# ARCH=x86-64-v3 (AVX2+FMA) or ARCH=x86-64-v2 (SSE4.2) builds for an older
# machine instead: the programs and tests then behave as they would on one
# (the probe reports what the build can use), which is how CI checks the
# workbook on machines without AVX-512. ARCH=-mcpu=... passes flags as given.
# Only a command-line ARCH counts: some systems export ARCH=x86_64 to every
# program, which is not a -march value.
ifeq ($(origin ARCH),command line)
export ARCH_FLAGS := $(if $(filter -%,$(ARCH)),$(ARCH),-march=$(ARCH))
else
export ARCH_FLAGS := $(shell \
  if echo 'int main(void){return 0;}' | $(CC) -march=native -x c - -o /dev/null 2>/dev/null; then echo -march=native; \
  elif echo 'int main(void){return 0;}' | $(CC) -mcpu=native -x c - -o /dev/null 2>/dev/null; then echo -mcpu=native; fi)
endif

# The widest SIMD ISA the compiler will target with the build's flags
# (CFLAGS when given on the command line, else ARCH_FLAGS): what the build
# can use, which may be less than the CPU has (common/probe.c caps it the
# same way).
export SIMD_ISA := $(shell $(CC) $(or $(CFLAGS),$(ARCH_FLAGS)) -dM -E -x c /dev/null 2>/dev/null | awk ' \
  /__AVX512F__/ {a5=1} /__AVX2__/ {a2=1} /__FMA__/ {f=1} /__SSE2__/ {s=1} /__ARM_NEON/ {n=1} \
  END { if (a5) print "AVX-512"; else if (a2 && f) print "AVX2"; else if (s) print "SSE"; else if (n) print "NEON"; else print "scalar" }')

# OpenMP: a program with a parallel region must compile and link.
ifeq ($(NO_OMP),1)
export HAVE_OMP :=
else
export HAVE_OMP := $(shell printf '#include <omp.h>\nint main(void){return omp_get_max_threads() > 0 ? 0 : 1;}\n' | \
  $(CC) -fopenmp -x c - -o /dev/null 2>/dev/null && echo 1)
endif

export HAVE_NVCC := $(if $(NO_CUDA),,$(shell command -v nvcc 2>/dev/null))
export HAVE_CUDA_DEVICE := $(if $(HAVE_NVCC),$(shell nvidia-smi -L 2>/dev/null | head -n 1))
export HAVE_GNUPLOT := $(shell command -v gnuplot 2>/dev/null)
export HAVE_OPENBLAS := $(shell printf '#include <cblas.h>\nint main(void){float a=1,b=1; return cblas_sdot(1,&a,1,&b,1) == 1.0f ? 0 : 1;}\n' | \
  $(CC) -x c - -o /dev/null -lopenblas 2>/dev/null && echo 1)
# Link a library only into the programs that call it: GNU ld's --as-needed
# (Debian's gcc does not pass it by default; macOS's linker has no such flag
# and drops unused libraries by itself). Without it every program of the
# workbook would load OpenBLAS and run its start-up: about 10 ms a process
# here, and the tests start thousands.
export AS_NEEDED := $(shell echo 'int main(void){return 0;}' | $(CC) -x c - -o /dev/null -Wl,--as-needed 2>/dev/null && echo -Wl,--as-needed)
export HAVE_MPI := $(shell command -v mpicc 2>/dev/null)
# -fstack-clash-protection: a function whose frame is bigger than a page
# touches each page as it moves the stack pointer down, so a rank of the
# virtual cluster (a fiber on a 64 KiB stack) with a 160 KiB local array
# faults in its own guard and is the one named, instead of writing over the
# next ranks' stacks (common/fiber.h). gcc 8+ and clang 11+ on x86-64 have
# it (Debian's gcc 12 leaves it off); -Werror: clang only warns where the
# target lacks it.
export STACK_CLASH := $(shell echo 'int main(void){return 0;}' | $(CC) -fstack-clash-protection -Werror -x c - -o /dev/null 2>/dev/null && echo -fstack-clash-protection)

export GIT_REV := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)$(shell \
  git rev-parse HEAD >/dev/null 2>&1 && { git diff --quiet HEAD -- 2>/dev/null || echo -dirty; })
endif

# The banner `make` prints: a tick or a cross, and what a cross costs.
define banner
	@echo "Parallel Workbook: what this machine has"
	@printf '  \342\234\223 %-10s %s\n' compiler "$(CC_VERSION)"
	@printf '  \342\234\223 %-10s %s\n' SIMD "$(SIMD_ISA) (flags: $(or $(CFLAGS),$(ARCH_FLAGS),none))"
	@$(if $(HAVE_OMP),printf '  \342\234\223 %-10s %s\n' OpenMP "-fopenmp",printf '  \342\234\227 %-10s %s\n' OpenMP "$(if $(NO_OMP),off (NO_OMP=1),not found): OpenMP programs run on one thread; get it: apt install libgomp1 / brew install libomp")
	@$(if $(HAVE_NVCC),printf '  \342\234\223 %-10s %s\n' nvcc "$(HAVE_NVCC): $(if $(CUDA_GPU_WHY_NOT),GPU programs $(CUDA_GPU_WHY_NOT),GPU programs built into $(BUILD)/gpu/ (plus the emulator build)")",printf '  \342\234\227 %-10s %s\n' nvcc "$(if $(NO_CUDA),off (NO_CUDA=1),not found): CUDA kernels run on the SIMT emulator; get it: the CUDA toolkit from developer.nvidia.com")
	@$(if $(HAVE_CUDA_DEVICE),printf '  \342\234\223 %-10s %s\n' GPU "$(HAVE_CUDA_DEVICE)",printf '  \342\234\227 %-10s %s\n' GPU "no CUDA device: CUDA programs run on the SIMT emulator (always built); make gpu-test skips")
	@$(if $(HAVE_GNUPLOT),printf '  \342\234\223 %-10s %s\n' gnuplot "$(HAVE_GNUPLOT)",printf '  \342\234\227 %-10s %s\n' gnuplot "not found: chapters print tables, no figures; get it: apt install gnuplot-nox / brew install gnuplot")
	@$(if $(HAVE_OPENBLAS),printf '  \342\234\223 %-10s %s\n' OpenBLAS "-lopenblas",printf '  \342\234\227 %-10s %s\n' OpenBLAS "not found: GEMM baselines skipped; get it: apt install libopenblas-dev / brew install openblas")
	@$(if $(HAVE_MPI),printf '  \342\234\223 %-10s %s\n' MPI "$(HAVE_MPI)",printf '  \342\234\227 %-10s %s\n' MPI "not found: multi-process runs skipped; get it: apt install openmpi-bin libopenmpi-dev / brew install open-mpi")
endef
