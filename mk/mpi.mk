# mk/mpi.mk: the Open MPI programs, built with mpicc only where mpicc exists
# (HAVE_MPI, mk/detect.mk); everywhere else they are skipped with one line,
# and `make chapter-10 MPI=1` / `make chapter-11 MPI=1` say so.
#
# mpicc wraps the same compiler, so the usual flags and the libpw.a built by
# $(CC) link fine. The programs are not in PROGRAMS: the generic smoke tests
# run programs directly, and an MPI program belongs under mpirun
# (tests/ch10.sh and tests/ch11.sh run them there).
#
#   mpi_allreduce  chapter 10's collectives against MPI_Allreduce
#   mpi_train      chapter 10's data-parallel training (kernels/dp_train.c)
#   mpi_tp         chapter 11's tensor-parallel block (kernels/tensor_parallel.c)
#   mpi_zero       chapter 16's ZeRO stages 0-3 (kernels/zero_train.c)
#   mpi_model      chapter 10's alpha-beta model against this machine's MPI
#                  (a ping-pong fit, kernels/alphabeta.c; all-reduce and a DP
#                  step predicted by the virtual cluster, then measured)
#   mpi_check      `make mpi-check`: ranks, hosts, transport, a ping-pong
# Each links kernels/collectives_mpi.c, the MPI pw_comm, and the kernels its
# rank function lives in: the very code the virtual cluster runs.

MPI_PROGRAMS :=
ifneq ($(HAVE_MPI),)
MPI_PROGRAMS := $(BUILD)/ch10/mpi_allreduce $(BUILD)/ch10/mpi_train $(BUILD)/ch10/mpi_model $(BUILD)/ch10/mpi_check $(BUILD)/ch11/mpi_tp $(BUILD)/ch16/mpi_zero

$(BUILD)/kernels/collectives_mpi.o: kernels/collectives_mpi.c
	@mkdir -p $(@D)
	OMPI_CC=$(CC) mpicc $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# mpi_link,PROGRAM,SOURCE,KERNELS
define mpi_link
$(1): $(2) $(patsubst %,$(BUILD)/kernels/%.o,$(3)) $(BUILD)/kernels/collectives_mpi.o $(LIBPW)
	@mkdir -p $$(@D)
	OMPI_CC=$(CC) mpicc $(ALL_CFLAGS) -MMD -MP -o $$@ $$< $$(filter %.o,$$^) $(LIBPW) $(LDLIBS)
endef
$(eval $(call mpi_link,$(BUILD)/ch10/mpi_allreduce,chapters/10-data-parallel/mpi_allreduce.c,collectives))
$(eval $(call mpi_link,$(BUILD)/ch10/mpi_train,chapters/10-data-parallel/mpi_train.c,collectives mlp dp_train))
$(eval $(call mpi_link,$(BUILD)/ch10/mpi_model,chapters/10-data-parallel/mpi_model.c,alphabeta collectives mlp dp_train))
$(eval $(call mpi_link,$(BUILD)/ch10/mpi_check,chapters/10-data-parallel/mpi_check.c,collectives))
$(eval $(call mpi_link,$(BUILD)/ch11/mpi_tp,chapters/11-tensor-parallel/mpi_tp.c,collectives tensor_parallel))
$(eval $(call mpi_link,$(BUILD)/ch16/mpi_zero,chapters/16-sharded-data-parallel/mpi_zero.c,collectives mlp zero zero_train))
endif

.PHONY: mpi-programs mpi-check
# make mpi-check [HOSTFILE=hosts NP=16 MPIRUN=... MPIRUN_FLAGS=...]: ranks,
# hosts, the transport, a ping-pong to every rank (tools/mpi_check.sh).
mpi-check: $(filter %/mpi_check,$(MPI_PROGRAMS))
	@$(if $(HAVE_MPI),bash tools/mpi_check.sh $(BUILD)/ch10/mpi_check,echo "make mpi-check: mpicc not found (apt install openmpi-bin libopenmpi-dev / brew install open-mpi)"; exit 2)

mpi-programs: $(MPI_PROGRAMS)
# Plain `make` (programs), `make test` and `make chapter-10`/`chapter-11`
# build them too, when they can be built.
programs: $(MPI_PROGRAMS)
test-build: $(MPI_PROGRAMS)
chapter-10: $(filter $(BUILD)/ch10/%,$(MPI_PROGRAMS))
chapter-11: $(filter $(BUILD)/ch11/%,$(MPI_PROGRAMS))
chapter-16: $(filter $(BUILD)/ch16/%,$(MPI_PROGRAMS))
