# Chapter 13: 3D parallelism. kernels/parallel3d.{h,c} holds the closed
# forms (memory, step time) and the composed DP x TP x PP run;
# kernels/plan3d.{h,c} the planner's full step model and its search; the
# planner, the validation against the virtual cluster, the scaling sweep and
# the published runs beside the model are the programs; kernels/zero.c is
# ZeRO's memory formula, chapter 16's. Exercises: 13.1 the memory of a
# configuration, 13.2 the step time of one mapping.
$(call chapter,13,3d-parallelism,planner validate scaling published,parallel3d plan3d tensor_parallel pipeline collectives zero,memory step_time)
