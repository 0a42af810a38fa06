# caption: FMA throughput of one core against the number of independent accumulators, per instruction set: with one accumulator every FMA waits for the previous one (latency-bound), and each added chain adds throughput until the FMA units are full and the line goes flat (throughput-bound). Scalar and SSE have no FMA instruction (a multiply, then an add), so their chains are longer. The dashed line is the hand-written assembly loop, the yardstick for the peak.
# data: probe.csv
load 'plots/common.gp'
f = csv('probe.csv')

# the fma_* variants present on this machine, in the order the probe ran them
all = values(f, 'variant', 'kind', 'summary')
V = ''
do for [v in all] { if (strstrt(v, 'fma_') == 1) { V = V.v.' ' } }
nv = words(V)
row(i) = strcol('variant') eq word(V, i)

# the yardstick: its rate, and its ISA (param) and accumulators (n) for the
# label; NaN (no line) when the probe could not run it
yard_g = values(f, 'gflops', 'variant', 'asm_yardstick')
yard = words(yard_g) > 0 ? word(yard_g, 1) + 0 : NaN
yard_isa = values(f, 'param', 'variant', 'asm_yardstick')
yard_n = values(f, 'n', 'variant', 'asm_yardstick')

set title 'One core, one FMA chain per accumulator: from latency-bound to throughput-bound'
set xlabel 'independent accumulators (dependency chains)'
set ylabel 'GFLOP/s (log scale)'
set logscale xy 2
set logscale y 10
set format y '%g'
stats f using (strcol('variant') eq 'asm_yardstick' || strstrt(strcol('variant'), 'fma_') == 1 ? column('gflops') : NaN) nooutput
set yrange [STATS_min / 1.6 : STATS_max * 1.8]
set ytics ()
do for [e = floor(log10(STATS_min / 1.6)) : ceil(log10(STATS_max * 1.8))] {
    do for [m in '1 2 5'] { set ytics add ((m + 0) * 10.0**e) }
}
set mytics 1
set xtics ()
# tics at the accumulator counts the probe used
do for [k in values(f, 'n', 'variant', word(V, 1))] { set xtics add (k k + 0) }
set offsets graph 0.04, graph 0.04, 0, 0
set key inside right bottom

if (yard == yard) {
    set label sprintf('asm yardstick (%s, %s accumulators): %.1f GFLOP/s', word(yard_isa, 1), word(yard_n, 1), yard) \
        at graph 0.02, first yard left offset 0, 0.8 tc rgb ref_color font ',10' boxed front
}
# the ISAs' rows interleave in the file: take each ISA's rows on their own
plot for [i=1:nv] where(f, 'variant', word(V, i)) using 'n':'gflops' \
        with linespoints lt i title substr(word(V, i), 5, strlen(word(V, i))), \
     (yard == yard ? yard : NaN) with lines lc rgb ref_color lw 1.5 dt 2 notitle
