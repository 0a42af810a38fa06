#!/usr/bin/env bash
# chapters/16-sharded-data-parallel/run.sh: what `make chapter-16` runs, in
# the order the README reads. Each program checks its runs before it prints
# a table (every ZeRO stage against one device's Adam weights; one bucket
# against the ring's closed form; no bucketing below the compute alone) and
# exits 1 if a check fails, which stops the chapter here. Before each step a
# question to answer first; after it, the program's answers from its own
# numbers. Everything timed here is modelled (the virtual cluster's clock).
#   BIN      where the programs are (default build/ch16)
#   RESULTS  where the CSV goes (default results/16-sharded-data-parallel)
#   FULL=1   more training steps
#   MPI=1    also run the ZeRO stages over Open MPI (mpirun -np 4), if built
set -euo pipefail
BIN=${BIN:-build/ch16}
RESULTS=${RESULTS:-results/16-sharded-data-parallel}
mkdir -p "$RESULTS"
steps=10
[ "${FULL:-}" = 1 ] && steps=50

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

predict "mixed-precision Adam keeps 2 + 2 + 12 bytes a parameter. For 7.5B parameters on 64
  devices, how many GB does one device hold with plain data parallelism, ZeRO-1, ZeRO-2 and
  ZeRO-3? And how many bytes does one device send a step at ZeRO-1 and at ZeRO-3, against
  plain data parallelism's all-reduce?"
step "1. ZeRO stages 0-3: the same weights, memory and bytes per step counted, where ZeRO-3 stops paying" \
    "$BIN/zero" -s "$steps" --csv "$RESULTS/zero.csv"

predict "the gradients of a 192 MiB model are all-reduced in buckets while the backward pass
  goes on. From 256 KiB to one bucket of the whole model, which bucket size leaves the least
  communication exposed, and what makes smaller and larger buckets worse? And how much of
  FSDP's gather does prefetching the next layer hide?"
step "2. gradient buckets overlapped with the backward pass, and FSDP's prefetch (modelled)" \
    "$BIN/buckets" --csv "$RESULTS/buckets.csv"

if [ "${MPI:-}" = 1 ] && . "$(dirname "$0")/../mpi.sh" && mpi_ready "$BIN/mpi_zero"; then
    predict "over 4 Open MPI processes, will every stage give the virtual cluster's weights bit for
  bit, and send the same bytes?"
    step "3. the same ZeRO stages over Open MPI" \
        mpi_run 4 "$BIN/mpi_zero" -s "$steps"
fi
