# caption: The GPU GEMM ladder on an H100 SXM roofline, modelled: x is the rung's counted intensity (2n^3 flops per byte of global traffic the emulator counted, sectors x 32, at n = 4096: what L1 and L2 must serve, before any cache hit), y its modelled TFLOP/s. Roofs: the fp32 and the dense Tensor Core peaks, HBM (solid), the model's L2 (dashed) and shared memory (dotted). Each step up the SIMT ladder moves a rung right (fewer bytes per flop) and up; the Tensor Core rungs start under a roof 15x higher. Where the nvcc build ran on a GPU (gemm_gpu.csv), its measured points are drawn as squares.
# data: gemm.csv
# source: modelled
load 'plots/common.gp'
f = csv('gemm.csv')
g = csv('gemm_gpu.csv')
have_gpu = system(sprintf("test -f '%s' && echo 1 || echo 0", g)) + 0
model_n = meta(f, 'model_n')

# The roofs the model assumes (quantity rows roof_*, param = the device), GFLOP/s and GB/s.
roof(v) = system(sprintf("awk -F, '$2 == \"%s\" && $3 == \"quantity\" { print $20; exit }' '%s'", v, f)) + 0.0
dev = system(sprintf("awk -F, '$2 == \"roof_tensor\" && $3 == \"quantity\" { print toupper($7); exit }' '%s'", f))
PF = roof('roof_fp32'); PT = roof('roof_tensor'); BW = roof('roof_hbm'); L2 = roof('roof_l2_model'); SH = roof('roof_shared')
if (PF <= 0 || BW <= 0) { print 'roofline.gp: no roof_fp32/roof_hbm rows in ', f; exit status 1 }

if (have_gpu) {
    set title sprintf('The GEMM ladder on the %s roofline: modelled (circles) and measured (squares), n = %s', dev, model_n)
} else {
    set title sprintf('The GEMM ladder on the %s roofline, modelled (no GPU ran), n = %s', dev, model_n)
}
set xlabel 'flop per byte of counted global traffic (log scale)'
set ylabel 'TFLOP/s (log scale)'
set logscale xy 10
set format x '%g'
set format y '%g'
set xrange [0.02 : 2000]
set yrange [0.1 : PT / 1000 * 3]
set key bottom right font ',9'
set samples 400
rl(x, pk, bw) = (x * bw < pk ? x * bw : pk) / 1000
pt_x = "column('flops') / column('bytes')"
# Labels: one per rung (fp16 sits on bf16: same counts), odd rungs to the right, even to the left.
is_pt(odd) = strcol('param') eq 'roofline' && strstrt(strcol('variant'), '_fp16') == 0 && \
             (int(substr(strcol('variant'), 1, 1)) % 2 == odd)
plot rl(x, PF, BW) with lines lt 7 lw 2 title sprintf('fp32 %.0f TFLOP/s, HBM %.2f TB/s', PF / 1000, BW / 1000), \
     rl(x, PT, BW) with lines lt 8 lw 2 title sprintf('Tensor Core %.0f TFLOP/s (dense)', PT / 1000), \
     rl(x, PT, L2) with lines lt 8 lw 1 dt 2 title sprintf('L2 %.0f TB/s (the model)', L2 / 1000), \
     rl(x, PT, SH) with lines lt 8 lw 1 dt 3 title sprintf('shared %.0f TB/s', SH / 1000), \
     f using (strcol('param') eq 'roofline' ? @pt_x : NaN):(column('gflops') / 1000) with points lt 1 pt 7 ps 1.2 title 'modelled', \
     f using (is_pt(1) ? @pt_x : NaN):(column('gflops') / 1000):(strcol('variant')) with labels left offset 0.7, 0.3 font ',8' notitle, \
     f using (is_pt(0) ? @pt_x : NaN):(column('gflops') / 1000):(strcol('variant')) with labels right offset -0.7, 0.3 font ',8' notitle, \
     (have_gpu ? g : f) using (have_gpu && strcol('param') eq 'roofline' ? @pt_x : NaN):(column('gflops') / 1000) \
         with points lt 2 pt 5 ps 1.1 title (have_gpu ? 'measured' : '')
