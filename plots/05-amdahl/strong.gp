# caption: Strong scaling of the chapter's program (serial fraction s chosen on the command line, 0.05 by default): the measured median speedup with its spread, the ideal line, and the Amdahl curve fitted to the points on up to as many threads as cores; the key gives the fitted p and the Karp-Flatt serial fraction at each thread count. Past the cores (dotted line) threads interleave, and Karp-Flatt climbs.
# data: scaling.csv
load 'plots/common.gp'
call 'plots/speedup.gp' 'scaling.csv' 'strong' 'Strong scaling: the same job on more threads, against Amdahl'
