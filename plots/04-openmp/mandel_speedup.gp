# caption: The same Mandelbrot loop under four schedules, speedup against the sequential loop. schedule(static) gives one thread the rows through the body of the set and it becomes the straggler; dealing rows round-robin (static_1), grabbing them from a counter (dynamic) or in shrinking grabs (guided) spreads the heavy rows over all threads.
# data: mandel.csv
load 'plots/common.gp'
f = csv('mandel.csv')
# the schedules, as the program named them: every variant but the reference
# and the per-thread rows (busy_*)
V = values(f, 'variant', 'kind', 'summary')
V = system(sprintf("echo '%s' | tr ' ' '\\n' | grep -v -e '^mandel_seq$' -e '^busy_' | tr '\\n' ' '", V))
# Nine key lines would cover the points: the top offset makes room above the
# curves, the key goes there, and the template is told to leave it.
set offsets 0, 0, graph 0.6, 0
set key font ',9' spacing 1 top right
sp_keep_key = 1
call 'plots/speedup.gp' 'mandel.csv' V 'Mandelbrot rows under four OpenMP schedules'
