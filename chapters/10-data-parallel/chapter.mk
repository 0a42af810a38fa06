# Chapter 10: data parallelism on the virtual cluster (common/cluster/cluster.h), and
# the same collectives over Open MPI (mk/mpi.mk builds mpi_allreduce with
# mpicc when there is one). Exercises: 10.1 ring all-reduce, 10.2 best replicas, 10.3 accumulate, 10.4 halo (a bug hunt).
$(call chapter,10,data-parallel,allreduce dataparallel scaling overlap,collectives mlp dp_train,ring_allreduce best_replicas accumulate halo)
