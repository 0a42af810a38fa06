# caption: The measured speedups (points) and the Amdahl curve fitted to them, extended by the model to 1024 processors, beside the curve of the true parallel fraction (by construction, 1 - s). The fit is only as good as the few points a small machine gives: a small error in p at N = 2 becomes a large error in the ceiling.
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
# where(): one variant's rows only, so each curve is one joined line
plot where(f, 'variant', 'amdahl_fit') using (column('n')):(column('value')) with lines lt 1 lw 2 \
        title sprintf('Amdahl, fitted p = %.3f (ceiling %.1fx)', p, 1 / (1 - p)), \
     where(f, 'variant', 'amdahl_true') using (column('n')):(column('value')) with lines lt 3 dt 2 lw 2 \
        title sprintf('Amdahl, true p = %.3f (ceiling %.1fx)', 1 - s, 1 / s), \
     f using (meas(0) ? column('threads') : NaN):(base / column('median_s')) with points lt 2 pt 7 ps 1.5 \
        title 'measured median'
