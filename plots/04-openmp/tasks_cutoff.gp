# caption: The tree walk with OpenMP tasks down to a cut-off depth, on as many threads as cores: time against the number of tasks made (log scale), with the sequential walk (dashed). No tasks: one thread does everything. A few tens to thousands of tasks: the threads share the tree. A task at every node: creating and scheduling tasks costs more than the nodes' own work.
# data: tasks.csv
load 'plots/common.gp'
f = csv('tasks.csv')
stats f using (strcol('variant') eq 'tree_seq' ? column('median_s') * 1e3 : NaN) nooutput
seq_ms = STATS_max
stats f using (strcol('variant') eq 'cutoff' ? column('threads') : NaN) nooutput
T = int(STATS_max)
cut(p) = p[1:7] eq 'cutoff=' ? p[8:] + 0 : -1
set title sprintf('Tasks with a cut-off, on %d threads: time against the tasks made', T)
set xlabel 'tasks made (the cut-off depth next to each point; 0 tasks drawn at 0.5)'
set ylabel 'time (ms; bars: interquartile range)'
set logscale x 10
set format x '%g'
set yrange [0 : *]
set offsets graph 0.05, graph 0.08, graph 0.1, 0
set key top left

xv(n) = n > 0 ? n : 0.5
plot f using (strcol('variant') eq 'cutoff' ? xv(column('n')) : NaN):(column('median_s') * 1e3): \
         (column('q1_s') * 1e3):(column('q3_s') * 1e3) with yerrorlines lt 1 title 'tasks down to the cut-off', \
     f using (strcol('variant') eq 'cutoff' ? xv(column('n')) : NaN):(column('median_s') * 1e3):(sprintf('%d', cut(strcol('param')))) \
         with labels offset 0, 1 tc rgb ref_color notitle, \
     seq_ms with lines lc rgb ref_color dt 2 lw 1.5 title sprintf('sequential walk: %.3g ms', seq_ms)
