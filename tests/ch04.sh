# tests/ch04.sh: chapter 04 (OpenMP) beyond the generic --tiny, --help and
# bad-input runs. Sourced by tests/run.sh (uses ok, bad, expect_usage,
# sanitizer_report, $BUILD, $SAN, $tmp).
#
# Under ThreadSanitizer the OpenMP programs are not run: libgomp is not
# built with TSan, so TSan cannot see its barriers and task queues and
# reports races inside the runtime that are not there. The kernels' own
# threading is checked by the result checks instead (exact for Mandelbrot,
# the embeddings and the tree sum, bounded for pi) on 1, 2, 3 and 7 threads.
ch04=$BUILD/ch04
if [ "${SAN:-}" = tsan ]; then
    echo "SKIP ch04: OpenMP programs under ThreadSanitizer (libgomp is not TSan-instrumented: false reports)"
    skip=$((skip + 1))
elif [ -x "$ch04/pi" ]; then
    # The OpenMP line: what it ran with, or why it ran on one thread.
    OMP_NUM_THREADS=3 OMP_PROC_BIND=close "$ch04/pi" --tiny -t 1 >"$tmp/o4" 2>&1
    if grep -q 'built without OpenMP: ran on one thread; get it: apt install libgomp1' "$tmp/o4"; then
        omp=0
        if grep -q '^ *2 ' "$tmp/o4"; then bad "ch04 without OpenMP: the sweep is 1 thread only" "$(cat "$tmp/o4")"
        else ok "ch04 without OpenMP: pi says so with the install hint and sweeps 1 thread only"; fi
    elif grep -q 'OpenMP [0-9.]*: 3 threads at most (OMP_NUM_THREADS=3 OMP_PROC_BIND=close' "$tmp/o4"; then
        omp=1
        ok "ch04 pi reports the OMP_* settings it ran with (OMP_NUM_THREADS=3 -> 3 threads)"
    else
        omp=1
        bad "ch04 pi reports the OMP_* settings it ran with" "$(head -3 "$tmp/o4")"
    fi

    # pi: odd step counts on odd thread counts, the fit line in the CSV.
    if "$ch04/pi" -s 100003 -t 1,3,7 -r 3 --min-time 0 --csv "$tmp/pi.csv" >"$tmp/o4" 2>&1 &&
       grep -q '^all variants match' "$tmp/o4" && grep -q '^# amdahl_pi_openmp: p=' "$tmp/pi.csv" &&
       grep -q '^# openmp: ' "$tmp/pi.csv"; then
        ok "ch04 pi: n = 100003 on 1, 3, 7 threads verifies; CSV has the Amdahl fit and the OpenMP line"
    else
        bad "ch04 pi on odd sizes and thread counts" "$(tail -3 "$tmp/o4")"
    fi

    # mandel: every schedule verified exactly, the per-thread rows and the straggler.
    if "$ch04/mandel" --tiny -t 1,2,3 -k 3 --csv "$tmp/m.csv" >"$tmp/o4" 2>&1 &&
       grep -q '^all variants match' "$tmp/o4" && grep -q 'slowest thread / mean thread' "$tmp/o4" &&
       grep -q '^# amdahl_dynamic_3: p=' "$tmp/m.csv" && grep -q ',busy_guided,summary,.*,thread=0,' "$tmp/m.csv" &&
       grep -q ',busy_static,summary,.*,wall,' "$tmp/m.csv"; then
        ok "ch04 mandel: four schedules exact on 1..3 threads, per-thread busy rows in the CSV"
    else
        bad "ch04 mandel tiny run with -k 3" "$(tail -5 "$tmp/o4")"
    fi
    # static gives thread 0 the light top rows: its steps must be far below thread 1's.
    if [ "$omp" = 1 ] && "$ch04/mandel" -n 90 -i 200 -t 2 -r 3 --min-time 0 >"$tmp/o4" 2>&1; then
        if awk '$1 == "static" { a = $4 } /^ +1 / && a != "" && b == "" { b = $3 } END { exit !(a * 2 < b) }' "$tmp/o4"; then
            ok "ch04 mandel: schedule(static) on 2 threads gives thread 1 over twice thread 0's steps (the straggler)"
        else
            bad "ch04 mandel: static imbalance" "$(grep -A2 '^static ' "$tmp/o4")"
        fi
    fi

    # tasks: cut-off 0 (no tasks) and a task per node both verify.
    for c in 0 100; do
        if "$ch04/tasks" -n 5001 -c "$c" -t 1,2,7 -r 3 --min-time 0 >"$tmp/o4" 2>&1 && grep -q '^all variants match' "$tmp/o4"; then
            ok "ch04 tasks: cut-off $c on 1, 2, 7 threads gives the exact sum"
        else
            bad "ch04 tasks cut-off $c" "$(tail -3 "$tmp/o4")"
        fi
    done

    # embed: odd batch on odd thread counts.
    if "$ch04/embed" -n 1003 -t 3,7 -r 3 --min-time 0 >"$tmp/o4" 2>&1 && grep -q '^all variants match' "$tmp/o4"; then
        ok "ch04 embed: 1003 documents on 3 and 7 threads, bit for bit"
    else
        bad "ch04 embed odd batch" "$(tail -3 "$tmp/o4")"
    fi

    # The chapter's own options: bad values are usage errors.
    expect_usage "ch04 mandel -k 0" "$ch04/mandel" -k 0
    expect_usage "ch04 mandel -i abc" "$ch04/mandel" -i abc
    expect_usage "ch04 tasks -c -1" "$ch04/tasks" -c -1
    expect_usage "ch04 pi -s 0" "$ch04/pi" -s 0
    expect_usage "ch04 embed -n 1.5" "$ch04/embed" -n 1.5
    THREADS=0 expect_usage "ch04 pi THREADS=0" "$ch04/pi" --tiny

    # Did the team's threads run at the same time? (tests/overlap.sh)
    if [ "$omp" = 1 ]; then
        . tests/overlap.sh
        for p in pi mandel embed tasks; do ov_pinned "ch04 $p" "$ch04/$p" --tiny -t 1,2; done
        ov_idle "ch04 pi 20M steps on 1, 2 threads" "$ch04/pi" -s 20M -t 1,2 -r 5 --min-time 0
    fi
