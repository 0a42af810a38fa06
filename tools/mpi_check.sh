#!/usr/bin/env bash
# tools/mpi_check.sh PROGRAM: `make mpi-check`. Runs build/ch10/mpi_check
# with the chapters' launch (chapters/mpi.sh: MPIRUN, HOSTFILE, NP,
# MPIRUN_FLAGS; NP defaults to 2 here), and adds the transport Open MPI chose,
# from its own selection log (OMPI_MCA_pml_base_verbose and
# OMPI_MCA_btl_base_verbose, set for this run only: the environment reaches
# mpirun's and srun's processes alike). Exit: the program's, or 2 for a bad
# launch (one line).
set -euo pipefail
prog=${1:?usage: tools/mpi_check.sh build/ch10/mpi_check}
. "$(dirname "$0")/../chapters/mpi.sh"
mpi_ready "$prog" || exit 77
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
OMPI_MCA_pml_base_verbose=10 OMPI_MCA_btl_base_verbose=10 mpi_run 2 "$prog" 2>"$log" || rc=$?
# Open MPI's selection lines: "select: initializing pml component ob1",
# "select: init of component vader returned success".
pml=$(sed -n 's/.*select: initializing pml component \([a-z0-9_]*\).*/\1/p' "$log" | sort -u | tr '\n' ' ' | sed 's/ $//')
btl=$(sed -n 's/.*select: init of component \([a-z0-9_]*\) returned success.*/\1/p' "$log" | sort -u | tr '\n' ' ' | sed 's/ $//')
if [ $rc -ne 0 ]; then
    :   # the launch failed: its one line follows
elif [ -n "$pml$btl" ]; then
    echo "transport (Open MPI's selection log): pml ${pml:-?}; btl ready: ${btl:-none}"
    echo "  between ranks of one host Open MPI uses vader (shared memory) when it is ready, between hosts the network btl (tcp, openib) or the ucx pml"
else
    echo "transport: not reported by this MPI (Open MPI's selection log was empty)"
fi
# Everything else the run said on stderr (errors, the one-line refusals).
grep -vE 'mca: base:|select:|selected [a-z0-9_]* best priority|mca: bml:|btl:.*(register|open|close)|^\[[^]]*\] *$' "$log" >&2 || true
exit $rc
