# caption: The tree walk with tasks at the default cut-off, speedup against the sequential recursion on 1, 2, ... threads, with the Amdahl fit. The first levels of the tree give tens to hundreds of tasks of uneven size, and idle threads take them as they come.
# data: tasks.csv
load 'plots/common.gp'
call 'plots/speedup.gp' 'tasks.csv' 'tree_tasks' 'Tasks walking an irregular tree: speedup against threads'
