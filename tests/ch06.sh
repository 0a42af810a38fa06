# tests/ch06.sh: chapter 06's own tests, sourced by tests/run.sh (uses ok,
# bad, expect_usage, sanitizer_report, $BUILD, $SAN, $tmp). What --tiny, --help
# and the bad-input matrix do not cover: STREAM's check catches a wrong
# element, the comparison with McCalpin's STREAM (absent: one line; present:
# built, run, parsed, and a miss of the 5% target said aloud; broken: said),
# the staircase's order where it holds on every machine, and the options of
# chapter 06 that the matrix does not know.
ch06=$BUILD/ch06

# Under ThreadSanitizer (make sanitize) nothing here runs: the programs are
# OpenMP, which TSan cannot see without LLVM's libarcher (chapter 04's tests
# say more); the probe's threads are tested by test_probe.
if [ -n "${UNIT_ONLY:-}" ]; then return 0; fi

if [ -x "$ch06/stream" ]; then
    # A wrong element after the timed trials: exit 1, the first bad index
    # named, no CSV.
    rm -f "$tmp/ch06.csv"
    env -u STREAM_SRC "$ch06/stream" --tiny --corrupt 12345 --csv "$tmp/ch06.csv" >"$tmp/ch06.out" 2>"$tmp/ch06.err"
    rc=$?
    if [ $rc -eq 1 ] && grep -q 'a\[12345\]' "$tmp/ch06.err" && [ ! -f "$tmp/ch06.csv" ] && ! sanitizer_report "$tmp/ch06.err"; then
        ok "ch06 stream: a spoiled element fails STREAM's check (exit 1, a[12345] named, no CSV)"
    else
        bad "ch06 stream: a spoiled element must fail the check" "exit $rc (want 1)" "$(head -3 "$tmp/ch06.err")"
    fi
    # The same element left alone, and one past the end, pass.
    if env -u STREAM_SRC "$ch06/stream" --tiny --corrupt 999999999 >"$tmp/ch06.out" 2>&1 \
       && grep -q '^all kernels match' "$tmp/ch06.out"; then
        ok "ch06 stream --tiny verifies at n = 1, 7, 33, 257, 1001 and validates its arrays"
    else
        bad "ch06 stream --tiny verifies" "$(tail -3 "$tmp/ch06.out")"
    fi
    # Without STREAM_SRC: exactly one line about McCalpin's STREAM, with the URL; exit 0.
    if [ "$(grep -c "McCalpin's STREAM: not compared" "$tmp/ch06.out")" -eq 1 ] \
       && grep -q 'https://www.cs.virginia.edu/stream/FTP/Code/stream.c' "$tmp/ch06.out"; then
        ok "ch06 stream without STREAM_SRC: one line saying where to get it, exit 0"
    else
        bad "ch06 stream without STREAM_SRC: one line with the URL" "$(grep -i mccalpin "$tmp/ch06.out")"
    fi
    STREAM_SRC=$tmp/no-such-stream.c expect_usage "ch06 stream STREAM_SRC=a missing file" "$ch06/stream" --tiny
    expect_usage "ch06 stream -r 41 (the values would overflow)" "$ch06/stream" --tiny -r 41
    expect_usage "ch06 stream --rounds 0" "$ch06/stream" --rounds 0

    # A stand-in for McCalpin's stream.c, far faster than anything real: the
    # program must build it, run it at each thread count, read its rates, and
    # say that the 5% target was missed, with the ratios.
    cat >"$tmp/fake_stream.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    const char *t = getenv("OMP_NUM_THREADS");
    printf("Array size = %d (elements)\nNumber of Threads counted = %s\n", (int)STREAM_ARRAY_SIZE, t ? t : "1");
    printf("Function    Best Rate MB/s  Avg time     Min time     Max time\n");
    printf("Copy:        9000000.0     0.000001     0.000001     0.000001\n");
    printf("Scale:       9000000.0     0.000001     0.000001     0.000001\n");
    printf("Add:         9000000.0     0.000001     0.000001     0.000001\n");
    printf("Triad:       9000000.0     0.000001     0.000001     0.000001\n");
#ifndef BROKEN
    printf("Solution Validates: avg error less than 1.000000e-13 on all three arrays\n");
#endif
    return 0;
}
C
    STREAM_SRC=$tmp/fake_stream.c "$ch06/stream" --tiny -t 1 --csv "$tmp/ch06.csv" >"$tmp/ch06.out" 2>&1
    rc=$?
    if grep -q "McCalpin's STREAM: not compared" "$tmp/ch06.out"; then
        skip=$((skip + 1)); printf 'SKIP %s\n' "ch06 stream against a stand-in STREAM: $(grep -m1 "not compared" "$tmp/ch06.out")"
    elif [ $rc -eq 0 ] && grep -qE '^ +1 triad .* 9000\.0 +0\.0[0-9]* +SLOWER by more than 5%' "$tmp/ch06.out" \
         && grep -q 'target .* MISSED at: copy/1 threads' "$tmp/ch06.out" \
         && grep -q ',triad,quantity,.*,mccalpin_best_gbs,' "$tmp/ch06.csv" && grep -q ',triad,quantity,.*,ratio,' "$tmp/ch06.csv"; then
        ok "ch06 stream beside a stand-in STREAM: built, run, parsed; the missed 5% target is said, with ratios, and in the CSV"
    else
        bad "ch06 stream beside a stand-in STREAM" "exit $rc" "$(grep -E 'triad|MISSED|McCalpin' "$tmp/ch06.out" | head -5)"
    fi
    # A STREAM that does not validate: said in one line, no comparison, exit 0.
    sed -i.bak 's/^#include <stdio.h>/#define BROKEN 1\n#include <stdio.h>/' "$tmp/fake_stream.c"
    STREAM_SRC=$tmp/fake_stream.c "$ch06/stream" --tiny -t 1 >"$tmp/ch06.out" 2>&1
    rc=$?
    if grep -q "McCalpin's STREAM: not compared" "$tmp/ch06.out"; then
        skip=$((skip + 1)); printf 'SKIP %s\n' "ch06 stream against a broken stand-in: no compiler with -fopenmp"
    elif [ $rc -eq 0 ] && grep -q "did not validate" "$tmp/ch06.out" && grep -q 'no comparison with McCalpin' "$tmp/ch06.out"; then
        ok "ch06 stream: a STREAM that does not validate is said so, and not compared with"
    else
        bad "ch06 stream: a STREAM that does not validate" "exit $rc" "$(grep -iE 'mccalpin|valid' "$tmp/ch06.out" | head -4)"
    fi
