# plots/speedup.gp: the speedup overlay every thread (or rank) sweep uses.
#
#   load 'plots/common.gp'
#   call 'plots/speedup.gp' 'pi.csv' 'pi_pthreads pi_openmp' 'optional title'
#
# For each variant: the measured median speedup with its spread (the rates
# at the quartiles of the time), the Amdahl curve with the p fitted to it,
# and, in the key, p and the Karp-Flatt serial fraction at each N. Plus the
# ideal line speedup = N and a mark at the number of cores, past which
# threads interleave instead of running in parallel.
#
# It reads the "# amdahl_<variant>: p=... cores=... baseline_s=...
# karp_flatt=N:e,..." line that common/scaling.c (pw_scaling_report) writes,
# so the curve drawn is the fit the program printed, not a second one.

sp_file = csv(ARG1)
sp_vars = ARG2
sp_nv = words(sp_vars)

# sp_field(v, name): one field of variant v's amdahl line ("" if absent).
sp_field(v, name) = system(sprintf("sed -n 's/^# amdahl_%s: .*%s=\\([^ ]*\\).*/\\1/p' '%s' | head -n 1", v, name, sp_file))

if (ARGC >= 3 && strlen(ARG3) > 0) { set title ARG3 } else { set title 'Speedup against threads: measured, ideal, and the Amdahl fit' }
set xlabel 'threads'
set ylabel 'speedup (median; bars: interquartile range)'

# x from 1 to the most threads run; y to cover the ideal line at the cores
stats sp_file using (column('threads')) nooutput
sp_maxn = STATS_max
sp_cores = sp_field(word(sp_vars, 1), 'cores') + 0
if (sp_maxn > 16) { set logscale xy 2 ; set xrange [0.9 : sp_maxn * 1.2] } \
else { set xrange [0.8 : sp_maxn + 0.4] ; set xtics 1 ; set yrange [0 : *] }
# The key goes top left, above the ideal line where measurements rarely go,
# unless the caller placed it (set sp_keep_key = 1 before the call).
if (!exists("sp_keep_key")) { set key top left }

# the cores: beyond them threads share cores (oversubscribed)
if (sp_cores > 0 && sp_cores < sp_maxn) {
    set arrow from first sp_cores, graph 0 to first sp_cores, graph 1 nohead lc rgb ref_color dt 3 back
    set label sprintf('%d cores', sp_cores) at first sp_cores, graph 0.97 right offset -0.5, 0 tc rgb ref_color boxed
}

sp_p(i) = sp_field(word(sp_vars, i), 'p') + 0
sp_base(i) = sp_field(word(sp_vars, i), 'baseline_s') + 0
# the key text: p, the serial fraction, and e(N) for each N > 1
sp_kf(i) = system(sprintf("echo '%s' | sed 's/\\([0-9]*\\):\\([-0-9.na]*\\)/e(\\1) = \\2/g; s/,/, /g'", \
                           sp_field(word(sp_vars, i), 'karp_flatt')))
sp_title(i) = sprintf("%s: Amdahl p = %.3f (serial %.1f%%); Karp-Flatt %s", \
                      word(sp_vars, i), sp_p(i), 100 * (1 - sp_p(i)), sp_kf(i))
amdahl(p, n) = 1 / ((1 - p) + p / n)
sp_row(i) = strcol('kind') eq 'summary' && strcol('variant') eq word(sp_vars, i)

set samples 200
plot x with lines lc rgb ref_color dt 2 lw 1.5 title 'ideal: speedup = threads', \
     for [i=1:sp_nv] sp_file using (sp_row(i) ? column('threads') : NaN):(sp_base(i) / column('median_s')): \
         (sp_base(i) / column('q3_s')):(sp_base(i) / column('q1_s')) \
         with yerrorlines lt i title word(sp_vars, i).' (measured)', \
     for [i=1:sp_nv] amdahl(sp_p(i), x) with lines lt i dt 4 lw 1.5 title sp_title(i)
