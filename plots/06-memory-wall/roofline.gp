# caption: The roofline of this machine: the probe's FP32 peak (flat) and triad bandwidth (slanted, solid), with the L2 and L1 read bandwidths of the staircase (dashed), on one core and on all cores. Each point is a kernel at its counted intensity (flops over compulsory bytes) and measured GFLOP/s: square, saxpy and dot (chapters 01-02) far left of the ridge, under the memory roof whatever their SIMD rung; chapter 07's GEMM rungs at one intensity, right of the ridge, their heights the ladder. Circles: one thread; squares: all cores.
# data: roofline.csv
# terminal: yes
load 'plots/common.gp'
call 'plots/roofline.gp' 'roofline.csv' 'The roofline: chapters 01, 02 and 07 on this machine'
