# tests/ch12.sh: chapter 12's own tests, sourced by tests/run.sh (which
# provides ok, bad, expect_usage, sanitizer_report, $BUILD, $SAN, $tmp).
# The programs check every run themselves (gradients against the unsplit
# model, bubbles against their formulas); here: their verdicts, the numbers
# of the README (modelled, so the same on every machine), the CSV against
# the formulas recomputed in awk, the deadlock report, and bad input.

ch12=$BUILD/ch12
if [ "${SAN:-}" = tsan ]; then
    echo "SKIP ch12 full-size runs under ThreadSanitizer (single-threaded simulator; plain and ASan builds run them)"
elif [ -x "$ch12/schedules" ]; then
    # Every schedule, p = 1..8, m = 1..32: gradients, bubble to 1e-9, stored
    # micro-batches (the program exits 1 on the first miss). Then the table
    # at p = 4, m = 8: (p-1)/(m+p-1) = 3/11, (p-1)/(vm+p-1) = 3/19,
    # (p-1)/(3m+p-1) = 3/27; GPipe stores m = 8, 1F1B min(p - r, m).
    if timeout 120 "$ch12/schedules" --csv "$tmp/s.csv" >"$tmp/so" 2>"$tmp/se" \
       && grep -q '^all variants match: 853 runs (4 schedules, p = 1..8, m = 1..32' "$tmp/so" \
       && grep -qE '^gpipe +0\.2727 +0\.2727 +0\.3750 +0\.3750 +33\.00  8 8 8 8$' "$tmp/so" \
       && grep -qE '^1f1b +0\.2727 +0\.2727 +0\.3750 +0\.3750 +33\.00  4 3 2 1$' "$tmp/so" \
       && grep -qE '^interleaved +0\.1579 +0\.1579 +0\.1875 +0\.1875 +28\.50  ' "$tmp/so" \
       && grep -qE '^zbh1 +0\.1111 +0\.1111 +0\.1250 +0\.1250 +27\.00  4 3 2 1  \(F to B\)$' "$tmp/so" \
       && ! sanitizer_report "$tmp/se"; then
        ok "ch12 schedules: 853 checked runs; at p = 4, m = 8 bubbles 3/11, 3/11, 3/19, 3/27; GPipe stores 8, 1F1B 4 3 2 1"
    else
        bad "ch12 schedules: checks and the p = 4, m = 8 table" "$(grep -E '^(all|gpipe|1f1b|interleaved|zbh1)' "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi
    # The bubble curve in the CSV against the formulas, recomputed here (p = 4, v = 2).
    bad_rows=$(awk -F, '/^#/ || /^program/ { next } $3 == "quantity" && $2 == "bubble" {
            m = $5; p = $6; s = $7
            if (s == "gpipe" || s == "1f1b") f = (p - 1) / (m + p - 1)
            else if (s == "interleaved") f = (p - 1) / (2 * m + p - 1)
            else f = m >= p ? (p - 1) / (3 * m + p - 1) : (2 * p - m - 1) / (2 * p + 2 * m - 1)
            d = $NF - f; if (d < 0) d = -d; n++; if (d > 1e-9) { print s, m, $NF, f; bad++ } }
            END { print (n == 0 ? "no rows" : bad + 0) }' "$tmp/s.csv" | tail -1)
    rows=$(grep -c ',bubble,quantity,' "$tmp/s.csv")
    if [ "$bad_rows" = 0 ] && [ "$rows" = 104 ]; then
        ok "ch12 schedules CSV: 104 bubble points (m = 1..32, interleaved m = 4, 8, .., 32) equal the formulas to 1e-9"
    else
        bad "ch12 schedules CSV: bubble against formula" "mismatches: $bad_rows, rows $rows (want 104)"
    fi
    # Another pipe, numbers from the formulas: p = 8, m = 16: 7/23, 7/39, 7/55.
    if timeout 60 "$ch12/schedules" --tiny -p 8 -m 16 >"$tmp/so" 2>"$tmp/se" \
       && grep -qE '^gpipe +0\.3043 +0\.3043 ' "$tmp/so" && grep -qE '^interleaved +0\.1795 +0\.1795 ' "$tmp/so" \
       && grep -qE '^zbh1 +0\.1273 +0\.1273 ' "$tmp/so" && grep -qE '^1f1b .* 8 7 6 5 4 3 2 1$' "$tmp/so"; then
        ok "ch12 schedules -p 8 -m 16: bubbles 7/23, 7/39, 7/55; 1F1B stores 8 7 .. 1"
    else
        bad "ch12 schedules -p 8 -m 16" "$(grep -E '^(gpipe|1f1b|interleaved|zbh1)' "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi
    # The terminal Gantt chart: GPipe's rank 0 at p = 4, m = 8, v = 2 (two
    # layers a stage, one column a layer): 8 forwards, 18 idle, 8 backwards.
    if timeout 60 "$ch12/schedules" --tiny >"$tmp/so" 2>&1 \
       && grep -q '^  rank 0 |FFffFFffFFffFFff\.\{18\}BBBBbbbbBBBBbbbbBBBBbbbbBBBBbbbb|$' "$tmp/so" \
       && grep -q '^  rank 3 |\.\.\.\.\.\.FFBBffbbFFBBffbbWWFFBBwwffbbWWFFBBwwffbbWWwwWWww|$' "$tmp/so"; then
        ok "ch12 schedules: the terminal Gantt charts show GPipe's ramp and idle middle, ZB-H1's last rank never idle after its start"
    else
        bad "ch12 schedules: terminal Gantt" "$(grep -A4 '^gpipe (p' "$tmp/so")"
    fi
    expect_usage "ch12 schedules -p 3 -m 4 (interleaved needs m a multiple of p)" "$ch12/schedules" -p 3 -m 4
    grep -q 'multiple of p' "$tmp/se" || bad "ch12 schedules -p 3 -m 4 says why" "$(cat "$tmp/se")"
    expect_usage "ch12 schedules -p 0" "$ch12/schedules" -p 0
    expect_usage "ch12 schedules -m 33" "$ch12/schedules" -m 33
    expect_usage "ch12 schedules -v x" "$ch12/schedules" -v x