fi

if [ -x "$ch06/staircase" ]; then
    "$ch06/staircase" --tiny --csv "$tmp/ch06.csv" >"$tmp/ch06.out" 2>"$tmp/ch06.err"
    rc=$?
    if [ $rc -eq 0 ] && grep -qE '^ +4 KiB ' "$tmp/ch06.out" && grep -q '^clock, measured' "$tmp/ch06.out" \
       && grep -q '^# l1d_bytes: ' "$tmp/ch06.csv" && grep -q ',latency_ns,quantity,' "$tmp/ch06.csv"; then
        ok "ch06 staircase --tiny: sweep from 4 KiB, a measured clock, cache sizes and latencies in the CSV"
    else
        bad "ch06 staircase --tiny" "exit $rc" "$(tail -3 "$tmp/ch06.err")"
    fi
    # True on every machine: a random chase over a set 4x the L1d waits longer
    # per load than one over 4 KiB (L1). Asked only where --tiny's 256 KiB is
    # that big (the probe's L1d, from the CSV).
    l1d=$(sed -n 's/^# l1d_bytes: //p' "$tmp/ch06.csv")
    if [ -n "$l1d" ] && [ "$l1d" -gt 0 ] && [ $((4 * l1d)) -le 262144 ]; then
        lat() { awk -F, -v n="$1" '$2 == "latency_ns" && $5 == n { print $20 }' "$tmp/ch06.csv"; }
        small=$(lat 4096) big=$(lat 262144)
        if awk -v s="$small" -v b="$big" 'BEGIN { exit !(s > 0 && b > 1.3 * s) }'; then
            ok "ch06 staircase: a load from 256 KiB (past L1d $l1d) waits longer than one from 4 KiB ($big ns > $small ns)"
        else
            bad "ch06 staircase: latency past L1 above latency in L1" "4 KiB: $small ns, 256 KiB: $big ns"
        fi
    fi
    # A virtual machine's L3 (PW_REPORTED_L3: 512 MiB reported): wherever this
    # machine's latency at 64 MiB is 8x its L2 hit's or more (memory, on any
    # machine whose real L3 is under 64 MiB), the staircase must say the knees
    # contradict the reported L3; where it is not, it must not.
    if [ "${SAN:-}" = "" ]; then
        PW_REPORTED_L3=536870912 "$ch06/staircase" --max 64M -r 3 --min-time 0 >"$tmp/ch06v.out" 2>&1
        rc=$?
        l2ns=$(awk '/^per level/ { on = 1 } on && $1 == "L2" { print $6; exit }' "$tmp/ch06v.out")
        ns64=$(awk '$1 == 64 && $2 == "MiB" { print $6; exit }' "$tmp/ch06v.out")
        said=$(grep -c "inside the 512 MiB L3 the system" "$tmp/ch06v.out")
        if [ $rc -eq 0 ] && [ -n "$l2ns" ] && [ -n "$ns64" ]; then
            if awk -v a="$ns64" -v b="$l2ns" 'BEGIN { exit !(a >= 8 * b) }'; then
                # the knee may come at a smaller set than 64 MiB: said either way
                [ "$said" -ge 1 ] && ok "ch06 staircase, a reported 512 MiB L3: 64 MiB waits ${ns64} ns (8x L2's $l2ns or more), and the run says the knees contradict the reported L3" \
                    || bad "ch06 staircase, a reported 512 MiB L3" "64 MiB waits $ns64 ns, L2 $l2ns ns, but no contradiction said" "$(grep -A2 'levels the latency' "$tmp/ch06v.out")"
            else
                skip=$((skip + 1)); echo "SKIP ch06 staircase, a reported 512 MiB L3: 64 MiB waits $ns64 ns, under 8x L2's $l2ns (a real L3 this big?)"
            fi
        else
            bad "ch06 staircase PW_REPORTED_L3=512 MiB --max 64M" "exit $rc, L2 '$l2ns', 64 MiB '$ns64'" "$(tail -3 "$tmp/ch06v.out")"
        fi
    fi
    expect_usage "ch06 staircase --max 1000 (below 4 KiB)" "$ch06/staircase" --max 1000
    expect_usage "ch06 staircase --max 99999999999999 (too big for memory)" "$ch06/staircase" --max 99999999999999
fi

# The roofline, blocking and fusion programs' tests.
[ -f tests/ch06_more.sh ] && . tests/ch06_more.sh
[ -f tests/ch06_predict.sh ] && . tests/ch06_predict.sh
