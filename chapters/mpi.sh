# chapters/mpi.sh: sourced by the run.sh of the chapters with an MPI step
# (10, 11, 12, 16), for `make chapter-N MPI=1`, and by tools/mpi_check.sh
# (`make mpi-check`).
#
# The launch, from the environment (make passes its command-line variables):
#   MPIRUN        the launcher (default mpirun); srun (Slurm) is known too
#   HOSTFILE      the machines to run on, Open MPI's format ("node1 slots=8"
#                 a line); unset: this machine only
#   NP            processes for every MPI step, in place of each step's own
#                 count (4 for most; chapter 10's model runs 2, 3 and 4)
#   MPIRUN_FLAGS  passed through to the launcher as they are
#                 ("--mca btl tcp,self", "--bind-to core", "--oversubscribe")
# On one machine (no HOSTFILE) the steps add --oversubscribe: 4 processes on
# a 2-core laptop is the point (real processes, real messages), not a speed
# record. With a HOSTFILE they do not: more ranks than the listed slots is
# then a mistake to report, not to hide (MPIRUN_FLAGS=--oversubscribe if
# meant).
#
# mpi_ready PROGRAM: true when PROGRAM was built (mk/mpi.mk, with mpicc)
# and the launcher exists; otherwise one line and false (a launcher the
# user named that does not exist, or a HOSTFILE that does not, exit 2). As
# root, Open MPI refuses to start unless told twice: this exports both
# variables for the chapter's run, and says so (PW_MPI_ROOT=0: it does not,
# and the refusal is reported in one line).
#
# mpi_run NP PROGRAM ARGS...: runs PROGRAM on NP processes (or $NP). Open
# MPI's own many-line refusals become one line each; its full text is kept
# in $RESULTS/mpirun.err (or the temporary folder) and named.

mpi_launcher() { printf '%s' "${MPIRUN:-mpirun}"; }

mpi_ready() {
    local launcher
    launcher=$(mpi_launcher)
    if [ -n "${MPIRUN:-}" ] && ! command -v "${launcher%% *}" >/dev/null 2>&1; then
        echo "MPIRUN=$MPIRUN: no such command here (which launcher: mpirun for Open MPI, srun under Slurm)" >&2
        exit 2
    fi
    if [ -n "${HOSTFILE:-}" ] && [ ! -r "$HOSTFILE" ]; then
        echo "HOSTFILE=$HOSTFILE: no such file (one machine a line: 'node1 slots=8'; a path from the repository's root)" >&2
        exit 2
    fi
    if ! command -v "${launcher%% *}" >/dev/null 2>&1; then
        echo "MPI=1: skipped: mpirun not found (apt install openmpi-bin libopenmpi-dev / brew install open-mpi)"
        return 1
    fi
    if [ ! -x "$1" ]; then
        echo "MPI=1: skipped: $1 not built (mpicc not found when make ran: apt install libopenmpi-dev / brew install open-mpi)"
        return 1
    fi
    if [ "$(id -u)" = 0 ] && [ -z "${OMPI_ALLOW_RUN_AS_ROOT:-}" ] && [ "${PW_MPI_ROOT:-1}" != 0 ]; then
        echo "(running as root: Open MPI needs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; set for this run)"
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
    return 0
}

# The launch command for NP processes, one word a line (for mpi_run and for
# the tests, which check it).
mpi_command() {
    local np=${NP:-$1} launcher
    launcher=$(mpi_launcher)
    # shellcheck disable=SC2086  # MPIRUN and MPIRUN_FLAGS are word lists on purpose
    case $(basename "${launcher%% *}") in
        srun) printf '%s\n' $launcher -n "$np" ${MPIRUN_FLAGS:-} ;;
        *)    printf '%s\n' $launcher ${HOSTFILE:+--hostfile "$HOSTFILE"} $([ -z "${HOSTFILE:-}" ] && echo --oversubscribe) \
                  -np "$np" ${MPIRUN_FLAGS:-} ;;
    esac
}

mpi_run() {
    local np=$1; shift
    local -a cmd
    mapfile -t cmd < <(mpi_command "$np")
    local err=${RESULTS:-${TMPDIR:-/tmp}}/mpirun.err rc=0
    [ -d "$(dirname "$err")" ] || err=${TMPDIR:-/tmp}/mpirun.err.$$
    echo "(launch: ${cmd[*]} $*)"
    "${cmd[@]}" "$@" 2>"$err" || rc=$?
    if [ $rc -eq 0 ]; then cat "$err" >&2; return 0; fi
    local slots
    if grep -q 'not enough slots available' "$err"; then
        slots=$( [ -n "${HOSTFILE:-}" ] && awk '!/^[[:space:]]*(#|$)/ { n = 1; for (i = 2; i <= NF; i++) if ($i ~ /^slots=/) n = substr($i, 7); s += n } END { print s + 0 }' "$HOSTFILE")
        echo "${cmd[0]}: ${NP:-$np} processes but ${HOSTFILE:-this machine} offers fewer slots${slots:+ ($slots listed)}: lower NP, add slots=N to the hostfile's lines, or MPIRUN_FLAGS=--oversubscribe (Open MPI's message: $err)" >&2
    elif grep -q 'attempt to run as root' "$err"; then
        echo "${cmd[0]}: Open MPI refuses to run as root unless both OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 are set (Open MPI's message: $err)" >&2
    elif grep -qE 'Open MPI.*(hostfile|file).*(not found|could not be found|does not exist)|cannot open hostfile' "$err"; then
        echo "${cmd[0]}: the hostfile ${HOSTFILE:-} cannot be read (Open MPI's message: $err)" >&2
    else
        cat "$err" >&2
    fi
    return $rc
}
