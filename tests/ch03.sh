# tests/ch03.sh: chapter 03's own tests, sourced by tests/run.sh (which has
# already run every program with --tiny, --help and the bad-input matrix,
# except under ThreadSanitizer, where only this file and the threaded unit
# tests run). Uses ok, bad, expect_usage, sanitizer_report, $BUILD, $SAN, $tmp.

ch03=$BUILD/ch03

# ch03_run NAME TIMEOUT PROGRAM ARGS...: output in $tmp/c3.out, status in $c3rc.
ch03_run() {
    local t=$1; shift
    timeout "$t" "$@" >"$tmp/c3.out" 2>&1
    c3rc=$?
}

if [ "${SAN:-}" = tsan ]; then
    # ---- under ThreadSanitizer: the fixes are clean, the race is reported ---
    # TSan exits 66 when it reported anything (its default exitcode), so a
    # clean run is exit 0 with no report, and the racy run is a report.
    for v in mutex atomic partial; do
        ch03_run 120 "$ch03/race" --tiny -t 1,2,3 --variant "$v"
        if [ $c3rc -eq 0 ] && ! sanitizer_report "$tmp/c3.out"; then ok "tsan: race --variant $v is clean"
        else bad "tsan: race --variant $v is clean" "exit $c3rc" "$(grep -m3 -A3 'WARNING: ThreadSanitizer' "$tmp/c3.out")"; fi
    done
    ch03_run 120 "$ch03/race" --tiny -t 2 --variant racy
    if grep -q 'WARNING: ThreadSanitizer: data race' "$tmp/c3.out" && grep -q 'racy_worker' "$tmp/c3.out" \
       && { [ $c3rc -eq 66 ] || [ $c3rc -eq 0 ]; }; then
        ok "tsan: the racy counter IS reported as a data race (in racy_worker, exit $c3rc)"
    else
        bad "tsan: the racy counter is reported as a data race" "exit $c3rc, no 'data race' report in racy_worker" \
            "$(tail -3 "$tmp/c3.out")"
    fi
    for p in "concurrency --tiny" "false_sharing --tiny" "pi --tiny -t 1,2,3" "deadlock --tiny --variant ordered"; do
        # shellcheck disable=SC2086
        ch03_run 120 "$ch03"/$p
        if [ $c3rc -eq 0 ] && ! sanitizer_report "$tmp/c3.out"; then ok "tsan: $p is clean"
        else bad "tsan: $p is clean" "exit $c3rc" "$(grep -m3 -A3 'WARNING: ThreadSanitizer' "$tmp/c3.out")"; fi
    done
    # The detector works under TSan too (trylock loops are invisible to TSan's
    # lock-order graph, so TSan itself says nothing here: the program must).
    ch03_run 120 "$ch03/deadlock" --tiny --variant opposite --timeout 200
    if [ $c3rc -eq 0 ] && grep -q 'DEADLOCK detected' "$tmp/c3.out" && ! sanitizer_report "$tmp/c3.out"; then
        ok "tsan: the opposite lock order's deadlock is detected by the program, no TSan report"
    else
        bad "tsan: the opposite lock order's deadlock is detected" "exit $c3rc" "$(tail -3 "$tmp/c3.out")"
    fi
    # The exercises' solutions are threaded: graded under TSan too, where a
    # race that happened not to lose an update in the plain run still shows.
    for id in 3.1 3.2 3.3; do
        [ -x "$BUILD/sol/$id/check" ] || { bad "tsan: solution $id" "not built: make BUILD=$BUILD $BUILD/sol/$id/check"; continue; }
        ch03_run 120 "$BUILD/sol/$id/check"
        if [ $c3rc -eq 0 ] && ! sanitizer_report "$tmp/c3.out"; then ok "tsan: solution $id passes with no report"
        else bad "tsan: solution $id passes with no report" "exit $c3rc" "$(grep -m3 -A3 'WARNING: ThreadSanitizer' "$tmp/c3.out")"; fi
    done
