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
