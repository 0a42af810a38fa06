# caption: The GEMM ladder: GFLOP/s of each rung (log scale), at the n and thread count it was timed at (1_naive at the small n only: minutes at 2048), with its percent of the probe's FP32 peak for that thread count and of OpenBLAS at the same n and threads above each bar. Each step up removes a cost: the column walk through B (2_ikj), traffic past L2 (3_blocked), loads and stores per multiply-add (4_simd's register tile and packed panels), idle cores (5_omp).
# data: gemm.csv
load 'plots/common.gp'
f = csv('gemm.csv')
# One line per table row: label,gflops,pct_peak,pct_openblas (the CSV's
# variant, kind, n, threads, param, gflops and value are columns 2, 3, 5, 6,
# 7, 17 and 20 of the schema).
rows = sprintf("< awk -F, 'BEGIN { print \"label,gflops,pct_peak,pct_openblas\" } /^#/ || $1 == \"program\" { next } \
  $3 == \"quantity\" && $2 == \"pct_peak\" { pk[$7 \" \" $5 \" \" $6] = $20 } \
  $3 == \"quantity\" && $2 == \"pct_openblas\" { po[$7 \" \" $5 \" \" $6] = $20 } \
  $3 == \"summary\" && $7 == \"ladder\" { k = $2 \" \" $5 \" \" $6; o[++n] = k; g[k] = $17 } \
  END { for (i = 1; i <= n; i++) { split(o[i], w, \" \"); \
        printf \"%%s n=%%s t=%%s,%%s,%%s,%%s\\n\", w[1], w[2], w[3], g[o[i]], (o[i] in pk) ? pk[o[i]] : \"nan\", (o[i] in po) ? po[o[i]] : \"nan\" } }' '%s'", f)

set title 'The GEMM ladder: GFLOP/s, with % of the peak (pk) and of OpenBLAS (OB) above each bar'
set ylabel 'GFLOP/s (log scale)'
set logscale y 10
set format y '%g'
set style fill solid 0.6 border -1
set boxwidth 0.7
# Rotated tick labels, with a right margin wide enough for the last one (it
# ran off the edge) and a bottom margin for all of them.
set xtics rotate by -35 left font ',9'
set rmargin 14
set bmargin 9
set key off
# The y axis to 4x the fastest bar, room for the labels above it, no more.
stats rows using 2 nooutput
set yrange [0.5 : STATS_max * 4]
set xrange [-0.7 : *]
set offsets 0, 0.7, 0, 0
pc(v) = v != v ? '' : (v < 10 ? sprintf('%.1f%%', v) : sprintf('%.0f%%', v))
plot rows using 0:2:xtic(1) with boxes lc rgb '#4477aa', \
     rows using 0:($2 * 2.3):(sprintf('%s\n%s', $3 == $3 ? pc($3).' pk' : 'no pk', $4 == $4 ? pc($4).' OB' : '')) with labels font ',8'
