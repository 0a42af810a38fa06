# caption: The model against published measurements (the red labels: modelled / published, and the term that binds the model): GFLOP/s of each rung of SGEMM_CUDA's fp32 ladder at n = 4096 on an RTX A6000 as its author measured them (black), as chapter 09's model version 2 predicts them from the emulator's counts of the same rungs with the same block and tile sizes (modelled, red), and as the throughput terms alone predict them (version 1, modelled, grey). The band is 25% either side of the measurement: the target every modelled rung should fall in. Log scale: the rungs span two decades.
# data: published.csv
# source: modelled
load 'plots/common.gp'
f = csv('published.csv')
set title "The GEMM model against SGEMM_CUDA's published ladder (RTX A6000, n = 4096)"
set ylabel 'GFLOP/s (log scale)'
set logscale y 10
set format y '%g'
set xtics rotate by -30 left font ',9' scale 0
set grid ytics
set key bottom right
set yrange [100 : 200000]
max2(a, b) = a > b ? a : b
top(a, b, c) = max2(max2(a, b), c)
set xrange [-0.6 : *]
set style fill transparent solid 0.25 noborder
# rung,model v2,model v1,published,ratio,bound (a header line: common.gp reads column headers)
rows = "< awk -F, 'BEGIN { print \"rung,v2,v1,published,ratio,bound\" } /^#/ || $1 == \"device\" { next } $1 == \"rtx-a6000\" && $2 == \"sgemm_cuda\" { print $3 \",\" $6 \",\" $7 \",\" $8 \",\" $9 \",\" $11 }' '" . f . "'"
plot rows using 0:($4 / 1.25):($4 * 1.25) with filledcurves title 'published ±25%: the target' lc rgb '#7fb0e0', \
     rows using 0:4:xtic(1) with linespoints pt 7 ps 1.3 lc rgb 'black' title 'published (measured)', \
     rows using 0:2 with linespoints pt 5 ps 1.1 lc rgb '#c0392b' title 'model v2 (modelled)', \
     rows using 0:3 with linespoints pt 4 ps 1.0 dt 2 lc rgb '#888888' title 'model v1, throughput only (modelled)', \
     rows using 0:(top($2, $3, $4) * 1.9):(sprintf('%.2fx\n%s', $5, strcol(6))) with labels font ',8' tc rgb '#c0392b' notitle
