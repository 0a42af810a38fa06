# caption: Weak scaling: the parallel phase grows with the threads while the serial phase stays the same. The measured scaled speedup (one thread's time for the grown job over N threads' time) against Gustafson's s + N(1 - s), with s the serial share of the N-thread run, and against Amdahl's fixed-job speedup for the same serial fraction.
# data: scaling.csv
load 'plots/common.gp'
f = csv('scaling.csv')
q(v) = strcol('kind') eq 'quantity' && strcol('variant') eq v
s = real(system(sprintf("sed -n 's/^# serial_fraction: //p' '%s' | head -n 1", f)))
stats f using (q('scaled_speedup') ? column('threads') : NaN) nooutput
nmax = STATS_max

set title 'Weak scaling: grow the job with the machine (Gustafson)'
set xlabel 'threads'
set ylabel 'scaled speedup'
set xrange [0.8 : nmax + 0.4]
set xtics 1
set yrange [0 : *]
set key top left
plot x with lines lc rgb ref_color dt 2 title 'ideal', \
     where(f, 'variant', 'scaled_speedup') using (column('threads')):(column('value')) with linespoints lt 1 \
        title 'measured scaled speedup', \
     where(f, 'variant', 'gustafson_model') using (column('threads')):(column('value')) with linespoints lt 2 dt 4 \
        title "Gustafson s + N(1-s), s of the N-thread run", \
     1 / (s + (1 - s) / x) with lines lt 3 dt 3 title sprintf("Amdahl, fixed job, s = %.3f", s)
