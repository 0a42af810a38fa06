# caption: The measured speedups (points) and the Amdahl curve fitted to them, extended by the model to 1024 processors, beside the curve of the true parallel fraction (by construction, 1 - s). The fit is only as good as the few points a small machine gives: a small error in p at N = 2 becomes a large error in the ceiling. A run that showed no speedup, or whose threads did not run at the same time, gets no fitted curve; ringed points are suspect.
# data: scaling.csv
load 'plots/common.gp'
f = csv('scaling.csv')
meas(x) = strcol('kind') eq 'summary' && strcol('variant') eq 'strong'
q(v) = strcol('kind') eq 'quantity' && strcol('variant') eq v
base = real(system(sprintf("sed -n 's/^# amdahl_strong: .*baseline_s=\\([^ ]*\\).*/\\1/p' '%s' | head -n 1", f)))
p = real(system(sprintf("sed -n 's/^# amdahl_strong: p=\\([^ ]*\\).*/\\1/p' '%s' | head -n 1", f)))
s = real(system(sprintf("sed -n 's/^# serial_fraction: //p' '%s' | head -n 1", f)))

set title 'Strong scaling extended by the model: fitted p against the true one'
set xlabel 'threads / processors N'
set ylabel 'speedup (log scale)'
set logscale xy 2
set xrange [1 : 1024]
set format x '%g'
set format y '%g'
set key top left
# The fitted curve exists only when the run gave a fit (scaling writes no
# amdahl_fit rows when its points showed no speedup or did not run in
# parallel); suspect points are ringed. The command is assembled so that no
# series without points is named.
nfit = system(sprintf("grep -c '^[^#]*,amdahl_fit,quantity,' '%s'", f)) + 0
nsus = system(sprintf("awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next } ix[\"overlap\"] && $ix[\"variant\"] == \"strong\" && $ix[\"overlap\"] != \"\" && $ix[\"overlap\"] < 0.5 { n++ } END { print n + 0 }' '%s'", f)) + 0
sus(x) = meas(0) && strcol('overlap') ne '' && column('overlap') < 0.5
# where(): one variant's rows only, so each curve is one joined line
cmd = "plot where(f, 'variant', 'amdahl_true') using (column('n')):(column('value')) with lines lt 3 dt 2 lw 2 " . \
      "title sprintf('Amdahl, true p = %.3f (ceiling %.1fx)', 1 - s, 1 / s), " . \
      "f using (meas(0) ? column('threads') : NaN):(base / column('median_s')) with points lt 2 pt 7 ps 1.5 title 'measured median'"
if (nfit > 0) {
    cmd = cmd . ", where(f, 'variant', 'amdahl_fit') using (column('n')):(column('value')) with lines lt 1 lw 2 " . \
          "title sprintf('Amdahl, fitted p = %.3f (ceiling %.1fx)', p, 1 / (1 - p))"
} else {
    cmd = cmd . ", NaN with lines lt 1 lw 2 title 'no Amdahl fit: no speedup, or no point ran in parallel'"
}
if (nsus > 0) {
    cmd = cmd . ", f using (sus(0) ? column('threads') : NaN):(base / column('median_s')) with points pt 4 ps 3 lw 1.5 lc rgb '#000000' title 'suspect: its threads did not run at once'"
}
eval cmd
