# plots/speedup.gp: the speedup overlay every thread (or rank) sweep uses.
#
#   load 'plots/common.gp'
#   call 'plots/speedup.gp' 'pi.csv' 'pi_pthreads pi_openmp' 'optional title' ['modelled' ['devices']]
#
# The optional 4th argument says where the points come from: 'measured'
# (the default) or 'modelled' (a sweep of the virtual cluster, chapter 13);
# the key and the axis label say it. A modelled sweep may name its x unit
# (5th). A fit the program marked poor (fits=no in its amdahl line) is not
# drawn, and the key says so.
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
set xlabel (sp_source eq 'modelled' && ARGC >= 5 && strlen(ARG5) > 0) ? ARG5 : 'threads'
if (sp_source eq 'modelled') { set ylabel 'speedup (modelled: one value a point)' } \
else { set ylabel 'speedup (median; bars: interquartile range)' }

# x from 1 to the most threads this sweep ran (its own rows: a CSV
# may also hold model curves out to 1024, chapter 05's), or, where the
# program knows the true serial fraction (theory_V), out to where Amdahl's
# curve is within 10% of its ceiling 1/(1-p): n = 9p/(1-p), 171 at p = 0.95.
# That shows the plateau without axes running decades past both.
# measured sweeps write "summary" rows (median and quartiles), modelled ones
# "modelled" rows (one value, in `value`: a model has no median or spread)
sp_kind = sp_source eq 'modelled' ? 'modelled' : 'summary'
sp_isrow(v) = strcol('kind') eq sp_kind && strstrt(' '.sp_vars.' ', ' '.strcol('variant').' ') > 0
stats sp_file using (sp_isrow(0) ? column('threads') : NaN) nooutput
sp_maxn = STATS_max
sp_cores = sp_field(word(sp_vars, 1), 'cores') + 0
sp_theory_p(v) = system(sprintf("sed -n 's/^# theory_%s: p=\\([^ ]*\\).*/\\1/p' '%s' | head -n 1", v, sp_file))
sp_tp1 = sp_theory_p(word(sp_vars, 1))
sp_ceiling = 0
if (strlen(sp_tp1) > 0 && sp_tp1 + 0 < 1) {
    sp_ceiling = 1 / (1 - sp_tp1)
    sp_knee = 9 * sp_tp1 / (1 - sp_tp1)
    if (sp_knee > sp_maxn) { sp_maxn = 2 ** ceil(log(sp_knee) / log(2)) }
}
if (sp_maxn > 16) {
    set logscale xy 2 ; set xrange [0.9 : sp_maxn * 1.2]
    # y to the ceiling (or the ideal line where there is none), not to sp_maxn
    if (sp_ceiling > 0) { set yrange [0.8 : 2 * sp_ceiling] }
} else { set xrange [0.8 : sp_maxn + 0.4] ; set xtics 1 ; set yrange [0 : *] }
# The key goes top left, above the ideal line where measurements rarely go,
# unless the caller placed it (set sp_keep_key = 1 before the call).
if (!exists("sp_keep_key")) { set key top left }

