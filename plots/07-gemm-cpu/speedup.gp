# caption: 5_omp (the packed SIMD rung with OpenMP threads, each on its own rows of C) at the headline n on 1, 2, ... threads: measured speedup over one thread with its spread, the ideal line, and the Amdahl curve fitted to the points up to the cores; the key gives p and Karp-Flatt per N. Packing is shared among the threads, so the serial part left is small: the barrier after each packed panel of B and the threads' start.
# data: gemm.csv
load 'plots/common.gp'
call 'plots/speedup.gp' 'gemm.csv' '5_omp' 'GEMM 5_omp: speedup against threads, with the Amdahl fit'
