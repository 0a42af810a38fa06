# plots/common.gp: loaded first by every figure script (plots/render.sh does
# it), so all figures share one look and no script names a terminal or a file.
#
# Variables passed with gnuplot -e:
#   results  the chapter's CSV folder, e.g. 'results/01-measure'
#   out      the figure's path without extension, e.g. 'plots/out/01-measure/loops_rate'
#   fmt      'png', 'svg' or 'dumb' (text, to stdout)

if (!exists("results")) results = '.'
if (!exists("fmt")) fmt = 'png'
if (!exists("out")) out = 'figure'

# ---- terminal and output ----------------------------------------------------
# noenhanced everywhere: variant names such as square_dram would otherwise turn
# their "_dram" into a subscript.
if (fmt eq 'png') {
    set terminal pngcairo size 900,560 noenhanced font 'DejaVu Sans,11' background rgb 'white'
    set output out.'.png'
} else {
    if (fmt eq 'svg') {
        # dynamic: the gallery scales it to the page width
        set terminal svg size 900,560 dynamic noenhanced font 'DejaVu Sans,11' background rgb 'white'
        set output out.'.svg'
    } else {
        if (fmt eq 'dumb') {
            set terminal dumb size 100,30 noenhanced
            set output
        } else {
            print sprintf("common.gp: unknown fmt '%s' (png, svg or dumb)", fmt)
            exit status 1
        }
    }
}
is_dumb = (fmt eq 'dumb')

# ---- data -------------------------------------------------------------------
# Every CSV: "# key: value" metadata (comments to gnuplot), a header row, rows.
# Empty fields (gflops when flops is 0) are then missing values, never zeros.
set datafile separator comma
set datafile commentschars '#'
set datafile columnheaders

# csv(name): the path of one of the chapter's CSVs.
csv(name) = results.'/'.name

# meta(file, key): the value of the line "# key: value", or "" if it has none.
# Cache sizes, peaks and the machine come from here, never from the script.
meta(file, key) = system(sprintf("sed -n 's/^# %s: //p' '%s' | head -n 1", key, file))

# values(file, col, filtercol, filterval): the distinct values of column col,
# in the order they first appear, over rows whose filtercol equals filterval;
# space separated, for `do for [v in ...]` and word(). So scripts read variant
# names from the data, never retype them.
values(file, col, fc, fv) = system(sprintf( \
    "awk -F, -v c='%s' -v fc='%s' -v fv='%s' '/^#/ { next } " . \
    "!h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next } " . \
    "$ix[fc] == fv && !seen[$ix[c]]++ { printf \"%%s \", $ix[c] }' '%s'", col, fc, fv, file))

# where(file, col, val): a data source of the header and the rows whose col
# equals val. Rows filtered inside `using` become undefined points, which
# break a line; this keeps one series' rows together when rows interleave.
where(file, col, val) = sprintf( \
    "< awk -F, -v c='%s' -v v='%s' '/^#/ { next } " . \
    "!h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[c] == v' '%s'", col, val, file)

# bytes_label(b): 32768 -> "32 KiB", for tics and labels.
bytes_label(b) = b >= 2.0**30 ? sprintf("%g GiB", b / 2.0**30) : \
                 b >= 2.0**20 ? sprintf("%g MiB", b / 2.0**20) : \
                 b >= 2.0**10 ? sprintf("%g KiB", b / 2.0**10) : sprintf("%g B", b)

# ---- look -------------------------------------------------------------------
# Okabe-Ito colours: told apart with colour-blindness and in grey print.
set linetype 1 lc rgb '#0072B2' lw 2 pt 7 ps 1.0
set linetype 2 lc rgb '#D55E00' lw 2 pt 5 ps 1.0
set linetype 3 lc rgb '#009E73' lw 2 pt 9 ps 1.2
set linetype 4 lc rgb '#CC79A7' lw 2 pt 13 ps 1.2
set linetype 5 lc rgb '#E69F00' lw 2 pt 11 ps 1.2
set linetype 6 lc rgb '#56B4E9' lw 2 pt 3 ps 1.0
set linetype 7 lc rgb '#000000' lw 2 pt 1 ps 1.0
set linetype 8 lc rgb '#999999' lw 2 pt 2 ps 1.0
set linetype cycle 8
set tics nomirror
# reference lines (peaks, caches, medians): thin, grey, dashed
ref_color = '#555555'
# labels on reference lines sit on a white box, above the lines they cross
set style textbox opaque noborder margins 1, 1

if (!is_dumb) {
    set grid xtics ytics mxtics mytics lt 1 lc rgb '#e0e0e0' lw 1, lt 1 lc rgb '#f0f0f0' lw 1
    set border 3 lc rgb '#444444'
    set tics out scale 0.6
    set key box lc rgb '#bbbbbb' opaque samplen 2.5 spacing 1.1
    set title font ',13'
} else {
    set key samplen 1
}