# the cores: beyond them threads share cores (oversubscribed)
if (sp_cores > 0 && sp_cores < sp_maxn) {
    set arrow from first sp_cores, graph 0 to first sp_cores, graph 1 nohead lc rgb ref_color dt 3 back
    # at the bottom: the key sits top left, where it hid the label
    set label sprintf('%d cores', sp_cores) at first sp_cores, graph 0.04 right offset -0.5, 0 tc rgb ref_color boxed
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
    # a fit the program called poor (fits=no: points above its ceiling) is not drawn
    sp_HF[i] = (strlen(ps) > 0 && ps ne 'nan' && ps ne '-nan' && sp_field(v, 'fits') ne 'no') ? 1 : 0
    sp_PV[i] = sp_HF[i] ? ps + 0 : 0
    sp_BS[i] = sp_field(v, 'baseline_s') + 0
    # the key text: p, the serial fraction, and e(N) for each N > 1
    kf = system(sprintf("echo '%s' | sed 's/\\([0-9]*\\):\\([-0-9.na]*\\)/e(\\1) = \\2/g; s/,/, /g'", sp_field(v, 'karp_flatt')))
    sp_TT[i] = sp_HF[i] ? sprintf("%s: Amdahl p = %.3f (serial %.1f%%); Karp-Flatt %s", v, sp_PV[i], 100 * (1 - sp_PV[i]), kf) \
                        : sprintf("%s: no Amdahl fit%s; Karp-Flatt %s", v, sp_field(v, 'fits') eq 'no' ? ' (a poor one: not drawn)' : '', kf)
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
sp_row(i) = strcol('kind') eq sp_kind && strcol('variant') eq word(sp_vars, i)

set samples 200
# The plot command is assembled, so that the suspect overlay is named only
# when there is something to draw (a series of no points is an error to
# plots/render.sh, and CSVs from before the overlap column lack it).
# A variant without a fit says so in its data's key entry; only drawn fits
# get an entry of their own (no key entry for a line that is not there).
array sp_DT[sp_nv]
do for [i = 1:sp_nv] {
    sp_DT[i] = word(sp_vars, i).' ('.sp_source.')'
    if (!sp_HF[i]) {
        sp_DT[i] = sp_DT[i] . (sp_field(word(sp_vars, i), 'fits') eq 'no' ? ': a poor Amdahl fit, not drawn' : ': no Amdahl fit')
    }
}
sp_xunit = (sp_source eq 'modelled' && ARGC >= 5 && strlen(ARG5) > 0) ? ARG5 : 'threads'
sp_plot = "plot x with lines lc rgb ref_color dt 2 lw 1.5 title 'ideal: speedup = ".sp_xunit."', "
if (sp_source eq 'modelled') {
    sp_plot = sp_plot . "for [i=1:sp_nv] sp_file using (sp_row(i) ? column('threads') : NaN):(sp_base(i) / column('value')) " . \
        "with linespoints lt i title sp_DT[i]"
} else {
    sp_plot = sp_plot . "for [i=1:sp_nv] sp_file using (sp_row(i) ? column('threads') : NaN):(sp_base(i) / column('median_s')):" . \
        "(sp_base(i) / column('q3_s')):(sp_base(i) / column('q1_s')) with yerrorlines lt i title sp_DT[i]"
}
do for [i = 1:sp_nv] {
    if (sp_HF[i]) { sp_plot = sp_plot . sprintf(", amdahl(sp_p(%d), x) with lines lt %d dt 4 lw 1.5 title sp_title(%d)", i, i, i) }
}
# Where the program knows the serial fraction (it made it: "# theory_V: p=P"),
# Amdahl's curve with that p is drawn whatever the run measured: on a busy
# machine the points may support no fit, but the theory still stands.
array sp_TP[sp_nv]
do for [i = 1:sp_nv] {
    tp = sp_theory_p(word(sp_vars, i))
    sp_TP[i] = strlen(tp) > 0 ? tp + 0 : -1
    if (sp_TP[i] >= 0) {
        sp_plot = sp_plot . sprintf(", amdahl(%.6f, x) with lines lc rgb '#000000' dt 1 lw 1 title sprintf('Amdahl with the true p = %%.3f (theory)', %.6f)", sp_TP[i], sp_TP[i])
    }
}
if (sp_nsus > 0) {
    sp_plot = sp_plot . ", for [i=1:sp_nv] sp_file using (sp_sus(i) ? column('threads') : NaN):(sp_base(i) / column('median_s')) " . \
        "with points pt 4 ps 3 lw 1.5 lc rgb '#000000' title (i == 1 ? 'suspect: its threads did not run at once' : '')"
}
eval sp_plot
