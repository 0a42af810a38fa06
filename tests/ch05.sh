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