else
# ---- without TSan: what the generic tests do not check -----------------------

# The deadlock is detected by the program itself, within a few seconds.
start=$SECONDS
ch03_run 20 "$ch03/deadlock" --tiny --variant opposite --timeout 200
if [ $c3rc -eq 0 ] && grep -q 'DEADLOCK detected' "$tmp/c3.out" && grep -q 'deadlock detected after' "$tmp/c3.out" \
   && [ $((SECONDS - start)) -le 10 ]; then
    ok "deadlock: opposite lock order is detected and reported, exit 0 in $((SECONDS - start)) s"
else
    bad "deadlock: opposite lock order is detected and reported" "exit $c3rc after $((SECONDS - start)) s" \
        "$(tail -4 "$tmp/c3.out")"
fi
ch03_run 20 "$ch03/deadlock" --tiny --variant ordered
if [ $c3rc -eq 0 ] && grep -q 'balances exact' "$tmp/c3.out" && ! grep -q 'DEADLOCK' "$tmp/c3.out"; then
    ok "deadlock: the global lock order never deadlocks, balances exact"
else
    bad "deadlock: the global lock order never deadlocks" "exit $c3rc" "$(tail -4 "$tmp/c3.out")"
fi
expect_usage "deadlock --timeout 0" "$ch03/deadlock" --timeout 0
expect_usage "deadlock --variant nonsense" "$ch03/deadlock" --tiny --variant nonsense

# The fixed counters count every update; the racy one reports its losses and
# exits 0 (never more than it was asked to count: no negative loss).
ch03_run 60 "$ch03/race" -u 100001 -t 1,2,3,7 -r 3 --min-time 0
if [ $c3rc -eq 0 ] && grep -q 'count every update exactly' "$tmp/c3.out"; then
    ok "race: mutex, atomic and partial exact on 100001 updates over 1, 2, 3, 7 threads"
else
    bad "race: the fixed counters are exact" "exit $c3rc" "$(tail -4 "$tmp/c3.out")"
fi
if awk '$1 ~ /^[0-9]+$/ && NF >= 4 && $4 ~ /%$/ && ($2 < 0 || $3 < 0 || ($1 == 1 && $3 != 0)) { b = 1 } END { exit b }' "$tmp/c3.out" \
   && grep -q 'least lost' "$tmp/c3.out"; then
    ok "race: the racy counter's loss is reported (none with 1 thread, never negative)"
else
    bad "race: the racy counter's loss is reported" "$(grep -A6 'least lost' "$tmp/c3.out")"
fi
expect_usage "race --variant nonsense" "$ch03/race" --tiny --variant mutex,nonsense
expect_usage "race -u 0" "$ch03/race" -u 0
expect_usage "false_sharing -u -3" "$ch03/false_sharing" -u -3
expect_usage "pi -s 0" "$ch03/pi" -s 0
expect_usage "pi -s abc" "$ch03/pi" -s abc
THREADS=0 expect_usage "pi with THREADS=0" "$ch03/pi" --tiny

# Concurrency: pinned on Linux, a clear line elsewhere.
ch03_run 60 "$ch03/concurrency" --tiny
if [ $c3rc -eq 0 ] && { grep -q '^one_core' "$tmp/c3.out" || grep -q 'cannot pin' "$tmp/c3.out"; } \
   && grep -q '^spread' "$tmp/c3.out"; then
    ok "concurrency: one_core (or a line saying it cannot pin) and spread both run"
else
    bad "concurrency: both placements run" "exit $c3rc" "$(tail -4 "$tmp/c3.out")"
