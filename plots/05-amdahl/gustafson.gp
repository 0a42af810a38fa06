# caption: Weak scaling: the parallel phase grows with the threads while the serial phase stays the same. The measured scaled speedup (one thread's time for the grown job over N threads' time) against Gustafson's s + N(1 - s), with s the serial share of the N-thread run, and against Amdahl's fixed-job speedup for the same serial fraction. Ringed points are suspect: their threads mostly took turns on one core.
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
# Suspect points: the weak rows whose threads did not run at the same time
# (overlap below 0.5), ringed at their scaled speedup; named only if any.
susrows = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print \"threads,value\"; next } " . \
                  "ix[\"overlap\"] && $ix[\"variant\"] == \"weak\" && $ix[\"overlap\"] != \"\" && $ix[\"overlap\"] < 0.5 { bad[$ix[\"threads\"]] = 1 } " . \
                  "$ix[\"variant\"] == \"scaled_speedup\" { v[$ix[\"threads\"]] = $ix[\"value\"] } " . \
                  "END { for (t in bad) if (t in v) print t \",\" v[t] }' '%s'", f)
nsus = system(susrows[3:] . " | tail -n +2 | wc -l") + 0
cmd = "plot x with lines lc rgb ref_color dt 2 title 'ideal', " . \
      "where(f, 'variant', 'scaled_speedup') using (column('threads')):(column('value')) with linespoints lt 1 title 'measured scaled speedup', " . \
      "where(f, 'variant', 'gustafson_model') using (column('threads')):(column('value')) with linespoints lt 2 dt 4 title 'Gustafson s + N(1-s), s of the N-thread run', " . \
      "1 / (s + (1 - s) / x) with lines lt 3 dt 3 title sprintf('Amdahl, fixed job, s = %.3f', s)"
if (nsus > 0) {
    cmd = cmd . ", susrows using (column('threads')):(column('value')) with points pt 4 ps 3 lw 1.5 lc rgb '#000000' title 'suspect: its threads did not run at once'"
}
eval cmd
