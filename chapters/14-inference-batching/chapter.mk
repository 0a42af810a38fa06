# Chapter 14: a real threaded inference server (kernels/server.{h,c}) whose
# workers run chapter 07's packed GEMM. Exercises: 14.1 the batcher's
# decision rule, 14.2 continuous batching's admit step.
$(call chapter,14,inference-batching,serve decode,server gemm gemm_x86 gemm_neon gemm_scalar,batch_rule admit)

KFLAGS_gemm_scalar := -fno-tree-vectorize -fno-tree-slp-vectorize
