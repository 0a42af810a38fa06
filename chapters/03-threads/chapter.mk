# Chapter 03: threads. Programs, the kernels they link (kernels/threads.c:
# placement, counters, false sharing; kernels/pi.c: the pi integral), and the
# exercises (3.1 histogram: fix a race; 3.2 tally: remove false sharing;
# 3.3 bank: a bug hunt).
$(call chapter,03,threads,concurrency race false_sharing deadlock pi,threads pi,histogram tally bank)
# No PFLAGS_/KFLAGS_ needed, on purpose: the lessons that the optimiser could
# "fix" (the racy counter that -O3 would turn into one add per thread, the
# false-sharing counters it would keep in a register) go through volatile in
# kernels/threads.c, where a comment at each says what the compiler would do
# otherwise. So the demos survive any -O level and both gcc and clang.
