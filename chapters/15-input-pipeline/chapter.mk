# Chapter 15: the input pipeline. kernels/loader.{h,c}: decode + augment, the
# loader pool and its bounded queue, the training loop they feed (chapter
# 10's MLP, kernels/mlp.c); starved_dp.c models replicas on the virtual
# cluster (collectives). Exercises: 15.1 size the loader pool, 15.2 the
# bounded queue.
$(call chapter,15,input-pipeline,profile loaders starved_dp,loader mlp collectives,pool_size bounded_queue)
