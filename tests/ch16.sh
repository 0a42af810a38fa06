# tests/ch16.sh: chapter 16's own tests, sourced by tests/run.sh (which
# provides ok, bad, expect_usage, sanitizer_report, $BUILD, $SAN, $tmp).
# kernels/zero.c has unit tests (tests/test_zero.c); here: zero's verdict,
# its tables against its own CSV, the paper's figures, the answers from
# the run's numbers, the MPI path under mpirun, and bad input.

ch16=$BUILD/ch16
if [ -x "$ch16/zero" ]; then
    csv=$tmp/zero16.csv
    if timeout 120 "$ch16/zero" --tiny --csv "$csv" >"$tmp/so" 2>"$tmp/se" \
       && grep -q '^all variants match: ZeRO stages 0-3 on d = 1,2,3,5 give one device' "$tmp/so" && ! sanitizer_report "$tmp/se"; then
        ok "ch16 zero --tiny: stages 0-3 on 1, 2, 3, 5 devices give one device's weights"
    else
        bad "ch16 zero --tiny" "$(head -3 "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi
    # The paper's four figures to 0.1 GB, from the printed table.
    if awk '/^the ZeRO paper/ { t = 1; next } t && / ratio [0-9.]+$/ { n++; d = $(NF - 3) - $(NF - 2); if (d < 0) d = -d; if (d > 0.05) b = 1 } END { exit !(n == 4 && !b) }' "$tmp/so"; then
        ok "ch16 zero: Figure 1's 120, 31.4, 16.6, 1.9 GB from the formula to 0.1 GB"
    else
        bad "ch16 zero: paper table" "$(grep -A5 '^the ZeRO paper' "$tmp/so")"
    fi
    # Bytes per step: every measured column equals its formula column, and the CSV says the same.
    if awk '/^ devices +stage0/ { t = 1; next } t && NF == 9 { n++; for (i = 2; i <= 8; i += 2) if ($i != $(i + 1)) b = 1 } t && NF != 9 { t = 0 } END { exit !(n == 4 && !b) }' "$tmp/so" \
       && awk -F, '/^#/ || /^program/ { next } $3 == "quantity" && $7 == "sent_bytes_per_step" { s[$2 FS $6] = $NF }
                   $3 == "quantity" && $7 == "formula_bytes_per_step" { f[$2 FS $6] = $NF }
                   END { for (k in f) { n++; d = s[k] - f[k]; if (d < 0) d = -d; if (d > 1e-6 * (f[k] + 1)) b = 1 } exit !(n == 16 && !b) }' "$csv"; then
        ok "ch16 zero: bytes per step equal 2 psi (d-1)/d and 3 psi (d-1)/d for d = 1, 2, 3, 5 (table and CSV)"
    else
        bad "ch16 zero: bytes per step" "$(grep -A5 '^ devices +stage0' "$tmp/so")"
    fi
    # The memory answer: its stage 0 and stage 3 bytes are the table's "held" column.
    h=$(awk '/^stage +weights +grads +Adam/ { t = 1; next } t && /^$/ { exit } t && /^0 \(DP\)/ { a = $6 } t && /^3 \(os/ { b = $6 } END { print a, b }' "$tmp/so")
    if [ -n "$h" ] && grep -q "^answer: on 5 devices a device holds ${h% *} B at stage 0, ${h#* } B at stage 3" "$tmp/so"; then
        ok "ch16 zero: the memory answer ($h B) is the table's"
    else
        bad "ch16 zero: memory answer against the table" "held: '$h'" "$(grep '^answer: on' "$tmp/so")"
    fi
    # Where it breaks: one answer per link setting, and the slow link breaks no later than the default.
    n=$(grep -cE '^answer \((default|slow_inter) links\): ZeRO-3' "$tmp/so")
    a=$(sed -n 's/^answer (default links): .* from \([0-9]*\) on it/\1/p' "$tmp/so")
    b=$(sed -n 's/^answer (slow_inter links): .* from \([0-9]*\) on it/\1/p' "$tmp/so")
    if [ "$n" = 2 ] && { [ -z "$a" ] || { [ -n "$b" ] && [ "$b" -le "$a" ]; }; } && grep -q '^where it breaks (modelled' "$tmp/so" \
       && grep -q ',modelled,.*,zero3_prefetch\|zero3_prefetch,modelled' "$csv"; then
        ok "ch16 zero: where it breaks, modelled: default links from ${a:-never}, slow inter-node from ${b:-never}"
    else
        bad "ch16 zero: where it breaks" "$(grep '^answer (' "$tmp/so")"
    fi
    expect_usage "ch16 zero -d 0" "$ch16/zero" -d 0
    expect_usage "ch16 zero -d 12 (12 devices on nodes of 8)" "$ch16/zero" --tiny -d 12
    expect_usage "ch16 zero -d 5 -b 3 (more devices than samples)" "$ch16/zero" --tiny -d 5 -b 3
    expect_usage "ch16 zero --slow-inter-gbs 0" "$ch16/zero" --tiny --slow-inter-gbs 0
    expect_usage "ch16 zero --psi x" "$ch16/zero" --psi x
fi

if [ -x "$ch16/mpi_zero" ]; then
    if ! command -v mpirun >/dev/null 2>&1; then
        echo "SKIP ch16 mpi_zero: no mpirun here (apt install openmpi-bin)"
    else
        # Open MPI's own allocations outlive MPI_Finalize, which LeakSanitizer
        # would report under make sanitize (as in tests/ch10.sh); every other
        # ASan and UBSan report still fails the run.
        for np in 2 3 4; do
            if ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 mpirun --oversubscribe -np $np "$ch16/mpi_zero" --tiny \
                   >"$tmp/so" 2>"$tmp/se" && grep -q "^all variants match: ZeRO stages 0-3 on $np processes over Open MPI" "$tmp/so"; then
                ok "ch16 mpi_zero -np $np: the virtual cluster's bits, one device's weights, bytes = formula"
            else
                bad "ch16 mpi_zero -np $np" "$(tail -3 "$tmp/so")" "$(tail -3 "$tmp/se")"
            fi
        done
    fi
fi
[ -f tests/ch16_buckets.sh ] && . tests/ch16_buckets.sh