fi

# ---- predict, run, explain (issue 15): the structure is tests/tool_predict.sh's

# speedup_at T FILE [TABLE]: the speedup column of row T of the first sweep
# table (or of the table whose header starts with TABLE:).
ch04_speedup_at() {
    awk -v t="$1" -v want="${3:-}" '
        /: speedup against/ { in_t = (want == "" || index($0, want ":") == 1) }
        in_t && $1 == t && $3 == "ms" { print $5; exit }' "$2"
}
# ch04_sweep_answer LABEL WHAT FILE: the answer line of a thread sweep agrees
# with its table: the speedups it quotes are the table's, or, when it says
# "not shown", no row of 2..cores threads ran with its threads together.
ch04_sweep_answer() {
    local label=$1 what=$2 f=$3 cores line t s t2 s2
    cores=$(getconf _NPROCESSORS_ONLN)
    line=$(grep '^answer: ' "$f")
    if [ "$(grep -c '^answer: ' "$f")" -ne 1 ]; then bad "$label: one answer line" "$line"; return; fi
    if [[ $line =~ ^answer:\ on\ ([0-9]+)\ threads\ $what\ ran\ ([0-9.]+)x\ as\ fast ]]; then
        t=${BASH_REMATCH[1]} s=${BASH_REMATCH[2]}
        if [ "$(ch04_speedup_at "$t" "$f")" != "$s" ] || [ "$t" -gt "$cores" ]; then
            bad "$label: the answer's speedup is the table's" "$line" "table at $t: $(ch04_speedup_at "$t" "$f")"; return
        fi
        if [[ $line =~ \;\ on\ ([0-9]+)\ threads,\ more\ than\ the\ [0-9]+\ cores,\ ([0-9.]+)x ]]; then
            t2=${BASH_REMATCH[1]} s2=${BASH_REMATCH[2]}
            if [ "$(ch04_speedup_at "$t2" "$f")" != "$s2" ]; then
                bad "$label: the oversubscribed speedup is the table's" "$line"; return
            fi
        fi
        ok "$label: the answer quotes the table's speedup ($t threads: ${s}x)"
    elif [[ $line == "answer: not shown on this run: "* ]]; then
        # Only allowed when every row with 2..cores threads is suspect (or there is none).
        if awk -v c="$cores" '/: speedup against/ { on = 1; next } on && $3 == "ms" && $1 > 1 && $1 <= c && !/suspect/ { f = 1 }
                              on && /^$/ { on = 0 } END { exit !f }' "$f"; then
            bad "$label: says not shown although a row ran together" "$line" "$(grep -A5 'speedup against' "$f")"
        else
            ok "$label: not shown on this run, and the table agrees (every 2..$cores-thread row suspect or absent)"
        fi
    else
        bad "$label: answer line" "$line"
    fi
}

