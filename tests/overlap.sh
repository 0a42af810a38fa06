# tests/overlap.sh: shared by tests/ch03.sh, ch04.sh and ch05.sh (sourced
# there, not by tests/run.sh itself). Every threaded program measures whether
# its threads ran at the same time (common/overlap.h); these two checks make
# that testable on any machine:
#
#   ov_pinned LABEL PROG ARGS...   under `taskset -c 0` (one CPU for the
#       whole process) the program must print a line starting "suspect" and
#       mark a row of 2 or more threads in its CSV with overlap below 0.5.
#       This holds on a busy machine and an idle one alike, so it always runs
#       where taskset does (Linux) and there are 2 or more cores.
#   ov_idle LABEL PROG ARGS...     on an idle machine with 2 or more cores,
#       the same program left free must NOT print the line nor mark its
#       2-thread rows. Whether the machine was idle is measured during the
#       run, independently of the program: /proc/stat's busy time of the
#       whole machine, less the CPU time the program itself got (bash's
#       `time`). If other programs took a tenth of the machine or more, the
#       run does not count. Up to three runs: it passes on the first idle
#       run without the line, fails when every idle run had it, and is
#       skipped with the numbers when no run was idle.
# Both add --csv FILE themselves. Use ok, bad, skip, $tmp from tests/run.sh.

ov_cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)   # what the probe counts (sysconf)

# ov_marked CSV: the rows of 2 or more threads whose overlap is below 0.5.
ov_marked() {
    awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next }
             ix["overlap"] && $ix["threads"] >= 2 && $ix["overlap"] != "" && $ix["overlap"] < 0.5 { n++ }
             END { print n + 0 }' "$1"
}
# ov_judged CSV: the rows of 2 threads that carry an overlap at all.
ov_judged() {
    awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next }
             ix["overlap"] && $ix["threads"] == 2 && $ix["overlap"] != "" { n++ } END { print n + 0 }' "$1"
}

ov_pinned() {
    local label=$1; shift
    if ! command -v taskset >/dev/null 2>&1; then
        skip=$((skip + 1)); echo "SKIP $label pinned to one CPU: no taskset (Linux util-linux)"; return
    fi
    if [ "$ov_cores" -lt 2 ]; then
        skip=$((skip + 1)); echo "SKIP $label pinned to one CPU: this machine has one core"; return
    fi
    rm -f "$tmp/ovp.csv"
    timeout 180 taskset -c 0 "$@" --csv "$tmp/ovp.csv" >"$tmp/ovp.out" 2>&1
    local rc=$? marked
    marked=$(ov_marked "$tmp/ovp.csv" 2>/dev/null || echo 0)
    if [ $rc -eq 0 ] && grep -q '^suspect' "$tmp/ovp.out" && [ "$marked" -ge 1 ]; then
        ok "$label under taskset -c 0: says its threads did not run at the same time, $marked CSV rows marked"
    else
        bad "$label under taskset -c 0: the 'suspect' line and the CSV mark" \
            "exit $rc, $(grep -c '^suspect' "$tmp/ovp.out") suspect lines, $marked marked rows" \
            "$(grep -m3 -E 'suspect|together' "$tmp/ovp.out")"
    fi
}

# The whole machine's busy and total jiffies (cpu line of /proc/stat).
ov_jiffies() { awk '/^cpu / { t = 0; for (i = 2; i <= 9; i++) t += $i; print t - $5 - $6, t; exit }' /proc/stat; }

# One free run: sets ovi_state to busy, fine or suspect (and others, cap,
# judged, marked, rc for the messages).
ov_idle_once() {
    local hz b0 t0 b1 t1 cpu
    hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
    read -r b0 t0 < <(ov_jiffies)
    local TIMEFORMAT='%U %S'
    { time timeout 180 "$@" --csv "$tmp/ovi.csv" >"$tmp/ovi.out" 2>&1; } 2>"$tmp/ovi.time"
    rc=$?
    read -r b1 t1 < <(ov_jiffies)
    cpu=$(awk '{ print $1 + $2 }' "$tmp/ovi.time")
    # others: CPU-seconds the rest of the machine used; cap: all the machine had.
    read -r others cap < <(awk -v b="$((b1 - b0))" -v t="$((t1 - t0))" -v hz="$hz" -v c="$cpu" \
                           'BEGIN { printf "%.2f %.2f\n", b / hz - c, t / hz }')
    judged=$(ov_judged "$tmp/ovi.csv" 2>/dev/null || echo 0)
    marked=$(ov_marked "$tmp/ovi.csv" 2>/dev/null || echo 0)
    if awk -v o="$others" -v c="$cap" 'BEGIN { exit !(o >= 0.1 * c) }'; then
        ovi_state=busy
    elif [ $rc -eq 0 ] && ! grep -q '^suspect' "$tmp/ovi.out" && [ "$judged" -ge 1 ] && [ "$marked" -eq 0 ]; then
        ovi_state=fine
    else
        ovi_state=suspect
    fi
}

# Up to three free runs: a virtual machine's host can take a core away
# without telling the guest (no steal time in /proc/stat), and then the
# verdict is right to say suspect; three such runs in a row on an idle
# machine mean the program's verdict, not the host, is wrong.
ov_idle() {
    local label=$1; shift
    if [ "$ov_cores" -lt 2 ]; then
        skip=$((skip + 1)); echo "SKIP $label on an idle machine: one core"; return
    fi
    if [ ! -r /proc/stat ]; then
        skip=$((skip + 1)); echo "SKIP $label on an idle machine: no /proc/stat to tell whether it is idle"; return
    fi
    local try ovi_state others cap judged marked rc idle_runs=0
    for try in 1 2 3; do
        ov_idle_once "$@"
        case $ovi_state in
        fine)
            ok "$label on an idle machine (others used $others of $cap CPU-s): no suspect line, $judged 2-thread rows judged fine$([ $idle_runs -gt 0 ] && echo " (after $idle_runs suspect runs)")"
            return ;;
        suspect) idle_runs=$((idle_runs + 1)) ;;
        esac
    done
    if [ $idle_runs -eq 0 ]; then
        skip=$((skip + 1))
        echo "SKIP $label on an idle machine: busy (other programs used $others of $cap CPU-seconds during the run)"
        return
    fi
    bad "$label on an idle machine: threads that ran together must not be called suspect ($idle_runs idle runs of 3)" \
        "exit $rc; others used $others of $cap CPU-s; $judged judged, $marked marked" \
        "$(grep -m3 -E '^suspect|together' "$tmp/ovi.out")"
}
