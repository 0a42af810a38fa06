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
