# chapters/mpi.sh: sourced by the run.sh of the chapters with an MPI step
# (10, 11, 12), for `make chapter-N MPI=1`.
#
# mpi_ready PROGRAM: true when PROGRAM was built (mk/mpi.mk, with mpicc) and
# mpirun exists; otherwise one line saying what to install, and false. As
# root, Open MPI refuses to start unless told twice: this exports both
# variables for the chapter's run, and says so.
# The steps then run `mpirun --oversubscribe -np 4`: 4 processes on a 2-core
# laptop is the point (real processes, real messages), not a speed record.
mpi_ready() {
    if [ ! -x "$1" ] || ! command -v mpirun >/dev/null 2>&1; then
        echo "MPI=1: skipped: mpicc/mpirun not found (apt install openmpi-bin libopenmpi-dev / brew install open-mpi)"
        return 1
    fi
    if [ "$(id -u)" = 0 ] && [ -z "${OMPI_ALLOW_RUN_AS_ROOT:-}" ]; then
        echo "(running as root: Open MPI needs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; set for this run)"
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
}
