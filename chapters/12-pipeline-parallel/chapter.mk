# Chapter 12: pipeline parallelism on the virtual cluster (common/cluster/cluster.h):
# kernels/pipeline.{h,c} holds the layer stack, the four schedules, the one
# executor and the trace's bubble. Exercises: 12.1 the 1F1B order, 12.2 a
# balanced layer split.
$(call chapter,12,pipeline-parallel,schedules train unbalanced,pipeline collectives,one_f_one_b balance)

# The same executor across Open MPI processes (kernels/collectives_mpi.c),
# built with mpicc where there is one (mk/mpi.mk's mpi_link); `make
# chapter-12 MPI=1` runs it under mpirun, tests/ch12.sh checks it there.
ifneq ($(HAVE_MPI),)
$(eval $(call mpi_link,$(BUILD)/ch12/mpi_pipeline,chapters/12-pipeline-parallel/mpi_pipeline.c,collectives pipeline))
MPI_PROGRAMS += $(BUILD)/ch12/mpi_pipeline
programs test chapter-12 mpi-programs: $(BUILD)/ch12/mpi_pipeline
endif
