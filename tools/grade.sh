#!/usr/bin/env bash
# tools/grade.sh: run one exercise's checker and give one verdict line.
#
#   bash tools/grade.sh [-q] ID CHECKER STUDENT_FILE
#   bash tools/grade.sh 1.1 build/ex/1.1/check exercises/01-measure/square.c
#
# `make ex-N.K` and `make solution-N.K` call it; tools/scoreboard.sh calls it
# with -q. The checker runs under a time limit (PW_GRADE_TIMEOUT seconds,
# default 20), so an endless loop in the learner's code is reported, not a
# hang. Its explanation is shown as it comes (not with -q), then the verdict:
#
#   ex 1.1 (exercises/01-measure/square.c): PASS
#   ex 1.1 (exercises/01-measure/square.c): FAIL: <the checker's first FAIL line>
#   ... FAIL: not yet implemented: square()
#   ... FAIL: timed out after 20 s
#   ... FAIL: crashed (signal 11): SIGSEGV, ...
#
# Exit status: 0 pass, 1 anything else, 2 bad usage.
set -u

quiet=0
if [[ ${1:-} == -q ]]; then quiet=1; shift; fi
if (( $# != 3 )); then
    echo "usage: bash tools/grade.sh [-q] ID CHECKER STUDENT_FILE" >&2
    exit 2
fi
id=$1 checker=$2 file=$3
limit=${PW_GRADE_TIMEOUT:-20}
[[ $limit =~ ^[1-9][0-9]*$ ]] || { echo "grade.sh: PW_GRADE_TIMEOUT must be a whole number of seconds, not '$limit'" >&2; exit 2; }
# The checker reads it too, and stops itself first (common/exercise.c).
export PW_GRADE_TIMEOUT=$limit

verdict() {   # the one line everything else reads
    echo "ex $id ($file): $1"
}

if [[ ! -x $checker ]]; then
    verdict "FAIL: no checker at $checker (make $checker builds it)"
    exit 1
fi

# The time limit: GNU timeout (gtimeout where Homebrew installs it as such),
# else a watchdog in bash. --foreground keeps the checker in the terminal's
# process group, so Ctrl-C still stops it.
if command -v timeout >/dev/null 2>&1; then timeout_cmd=timeout
elif command -v gtimeout >/dev/null 2>&1; then timeout_cmd=gtimeout
else timeout_cmd=
fi
# The checker's stdout and stderr, merged in the order written. The subshell
# with stderr to /dev/null keeps bash's own "Segmentation fault" notice out:
# the verdict says it in words.
run_limited() (
    exec 2>/dev/null
    if [[ -n $timeout_cmd ]]; then
        if "$timeout_cmd" --foreground -k 2 1 true; then
            "$timeout_cmd" --foreground -k 2 "$limit" "$checker" </dev/null 2>&1
        else
            "$timeout_cmd" "$limit" "$checker" </dev/null 2>&1
        fi
        exit
    fi
    "$checker" </dev/null 2>&1 &
    pid=$!
    # A background job ignores Ctrl-C in a script: pass it on.
    trap 'kill -TERM "$pid"; exit 130' INT TERM
    ( sleep "$limit"; kill -TERM "$pid" ) >/dev/null 2>&1 &
    dog=$!
    wait "$pid"
    rc=$?
    kill "$dog"
    # Killed by the watchdog's SIGTERM: report it as timeout(1) would.
    (( rc == 143 && SECONDS - started >= limit )) && rc=124
    exit "$rc"
)

log=$(mktemp "${TMPDIR:-/tmp}/pw-grade.XXXXXX") || exit 2
trap 'rm -f "$log"' EXIT

started=$SECONDS
if (( quiet )); then
    run_limited >"$log"
    rc=$?
else
    run_limited | tee "$log"
    rc=${PIPESTATUS[0]}
    # A checker cut off mid-line (crash, hang, exit): the verdict starts a line.
    [[ -s $log && -n $(tail -c 1 "$log") ]] && echo
fi
elapsed=$(( SECONDS - started ))

# The first line that says what went wrong: the checker's FAIL lines, the
# skeleton's "not yet implemented" (on stderr, so it may land after the
# checker's "  n = 0 " on the same line), or a sanitizer's report.
reason=$(grep -m1 -E '^FAIL: |not yet implemented: |ERROR: (Address|Leak|Thread)Sanitizer|WARNING: ThreadSanitizer|runtime error:' "$log")

if (( rc == 0 )) && grep -q '^PASS' "$log"; then
    verdict "PASS"
    exit 0
fi

if (( rc == 77 )) && grep -q '^SKIP' "$log"; then
    # This build cannot grade the exercise (e.g. 4.3 without OpenMP): not a fail.
    verdict "SKIP: $(grep -m1 '^SKIP' "$log" | sed 's/^SKIP:* *//')"
    exit 77
fi

if (( rc == 124 || (rc == 137 && elapsed >= limit) )); then
    (( quiet )) || echo "the checker was stopped after $limit s: an endless loop? (the last line above shows what it was trying)"
    verdict "FAIL: timed out after $limit s"
elif (( rc > 128 )); then
    sig=$(( rc - 128 ))
    name=$(kill -l "$sig" 2>/dev/null || echo "?")
    case $name in
        SEGV|BUS) why="a read or write outside an array (or through a bad pointer)?" ;;
        FPE)      why="an integer division by zero?" ;;
        ABRT)     why="abort() or a failed assert, or malloc found its memory overwritten (a write past the end of a block?)" ;;
        ILL)      why="an instruction this CPU does not have (intrinsics for a wider ISA?)" ;;
        KILL)     why="killed from outside: out of memory?" ;;
        *)        why="" ;;
    esac
    (( quiet )) || echo "the checker died of SIG$name: the last line above shows what it was trying"
    verdict "FAIL: crashed (signal $sig): SIG$name${why:+, $why}"
