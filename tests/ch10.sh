# tests/ch10.sh: chapter 10's own tests, sourced by tests/run.sh (which
# provides ok, bad, expect_usage, sanitizer_report, $BUILD, $SAN, $tmp).
# The virtual cluster and the collectives have unit tests (tests/test_cluster.c);
# here: the programs' verdicts and numbers, bad cluster layouts, and the MPI
# programs under mpirun: the collectives against MPI_Allreduce, groups
# against MPI_Comm_split, training against the virtual cluster.

ch10=$BUILD/ch10
if [ "${SAN:-}" = tsan ]; then
    # One OS thread runs every rank: nothing for ThreadSanitizer to see, and
    # its fiber bookkeeping makes the full-size sweeps take minutes. The
    # --tiny runs (tests/run.sh) still run under it; the plain and ASan
    # builds run everything below.
    echo "SKIP ch10 full-size runs under ThreadSanitizer (single-threaded simulator; plain and ASan builds run them)"
elif [ -x "$ch10/scaling" ]; then
    # Strong scaling at the defaults: the minimum over every R that fills
    # whole nodes (not only the table's powers of two) is found and printed.
    # The times are modelled, the same on every machine: with 25M parameters,
    # 512K tokens, 100 TFLOP/s and 5 us between nodes, C = 786.432 ms and the
    # minimum is at R = 280 (9.584 ms), below the table's R = 256 (9.606 ms),
    # where the theory sqrt(C / 2 alpha) = 280 puts it.
    if timeout 60 "$ch10/scaling" >"$tmp/so" 2>"$tmp/se" && grep -q '^all variants match' "$tmp/so" \
       && grep -q '^lowest step time in the table: 9.606 ms at R = 256 ' "$tmp/so" \
       && grep -q '^  lowest: 9.584 ms at R = 280, ' "$tmp/so" && grep -q 'sqrt(C / 2 alpha) = .* = 280$' "$tmp/so" \
       && grep -q 'R = 1024 takes .* more than R = 280' "$tmp/so" && ! sanitizer_report "$tmp/se"; then
        ok "ch10 scaling: closed forms hold; the minimum over every R is R = 280 (9.584 ms), the table's R = 256 (9.606 ms)"
    else
        bad "ch10 scaling: closed forms and minimum" "$(grep -E 'lowest|theory' "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi
    # A straggler holds every replica up: one 1.5x replica adds (about) half its compute.
    pct=$(sed -n 's/^ *one_slow .*(+\([0-9.]*\)%).*/\1/p' "$tmp/so")
    if [ -n "$pct" ] && awk -v p="$pct" 'BEGIN { exit !(p > 20) }'; then
        ok "ch10 scaling: one straggler slows the whole step by $pct%"
    else
        bad "ch10 scaling: straggler" "one_slow line: '$pct'"
    fi
    # The link flags reach the model: 20 us between nodes moves the theory's
    # minimum to sqrt(786.432 ms / 40 us) = 140 and the search's near it.
    if timeout 60 "$ch10/scaling" -R 1,8,512 -k 1 --straggler-replicas 16 --inter-alpha 20 >"$tmp/so" 2>"$tmp/se" \
       && grep -q 'sqrt(C / 2 alpha) = sqrt(786.432 ms / (2 x 20 us)) = 140$' "$tmp/so" \
       && r=$(sed -n 's/^  lowest: .* at R = \([0-9]*\),.*/\1/p' "$tmp/so") && [ -n "$r" ] && [ "$r" -ge 120 ] && [ "$r" -le 160 ]; then
        ok "ch10 scaling --inter-alpha 20: the minimum moves to R = $r (theory 140)"
    else
        bad "ch10 scaling --inter-alpha 20" "$(grep -E 'lowest|theory' "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi
    expect_usage "ch10 scaling -R 12 (12 replicas do not fill nodes of 8)" "$ch10/scaling" -R 12
    expect_usage "ch10 overlap --per-node 3 (8 ranks on nodes of 3)" "$ch10/overlap" --per-node 3
    expect_usage "ch10 dataparallel -R 0" "$ch10/dataparallel" -R 0
    expect_usage "ch10 dataparallel -R 20 (20 replicas on nodes of 8)" "$ch10/dataparallel" -R 20
    expect_usage "ch10 allreduce --speed-ranks 12" "$ch10/allreduce" --tiny --speed-ranks 12
    expect_usage "ch10 scaling --inter-gbs 0 (a link needs bandwidth)" "$ch10/scaling" --tiny --inter-gbs 0
    expect_usage "ch10 allreduce --intra-alpha -1" "$ch10/allreduce" --tiny --intra-alpha -1
    expect_usage "ch10 dataparallel --device-tflops x" "$ch10/dataparallel" --tiny --device-tflops x
    expect_usage "ch10 overlap PW_CLUSTER_STACK=lots (not a size)" env PW_CLUSTER_STACK=lots "$ch10/overlap" --tiny
    expect_usage "ch10 overlap PW_CLUSTER_STACK=4K (below 16 KiB)" env PW_CLUSTER_STACK=4K "$ch10/overlap" --tiny
    if env PW_CLUSTER_STACK=1M timeout 60 "$ch10/overlap" --tiny >"$tmp/so" 2>"$tmp/se" && ! sanitizer_report "$tmp/se"; then
        ok "ch10 overlap with PW_CLUSTER_STACK=1M runs"
    else
        bad "ch10 overlap with PW_CLUSTER_STACK=1M" "$(tail -3 "$tmp/se")"
    fi
    # More ranks than vm.max_map_count allows (2 mappings per rank): one line
    # naming the limit, before any fiber is made. Where the limit is higher
    # than 65536 ranks need, only the hard limit can be shown.
    maps=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
    if [ "$maps" -gt 0 ] && [ "$maps" -lt 131072 ]; then
        expect_usage "ch10 allreduce -p 65536 (vm.max_map_count = $maps)" "$ch10/allreduce" --tiny -p 65536
        grep -q 'vm.max_map_count' "$tmp/se" || bad "ch10 allreduce -p 65536 names vm.max_map_count" "$(cat "$tmp/se")"
    else
        echo "SKIP ch10 too many ranks for vm.max_map_count: the limit here ($maps) allows every rank count"
    fi
    # --tiny changes the defaults only: a flag given wins.
    if timeout 60 "$ch10/scaling" --tiny -R 1,2 >"$tmp/so" 2>"$tmp/se" \
       && [ "$(awk '/^replicas +compute/{f=1;next} f&&/^ +[0-9]+ /{n++} f&&!/^ +[0-9]+ /{exit} END{print n}' "$tmp/so")" = 2 ]; then
        ok "ch10 scaling --tiny -R 1,2: the table has the 2 rows asked for"
    else
        bad "ch10 scaling --tiny -R 1,2" "$(grep -A4 '^replicas +compute' "$tmp/so")"
    fi
