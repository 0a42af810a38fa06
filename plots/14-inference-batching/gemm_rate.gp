# caption: Why batching helps: the forward pass of b requests through the model (chapter 07's packed GEMM, b x d times d x d per layer), GFLOP/s against b, measured. The weights are read once per call whatever b is, so the arithmetic intensity 2bd^2 / (4d^2 + 8bd) flop/byte grows almost as b/2 and the rate climbs with it, as chapter 06's roofline predicts for a memory-bound kernel.
# data: serve.csv
load 'plots/common.gp'
f = csv('serve.csv')
set title 'forward pass of a batch: GFLOP/s against batch size'
set xlabel 'batch size b'
set ylabel 'GFLOP/s'
set logscale x 2
set key inside left top
plot where(f, 'variant', 'forward') using 'n':'gflops' with linespoints lt 1 pt 7 title 'gemm_simd forward'
