# caption: Softmax: time per element against the bytes each variant moves per element (counted: 4 per float read or written per pass), for rows past the caches (filled) and rows in the caches (open). The dashed line is the memory floor, bytes over the probe's one-core triad bandwidth: a filled point near it waits for memory, one near its open twin waits for its exps. Where memory binds, time climbs with the bytes; in the caches only the exps count, so 3pass and online (2 exps each) sit together and 3pass_stored (1 exp) lower. The program prints which this run showed.
# data: softmax.csv
# terminal: yes
load 'plots/common.gp'
f = csv('softmax.csv')
V = values(f, 'variant', 'kind', 'summary')
nv = words(V)
set title 'Softmax: bytes moved against time (one core)'
set xlabel 'bytes per element (counted)'
set ylabel 'ns per element'
set xrange [10 : 22]
set yrange [0 : *]
set key outside right top
ns(c) = column('median_s') * 1e9 / column('n')
rowsel(v, where_) = where(f, 'variant', v).sprintf(" | awk -F, 'NR == 1 || $7 == \"%s\"'", where_)
bpe(c) = column('bytes') / column('n')
bw = real(meta(f, 'bw_gbs_1core'))
mem_floor(x) = bw > 0 ? x / bw : NaN
plot mem_floor(x) with lines lc rgb ref_color dt 2 lw 1.5 title (bw > 0 ? sprintf('memory floor: bytes / %.1f GB/s', bw) : ''), \
     for [i=1:nv] rowsel(word(V, i), 'dram') using (bpe(0)):(ns(0)) with points lt i pt 7 ps 2 title word(V, i).' (past the caches)', \
     for [i=1:nv] rowsel(word(V, i), 'cache') using (bpe(0)):(ns(0)) with points lt i pt 6 ps 2 title word(V, i).' (in the caches)'
