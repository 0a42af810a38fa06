# chapters/lib.sh: sourced by every chapters/NN-name/run.sh.
#
#   predict QUESTION   the question to answer before the next step
#   step TITLE CMD...  prints the title and the command, then runs it
#
# The pace of a step. A step that took PW_STEP_NOTE_S seconds or more (5)
# the last time it ran on this machine says so before it starts, an ETA from
# this machine's own numbers (kept in $RESULTS/.step-times), and every such
# step says how long it took when it ends. A step run on a terminal prints a
# line every 15 s while it runs, so a first run (no ETA yet) never looks hung.

PW_STEP_NOTE_S=${PW_STEP_NOTE_S:-5}

# One probe of the machine's peak and bandwidth for the run (common/probe.h):
# make chapters sets it for all chapters; a chapter run alone gets a fresh one.
if [ -z "${PW_PROBE_CACHE:-}" ] && [ -n "${RESULTS:-}" ]; then
    export PW_PROBE_CACHE=$RESULTS/.probe
    rm -f "$PW_PROBE_CACHE"
fi

predict() { printf '\n\033[1mpredict:\033[0m %s\n' "$1"; }

# A times file: one "KEY<tab>SECONDS" line per step (or per chapter, for
# tools/chapters.sh, which sources this file too).
# The seconds KEY took last time here, or nothing.
last_time() {
    [ -f "$2" ] || return 0
    awk -F'\t' -v k="$1" '$1 == k { s = $2 } END { if (s != "") print s }' "$2" 2>/dev/null || true
}
# Keeps KEY's SECONDS in FILE, in place of its last time.
keep_time() {
    { [ -f "$3" ] && awk -F'\t' -v k="$1" '$1 != k' "$3"; printf '%s\t%s\n' "$1" "$2"; } >"$3.tmp.$$" \
        && mv -f "$3.tmp.$$" "$3"
}

step() {
    local title=$1; shift
    local times=${RESULTS:-.}/.step-times last eta="" ticker="" t0=$SECONDS rc=0
    printf '\n\033[1m== %s\033[0m\n$ %s\n' "$title" "$*"
    last=$(last_time "$title" "$times")
    if [ -n "$last" ] && [ "$last" -ge "$PW_STEP_NOTE_S" ]; then
        eta="about $last s, as it took here last time"
        printf '(%s)\n' "$eta"
    fi
    if [ -t 1 ]; then
        # Stops with the step, or within 15 s of the script if it is killed.
        ( parent=$$
          while sleep 15 && kill -0 "$parent" 2>/dev/null; do
              printf '  ... still running: %s s so far%s\n' "$((SECONDS - t0))" "${eta:+ ($eta)}" >&2
          done ) &
        ticker=$!
    fi
    "$@" || rc=$?
    [ -n "$ticker" ] && { kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null; }
    [ $rc -eq 0 ] || return $rc
    local took=$((SECONDS - t0))
    [ "$took" -ge "$PW_STEP_NOTE_S" ] && printf '(step took %s s)\n' "$took"
    keep_time "$title" "$took" "$times" 2>/dev/null || true
}
