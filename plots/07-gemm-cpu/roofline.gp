# caption: Every rung of the GEMM ladder on the roofline: x is the counted intensity 2n^3 / 4(3n^2 + n^2) flop per byte (A and B read once, C read and written once), y the measured GFLOP/s. All rungs of one n sit on one vertical line, far right of the ridge: the roofline calls them all compute-bound, and the gap below the compute roof is what each rung wastes (re-reading B, loads and stores per multiply-add, idle cores).
# data: gemm.csv
load 'plots/common.gp'
call 'plots/roofline.gp' 'gemm.csv' 'The GEMM ladder on the roofline'
