# mk/mpi.mk: the Open MPI program of chapter 10, built with mpicc only where
# mpicc exists (HAVE_MPI, mk/detect.mk); everywhere else it is skipped with
# one line, and `make chapter-10 MPI=1` says so.
#
# mpicc wraps the same compiler, so the usual flags and the libpw.a built by
# $(CC) link fine. The program is not in PROGRAMS: the generic smoke tests
# run programs directly, and an MPI program belongs under mpirun
# (tests/ch10.sh runs it there).

MPI_PROGRAMS :=
ifneq ($(HAVE_MPI),)
MPI_PROGRAMS := $(BUILD)/ch10/mpi_allreduce
$(BUILD)/ch10/mpi_allreduce: chapters/10-data-parallel/mpi_allreduce.c $(BUILD)/kernels/collectives.o $(LIBPW)
	@mkdir -p $(@D)
	OMPI_CC=$(CC) mpicc $(ALL_CFLAGS) -MMD -MP -o $@ $< $(BUILD)/kernels/collectives.o $(LIBPW) $(LDLIBS)
endif

.PHONY: mpi-programs
mpi-programs: $(MPI_PROGRAMS)
# Plain `make` (programs), `make test` and `make chapter-10` build it too,
# when it can be built.
programs: $(MPI_PROGRAMS)
test: $(MPI_PROGRAMS)
chapter-10: $(MPI_PROGRAMS)
