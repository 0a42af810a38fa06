# plots/roofline.gp: the roofline every chapter draws its kernels on.
#
#   load 'plots/common.gp'
#   call 'plots/roofline.gp' 'roofline.csv results/07-gemm-cpu/gemm.csv' 'optional title'
#
# ARG1: CSV files, space separated: a bare name is one of the chapter's own
# (results/NN-name/), a path starting with results/ is any chapter's. Files
# that do not exist yet are left out (a chapter that has not run), but at
# least one must have roofs.
#
# Roofs come from the "quantity" rows common/roofline.c writes: roof_compute
# (GFLOP/s) and roof_dram, roof_l2, roof_l1 (GB/s), per thread count; the
# first file that gives a thread count its roofs wins. Each thread count
# gets its roofline, min(peak, intensity x bandwidth): solid for DRAM,
# dashed for the cache roofs where measured. Points are every row whose
# param is "roofline": x = flops / bytes (the counted intensity), y = the
# measured GFLOP/s, labelled with the variant, filled circles for one
# thread and squares for more.

rl_n = words(ARG1)
rl_files = ''
do for [i = 1:rl_n] {
    rl_f = word(ARG1, i)
    rl_p = (strlen(rl_f) > 8 && rl_f[1:8] eq 'results/') ? rl_f : csv(rl_f)
    if (system(sprintf("test -f '%s' && echo y", rl_p)) eq 'y') { rl_files = rl_files . ' ' . rl_p }
}
# Each file's name in the key, not a path: "ch06:roofline" for 06-memory-wall/roofline.csv
rl_names = system(sprintf("for f in %s; do d=$(basename \"$(dirname \"$f\")\"); b=$(basename \"$f\" .csv); printf 'ch%%s:%%s ' \"${d%%%%-*}\" \"$b\"; done", rl_files))
if (words(rl_files) == 0) { print 'roofline.gp: none of the CSVs exist: ', ARG1; exit status 1 }

# "threads peak dram l2 l1" for each thread count, one after the other.
rl_roofs = system(sprintf("awk -F, 'FNR == 1 { h = 0 } /^#/ { next } " . \
    "!h { delete ix; for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next } " . \
    "$ix[\"kind\"] == \"quantity\" && $ix[\"variant\"] ~ /^roof_/ { t = $ix[\"threads\"]; v = $ix[\"variant\"]; " . \
    "  if (!((t, v) in r)) r[t, v] = $ix[\"value\"]; if (!(t in seen)) { seen[t] = 1; ts[++n] = t } } " . \
    "END { for (i = 1; i <= n; i++) { t = ts[i]; printf \"%%s %%s %%s %%s %%s \", t, r[t, \"roof_compute\"] + 0, " . \
    "  r[t, \"roof_dram\"] + 0, r[t, \"roof_l2\"] + 0, r[t, \"roof_l1\"] + 0 } }' %s", rl_files))
rl_nt = words(rl_roofs) / 5
if (rl_nt < 1) { print 'roofline.gp: no roof_compute/roof_dram rows in ', rl_files; exit status 1 }
array RT[rl_nt]; array PK[rl_nt]; array BW[rl_nt]; array L2[rl_nt]; array L1[rl_nt]
do for [i = 1:rl_nt] {
    RT[i] = word(rl_roofs, 5 * i - 4) + 0
    PK[i] = word(rl_roofs, 5 * i - 3) + 0.0
    BW[i] = word(rl_roofs, 5 * i - 2) + 0.0
    L2[i] = word(rl_roofs, 5 * i - 1) + 0.0
    L1[i] = word(rl_roofs, 5 * i) + 0.0
}

# The points' extent: "min_intensity max_intensity min_gflops" (or nothing).
rl_ext = system(sprintf("awk -F, 'FNR == 1 { h = 0 } /^#/ { next } " . \
    "!h { delete ix; for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next } " . \
    "$ix[\"param\"] == \"roofline\" && $ix[\"bytes\"] > 0 && $ix[\"gflops\"] > 0 { ai = $ix[\"flops\"] / $ix[\"bytes\"]; " . \
    "  if (!n++ || ai < lo) lo = ai; if (ai > hi) hi = ai; if (n == 1 || $ix[\"gflops\"] < glo) glo = $ix[\"gflops\"] } " . \
    "END { if (n) print lo, hi, glo }' %s", rl_files))
rl_pkmax = 0; rl_ridge = 0; rl_bwmin = BW[1]
do for [i = 1:rl_nt] {
    if (PK[i] > rl_pkmax) { rl_pkmax = PK[i] }
    if (PK[i] / BW[i] > rl_ridge) { rl_ridge = PK[i] / BW[i] }
    if (BW[i] < rl_bwmin) { rl_bwmin = BW[i] }
}
rl_xlo = 0.03; rl_xhi = rl_ridge * 8; rl_ylo = rl_bwmin * rl_xlo
if (words(rl_ext) == 3) {
    rl_xlo = word(rl_ext, 1) / 2 < rl_xlo ? word(rl_ext, 1) / 2 : rl_xlo
    rl_xhi = word(rl_ext, 2) * 8 > rl_xhi ? word(rl_ext, 2) * 8 : rl_xhi   # room for the points' labels
    rl_ylo = word(rl_ext, 3) / 2 < rl_bwmin * rl_xlo ? word(rl_ext, 3) / 2 : rl_bwmin * rl_xlo
}