fi
# Pinned to one CPU, one_core has one core to scale on: no fit, no ceiling.
if grep -q '^one_core pinned' "$tmp/c3.out"; then
    awk '/^one_core pinned/ { p = 1 } p && /^$/ { exit } p' "$tmp/c3.out" >"$tmp/c3one"
    if grep -q '^Amdahl fit: n/a: 1 core' "$tmp/c3one" && ! grep -q 'ceiling' "$tmp/c3one"; then
        ok "concurrency: one_core pinned fits nothing (Amdahl fit n/a: 1 core)"
    else
        bad "concurrency: one_core pinned must not fit a ceiling" "$(cat "$tmp/c3one")"
    fi
fi

# pi: the self-check passes on odd steps and odd thread counts, and the
# scaling report records the Amdahl fit the plot reads.
ch03_run 60 "$ch03/pi" -s 100003 -t 1,3,7 -r 3 --min-time 0 --csv "$tmp/c3pi.csv"
if [ $c3rc -eq 0 ] && grep -q '^# amdahl_pi_pthreads: p=' "$tmp/c3pi.csv" \
   && [ "$(grep -c '^pi,pi_pthreads,summary,' "$tmp/c3pi.csv")" -eq 3 ]; then
    ok "pi: 100003 steps on 1, 3, 7 threads verified; 3 sweep rows and the Amdahl fit in the CSV"
else
    bad "pi: odd steps and thread counts, the fit in the CSV" "exit $c3rc" "$(tail -4 "$tmp/c3.out")"
fi

# The racy counter's sentences come from its table: never "every run lost"
# beside a run that lost nothing (the issue's contradiction).
if awk '$1 ~ /^[0-9]+$/ && NF >= 4 && $4 ~ /%$/ && $1 > 1 && $2 == 0 { z[$1] = 1 }
        /threads: every one of the/ { split($1, a, " "); if (z[$1 + 0]) bad = 1 }
        END { exit bad }' "$tmp/c3.out"; then
    ok "race: 'every run lost updates' only where the least lost was above 0"
else
    bad "race: a conclusion contradicts its table" "$(grep -A8 'least lost' "$tmp/c3.out")"
fi

# Did the threads run at the same time? Pinned to one CPU every threaded
# program must say they did not and mark its CSV; on an idle machine it must
# not say so (tests/overlap.sh).
. tests/overlap.sh
ov_pinned "concurrency" "$ch03/concurrency" --tiny -t 1,2
ov_pinned "race" "$ch03/race" --tiny -t 1,2
ov_pinned "false_sharing" "$ch03/false_sharing" --tiny -t 1,2
ov_pinned "pi (ch03)" "$ch03/pi" --tiny -t 1,2
# deadlock: pinned, the free-running opposite run either deadlocks (then its
# threads did interleave between the locks, and nothing is judged) or says
# its threads did not run at the same time.
if command -v taskset >/dev/null 2>&1 && [ "$ov_cores" -ge 2 ]; then
    timeout 60 taskset -c 0 "$ch03/deadlock" --tiny --variant opposite --timeout 200 --csv "$tmp/dl.csv" >"$tmp/c3.out" 2>&1
    c3rc=$?
    if [ $c3rc -eq 0 ] && { grep -q '^suspect, opposite, free-running' "$tmp/c3.out" && [ "$(ov_marked "$tmp/dl.csv")" -ge 1 ]          || grep -q '^  deadlocked after' "$tmp/c3.out"; }; then
        ok "deadlock under taskset -c 0: the free-running run deadlocked, or says its threads did not run at once (CSV marked)"
    else
        bad "deadlock under taskset -c 0: the suspect line" "exit $c3rc" "$(sed -n '/2. free-running/,$p' "$tmp/c3.out" | head -6)"
    fi
fi
ov_idle "pi (ch03) 20M steps on 1, 2 threads" "$ch03/pi" -s 20M -t 1,2 -r 5 --min-time 0
fi

