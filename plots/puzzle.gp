# plots/puzzle.gp: the access picture of one GPU puzzle (chapter 08, exercises
# 8.5 on), loaded by plots/08-cuda-warps/puzzle_*.gp after they set
#   data   the CSV the puzzle's checker wrote with PW_PICTURE (puzzle.h, pz_csv)
#   name   the puzzle, for the title
# and optionally
#   threads  the launch's threads, to draw the rows of idle threads too (a
#            rounded-up launch; else the rows end at the last thread that
#            touched something)
#   ylab     the y label (a 2D block's rows are threadIdx.x + bx threadIdx.y)
# Left the picture counted from the solution's run on the emulator, right the
# one the puzzle expects: a row per thread, a column per element of each
# array, blue where the thread read it, red where it wrote it, purple both.
# Not a chapter's script itself (render.sh draws only plots/NN-name/*.gp).
f = csv(data)
stats f using 'x' nooutput
W = STATS_max + 4                         # the expected panel starts here
stats f using 'thread' nooutput
T = STATS_max
if (exists('threads')) T = threads - 1
set title name.": which thread touched which element\nleft: the solution's run, counted by the emulator; right: what the puzzle expects"
set xlabel 'element of each array (the names above the columns)'
set ylabel (exists('ylab') ? ylab : 'thread (block x threads per block + thread)')
set xrange [-1:2 * W - 3]
set yrange [T + 0.5:-2.5]
set xtics out nomirror
unset xtics
set ytics 0, (T > 40 ? 8 : T > 16 ? 4 : 1), T
set style fill solid 1.0 border lc rgb '#ffffff'
unset colorbox
set key outside bottom center horizontal
rgb(k) = k == 1 ? 0x3182bd : k == 2 ? 0xe6550d : 0x756bb1
set label 1 'yours' at W/2 - 2, -2 center front
set label 2 'expected' at W + W/2 - 2, -2 center front
plot f using (column('access') > 0 ? column('x') + column('panel') * W : 1/0):'thread':(0.45):(0.45):(rgb(column('access'))) \
       with boxxyerror fc rgb variable notitle, \
     f using (column('access') == 0 ? column('x') + column('panel') * W : 1/0):(-1):'array' with labels notitle, \
     NaN with boxes fc rgb '#3182bd' title 'read', \
     NaN with boxes fc rgb '#e6550d' title 'write', \
     NaN with boxes fc rgb '#756bb1' title 'read and write'
