# caption: Amdahl's law for four parallel fractions p, computed (not measured): speedup against processors on log scales, each curve flattening to its ceiling 1/(1-p) (dashed). The marked points are the seed's example, p = 0.95: 18.6x on 256 processors and 19.3x on 512, against a ceiling of 20x.
# data: amdahl.csv
# terminal: yes
load 'plots/common.gp'
f = csv('amdahl.csv')
P = values(f, 'param', 'variant', 'amdahl')
np = words(P)
# the p of the i-th curve, from its param "amdahl p=0.95"
pval(i) = real(substr(word(P, i), 3, 99))

set title "Amdahl's law: a serial fraction caps the speedup"
set xlabel 'processors N'
set ylabel 'speedup (log scale)'
set logscale xy 2
set xrange [1 : 1024]
set yrange [1 : 128]
set format x '%g'
set format y '%g'
set key top left
do for [i = 1:np] {
    set arrow from first 1, first 1 / (1 - pval(i)) to first 1024, first 1 / (1 - pval(i)) nohead lt i dt 2 lw 1 back
}
# The seed's two points.
set label '18.6x at N = 256' at first 256, first 18.6 right offset -1, 1.2 front
set label '19.3x at N = 512' at first 512, first 19.3 right offset -1, -1.2 front
set object circle at first 256, first 18.6 size screen 0.008 fc rgb 'black' fs solid front
set object circle at first 512, first 19.3 size screen 0.008 fc rgb 'black' fs solid front
# where(): only this curve's rows, so its points join into one line
plot for [i = 1:np] where(f, 'param', word(P, i)) using (column('n')):(column('value')) with linespoints lt i \
         title sprintf('%s (ceiling %gx)', word(P, i), 1 / (1 - pval(i)))