# ---- predict, run, explain: the chapter's predictions and questions against
# run.sh and solutions/03-threads/ANSWERS.md; each program's answer: line
# against its own tables (so a hard-coded answer would fail). Under --tiny
# the threads rarely overlap, so most answers say the run cannot show the
# effect: the numbers they quote must still be the tables'.
. tests/ch01_predict.sh
if [ "${SAN:-}" != tsan ]; then
    ch03_cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
    # ch03_one_core LABEL: the answer says one core, and this machine has one.
    ch03_one_core() {
        if grep -q '^answer: not shown on this run: this machine has one core' "$tmp/c3.out"; then
            if [ "$ch03_cores" -eq 1 ]; then ok "$1 answers: one core, cannot show it"
            else bad "$1 says one core" "this machine has $ch03_cores"; fi
            return 0
        fi
        return 1
    }
    # ch03_cell BLOCK_REGEX THREADS COLUMN: a table row's column, in the table
    # after the first line matching BLOCK_REGEX (up to a blank line).
    ch03_cell() {
        awk -v b="$1" -v t="$2" -v c="$3" '$0 ~ b { p = 1; next } p && NF == 0 { p = 0 } p && $1 == t { print $c; exit }' "$tmp/c3.out"
    }

    ch03_run 60 "$ch03/concurrency" --tiny
    if ! ch03_one_core "ch03 concurrency"; then
        read -r n a b <<<"$(sed -nE 's/^answer: .*at ([0-9]+) threads one_core ran ([0-9.]+)x.*, spread ([0-9.]+)x.*/\1 \2 \3/p' "$tmp/c3.out")"
        if grep -q '^answer: not shown on this run: threads cannot be pinned' "$tmp/c3.out"; then
            ok "ch03 concurrency answers: this system cannot pin threads"
        elif [ -n "$n" ] && [ "$a" = "$(ch03_cell '^one_core pinned' "$n" 5)" ] && [ "$b" = "$(ch03_cell '^spread pinned' "$n" 5)" ]; then
            ok "ch03 concurrency answers from its tables: at $n threads one_core ${a}x, spread ${b}x"
        else
            bad "ch03 concurrency's answer does not match its tables" "one_core: $(ch03_cell '^one_core pinned' "${n:-2}" 5), spread: $(ch03_cell '^spread pinned' "${n:-2}" 5)" \
                "$(grep '^answer:' "$tmp/c3.out")"
        fi
    fi

    ch03_run 60 "$ch03/race" --tiny
    if ! ch03_one_core "ch03 race"; then
        ans=$(grep '^answer:' "$tmp/c3.out")
        n=$(sed -nE 's/^answer: at ([0-9]+) threads .*/\1/p' <<<"$ans")
        lost=$(sed -nE 's/.*racy lost ([0-9.]+%) of the updates.*/\1/p' <<<"$ans")
        why=
        [ -n "$n" ] && [ "$lost" = "$(ch03_cell 'least lost' "$n" 4)" ] || why="lost '$lost' against the racy table's '$(ch03_cell 'least lost' "$n" 4)'"
        # Every fix's ns quoted must be the cost table's, and the first named the least.
        fixes=$(sed -nE 's/.*the cheapest fix per update was ([a-z]+) \(([0-9.]+) ns; ([a-z]+) ([0-9.]+); ([a-z]+) ([0-9.]+)\)$/\1 \2 \3 \4 \5 \6/p' <<<"$ans")
        [ "$(wc -w <<<"$fixes")" -eq 6 ] || why="$why; no three fixes in the answer"
        while read -r v ns; do
            [ -n "$v" ] || continue
            cell=$(awk -v v="$v" -v t="$n" '$1 == v && $2 == t { print $3; exit }' "$tmp/c3.out")
            [ "$cell" = "$ns" ] || why="$why; $v $ns against the table's '$cell'"
            awk -v a="${fixes#* }" -v b="$ns" 'BEGIN { split(a, x, " "); exit !(x[1] + 0 > b + 0) }' && why="$why; $v is cheaper than the named one"
        done <<<"$(xargs -n 2 <<<"$fixes")"
        if [ -z "$why" ]; then ok "ch03 race answers from its tables: at $n threads lost $lost, cheapest ${fixes%% *}"
        else bad "ch03 race's answer does not match its tables" "$why" "$ans"; fi
    fi

    ch03_run 60 "$ch03/false_sharing" --tiny
    if ! ch03_one_core "ch03 false_sharing"; then
        read -r n x <<<"$(sed -nE 's/^answer: .*at ([0-9]+) threads packed took ([0-9.]+x) as long as padded.*/\1 \2/p' "$tmp/c3.out")"
        want=$(ch03_cell 'packed ms' "${n:-0}" 7)
        if [ -n "$x" ] && [ "$x" = "$want" ]; then ok "ch03 false_sharing answers from its table: at $n threads $x"
        else bad "ch03 false_sharing's answer does not match its table" "table: '$want'" "$(grep '^answer:' "$tmp/c3.out")"; fi
    fi

    ch03_run 60 "$ch03/deadlock" --tiny --csv "$tmp/c3dl.csv"
    # Part 2's two report lines: the transfers each thread did.
    done_ab=$(awk '/^2\. free-running, opposite/ { p = 1; next } p && /^$/ { p = 0 } p && /opposite thread/ {
        if (match($0, /(after|finished,) [0-9]+ transfer/)) { s = substr($0, RSTART, RLENGTH); gsub(/[^0-9]/, "", s); printf "%s ", s } }' "$tmp/c3.out")
    param=$(awk -F, '$2 == "opposite_free" && $3 == "summary" { print $7 }' "$tmp/c3dl.csv")
    got=$(sed -nE 's/^answer: the opposite order deadlocked after ([0-9]+) \+ ([0-9]+) of .*/\1 \2 /p' "$tmp/c3.out")
    if { [ "$param" = "deadlock detected" ] && [ -n "$got" ] && [ "$got" = "$done_ab" ]; } \
       || { [ "$param" = "no deadlock" ] && grep -q '^answer: not shown on this run: no deadlock in 2 x 2001' "$tmp/c3.out"; }; then
        ok "ch03 deadlock answers from its run (CSV: $param${got:+; transfers done: $got})"
    else
        bad "ch03 deadlock's answer does not match its run" "CSV: '$param'; transfers done: '$done_ab'" "$(grep '^answer:' "$tmp/c3.out")"
    fi
    grep -q '^answer: .*; the global order finished all 4002 with no deadlock$' "$tmp/c3.out" \
        && ok "ch03 deadlock answers that the global order finished every transfer" \
        || bad "ch03 deadlock: the ordered half of the answer" "$(grep '^answer:' "$tmp/c3.out")"

    ch03_run 60 "$ch03/pi" --tiny -t 1,2,4
    if ! ch03_one_core "ch03 pi"; then
        read -r n x <<<"$(sed -nE 's/^answer: (|.*[^0-9])([0-9]+) threads ran ([0-9.]+)x.*/\2 \3/p' "$tmp/c3.out")"
        read -r m y <<<"$(sed -nE 's/^answer: .*; ([0-9]+) threads on [0-9]+ cores ([0-9.]+)x$/\1 \2/p' "$tmp/c3.out")"
        w1=$(ch03_cell '^pi_pthreads: speedup' "${n:-0}" 5); w2=$(ch03_cell '^pi_pthreads: speedup' "${m:-0}" 5)
        if [ -n "$x" ] && [ "$x" = "$w1" ] && { [ "$ch03_cores" -ge 4 ] || [ "$y" = "$w2" ]; }; then
            ok "ch03 pi answers from its table: $n threads ${x}x${m:+, $m threads ${y}x}"
        else
            bad "ch03 pi's answer does not match its table" "table: $n threads '$w1', $m threads '$w2'" "$(grep '^answer:' "$tmp/c3.out")"
        fi
    fi
fi
