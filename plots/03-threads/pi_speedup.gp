# caption: pi by the midpoint rule with pthreads: speedup over the sequential reference against the number of threads, with the ideal line (speedup = threads), the measured medians (bars: interquartile range) and the Amdahl curve fitted to the points up to the number of cores. Past the cores the threads share them, and the speedup stops growing.
# data: pi.csv
# terminal: yes
load 'plots/common.gp'
call 'plots/speedup.gp' 'pi.csv' 'pi_pthreads' 'pi with pthreads: speedup against threads, ideal, and the Amdahl fit'
