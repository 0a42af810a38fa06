# Chapter 16: sharded data parallelism (ZeRO-1/2/3, FSDP) on the virtual
# cluster (common/cluster/cluster.h) and over Open MPI (mk/mpi.mk), and gradient
# buckets overlapped with the backward pass. kernels/zero.{h,c}: the
# formulas and Adam (chapter 13's planner links them too);
# kernels/zero_train.c: the sharded training step. Exercises: 16.1 shard
# an Adam step, 16.2 a bucketed all-reduce hook, 16.3 a ZeRO memory
# calculator.
$(call chapter,16,sharded-data-parallel,zero buckets,collectives mlp zero zero_train,shard_step bucket_hook zero_memory)
