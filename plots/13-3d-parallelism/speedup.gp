# caption: Strong scaling of GPT-3 XL (1.3B parameters) at a fixed global batch, the planner's best configuration at every device count (modelled: H100 SXM devices, nodes of 8, NVLink 450 GB/s, network 50 GB/s a device; matmuls at their shapes up to the measured MAMF). Speedup is against one ideal device (the step's model flops at the sustained rate); the Amdahl fit is drawn only where the program found it fits (no point above its ceiling): here the points rise far past any fitted ceiling, so it is not. Past the fastest point more devices make the step slower: micro-batches run out (the bubble grows), tensor groups leave the node, the data-parallel ring's latency grows. The 4x batch (Gustafson) keeps scaling further.
# data: scaling.csv
# source: modelled
# terminal: yes
load 'plots/common.gp'
f = csv('scaling.csv')
V = meta(f, 'variants')
sp_keep_key = 1
set key bottom right
call 'plots/speedup.gp' 'scaling.csv' V 'Strong scaling of a 3D-parallel step, modelled' 'modelled' 'devices'
