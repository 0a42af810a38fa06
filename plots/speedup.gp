# plots/speedup.gp: the speedup overlay every thread (or rank) sweep uses.
#
#   load 'plots/common.gp'
#   call 'plots/speedup.gp' 'pi.csv' 'pi_pthreads pi_openmp' 'optional title' ['modelled']
#
# The optional 4th argument says where the points come from: 'measured'
# (the default) or 'modelled' (a sweep of the virtual cluster, chapter 13);
# the key and the axis label say it.
#
# For each variant: the measured median speedup with its spread (the rates
# at the quartiles of the time), the Amdahl curve with the p fitted to it,
# and, in the key, p and the Karp-Flatt serial fraction at each N. Plus the
# ideal line speedup = N and a mark at the number of cores, past which
# threads interleave instead of running in parallel.
#
# It reads the "# amdahl_<variant>: p=... cores=... baseline_s=...
# karp_flatt=N:e,..." line that common/scaling.c (pw_scaling_report) writes,
# so the curve drawn is the fit the program printed, not a second one. A
# variant with no fit (p=nan: no point ran in parallel) gets no curve, and
# the key says so.
#
# Suspect points, whose threads did not run at the same time for most of
# the run (the CSV's `overlap` column below 0.5, common/overlap.h), are
# ringed with a large open black square and named in the key: their
# speedup measured the machine's load, not the program.

sp_file = csv(ARG1)
sp_source = (ARGC >= 4 && strlen(ARG4) > 0) ? ARG4 : 'measured'
sp_vars = ARG2
sp_nv = words(sp_vars)

# sp_field(v, name): one field of variant v's amdahl line ("" if absent).
sp_field(v, name) = system(sprintf("sed -n 's/^# amdahl_%s: .*%s=\\([^ ]*\\).*/\\1/p' '%s' | head -n 1", v, name, sp_file))

if (ARGC >= 3 && strlen(ARG3) > 0) { set title ARG3 } else { set title 'Speedup against threads: '.sp_source.', ideal, and the Amdahl fit' }
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

# Each variant's fields are read once, into arrays: a function that ran sed
# for every row and every sample of a curve took minutes on four variants.
array sp_HF[sp_nv]     # 1 if the variant has a fit
array sp_PV[sp_nv]     # its p
array sp_BS[sp_nv]     # its baseline time (s)
array sp_TT[sp_nv]     # its key title
do for [i = 1:sp_nv] {
    v = word(sp_vars, i)
    ps = sp_field(v, 'p')
    sp_HF[i] = (strlen(ps) > 0 && ps ne 'nan' && ps ne '-nan') ? 1 : 0
    sp_PV[i] = sp_HF[i] ? ps + 0 : 0
    sp_BS[i] = sp_field(v, 'baseline_s') + 0
    # the key text: p, the serial fraction, and e(N) for each N > 1
    kf = system(sprintf("echo '%s' | sed 's/\\([0-9]*\\):\\([-0-9.na]*\\)/e(\\1) = \\2/g; s/,/, /g'", sp_field(v, 'karp_flatt')))
    sp_TT[i] = sp_HF[i] ? sprintf("%s: Amdahl p = %.3f (serial %.1f%%); Karp-Flatt %s", v, sp_PV[i], 100 * (1 - sp_PV[i]), kf) \
                        : sprintf("%s: no Amdahl fit; Karp-Flatt %s", v, kf)
}
sp_hasfit(i) = sp_HF[i]
sp_p(i) = sp_PV[i]
sp_base(i) = sp_BS[i]
sp_title(i) = sp_TT[i]
# Suspect rows of these variants: overlap below 0.5 (none in CSVs written
# before the column existed).
sp_nsus = system(sprintf("awk -F, -v vs=' %s ' '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next } " . \
                         "ix[\"overlap\"] && $ix[\"kind\"] == \"summary\" && index(vs, \" \" $ix[\"variant\"] \" \") && " . \
                         "$ix[\"overlap\"] != \"\" && $ix[\"overlap\"] < 0.5 { n++ } END { print n + 0 }' '%s'", sp_vars, sp_file)) + 0
sp_sus(i) = sp_row(i) && strcol('overlap') ne '' && column('overlap') < 0.5
amdahl(p, n) = 1 / ((1 - p) + p / n)
sp_row(i) = strcol('kind') eq 'summary' && strcol('variant') eq word(sp_vars, i)

set samples 200
# The plot command is assembled, so that the suspect overlay is named only
# when there is something to draw (a series of no points is an error to
# plots/render.sh, and CSVs from before the overlap column lack it).
sp_plot = "plot x with lines lc rgb ref_color dt 2 lw 1.5 title 'ideal: speedup = threads', " . \
    "for [i=1:sp_nv] sp_file using (sp_row(i) ? column('threads') : NaN):(sp_base(i) / column('median_s')):" . \
    "(sp_base(i) / column('q3_s')):(sp_base(i) / column('q1_s')) with yerrorlines lt i title word(sp_vars, i).' ('.sp_source.')', " . \
    "for [i=1:sp_nv] (sp_hasfit(i) ? amdahl(sp_p(i), x) : NaN) with lines lt i dt 4 lw 1.5 title sp_title(i)"
if (sp_nsus > 0) {
    sp_plot = sp_plot . ", for [i=1:sp_nv] sp_file using (sp_sus(i) ? column('threads') : NaN):(sp_base(i) / column('median_s')) " . \
        "with points pt 4 ps 3 lw 1.5 lc rgb '#000000' title (i == 1 ? 'suspect: its threads did not run at once' : '')"
}
eval sp_plot
