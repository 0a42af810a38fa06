# caption: Autoregressive decoding in the same server (chapter 14's decode): static batching (a batch admits no one until its longest request finishes) against continuous, iteration-level batching (Orca, vLLM: a finished request leaves and a waiting one joins at every iteration). Left: tokens per second; right: median time to first token.
# data: decode.csv
load 'plots/common.gp'
f = csv('decode.csv')
set multiplot layout 1,2
set style data histograms
set style fill solid 0.6 border -1
set boxwidth 0.6
set key off
set yrange [0:*]
set title 'tokens per second'
plot where(f, 'param', 'tokens_per_s') using 'value':xtic(2) lt 1
set title 'time to first token, median (ms)'
plot where(f, 'param', 'ttft_p50') using (column('value') * 1000):xtic(2) lt 2
unset multiplot
