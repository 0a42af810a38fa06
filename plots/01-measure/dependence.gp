# caption: Elements processed per nanosecond by four loops over the same array: square's iterations are independent, running_sum and sum form one dependency chain (each add waits for the one before), and sum_split8 splits the sum into 8 chains. The chain, not the arithmetic, sets the speed.
# data: dependence.csv
load 'plots/common.gp'
f = csv('dependence.csv')

rate(x) = column('n') / column('median_s') / 1e9
# x labels from the data: the variant and its param (independent, one chain, ...)
bar_label = 'strcol("variant") . "\n(" . strcol("param") . ")"'

set ylabel 'elements per ns (higher is faster)'
set style fill solid 0.85 border -1
set boxwidth 0.6
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set bmargin 4
set xtics scale 0
set grid noxtics
set key off
stats f using (strcol('kind') eq 'summary' ? column('n') : NaN) nooutput
set xrange [-0.6 : STATS_records - 0.4]
set title sprintf('Dependent and independent iterations: elements per ns (n = %d floats, one core)', STATS_max)
# rows where kind=summary only; each bar its own colour, its value on top
plot f using (strcol('kind') eq 'summary' ? $0 : NaN):(rate(0)):($0 + 1):xtic(@bar_label) \
        with boxes lc variable, \
     f using (strcol('kind') eq 'summary' ? $0 : NaN):(rate(0)):(sprintf('%.2f', rate(0))) \
        with labels offset 0, 0.8 font ',11'
