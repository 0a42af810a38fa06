# caption: The training loop with 1, 2, ... loader threads prefetching into a bounded queue, against the loop that loads its own batches (speedup 1): measured median speedup with its spread, the ideal line, and the Amdahl curve fitted to the points whose threads really ran side by side (suspect points, which took turns on one core, are ringed). The speedup stops at (load + compute) / compute once the loop is compute bound, and past the cores loaders only take turns with the training thread.
# data: loaders.csv
# terminal: yes
load 'plots/common.gp'
call 'plots/speedup.gp' 'loaders.csv' 'prefetch' 'Loader threads: speedup of the training loop against loading in the loop'
