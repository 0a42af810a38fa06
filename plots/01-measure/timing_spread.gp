# caption: Every timed call of the element-wise square, in the order it ran (log scale: cache-sized calls are about 1000x shorter than DRAM-sized ones). The cold first call (rep 0, open circle) pays for mapping pages on first touch and is several times slower than the rest; while a busy neighbour runs, the DRAM-sized calls slow down and spread, and the quiet run after it (square_dram_again) matches the first. The dashed lines are the medians.
# data: timing.csv
# terminal: yes
load 'plots/common.gp'
f = csv('timing.csv')
# One series per variant, names as the program printed them.
V = values(f, 'variant', 'kind', 'sample')
nv = words(V)

is_sample(i) = strcol('kind') eq 'sample' && strcol('variant') eq word(V, i)
is_summary(i) = strcol('kind') eq 'summary' && strcol('variant') eq word(V, i)
warm(i) = is_sample(i) && column('rep') > 0 ? column('rep') : NaN
cold(i) = is_sample(i) && column('rep') == 0 ? 0 : NaN
ms(c) = column(c) * 1e3

set title 'Timing honestly: every call of square, the cold first call, and the median'
set xlabel 'repetition (0 = cold first call)'
set ylabel 'time per call (ms, log scale)'
set logscale y
set format y '%g'
# log y spans 1000x between cache- and DRAM-sized: keep the data, not whole decades
set autoscale yfix
set offsets 0, 0, graph 0.06, graph 0.06
set xrange [-3:*]
set key inside right center

if (!is_dumb) {
    # samples joined thinly; the cold call a big open circle in the series'
    # colour; each median (summary row) dashed across the series' reps
    plot for [i=1:nv] f using (warm(i)):(ms('median_s')) \
            with linespoints lt i lw 1 pt 7 ps 0.45 title word(V, i), \
         for [i=1:nv] f using (cold(i)):(ms('median_s')) \
            with points lt i pt 6 ps 2.2 lw 2 notitle, \
         for [i=1:nv] f using (is_summary(i) ? 0 : NaN):(ms('median_s')):(column('reps')):(0) \
            with vectors nohead lt i lw 2 dt (8,6) notitle, \
         NaN with points lc rgb ref_color pt 6 ps 2.2 lw 2 title 'cold first call (rep 0)', \
         NaN with lines lc rgb ref_color lw 2 dt (8,6) title 'median of the samples'
} else {
    # text: one letter per series, the cold call as @, medians as dashes (drawn
    # first, so the samples stay on top)
    set title 'every call of square (ms, log y): @ = cold first call, --- = median'
    set key outside right top
    plot for [i=1:nv] f using (is_summary(i) ? 0 : NaN):(ms('median_s')):(column('reps')):(0) \
            with vectors nohead lt 0 notitle, \
         for [i=1:nv] f using (warm(i)):(ms('median_s')) with points pt i title word(V, i), \
         for [i=1:nv] f using (cold(i)):(ms('median_s')) with points pt '@' notitle, \
         NaN with points pt '@' title 'cold call'
}
