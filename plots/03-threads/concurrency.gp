# caption: Concurrency is not parallelism: the same pi computation split over T threads, all pinned to one core (one_core: the threads take turns, the speedup stays at 1, and with one core to scale on nothing is fitted) or pinned one per core (spread: the threads run at the same time). Speedup over the sequential reference, with the ideal line and each placement's Amdahl fit.
# data: concurrency.csv
load 'plots/common.gp'
f = csv('concurrency.csv')
# the placements the program ran, from its "# amdahl_<variant>:" lines
V = system(sprintf("sed -n 's/^# amdahl_\\([^:]*\\):.*/\\1/p' '%s' | tr '\\n' ' '", f))
call 'plots/speedup.gp' 'concurrency.csv' V 'Concurrency vs parallelism: T threads on one core, or spread over the cores'
