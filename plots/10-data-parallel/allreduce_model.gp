# caption: All-reduce time against buffer size over MPI on this machine, one panel per process count: the workbook's naive, tree and ring measured here (points, median of the repeats; MPI_Allreduce in grey) against what the virtual cluster predicts with the ping-pong's alpha and beta (lines, modelled). Where the points sit above their line the model leaves something out: MPI_Bsend's copy and the additions (the program measures both), two copies sharing the memory, and, with more processes than cores, ranks taking turns.
# data: mpi_model.csv
# opt-in: MPI=1
load 'plots/common.gp'
f = csv('mpi_model.csv')
sel(v, par, p) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\" && $ix[\"threads\"] == \"%s\"' '%s'", v, par, p, f)
P = system(sprintf("awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next } $ix[\"variant\"] == \"ring\" && $ix[\"param\"] == \"model\" && !s[$ix[\"threads\"]]++ { printf \"%%s \", $ix[\"threads\"] }' '%s'", f))
A = 'naive tree ring'
np = words(P)
set logscale xy 10
set format x '%.0s%cB'
set format y '%g'
set xlabel 'buffer (bytes)'
set xtics 100
set ylabel 'time (ms)'
set key inside left top font ',9'
set multiplot layout 1, np
do for [k = 1:np] {
    set title sprintf('%s processes', word(P, k))
    plot for [i = 1:3] sel(word(A, i), 'model', word(P, k)) using 'n':(column('value') * 1e3) with lines lt i lw 2 title word(A, i).' modelled', \
         for [i = 1:3] sel(word(A, i), 'mpi', word(P, k)) using 'n':(column('median_s') * 1e3) with points lt i pt 7 title word(A, i).' measured', \
         sel('MPI_Allreduce', 'mpi', word(P, k)) using 'n':(column('median_s') * 1e3) with points lc rgb ref_color pt 6 title 'MPI_Allreduce'
}
unset multiplot
