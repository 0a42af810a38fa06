# caption: The dot product's GFLOP/s (solid) against its number of independent accumulators, per instruction set, beside the FMA loop with as many accumulators and no loads (dashed) and the one-core FP32 peak (grey). One accumulator waits out each FMA's latency; a few more reach a ceiling that is not the FMA peak but the loads: two loads per FMA. The bf16 rung (a star, where the CPU has AVX-512 BF16) does twice the flops per load.
# data: dot.csv
load 'plots/common.gp'
f = csv('dot.csv')
n1 = word(values(f, 'n', 'kind', 'summary'), 1)
peak = meta(f, 'peak_gflops_1core')
# the ISAs with hand-written rungs in this file, narrow to wide
isas = ''
do for [s in 'sse avx2 avx512 neon'] {
    if (words(values(f, 'variant', 'variant', 'dot_'.s.'_1acc')) > 0) { isas = isas.s.' ' }
}
ni = words(isas)
# one ISA's rungs at the first size (variant and n are columns 2 and 5 of the schema)
dotrows(isa) = sprintf("< awk -F, '/^#/ { next } !h { h = 1; print; next } $2 ~ /^dot_%s_[0-9]+acc$/ && $5 == %s' '%s'", isa, n1, f)
# the FMA loop's rows (only ISAs with an FMA instruction have them)
F = ''
do for [v in values(f, 'variant', 'kind', 'summary')] { if (strstrt(v, 'fma_') == 1) { F = F.v.' ' } }
nf = words(F)

set title sprintf('Dot product, n = %s: accumulators against GFLOP/s (one core)', n1)
set xlabel 'independent accumulators'
set ylabel 'GFLOP/s (log scale)'
set logscale xy 2
set xrange [0.8 : 10]
set xtics (1, 2, 4, 8)
set logscale y 10
set format y '%g'
stats f using (strcol('kind') eq 'summary' ? column('gflops') : NaN) nooutput
ymax = (strlen(peak) > 0 && peak + 0 > STATS_max ? peak + 0 : STATS_max) * 2
set yrange [STATS_min / 1.5 : ymax]
set ytics (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
set key outside right top
if (strlen(peak) > 0 && peak + 0 > 0) {
    set label sprintf('FP32 peak, 1 core: %.0f GFLOP/s', peak + 0) at graph 0.02, first peak + 0 left offset 0, 0.7 \
        tc rgb ref_color font ',10' boxed front
}
peakline(x) = strlen(peak) > 0 && peak + 0 > 0 ? peak + 0 : NaN
# The dashed FMA-loop lines exist only where the ISA has an FMA (not on an
# SSE-only build); gnuplot reads a data source even for an empty
# iteration, so the plot without them is spelt out.
if (nf > 0) {
plot for [i=1:ni] dotrows(word(isas, i)) using 'param':'gflops' with linespoints lt i title 'dot '.word(isas, i), \
     for [j=1:nf] where(f, 'variant', word(F, j)) using 'param':'gflops' with lines lt (j + ni - nf) dt 2 title 'FMA loop '.substr(word(F, j), 5, 99), \
     f using (strcol('variant') eq 'dot_avx512_bf16' && strcol('n') eq n1 ? column('param') : NaN):'gflops' \
        with points pt 3 ps 2.5 lc rgb '#000000' title 'dot bf16 (AVX-512)', \
     peakline(x) with lines lc rgb ref_color lw 1.5 dt 4 notitle
} else {
plot for [i=1:ni] dotrows(word(isas, i)) using 'param':'gflops' with linespoints lt i title 'dot '.word(isas, i), \
     f using (strcol('variant') eq 'dot_avx512_bf16' && strcol('n') eq n1 ? column('param') : NaN):'gflops' \
        with points pt 3 ps 2.5 lc rgb '#000000' title 'dot bf16 (AVX-512)', \
     peakline(x) with lines lc rgb ref_color lw 1.5 dt 4 notitle
}
