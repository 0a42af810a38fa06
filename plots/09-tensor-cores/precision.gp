# caption: The error of C = A B against an exact (double) product of fp32 inputs, as the inner dimension k grows (log-log), for fp32 inputs on an fp32 SIMT rung and for fp16 and bf16 inputs with fp32 accumulation on the Tensor Core rung: measured points, and the model's lines (the program's header derives them for uniform inputs). The 16-bit inputs' rounding errors grow as sqrt(k), like the answer itself, so their relative error stays flat: about 0.53 x 2^-11 for fp16 and 8x that for bf16, whose 3 fewer significand bits buy fp32's exponent range. The fp32 accumulator's own errors grow as k, so its relative error rises as sqrt(k), far below both.
# data: precision.csv
# terminal: yes
load 'plots/common.gp'
f = csv('precision.csv')
err = where(f, 'param', 'normwise_err')
mod = where(f, 'param', 'normwise_model')
types = values(f, 'variant', 'param', 'normwise_err')
m = meta(f, 'm')

set title sprintf('Relative error against k (C = A B, m = n = %s, fp32 accumulation)', m)
set xlabel 'inner dimension k (log scale)'
set ylabel '||C - exact|| / ||exact|| (log scale)'
set logscale xy
set yrange [*:*]
set offsets graph 0.05, graph 0.05, 0, 0
set format y '%.0e'
set grid
set key bottom right
is(t) = strcol('variant') eq t
plot for [i = 1:words(types)] err using 'n':(is(word(types, i)) ? column('value') : NaN) \
         with points lt i title word(types, i).' inputs, measured', \
     for [i = 1:words(types)] mod using 'n':(is(word(types, i)) ? column('value') : NaN) \
         with lines lt i dt 2 title word(types, i).' model'
