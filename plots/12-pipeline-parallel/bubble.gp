# caption: Bubble fraction (idle time over p x span, read from the virtual cluster's trace: a modelled clock) against the number of micro-batches m, p = 4 ranks, links free. Points: traced (modelled); lines: the formulas, GPipe and 1F1B (p-1)/(m+p-1) (Huang et al. 2019; Narayanan et al. 2021), interleaved (p-1)/(vm+p-1) with v = 2 (Narayanan et al. 2021, m a multiple of p), ZB-H1 (p-1)/(3m+p-1) for m >= p (Qi et al. 2024; for m < p this chapter's ZB-H1 order gives (2p-m-1)/(2p+2m-1), the kink at m = p). GPipe's open circles lie under 1F1B's squares: the same bubble. More micro-batches shrink every bubble; ZB-H1's idle over useful time is a third of 1F1B's.
# data: schedules.csv
# source: modelled
# terminal: yes
load 'plots/common.gp'
f = csv('schedules.csv')
S = values(f, 'param', 'variant', 'bubble')
ns = words(S)
P = meta(f, 'ranks')
sel(v, par) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\"' '%s'", v, par, f)
set title sprintf('Pipeline bubble against micro-batches, p = %s: traced (points), formula (lines), all modelled', P)
set xlabel 'micro-batches m'
set ylabel 'bubble (idle / (p x span))'
set logscale x 2
set yrange [0:*]
set key inside right top
if (is_dumb) { set title sprintf('bubble vs m, p = %s: points traced, lines formula (modelled)', P) }
plot for [i=1:ns] sel('formula', word(S, i)) using 'n':'value' with lines lt i dt 2 notitle, \
     for [i=1:ns] sel('bubble', word(S, i)) using 'n':'value' with points lt i pt (i == 1 ? 6 : i == 2 ? 5 : i == 3 ? 9 : 13) ps (i == 1 ? 2.2 : 1) title word(S, i)
