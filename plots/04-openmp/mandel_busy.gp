# caption: Who did what: the busy time of each thread (from its first row to its last) in one run of the Mandelbrot loop on as many threads as cores, per schedule, with the time the whole loop took (black bar). Under schedule(static) one thread got the rows through the body of the set: it is the straggler, the loop lasts as long as it does, and the other thread sits idle for the rest. The other schedules even the threads out.
# data: mandel.csv
# terminal: yes
load 'plots/common.gp'
f = csv('mandel.csv')
# the per-thread rows: variant busy_<schedule>, param thread=K or wall
B = values(f, 'variant', 'kind', 'summary')
B = system(sprintf("echo '%s' | tr ' ' '\\n' | grep '^busy_' | tr '\\n' ' '", B))
nb = words(B)
stats f using (strcol('variant')[1:5] eq 'busy_' ? column('threads') : NaN) nooutput
T = int(STATS_max)
# bars: schedule s at x = s, thread t offset within the group, wall last
w = 0.8 / (T + 1)
xpos(s, k) = s - 0.4 + w * (k + 0.5)
thread_of(p) = p[1:7] eq 'thread=' ? p[8:] + 0 : -1
is_row(s) = strcol('variant') eq word(B, s)

set title sprintf('Per-thread busy time on %d threads: the straggler sets the time', T)
set ylabel 'time (ms)'
set xlabel 'schedule'
set xrange [0.4 : nb + 0.6]
set yrange [0 : *]
set offsets 0, 0, graph 0.12, 0
set xtics () scale 0
do for [s = 1:nb] { set xtics add (word(B, s)[6:] s) }
set style fill solid 0.85 border -1
set key top right
set boxwidth w * 0.92 absolute

if (!is_dumb) {
    plot for [t = 0:T-1] f using (xpos(0, 0) * 0 + NaN):(0) with boxes lt t + 1 title sprintf('thread %d', t), \
         for [s = 1:nb] f using (is_row(s) && thread_of(strcol('param')) >= 0 ? xpos(s, thread_of(strcol('param'))) : NaN): \
             (column('median_s') * 1e3):(thread_of(strcol('param')) + 1) with boxes lc variable notitle, \
         for [s = 1:nb] f using (is_row(s) && strcol('param') eq 'wall' ? xpos(s, T) : NaN):(column('median_s') * 1e3) \
             with boxes lc rgb '#000000' notitle, \
         NaN with boxes lc rgb '#000000' title 'the whole loop (wall)'
} else {
    # text: one impulse per thread and schedule (a letter per thread), the wall as W
    plot for [t = 0:T-1] f using (strcol('variant')[1:5] eq 'busy_' && thread_of(strcol('param')) == t ? \
             xpos(column(0) * 0 + sum [s = 1:nb] (strcol('variant') eq word(B, s) ? s : 0), t) : NaN): \
             (column('median_s') * 1e3) with impulses lt t + 1 title sprintf('thread %d', t), \
         for [s = 1:nb] f using (is_row(s) && strcol('param') eq 'wall' ? xpos(s, T) : NaN):(column('median_s') * 1e3) \
             with points pt 'W' notitle, \
         NaN with points pt 'W' title 'wall'
}