if (ARGC >= 2 && strlen(ARG2) > 0) { set title ARG2 } else { set title 'The roofline: measured roofs, counted intensities, measured rates' }
set xlabel 'arithmetic intensity (flop per byte of DRAM traffic, counted; log scale)'
set ylabel 'GFLOP/s (median; log scale)'
set logscale xy 10
set xrange [rl_xlo : rl_xhi]
set yrange [rl_ylo : rl_pkmax * 2.5]
set format x '%g'
set format y '%g'
# The key above the frame: inside, it hid the cache roofs of the left half.
# Point labels: one thread's to the right of the point, more threads' to the
# left, so a kernel's two points at one intensity do not print over each other.
set key outside above center horizontal maxrows 4
set samples 400

# The ridge of each roofline: where memory stops being the limit.
do for [i = 1:rl_nt] {
    set arrow from first PK[i] / BW[i], graph 0 to first PK[i] / BW[i], first PK[i] nohead lc rgb ref_color dt 3 back
    set label sprintf('ridge %.2g', PK[i] / BW[i]) at first PK[i] / BW[i], first PK[i] center offset 0, 0.8 tc rgb ref_color front
}

# The labels: every point's, moved apart where they would print over each
# other (plots/spread_labels.awk), with a thin line back to a moved point.
rl_labels = sprintf("< awk -F, 'FNR == 1 { h = 0 } /^#/ { next } " . \
    "!h { delete ix; for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next } " . \
    "$ix[\"param\"] == \"roofline\" && $ix[\"bytes\"] > 0 && $ix[\"gflops\"] > 0 { " . \
    "  print $ix[\"flops\"] / $ix[\"bytes\"], $ix[\"gflops\"], ($ix[\"threads\"] > 1 ? \"L\" : \"R\"), $ix[\"variant\"] }' %s " . \
    "| awk -v ylo=%g -v yhi=%g -v sep=0.035 -v wide=0.7 -f plots/spread_labels.awk", rl_files, rl_ylo, rl_pkmax * 2.5)
rl_roof(x, pk, bw) = (bw > 0 && x * bw < pk) ? x * bw : (bw > 0 ? pk : 1/0)
rl_is_pt = "strcol('param') eq 'roofline' && column('bytes') > 0"
rl_x(dummy) = (strcol('param') eq 'roofline' && column('bytes') > 0) ? column('flops') / column('bytes') : NaN
plot for [i = 1:rl_nt] rl_roof(x, PK[i], BW[i]) with lines lt 7 lw 2 dashtype i \
         title sprintf('%d thread%s: %.0f GFLOP/s, DRAM %.1f GB/s', RT[i], RT[i] > 1 ? 's' : '', PK[i], BW[i]), \
     for [i = 1:rl_nt] (L2[i] > 0 ? rl_roof(x, PK[i], L2[i]) : 1/0) with lines lt 8 lw 1 dt 2 \
         title (L2[i] > 0 ? sprintf('L2 roof, %d thread%s: %.0f GB/s', RT[i], RT[i] > 1 ? 's' : '', L2[i]) : ''), \
     for [i = 1:rl_nt] (L1[i] > 0 ? rl_roof(x, PK[i], L1[i]) : 1/0) with lines lt 8 lw 1 dt 3 \
         title (L1[i] > 0 ? sprintf('L1 roof, %d thread%s: %.0f GB/s', RT[i], RT[i] > 1 ? 's' : '', L1[i]) : ''), \
     for [j = 1:words(rl_files)] word(rl_files, j) using (rl_x(0)):(column('threads') == 1 ? column('gflops') : NaN) \
         with points lt (j % 6 + 1) pt 7 ps 1.1 title sprintf('%s kernels, 1 thread', word(rl_names, j)), \
     for [j = 1:words(rl_files)] word(rl_files, j) using (rl_x(0)):(column('threads') > 1 ? column('gflops') : NaN) \
         with points lt (j % 6 + 1) pt 5 ps 1.1 title sprintf('%s kernels, more threads', word(rl_names, j)), \
     rl_labels using 1:2:(0):($3 - $2) with vectors nohead lc rgb ref_color lw 0.5 notitle, \
     rl_labels using 1:(strcol(4) eq 'R' ? $3 : NaN):5 with labels left offset 0.8, 0 font ',8' notitle, \
     rl_labels using 1:(strcol(4) eq 'L' ? $3 : NaN):5 with labels right offset -0.8, 0 font ',8' notitle
