# Chapter 13: 3D parallelism. kernels/parallel3d.{h,c} holds the planner's
# arithmetic (memory, step time, enumeration) and the composed DP x TP x PP
# run; the planner, the validation against the virtual cluster and the
# scaling sweep are the programs. Exercises: 13.1 the memory of a
# configuration, 13.2 the step time of one mapping.
$(call chapter,13,3d-parallelism,planner validate scaling,parallel3d tensor_parallel pipeline collectives,memory step_time)
