# caption: One GEMM (chapter 07's size) from the sequential loop to eight GPUs, as speedup over the loop (log scale). Solid bars were measured on this machine (chapter 07); hollow bars are models: chapter 09's H100 model of the best SIMT and Tensor Core kernels, and the virtual cluster splitting the same flops over 8 devices with a ring all-reduce (DP) or all-gather (TP) of the n x n result on its links. The black dash over each bar is its ceiling: the core's peak for the one-core rungs, Amdahl's law with chapter 07's fitted p for the thread rungs, the H100's fp32 or Tensor Core peak for the GPU rungs, compute split perfectly with the transfer hidden behind it for the cluster. The whole chain: make ladder (tools/ladder.sh).
# data: ladder.csv
# terminal: yes
load 'plots/common.gp'
f = csv('ladder.csv')
# columns: order,rung,how,time_s,speedup,ceiling,ceiling_from
measured(c) = strcol(3) eq 'measured' ? column(c) : NaN
modelled(c) = strcol(3) eq 'modelled' ? column(c) : NaN

set title 'The speedup ladder: one GEMM from a loop to a cluster (solid: measured, hollow: model)'
set ylabel 'speedup over the sequential loop (log scale)'
set logscale y 10
# powers of ten, and the axis up to a decade over the highest bar or
# ceiling (its labels sit 2.6x over the bar): autoscale ran two decades on
set ytics ('1x' 1, '10x' 10, '100x' 100, '1,000x' 1e3, '10,000x' 1e4, '100,000x' 1e5, '1,000,000x' 1e6, \
           '10,000,000x' 1e7, '100,000,000x' 1e8)
stats f using (($6 > $5) ? $6 : $5) nooutput
set yrange [0.5 : STATS_max * 8]
set boxwidth 0.7
set xtics rotate by -35 left
set key top left
set xrange [-0.7 : *]
set offsets 0, 0.7, graph 0.12, 0
# Why a rung stands below the one before it (the cluster, when its transfer
# costs more than the compute it saves): tools/ladder.c writes '# note:'.
# Each note is folded to the width over the measured bars, under the key.
do for [i = 1:2] {
    nt = system(sprintf("sed -n 's/^# note: //p' '%s' | sed -n '%dp' | sed 's/ (modelled)$//' | fold -s -w 58", f, i))
    if (strlen(nt) > 0) { set label i+10 'Model: '.nt at graph 0.01, graph (0.78 - 0.16 * (i - 1)) left font ',9' front }
}
plot f using 0:(measured(5)):xtic(2) with boxes fill solid 0.7 border -1 lc rgb '#4477aa' title 'measured (this machine)', \
     f using 0:(modelled(5)) with boxes fill empty border lc rgb '#cc6677' lw 2 title 'model (stated in tools/ladder.c)', \
     f using ($0 - 0.35):6:(0.7):(0) with vectors nohead lw 3 lc rgb 'black' title 'ceiling', \
     f using 0:(($6 > $5 ? $6 : $5) * 2.6):(sprintf('%.0fx%s', $5, strcol(3) eq 'modelled' ? "\nmodel" : '')) with labels font ',8' notitle
