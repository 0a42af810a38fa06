# caption: Speedup of the hand-written SIMD rungs over the scalar one against the floats per instruction (1 scalar, 4 SSE, 8 AVX2, 16 AVX-512), for square, saxpy and dot with x and y in L1 (solid), L2 (dashed) and DRAM (dotted). The grey diagonal is the ideal, speedup = lanes. In L1 the lanes pay (not fully: loads, stores and the loop are work too); from DRAM every rung waits for memory and the lines go flat.
# data: lanes.csv
# terminal: yes
load 'plots/common.gp'
f = csv('lanes.csv')
src = sprintf("< awk -f plots/02-simd/speedup.awk '%s'", f)
# one series (kernel and size) of that table, with its header
series(k) = sprintf("< awk -f plots/02-simd/speedup.awk '%s' | awk -F, 'NR == 1 || $1 == \"%s\"'", f, k)
S = system(sprintf("awk -f plots/02-simd/speedup.awk '%s' | awk -F, 'NR > 1 && !seen[$1]++ { printf \"%%s \", $1 }'", f))
L = system(sprintf("awk -f plots/02-simd/speedup.awk '%s' | awk -F, 'NR > 1 && !seen[$1]++ { gsub(/ /, \"_\", $2); printf \"%%s \", $2 }'", f))
ns = words(S)
kern(i) = substr(word(S, i), 1, strstrt(word(S, i), '_') - 1)
# colour by kernel, dash by where the data lives
kcol(i) = kern(i) eq 'square' ? 1 : (kern(i) eq 'saxpy' ? 2 : 3)
lab(i) = system(sprintf("echo '%s' | tr _ ' '", word(L, i)))
ldt(i) = strstrt(lab(i), '(L1)') ? 1 : (strstrt(lab(i), 'DRAM') ? 3 : 2)

set title sprintf('SIMD lanes against speedup over scalar (%s, one core)', meta(f, 'isa'))
set xlabel 'floats per instruction (lanes)'
set ylabel 'speedup over the scalar rung (log scale)'
set logscale xy 2
set xrange [0.8 : 20]
set xtics (1, 4, 8, 16)
stats src using 'speedup' nooutput
set yrange [0.5 : (STATS_max > 16 ? STATS_max * 1.5 : 24)]
set ytics (0.5, 1, 2, 4, 8, 16, 32, 64)
set key outside right top
plot x with lines lc rgb ref_color lw 1.5 dt 2 title 'ideal: lanes', \
     for [i=1:ns] series(word(S, i)) using 'lanes':'speedup' \
        with linespoints lt kcol(i) dt ldt(i) title lab(i)
