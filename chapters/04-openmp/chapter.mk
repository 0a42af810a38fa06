# Chapter 04: OpenMP. Programs, the kernels they link, and the exercises
# (4.1 reduction, 4.2 schedule, 4.3 moments: a bug hunt). Every kernel and program includes
# common/omp_info.h, so the chapter also builds without OpenMP (NO_OMP=1,
# Apple clang without libomp) and then runs on one thread, saying so.
$(call chapter,04,openmp,pi mandel embed tasks,pi threads omp_pi mandel omp_embed omp_tree,reduction schedule moments list_tasks tree_sum mc_pi)