fi

if [ "${SAN:-}" != tsan ] && [ -x "$ch12/train" ]; then
    # Gradients of every schedule against the unsplit model, p = 1..8,
    # m = 1..12 (m < p included), stages of 2 and 3 layers of odd widths,
    # default links: bit for bit (sample order kept). Then the swapped
    # warm-up deadlocks and the report names both tags.
    if timeout 120 "$ch12/train" >"$tmp/so" 2>"$tmp/se" \
       && grep -q '^all variants match: 319 runs' "$tmp/so" \
       && grep -qE '^gpipe +96 +96$' "$tmp/so" && grep -qE '^zbh1 +96 +96$' "$tmp/so" \
       && grep -q 'rank 0 (clock .*): recv from rank 1 (.* tag 2 (gradients))' "$tmp/so" \
       && grep -q 'rank 1 (clock .*): recv from rank 0 (.* tag 1 (activations))' "$tmp/so" \
       && ! sanitizer_report "$tmp/se"; then
        ok "ch12 train: 319 runs equal the unsplit model bit for bit; the swapped warm-up deadlocks, report names tag 1 (activations) and tag 2 (gradients)"
    else
        bad "ch12 train" "$(grep -E '^(all|gpipe|zbh1)|tag' "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi
    if timeout 60 "$ch12/train" --tiny --deadlock-p 2 --deadlock-m 2 >"$tmp/so" 2>"$tmp/se" \
       && grep -q '^deadlock found' "$tmp/so"; then
        ok "ch12 train: the swapped order deadlocks with p = 2, m = 2 too"
    else
        bad "ch12 train --deadlock-p 2 --deadlock-m 2" "$(tail -5 "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi
    expect_usage "ch12 train --deadlock-p 1 (no pipe to deadlock)" "$ch12/train" --deadlock-p 1
    expect_usage "ch12 train --deadlock-m 1 (no warm-up to swap)" "$ch12/train" --deadlock-m 1
fi

