# Chapter 12: pipeline parallelism on the virtual cluster (common/cluster.h):
# kernels/pipeline.{h,c} holds the layer stack, the four schedules, the one
# executor and the trace's bubble. Exercises: 12.1 the 1F1B order, 12.2 a
# balanced layer split.
$(call chapter,12,pipeline-parallel,schedules train unbalanced,pipeline collectives,one_f_one_b balance)
