# caption: Time per element of the piecewise function y = x >= 0 ? x^2 : x/2 against the share of negative elements, in random order. Rungs that use a mask compute both arms and do not care; piecewise_branch (a call in one arm: a real jump) costs most where the branch predictor can least guess, near 50 %. piecewise_auto is whatever the compiler made of the plain loop: a mask with clang or AVX-512, a branch with gcc on SSE or AVX2 builds (piecewise_notrap, the same loop under -fno-trapping-math, gets a mask everywhere). Open circles: the same data sorted, where the predictor is almost always right.
# data: branches.csv
load 'plots/common.gp'
f = csv('branches.csv')
V = values(f, 'variant', 'kind', 'summary')
nv = words(V)
pct(p) = real(substr(p, strstrt(p, '-') + 1, 99))
nsel(c) = column('median_s') * 1e9 / column('n')

set title 'Masks against branches: piecewise on random signs (one core)'
set xlabel 'negative elements (%), random order'
set ylabel 'ns per element (log scale)'
set xrange [-5 : 105]
set xtics 0, 25, 100
set logscale y 10
set format y '%g'
set key outside right top
# one variant's rows in one order (param is the 7th column of the schema)
rows(v, order) = where(f, 'variant', v).sprintf(" | awk -F, 'NR == 1 || $7 ~ /^%s-/'", order)
plot for [i=1:nv] rows(word(V, i), 'random') using (pct(strcol('param'))):(nsel(0)) smooth unique with linespoints lt i title word(V, i), \
     for [i=1:nv] rows(word(V, i), 'sorted') using (pct(strcol('param'))):(nsel(0)) with points lt i pt 6 ps 1.8 notitle, \
     NaN with points lc rgb '#000000' pt 6 ps 1.8 title 'same data, sorted'
