# tests/ch10.sh: chapter 10's own tests, sourced by tests/run.sh (which
# provides ok, bad, expect_usage, sanitizer_report, $BUILD, $SAN, $tmp).
# The virtual cluster and the collectives have unit tests (tests/test_cluster.c);
# here: the programs' verdicts and numbers, bad cluster layouts, and the MPI
# program under mpirun against MPI_Allreduce.

ch10=$BUILD/ch10
if [ -x "$ch10/scaling" ]; then
    # Strong scaling at the defaults has its minimum inside 1..1024, and says where.
    if timeout 60 "$ch10/scaling" >"$tmp/so" 2>"$tmp/se" && grep -q '^all variants match' "$tmp/so" \
       && grep -qE '^lowest step time: .* at R = [0-9]+ replicas' "$tmp/so" && ! sanitizer_report "$tmp/se"; then
        ok "ch10 scaling: closed forms hold, the step time's minimum is printed ($(grep -oE 'at R = [0-9]+' "$tmp/so"))"
    else
        bad "ch10 scaling: closed forms and minimum" "$(tail -3 "$tmp/se")"
    fi
    # A straggler holds every replica up: one 1.5x replica adds (about) half its compute.
    pct=$(sed -n 's/^ *one_slow .*(+\([0-9.]*\)%).*/\1/p' "$tmp/so")
    if [ -n "$pct" ] && awk -v p="$pct" 'BEGIN { exit !(p > 20) }'; then
        ok "ch10 scaling: one straggler slows the whole step by $pct%"
    else
        bad "ch10 scaling: straggler" "one_slow line: '$pct'"
    fi
    expect_usage "ch10 scaling -R 12 (12 replicas do not fill nodes of 8)" "$ch10/scaling" -R 12
    expect_usage "ch10 overlap --per-node 3 (8 ranks on nodes of 3)" "$ch10/overlap" --per-node 3
    expect_usage "ch10 dataparallel -R 0" "$ch10/dataparallel" -R 0
    expect_usage "ch10 dataparallel -R 20 (20 replicas on nodes of 8)" "$ch10/dataparallel" -R 20
    expect_usage "ch10 allreduce --speed-ranks 12" "$ch10/allreduce" --tiny --speed-ranks 12
fi

if [ -x "$ch10/dataparallel" ]; then
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
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} expect_usage "ch10 MPI: bad input (run as a singleton)" "$ch10/mpi_allreduce" -n 0
else
    echo "SKIP ch10 MPI: mpicc/mpirun not found (apt install openmpi-bin libopenmpi-dev)"
fi
