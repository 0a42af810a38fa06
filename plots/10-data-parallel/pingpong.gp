# caption: One-way time of an MPI message between two processes of this machine (ping-pong, MPI_Send/MPI_Recv: points, median with quartiles) against the alpha-beta line fitted to them (solid) and the best two lines (dashed). Log-log: a straight line alpha + n beta bends from flat (latency) to slope 1 (bandwidth). Where the points leave the line is where one alpha and one beta cannot describe the transport: Open MPI's eager limit (4 KiB by default: a copy through a shared buffer below, a rendezvous above), and, past the caches, a slower copy.
# data: mpi_model.csv
# opt-in: MPI=1
load 'plots/common.gp'
f = csv('mpi_model.csv')
sel(v, par) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\"' '%s'", v, par, f)
set logscale xy 10
set format x '%.0s%cB'
set format y '%g'
set xlabel 'message size (bytes)'
set ylabel 'one-way time (us)'
set key inside left top
set title 'Ping-pong over MPI on this machine, against the alpha-beta fit'
plot sel('pingpong', 'one_way') using 'n':(column('median_s') * 1e6):(column('q1_s') * 1e6):(column('q3_s') * 1e6) with yerrorbars lt 1 pt 7 title 'measured (median, quartiles)', \
     sel('fit', 'one_line') using 'n':(column('value') * 1e6) with lines lt 2 lw 2 title 'one line: alpha + n beta (modelled)', \
     sel('fit_below', 'segment') using 'n':(column('value') * 1e6) with lines lt 3 dt 2 lw 2 title 'two lines (modelled)', \
     sel('fit_above', 'segment') using 'n':(column('value') * 1e6) with lines lt 3 dt 2 lw 2 notitle