fi

if [ "${SAN:-}" != tsan ] && [ -x "$ch10/dataparallel" ]; then
    # Data-parallel weights equal one-device weights: R = 1 bit for bit, the
    # others within the summation-order tolerance; odd replica counts and a
    # batch they do not divide.
    if timeout 60 "$ch10/dataparallel" -R 1,3,5,8,24 -b 101 -s 12 >"$tmp/so" 2>"$tmp/se" \
       && grep -q '^all variants match' "$tmp/so" && ! sanitizer_report "$tmp/se"; then
        ok "ch10 dataparallel: replicas 1,3,5,8,24 on a batch of 101 learn the one-device weights"
    else
        bad "ch10 dataparallel: weights equal one-device training" "$(tail -3 "$tmp/se")"
    fi
fi

# The same collectives over Open MPI, against MPI_Allreduce.
if [ "${SAN:-}" = tsan ]; then
    echo "SKIP ch10 MPI: not under ThreadSanitizer (Open MPI's progress threads are outside our code)"
elif [ -x "$ch10/mpi_allreduce" ] && command -v mpirun >/dev/null 2>&1; then
    # As root Open MPI refuses to start unless told twice: a test run as root
    # (a CI machine, a container) says so for this one command.
    # --oversubscribe: 4 processes on 2 cores.
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} timeout 120 mpirun --oversubscribe -np 4 \
        "$ch10/mpi_allreduce" --tiny -n 1001,4099,65537 >"$tmp/so" 2>"$tmp/se"
    rc=$?
    if [ $rc -eq 0 ] && grep -q '^all variants match' "$tmp/so" && grep -q 'MPI_Allreduce' "$tmp/so" \
       && ! sanitizer_report "$tmp/se"; then
        ok "ch10 MPI: ring, tree and naive over 4 processes equal MPI_Allreduce (odd lengths)"
    else
        bad "ch10 MPI: mpirun -np 4 mpi_allreduce" "exit $rc" "$(tail -5 "$tmp/se")"
    fi
    # The ratio to MPI_Allreduce is printed from the run, whichever way it went.
    if grep -qE '^ +[0-9]+ floats: MPI_Allreduce .* ms, our (naive|tree|ring) .* ms: .* is [0-9.]+x faster$' "$tmp/so"; then
        ok "ch10 MPI: the ratio to MPI_Allreduce is computed from the run ($(grep -oE '(MPI_Allreduce|naive|tree|ring) is [0-9.]+x faster$' "$tmp/so" | tail -1))"
    else
        bad "ch10 MPI: ratio line" "$(tail -4 "$tmp/so")"
    fi
    # -n wins over --tiny
    if grep -q '(n = 1001, 4099, 65537 floats)' "$tmp/so"; then
        ok "ch10 MPI: --tiny -n 1001,4099,65537 runs the sizes asked for"
    else
        bad "ch10 MPI: -n with --tiny" "$(grep '(n = ' "$tmp/so")"
    fi
    # Groups over MPI: rows and columns of a grid (coll_comm_split) against
    # MPI_Comm_split + MPI_Allreduce; 6 processes make a 2 x 3 grid.
    if grep -q 'rows and columns of a 2 x 2 grid' "$tmp/so"; then
        ok "ch10 MPI: groups: rows and columns of a 2 x 2 grid equal MPI_Comm_split + MPI_Allreduce"
    else
        bad "ch10 MPI: groups on 4 processes" "$(grep -A2 '^all variants' "$tmp/so")"
    fi
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} expect_usage "ch10 MPI: bad input (run as a singleton)" "$ch10/mpi_allreduce" -n 0
    if OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} \
         timeout 120 mpirun --oversubscribe -np 6 "$ch10/mpi_allreduce" --tiny -n 1003 >"$tmp/so" 2>"$tmp/se" \
       && grep -q 'rows and columns of a 2 x 3 grid' "$tmp/so" && ! sanitizer_report "$tmp/se"; then
        ok "ch10 MPI: groups: rows and columns of a 2 x 3 grid (6 processes, 1003 floats) equal MPI's"
    else
        bad "ch10 MPI: groups on 6 processes" "$(tail -3 "$tmp/se")"
    fi
    # Data-parallel training over MPI: the same bits as the virtual cluster.
    for np in 4 3; do
        if [ -x "$ch10/mpi_train" ] && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
             ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} timeout 120 mpirun --oversubscribe -np $np \
             "$ch10/mpi_train" --tiny -b 101 >"$tmp/so" 2>"$tmp/se" \
           && grep -q "^all variants match: $np processes over Open MPI .* same bits as each other and as the" "$tmp/so" \
           && [ "$(grep -cE '^(ring|tree|ring_accumulate) .* ms .* us$' "$tmp/so")" = 3 ] && ! sanitizer_report "$tmp/se"; then
            ok "ch10 MPI: data-parallel training on $np processes (batch 101) ends with the virtual cluster's bits; measured beside modelled"
        else
            bad "ch10 MPI: mpirun -np $np mpi_train" "$(tail -3 "$tmp/so")" "$(tail -3 "$tmp/se")"
        fi
    done
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} expect_usage "ch10 MPI: mpi_train -s 1 (a step to warm up, one to time)" "$ch10/mpi_train" -s 1
    # 2^28 floats (the option's largest): 4 processes would need a 4 GiB
    # Bsend buffer, past the INT_MAX bytes MPI can attach: refused, one line.
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} timeout 60 mpirun --oversubscribe -np 4 \
        "$ch10/mpi_allreduce" -n 268435456 >"$tmp/so" 2>"$tmp/se"
    rc=$?
    if [ $rc -ne 0 ] && grep -q 'MPI_Bsend would need a 4.0 GiB buffer, more than the INT_MAX bytes' "$tmp/se" \
       && [ "$(grep -c 'mpi_allreduce: ' "$tmp/se")" = 1 ] && ! grep -q 'EiB' "$tmp/se"; then
        ok "ch10 MPI: -n 268435456 on 4 processes refused in one line (Bsend buffer past INT_MAX)"
    else
        bad "ch10 MPI: -n 268435456" "exit $rc" "$(head -3 "$tmp/se")"
    fi
else
    echo "SKIP ch10 MPI: mpicc/mpirun not found (apt install openmpi-bin libopenmpi-dev)"
fi
