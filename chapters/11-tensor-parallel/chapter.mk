# Chapter 11: tensor parallelism on the virtual cluster (common/cluster/cluster.h):
# a transformer block split the Megatron way (kernels/tensor_parallel.c),
# checked against the unsplit block; where to place the split; and the same
# block over Open MPI (mk/mpi.mk builds mpi_tp with mpicc when there is one).
# Exercises: 11.1 the column-then-row MLP, 11.2 the communication time of a block.
$(call chapter,11,tensor-parallel,tp_block placement,collectives tensor_parallel,tp_mlp tp_comm)