if [ "${SAN:-}" != tsan ] && [ -x "$ch12/unbalanced" ]; then
    # p = 4, m = 8, layers of cost 3t (F t, B 2t): balanced 4 a stage:
    # (m + p - 1) 12 t = 132 t; one stage of 6: 4 x 12 + 6 + 7 x 18 = 180 t
    # for GPipe; split 4 4 5 5: 51 + 7 x 15 = 159 t.
    if timeout 60 "$ch12/unbalanced" >"$tmp/so" 2>"$tmp/se" && grep -q '^all variants match' "$tmp/so" \
       && grep -qE '^balanced +4 4 4 4 +1\.00x +132\.0 t +132\.0 t +132\.0 t ' "$tmp/so" \
       && grep -qE '^one_heavy +4 4 6 4 +1\.50x +180\.0 t +180\.0 t +174\.0 t +168\.0 t ' "$tmp/so" \
       && grep -qE '^rebalanced +[45] [45] [45] [45] +1\.25x +159\.0 t +159\.0 t ' "$tmp/so" \
       && ! sanitizer_report "$tmp/se"; then
        ok "ch12 unbalanced: one 1.5x stage: GPipe 180 t (the flow-line formula), 1F1B 174 t, rebalanced 159 t, balanced 132 t"
    else
        bad "ch12 unbalanced" "$(grep -E '^(all|balanced|one_heavy|rebalanced)' "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi
    expect_usage "ch12 unbalanced -p 1 (nothing to unbalance)" "$ch12/unbalanced" -p 1
    # --tiny changes the defaults only: a flag given wins.
    if timeout 60 "$ch12/unbalanced" --tiny -p 6 >"$tmp/so" 2>&1 && grep -q '^p = 6 stages, m = 4 micro-batches' "$tmp/so" \
       && grep -qE '^one_heavy +4 4 4 6 4 4 ' "$tmp/so"; then
        ok "ch12 unbalanced --tiny -p 6: 6 stages as asked, the heavy one in the middle"
    else
        bad "ch12 unbalanced --tiny -p 6" "$(head -5 "$tmp/so")"
    fi
fi

# The same executor across Open MPI processes: gradients bit for bit.
if [ "${SAN:-}" = tsan ]; then
    echo "SKIP ch12 MPI: not under ThreadSanitizer (Open MPI's progress threads are outside our code)"
elif [ -x "$ch12/mpi_pipeline" ] && command -v mpirun >/dev/null 2>&1; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} timeout 120 mpirun --oversubscribe -np 4 "$ch12/mpi_pipeline" >"$tmp/so" 2>"$tmp/se"
    rc=$?
    if [ $rc -eq 0 ] && grep -q '^all variants match: every schedule.s gradients across 4 processes' "$tmp/so" \
       && [ "$(grep -cE '^(gpipe|1f1b|interleaved|zbh1) +yes ' "$tmp/so")" = 4 ] && ! sanitizer_report "$tmp/se"; then
        ok "ch12 MPI: 4 processes, every schedule's gradients equal the unsplit model's bit for bit"
    else
        bad "ch12 MPI: mpirun -np 4 mpi_pipeline" "exit $rc" "$(tail -6 "$tmp/so")" "$(tail -4 "$tmp/se")"
    fi
    # 3 processes, m = 8 and odd widths: interleaving refused in one line, the others bit for bit.
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} timeout 120 mpirun --oversubscribe -np 3 "$ch12/mpi_pipeline" -d 13 -b 3 -L 7 >"$tmp/so" 2>"$tmp/se"
    rc=$?
    if [ $rc -eq 0 ] && grep -q '^interleaved  skipped: .*multiple of p' "$tmp/so" \
       && [ "$(grep -cE '^(gpipe|1f1b|zbh1) +yes ' "$tmp/so")" = 3 ] && ! sanitizer_report "$tmp/se"; then
        ok "ch12 MPI: 3 processes, 7 layers of 13: gpipe, 1f1b, zbh1 bit for bit; interleaved refused (m = 8)"
    else
        bad "ch12 MPI: mpirun -np 3 mpi_pipeline" "exit $rc" "$(tail -6 "$tmp/so")" "$(tail -4 "$tmp/se")"
    fi
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} expect_usage "ch12 MPI: bad input (run as a singleton)" "$ch12/mpi_pipeline" -m 0
else
    echo "SKIP ch12 MPI: mpicc/mpirun not found (apt install openmpi-bin libopenmpi-dev)"
fi

# ---- predict, then answer (issue 15) -----------------------------------------
# The Predict/Questions/ANSWERS.md structure is tests/tool_predict.sh's.

