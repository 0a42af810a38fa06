# tests/ch05.sh: chapter 05's own tests, sourced by tests/run.sh (which
# provides ok, bad, expect_usage, $BUILD, $SAN, $tmp).
ch05=$BUILD/ch05

# Under ThreadSanitizer (make sanitize) only the threaded program runs.
if [ -n "${UNIT_ONLY:-}" ]; then
    if "$ch05/scaling" --tiny -t 1,2,3 >"$tmp/sc.out" 2>&1 && ! sanitizer_report "$tmp/sc.out"; then
        ok "ch05 scaling on 1, 2, 3 threads: no ThreadSanitizer report"
    else
        bad "ch05 scaling under ThreadSanitizer" "$(grep -m3 -A3 Sanitizer "$tmp/sc.out")"
    fi
    return 0
fi

# The seed's worked example, to one decimal, as the program prints it.
if "$ch05/amdahl" >"$tmp/amdahl.out" 2>&1 &&
   grep -q 'p = 0.95: ceiling 1/(1-p) = 20.0x; S(256) = 18.6x; S(512) = 19.3x' "$tmp/amdahl.out"; then
    ok "ch05 amdahl prints the seed's 20.0x, 18.6x, 19.3x"
else
    bad "ch05 amdahl prints the seed's 20.0x, 18.6x, 19.3x" "$(head -3 "$tmp/amdahl.out")"
fi

# The serial fraction's edges: all serial and all parallel still verify.
for s in 0 1; do
    if "$ch05/scaling" --tiny -s "$s" -t 1,2,3 >"$tmp/sc.out" 2>&1 && grep -q 'all variants match' "$tmp/sc.out"; then
        ok "ch05 scaling -s $s runs and verifies on 1, 2, 3 threads"
    else
        bad "ch05 scaling -s $s runs and verifies" "$(tail -3 "$tmp/sc.out")"
    fi
done
for v in -0.1 1.5 abc; do expect_usage "ch05 scaling -s $v" "$ch05/scaling" -s "$v"; done
expect_usage "ch05 scaling --iters 0" "$ch05/scaling" --iters 0
expect_usage "ch05 amdahl -p 2" "$ch05/amdahl" -p 2

# The fit never prints a ceiling for a run without speedup, and the
# threaded program says when its threads did not run at the same time.
. tests/overlap.sh
ov_pinned "ch05 scaling" "$ch05/scaling" --tiny -t 1,2
if command -v taskset >/dev/null 2>&1 && [ "$ov_cores" -ge 2 ]; then
    taskset -c 0 "$ch05/scaling" --tiny -t 1,2 >"$tmp/sc.out" 2>&1
    if grep -q '^Amdahl fit: n/a' "$tmp/sc.out" && ! grep -q 'ceiling' "$tmp/sc.out" && grep -q '^no fitted curve' "$tmp/sc.out"; then
        ok "ch05 scaling pinned to one CPU: fit n/a with the reason, no ceiling, no model extension"
    else
        bad "ch05 scaling pinned: no ceiling from suspect points" "$(grep -m4 -E 'Amdahl|ceiling|fitted' "$tmp/sc.out")"
    fi
fi
ov_idle "ch05 scaling 1M on 1, 2 threads" "$ch05/scaling" -n 1M -t 1,2 -r 3 --min-time 0

# ---- predict, run, explain (issue 15) ----------------------------------------

# amdahl: the answers are the tables' numbers (row 256 and the E<50% row, p = 0.95).
a=$(sed -n 's/^answer: p = 0.95: ceiling .*; S(256) = \([0-9.]*\)x; .*/\1/p' "$tmp/amdahl.out")
t=$(awk '/^Amdahl/ { on = 1 } on && $1 == 256 { printf "%.1f", $4; exit }' "$tmp/amdahl.out")
h=$(sed -n 's/^answer: with p = 0.95 efficiency falls below 50% from N = \([0-9]*\) on.*/\1/p' "$tmp/amdahl.out")
ht=$(awk '$1 == "E<50%" { print $4 }' "$tmp/amdahl.out")
if [ -n "$a" ] && [ "$a" = "$t" ] && [ -n "$h" ] && [ "$h" = "$ht" ]; then
    ok "ch05 amdahl answers: S(256) = ${a}x and E < 50% from N = $h, as the tables say"
else
    bad "ch05 amdahl answers against the tables" "answers: '$a' '$h'" "tables: '$t' '$ht'"
fi