elif [[ $reason == *"not yet implemented: "* ]]; then
    # "  n = 0      not yet implemented: square() in exercises/01-measure/square.c"
    what=${reason#*not yet implemented: }
    verdict "FAIL: not yet implemented: ${what%% in *}"
elif [[ $reason == "FAIL: "* ]]; then
    verdict "$reason"
elif [[ $reason == *Sanitizer:* ]]; then
    # "==123==ERROR: AddressSanitizer: heap-buffer-overflow on address ..." or
    # "WARNING: ThreadSanitizer: data race (pid=123)": the kind of error, and
    # the first stack frame in the learner's file. ASan writes a frame as
    # "#0 0x4f2a in fn file:line", TSan as "#0 fn file:line (binary+0x4f2a)".
    kind=$(sed -E 's/.*(ERROR|WARNING): ([A-Za-z]+Sanitizer: [A-Za-z-]+( [a-z-]+)?).*/\2/; s/ \(pid.*//' <<<"$reason")
    kind=${kind%% on}
    frame_re='^ +#[0-9]+ (0x[0-9a-f]+ in )?'
    frame=$(grep -m1 -E "$frame_re[^ ]+ [^ ]*$(basename "$file")" "$log" || grep -m1 -E "$frame_re[^ ]+ " "$log")
    frame=$(sed -E 's/^ +#[0-9]+ (0x[0-9a-f]+ in )?([^ ]+) ([^ ]+).*$/\2() at \3/' <<<"$frame")
    frame=${frame% at <null>}
    if [[ $kind == *"data race"* ]] && (( ! quiet )); then
        echo "ThreadSanitizer saw two threads touch the same memory, at least one of them writing, with nothing"
        echo "ordering them (a lock, an atomic, a join, a reduction): the report above names both places."
        echo "It reports the race whether or not this run lost an update: a pass without it would be luck."
    fi
    verdict "FAIL: $kind${frame:+ in $frame}"
elif [[ -n $reason ]]; then
    verdict "FAIL: ${reason#*ERROR: }"
elif (( rc == 0 )); then
    verdict "FAIL: the checker stopped without a verdict (exit 0, no PASS line): does your code call exit()?"
else
    last=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)
    verdict "FAIL: exit status $rc${last:+: $last}"
fi
exit 1
