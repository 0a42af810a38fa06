# caption: The pi integral with one OpenMP pragma (parallel for with a reduction): speedup against the sequential loop on 1, 2, ... threads, with the ideal line and the Amdahl curve fitted to the points up to the core count. Each step is a divide and a few adds in registers, so nearly all the time is parallel; past the cores the threads take turns and gain nothing.
# data: pi.csv
load 'plots/common.gp'
call 'plots/speedup.gp' 'pi.csv' 'pi_openmp' 'pi with parallel for + reduction: speedup against threads'
