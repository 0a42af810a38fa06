# plots/spread_labels.awk: moves point labels of a log-log figure apart so
# that none prints over another (the rooflines of chapters 06 and 09, where
# GEMM rungs share one intensity and sit a few percent apart in height).
#
#   awk -v ylo=1 -v yhi=1000 -v sep=0.035 -v wide=0.7 -f plots/spread_labels.awk points
#
# Input lines: x y side label (side R: the label is right of its point,
# L: left; the label may have spaces). Output, comma-separated as the
# figures read CSV, under a header line: x,y,label_y,side,label, the
# same points, each label's height moved up just enough that two labels
# whose extents meet (each `wide` decades long, about one label's width, on
# its side of its point) are `sep` of the plot's height apart (0.035: one line of 8-point text on a
# 450-pixel frame). Labels are placed from the lowest point up, so the
# lowest keeps its place; a moved label gets a leader line from its caller.
{
    n++
    X[n] = $1; Y[n] = $2; S[n] = $3
    lab = $0
    sub(/^[^ ]+ +[^ ]+ +[^ ]+ +/, "", lab)
    T[n] = lab
}
END {
    span = log(yhi / ylo) / log(10)
    d = sep * span                       # the least gap, in decades of y
    # order by height (insertion sort: a figure has tens of points)
    for (i = 1; i <= n; i++) o[i] = i
    for (i = 2; i <= n; i++) {
        k = o[i]
        for (j = i - 1; j >= 1 && Y[o[j]] > Y[k]; j--) o[j + 1] = o[j]
        o[j + 1] = k
    }
    for (a = 1; a <= n; a++) {
        i = o[a]
        ly = log(Y[i]) / log(10)
        moved = 1
        while (moved) {
            moved = 0
            for (b = 1; b < a; b++) {
                j = o[b]
                if (!spans_meet(i, j)) continue
                # only ever up, so the loop ends
                if (ly > L[j] - d && ly < L[j] + d - 1e-9) { ly = L[j] + d; moved = 1 }
            }
        }
        L[i] = ly
    }
    print "x,y,label_y,side,label"        # the figures read a header line first
    for (i = 1; i <= n; i++) printf "%s,%s,%.6g,%s,%s\n", X[i], Y[i], 10 ^ L[i], S[i], T[i]
}
function abs(v) { return v < 0 ? -v : v }
# Whether two labels' horizontal extents overlap, in decades of x: a label
# right of its point covers [x, x + wide], one left of it [x - wide, x].
function spans_meet(i, j,    a0, a1, b0, b1) {
    a0 = log(X[i]) / log(10); b0 = log(X[j]) / log(10)
    if (S[i] == "L") a0 -= wide
    if (S[j] == "L") b0 -= wide
    a1 = a0 + wide; b1 = b0 + wide
    return a0 < b1 && b0 < a1
}