if [ "${SAN:-}" != tsan ] && [ -x "$ch04/pi" ]; then
    if "$ch04/pi" -s 2M -t 1,2,4 -r 3 --min-time 0 >"$tmp/o4" 2>&1; then
        ch04_sweep_answer "ch04 pi answer" pi "$tmp/o4"
    else
        bad "ch04 pi -s 2M" "$(tail -3 "$tmp/o4")"
    fi
    if "$ch04/embed" -n 1003 -t 1,2 -r 3 --min-time 0 >"$tmp/o4" 2>&1; then
        ch04_sweep_answer "ch04 embed answer" "the batch" "$tmp/o4"
    else
        bad "ch04 embed -n 1003" "$(tail -3 "$tmp/o4")"
    fi

    # mandel: the slowest schedule is the one with the lowest 2-thread speedup in
    # the tables; static's busiest thread's share is the CSV's busy_static steps.
    if "$ch04/mandel" -n 90 -i 200 -t 1,2 -r 3 --min-time 0 --csv "$tmp/m.csv" >"$tmp/o4" 2>&1; then
        if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ] || [ "${omp:-1}" = 0 ]; then
            if grep -q '^answer: not shown on this run: ' "$tmp/o4"; then ok "ch04 mandel answer: not shown on one thread"
            else bad "ch04 mandel answer on one thread" "$(grep '^answer' "$tmp/o4")"; fi
        else
            slow=$(awk '/: speedup against/ { s = $1; sub(":", "", s) } s != "" && $1 == 2 && $3 == "ms" { print s, $5; s = "" }' "$tmp/o4" |
                   sort -k2,2g | head -1)
            share=$(awk -F, '$2 == "busy_static" && $7 ~ /^thread=/ { sum += $15; if ($15 > mx) { mx = $15; k = substr($7, 8) } }
                             END { if (sum > 0) printf "%s %.0f", k, 100 * mx / sum }' "$tmp/m.csv")
            ratio=$(awk '$1 == "static" { on = 1 } on && /slowest thread \/ mean thread/ { print $NF; exit }' "$tmp/o4")
            a1=$(sed -n 's/^answer: .*slowest schedule was \([a-z0-9_]*\) (\([0-9.]*\)x.*/\1 \2/p' "$tmp/o4")
            a2=$(sed -n 's/^answer: under static thread \([0-9]*\) did \([0-9]*\)% of the steps.*busy time was \([0-9.]*\)x.*/\1 \2 \3/p' "$tmp/o4")
            # Two schedules may tie at the printed rounding: compare the speedup only.
            if [ -n "$a1" ] && [ "${a1#* }" = "${slow#* }" ] && [ "$a2" = "$share $ratio" ]; then
                ok "ch04 mandel answers: slowest schedule $a1 is the tables' lowest; static's split $share% and ratio $ratio match the CSV and table"
            else
                bad "ch04 mandel answers against the tables" "answers: '$a1' '$a2'" "tables: slowest '$slow', split '$share', ratio '$ratio'"
            fi
        fi
    else
        bad "ch04 mandel -n 90" "$(tail -3 "$tmp/o4")"
    fi

    # tasks: a task at every node over the sequential walk is the table's ratio;
    # the fastest cut-off is the table's best row among those not suspect.
    if "$ch04/tasks" -n 5001 -t 1,2 -r 3 --min-time 0 >"$tmp/o4" 2>&1; then
        want=$(awk '/^tree_seq:/ { s = $2 } /a task at every node/ && /ms/ { printf "%.2f", $3 / s; exit }' "$tmp/o4")
        got=$(sed -n 's/^answer: a task at every node took \([0-9.]*\)x .*/\1/p' "$tmp/o4")
        best=$(awk '/^ cut-off +tasks/ { on = 1; next } on && NF < 5 { on = 0 } on && $4 == "ms" && !/suspect/ { if (b == "" || $3 < m) { m = $3; b = $1 } }
                    END { print b }' "$tmp/o4")
        a=$(sed -n 's/^answer: the fastest cut-off was \([0-9]*\):.*/\1/p' "$tmp/o4")
        # Two rows may tie at the printed 4 digits (the program compares the
        # unrounded medians): the answer's row printing the table's lowest is right.
        if [ -n "$a" ] && [ "$a" != "$best" ]; then
            tied=$(awk -v a="$a" -v b="$best" '/^ cut-off +tasks/ { on = 1; next } on && NF < 5 { on = 0 }
                       on && $4 == "ms" && !/suspect/ { t[$1] = $3 } END { if (a in t && b in t && t[a] == t[b]) print "yes" }' "$tmp/o4")
            [ "$tied" = yes ] && best=$a
        fi
        # the ratio: printed medians have 4 digits, so allow 1% between the two.
        if [ -n "$got" ] && awk -v a="$got" -v b="$want" 'BEGIN { exit !(a > 0.99 * b && a < 1.01 * b) }' &&
           { [ "$a" = "$best" ] || grep -q '^answer: not shown on this run: ' "$tmp/o4"; } &&
           [ "$(grep -c '^answer: ' "$tmp/o4")" -eq 2 ]; then
            ok "ch04 tasks answers: a task per node ${got}x the walk (table: ${want}x); fastest cut-off '${a:-not shown}'"
        else
            bad "ch04 tasks answers against the table" "$(grep '^answer' "$tmp/o4")" "table: ratio $want, best cut-off '$best'"
        fi
    else
        bad "ch04 tasks -n 5001" "$(tail -3 "$tmp/o4")"
    fi
fi
