# caption: The GPU GEMM ladder at n = 4096, modelled: TFLOP/s of each rung (log scale) on an H100 and an H200 SXM, as common/gpu_model.h (version 2) predicts them from the emulator's counts (throughput terms wave by wave, occupancy, Little's law: the term named above each bar binds), with the % of the modelled peak above each rung (fp32 for rungs 1-7, dense Tensor Core for 8-9) and the term that bounds it. Where the nvcc build ran on a GPU (gemm_gpu.csv), its measured TFLOP/s are the third bar. The two models coincide wherever no rung is DRAM-bound: an H200 differs from an H100 in its memory.
# data: gemm.csv
# source: modelled
load 'plots/common.gp'
f = csv('gemm.csv')
g = csv('gemm_gpu.csv')
have_gpu = system(sprintf("test -f '%s' && echo 1 || echo 0", g)) + 0
gpu_dev = have_gpu ? meta(g, 'device') : ''
model_n = meta(f, 'model_n')

# One line per variant: label,h100,h200,pct_peak,bound,measured (TFLOP/s). The
# model rows are quantity rows (variant $2, n $5, param $7, value $20) at
# n = the CSV's model_n (and the GPU's rows at that n); the last counted size wins. The bound is the largest model_h100_t_* term.
# (Built by concatenation, not sprintf: the awk program has its own % formats.)
ladder_awk = 'BEGIN { print "label,h100,h200,pct,bound,measured" } ' . \
  'FNR == 1 { file++ } /^#/ || $1 == "program" { next } ' . \
  'file == 1 && $3 == "quantity" && $5 == ' . model_n . ' && $7 ~ /^model_h[12]00_/ { if (!($2 in seen)) { seen[$2] = 1; o[++n] = $2 } v[$2, $7] = $20 } ' . \
  'file == 2 && $3 == "summary" && $7 == "ladder" && $5 == ' . model_n . ' { meas[$2] = $17 / 1000 } ' . \
  'END { split("fp issue l1 latency l2 dram", t, " "); ' . \
  '  for (i = 1; i <= n; i++) { x = o[i]; b = "fp"; m = -1; ' . \
  '    for (j = 1; j <= 6; j++) if (v[x, "model_h100_t_" t[j]] + 0 > m) { m = v[x, "model_h100_t_" t[j]] + 0; b = t[j] } ' . \
  '    printf "%s,%s,%s,%s,%s,%s\n", x, v[x, "model_h100_tflops"], v[x, "model_h200_tflops"], ' . \
  '           v[x, "model_h100_pct_peak"], b, (x in meas) ? meas[x] : "nan" } }'
rows = "< awk -F, '" . ladder_awk . "' '" . f . "' " . (have_gpu ? "'" . g . "'" : "/dev/null")
# Why the two bars of a rung are the same height, when they are: the H200 is
# an H100 with more and faster memory (same SMs, clock and peaks), and no
# rung is bound by DRAM here (the term above each bar says what binds).
stats rows using (abs($3 / $2 - 1)) nooutput
if (STATS_max < 0.01) {
    set label 13 'H100 and H200 bars match: same SMs, clock and peaks; only DRAM differs, and no rung is DRAM-bound' \
        at graph 0.5, graph 0.97 center font ',9' tc rgb ref_color
}

if (have_gpu) {
    set title sprintf("The GPU GEMM ladder at n = %s: modelled (H100, H200 SXM) and measured on %s", model_n, gpu_dev)
} else {
    set title sprintf("The GPU GEMM ladder at n = %s, modelled from the emulator's counts (no GPU ran)", model_n)
}
set ylabel 'TFLOP/s (log scale)'
set logscale y 10
set format y '%g'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -35 left font ',9' scale 0
set grid ytics
set key top left
set yrange [0.2 : 5000]
set key at graph 0.01, graph 0.92 left
set offsets 0, 0, 0, 0
labels = "rows using 0:($2 * 2.2):(sprintf('%.0f%%\n%s', $4, strcol(5))) with labels font ',8' notitle"
# The two ceilings the % above each bar is of, from the device file
# (common/gpus/h100-sxm.gpu; the H200's are the same): SIMT FP32 for rungs
# 1-7, dense 16-bit Tensor Cores for 8-9.
gpu_field(k) = real(system(sprintf("sed -n 's/^%s *= *\\([0-9.]*\\).*/\\1/p' common/gpus/h100-sxm.gpu | head -n 1", k)))
pk32 = gpu_field('fp32_tflops'); pktc = gpu_field('tc16_dense_tflops')
set arrow 11 from graph 0, first pk32 to graph 1, first pk32 nohead dt 2 lc rgb ref_color back
set label 11 sprintf('FP32 peak %.0f TFLOP/s (rungs 1-7)', pk32) at graph 0.01, first pk32 left offset 0, 0.6 tc rgb ref_color font ',8'
set arrow 12 from graph 0, first pktc to graph 1, first pktc nohead dt 2 lc rgb ref_color back
set label 12 sprintf('dense Tensor Core peak %.0f TFLOP/s (rungs 8-9)', pktc) at graph 0.99, first pktc right offset 0, 0.6 tc rgb ref_color font ',8'

if (have_gpu) {
    plot rows using 2:xtic(1) title 'H100 SXM, modelled' lt 1, rows using 3 title 'H200 SXM, modelled' lt 6, \
         rows using 6 title 'measured' lt 2, @labels
} else {
    plot rows using 2:xtic(1) title 'H100 SXM, modelled' lt 1, rows using 3 title 'H200 SXM, modelled' lt 6, @labels
}