# scaling: an answer quotes the strong table's speedup, Amdahl with the true p,
# the fitted p, and the weak table's scaled speedup; or, when it says "not
# shown", no row of 2..cores threads ran with its threads together.
if "$ch05/scaling" -n 512k -t 1,2 -r 3 --min-time 0 >"$tmp/sc.out" 2>&1 && [ "$(grep -c '^answer: ' "$tmp/sc.out")" -eq 2 ]; then
    cores=$(getconf _NPROCESSORS_ONLN)
    l1=$(grep -m1 '^answer: ' "$tmp/sc.out"); l2=$(grep '^answer: ' "$tmp/sc.out" | tail -1)
    strong_at() { awk -v t="$1" '/^strong s=/ { on = 1 } on && $1 == t && $3 == "ms" { print $5; exit }' "$tmp/sc.out"; }
    weak_at() { awk -v t="$1" '/^== weak/ { on = 1 } on && $1 == t && $4 == "ms" { sub("x", "", $7); print $7; exit }' "$tmp/sc.out"; }
    any_together=$(awk -v c="$cores" '/^strong s=/ { on = 1 } /^== weak/ { on = 0 } on && $3 == "ms" && $1 > 1 && $1 <= c && !/suspect/ { print "yes"; exit }' "$tmp/sc.out")
    if [[ $l1 =~ ^answer:\ on\ ([0-9]+)\ threads\ the\ job\ ran\ ([0-9.]+)x,\ [0-9]+%\ of\ the\ ([0-9.]+)x\ Amdahl\ allows\ with\ the\ true\ p\ =\ ([0-9.]+)\;\ the\ fitted\ p\ =\ ([0-9.]+)\  ]]; then
        T=${BASH_REMATCH[1]} S=${BASH_REMATCH[2]} A=${BASH_REMATCH[3]} P=${BASH_REMATCH[4]} F=${BASH_REMATCH[5]}
        # The fit line prints "p = 1:" (or "p = 0:") when the fit is at a bound,
        # the answer 1.0000: the two are compared as numbers.
        fitp=$(sed -n 's/^Amdahl fit over .*: p = \([0-9.]*\).*/\1/p' "$tmp/sc.out")
        want_a=$(awk -v p="$P" -v t="$T" 'BEGIN { printf "%.2f", 1 / ((1 - p) + p / t) }')
        if [ "$(strong_at "$T")" = "$S" ] && [ "$A" = "$want_a" ] && [ -n "$fitp" ] && awk -v a="$F" -v b="$fitp" 'BEGIN { exit !(a - b < 5e-5 && b - a < 5e-5) }' && [ "$T" -le "$cores" ]; then
            ok "ch05 scaling answer: ${S}x on $T threads is the table's; Amdahl ${A}x from p = $P; fitted p $F is the fit line's"
        else
            bad "ch05 scaling answer against the strong table" "$l1" "table ${T}: $(strong_at "$T"), Amdahl $want_a, fit '$fitp'"
        fi
    elif [[ $l1 == "answer: not shown on this run: "* ]] && [ -z "$any_together" ]; then
        ok "ch05 scaling answer: not shown on this run, and every 2..$cores-thread strong row is suspect"
    else
        bad "ch05 scaling strong answer" "$l1" "$(grep -A4 '^strong s=' "$tmp/sc.out")"
    fi
    if [[ $l2 =~ ^answer:\ on\ ([0-9]+)\ threads\ the\ grown\ job\'s\ scaled\ speedup\ was\ ([0-9.]+)x\ against\ the\ fixed\ job\'s\ ([0-9.]+)x ]]; then
        T=${BASH_REMATCH[1]} W=${BASH_REMATCH[2]} S=${BASH_REMATCH[3]}
        if [ "$(weak_at "$T")" = "$W" ] && [ "$(strong_at "$T")" = "$S" ]; then
            ok "ch05 scaling weak answer: ${W}x grown and ${S}x fixed on $T threads, as the tables say"
        else
            bad "ch05 scaling weak answer against the tables" "$l2" "weak $(weak_at "$T"), strong $(strong_at "$T")"
        fi
    elif [[ $l2 == "answer: not shown on this run: "* ]] && { [ -z "$any_together" ] || awk -v c="$cores" '/^== weak/ { on = 1 } on && $4 == "ms" && $1 > 1 && $1 <= c && /suspect/ { f = 1 } END { exit !f }' "$tmp/sc.out"; }; then
        ok "ch05 scaling weak answer: not shown on this run, and the tables have a suspect row at 2..$cores threads"
    else
        bad "ch05 scaling weak answer" "$l2"
    fi
else
    bad "ch05 scaling -n 512k: two answer lines" "$(grep '^answer' "$tmp/sc.out")" "$(tail -3 "$tmp/sc.out")"
fi