# Each answer line agrees with its own table, at sizes other than the
# README's, so a fixed sentence would fail.
if [ "${SAN:-}" != tsan ] && [ -x "$ch12/schedules" ]; then
    # p = 3, m = 6: the answer's percentages are the bubble column x 100.
    "$ch12/schedules" --tiny -p 3 -m 6 >"$tmp/so" 2>&1
    want=$(awk '$1 ~ /^(gpipe|1f1b|interleaved|zbh1)$/ && $2 ~ /^[0-9]+\.[0-9]+$/ { printf "%.1f ", 100 * $2 }' "$tmp/so")
    got=$(grep -A1 '^answer: ' "$tmp/so" | grep -oE '[0-9.]+%' | tr -d % | tr '\n' ' ')
    st=$(awk '$2 !~ /^[0-9]+\.[0-9]+$/ { next } $1 == "gpipe" { g = $7 } $1 == "1f1b" { f = $7 } END { print f, g }' "$tmp/so")
    if grep -q '^answer: with p = 3 and m = 6 ' "$tmp/so" && [ -n "$want" ] && [ "$got" = "$want" ] \
       && grep -q "1F1B stores at most ${st% *} micro-batches on a rank where GPipe stores ${st#* }\$" "$tmp/so"; then
        ok "ch12 schedules -p 3 -m 6: the answer line's bubbles ($got) and memory equal the table's"
    else
        bad "ch12 schedules: answer against table" "table: $want" "answer: $got (stored: $st)" "$(grep -A1 '^answer' "$tmp/so")"
    fi
fi
if [ "${SAN:-}" != tsan ] && [ -x "$ch12/train" ]; then
    # The answer adds the bit-for-bit column up and reads the deadlock report.
    "$ch12/train" --tiny --deadlock-p 3 --deadlock-m 4 >"$tmp/so" 2>&1
    sum=$(awk '$1 ~ /^(gpipe|1f1b|interleaved|zbh1)$/ && $2 ~ /^[0-9]+$/ { s += $3 } END { print s + 0 }' "$tmp/so")
    total=$(sed -n 's/^all variants match: \([0-9]*\) runs.*/\1/p' "$tmp/so")
    stuck=$(sed -n 's/^deadlock: \([0-9]* of [0-9]*\) ranks.*/\1/p' "$tmp/so")
    if [ -n "$total" ] && [ -n "$stuck" ] && grep -q "^answer: $sum of $total runs gave gradients" "$tmp/so" \
       && grep -q "deadlocked: $stuck ranks waited" "$tmp/so" && grep -q '(p = 3, m = 4)' "$tmp/so"; then
        ok "ch12 train --tiny: the answer line's $sum of $total bit for bit and $stuck ranks stuck are the table's and the report's"
    else
        bad "ch12 train: answer against table" "column sum $sum, runs $total, report $stuck" "$(grep -A1 '^answer' "$tmp/so")"
    fi
fi
if [ "${SAN:-}" != tsan ] && [ -x "$ch12/unbalanced" ]; then
    # p = 5, m = 6: the answer's ratios are the last column of one_heavy and rebalanced.
    "$ch12/unbalanced" -p 5 -m 6 >"$tmp/so" 2>&1
    heavy=$(awk '$1 == "one_heavy" { print $NF }' "$tmp/so"); reb=$(awk '$1 == "rebalanced" { print $NF }' "$tmp/so")
    if [ -n "$heavy" ] && grep -q "^answer: .* the step takes $heavy the balanced one" "$tmp/so" \
       && grep -q "the same model takes $reb:" "$tmp/so"; then
        ok "ch12 unbalanced -p 5 -m 6: the answer's $heavy and $reb are the table's"
    else
        bad "ch12 unbalanced: answer against table" "table: heavy $heavy, rebalanced $reb" "$(grep -A2 '^answer' "$tmp/so")"
    fi
fi
if [ "${SAN:-}" != tsan ] && [ -x "$ch12/mpi_pipeline" ] && command -v mpirun >/dev/null 2>&1; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} timeout 120 mpirun --oversubscribe -np 2 "$ch12/mpi_pipeline" -L 4 >"$tmp/so" 2>"$tmp/se"
    yes=$(grep -cE '^(gpipe|1f1b|interleaved|zbh1) +yes ' "$tmp/so"); rows=$(grep -cE '^(gpipe|1f1b|interleaved|zbh1) ' "$tmp/so")
    if grep -q "^answer: $yes of $rows schedules run across 2 processes" "$tmp/so" && [ "$rows" -ge 3 ]; then
        ok "ch12 MPI -np 2: the answer's $yes of $rows bit for bit is the table's"
    else
        bad "ch12 MPI: answer against table" "yes $yes of $rows" "$(tail -3 "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi
fi
