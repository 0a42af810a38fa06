# tests/ch08.sh: chapter 08 (CUDA warps), sourced by tests/run.sh.
# The generic tests already ran every program with --tiny (which checks every
# kernel against the CPU on odd sizes and several block sizes). Here: the
# counters the lesson quotes, the kernels under a shuffled thread order and
# on several OS threads, and the GPU build's skip where there is no GPU.

ch08_bin=$BUILD/ch08
# q FILE VARIANT PARAM: the value of a quantity row.
ch08_q() { awk -F, -v v="$2" -v p="$3" '/^#/ || /^program,/ { next } $2 == v && $3 == "quantity" && $7 == p { print $NF; exit }' "$1"; }

if [ -x "$ch08_bin/memory" ] && [ -x "$ch08_bin/reduce" ]; then
    "$ch08_bin/memory" --tiny --csv "$tmp/ch08_memory.csv" >"$tmp/so" 2>&1
    m=$tmp/ch08_memory.csv
    got="$(ch08_q "$m" stride_1 load_sectors_per_request) $(ch08_q "$m" stride_32 load_sectors_per_request) $(ch08_q "$m" aos_x load_sectors_per_request) $(ch08_q "$m" transpose_shared max_conflict_ways) $(ch08_q "$m" transpose_padded max_conflict_ways)"
    if [ "$got" = "4 32 12 32 1" ]; then ok "ch08 memory: sectors per warp load 4 (stride 1), 32 (stride 32), 12 (AoS); transpose conflicts 32-way, padded 1"
    else bad "ch08 memory counters" "stride_1 stride_32 aos_x shared padded: got '$got', want '4 32 12 32 1'"; fi

    # The lane map: lane by lane, what the counts above add up to.
    "$ch08_bin/memory" --tiny >"$tmp/so" 2>&1
    lm() { awk -v k="$1" 'index($0, k) == 3 { for (i = 1; i <= NF; i++) if ($i == "sector" || $i == "bank") break;
                                              out = $(i + 1); for (j = i + 2; j <= NF; j++) out = out " " $j; print out; exit }' "$tmp/so"; }
    got="$(lm "copy stride 1, load") | $(lm "copy stride 32, load") | $(lm "transpose_shared") | $(lm "transpose_padded")"
    want="00000000111111112222222233333333 4 sectors | 0123456789ABCDEFGHIJKLMNOPQRSTUV 32 sectors | 00000000000000000000000000000000 32-way | 0123456789ABCDEFGHIJKLMNOPQRSTUV 1-way"
    if [ "$got" = "$want" ]; then ok "ch08 memory lane map: stride 1 is 8 lanes per sector, stride 32 a sector per lane, the tile by column all on bank 0, padded one bank per lane"
    else bad "ch08 memory lane map" "got:  $got" "want: $want"; fi

    "$ch08_bin/reduce" --tiny --csv "$tmp/ch08_reduce.csv" >"$tmp/so" 2>&1
    r=$tmp/ch08_reduce.csv
    e0=$(ch08_q "$r" interleaved simt_efficiency); e2=$(ch08_q "$r" sequential simt_efficiency)
    w1=$(ch08_q "$r" strided_index max_conflict_ways); w2=$(ch08_q "$r" sequential max_conflict_ways)
    b3=$(ch08_q "$r" first_add barriers); b4=$(ch08_q "$r" warp_shuffle barriers)
    if awk -v e0="$e0" -v e2="$e2" -v w1="$w1" -v w2="$w2" -v b3="$b3" -v b4="$b4" \
        'BEGIN { exit !(e0 < 0.5 && e2 > 0.7 && w1 >= 8 && w2 == 1 && b4 < b3) }'; then
        ok "ch08 reduce: interleaved diverges (eff $e0 < sequential $e2), strided index conflicts ($w1-way), shuffles save barriers ($b4 < $b3)"
    else
        bad "ch08 reduce counters" "eff interleaved=$e0 sequential=$e2, ways strided=$w1 sequential=$w2, barriers first_add=$b3 warp_shuffle=$b4"
    fi

    # Divergence: a branch on the lane splits every warp (each side's load and
    # store issued with 16 of 32 lanes), a branch on the warp splits none.
    "$ch08_bin/warps" --tiny --csv "$tmp/ch08_warps.csv" >"$tmp/so" 2>&1
    el=$(ch08_q "$tmp/ch08_warps.csv" branch_on_lane simt_efficiency); ew=$(ch08_q "$tmp/ch08_warps.csv" branch_on_warp simt_efficiency)
    if awk -v a="$el" -v b="$ew" 'BEGIN { exit !(a > 0.45 && a < 0.55 && b > 0.95) }'; then
        ok "ch08 warps: a branch on the lane halves SIMT efficiency ($el), a branch on the warp does not ($ew)"
    else bad "ch08 warps divergence" "branch_on_lane efficiency $el (want about 0.5), branch_on_warp $ew (want about 1)"; fi

    # Race-free kernels give the same checks in any thread order, on any number of OS threads.
    for p in reduce memory warps; do
        if PW_SIMT_SHUFFLE=7 PW_SIMT_WORKERS=2 "$ch08_bin/$p" --tiny >"$tmp/so" 2>&1 && ! sanitizer_report "$tmp/so"; then
            ok "ch08 $p: kernels verify with threads in a shuffled order, blocks on 2 OS threads"
        else
            bad "ch08 $p shuffled, 2 workers" "$(tail -3 "$tmp/so")"
        fi
    done

    # A bad block size is a usage error, not a crash.
    expect_usage "ch08 reduce -b 96 (not a power of two)" "$ch08_bin/reduce" -b 96
fi

# tools/pwcc and tools/pwsan: bad input is one line and exit 2; an error in a
# learner's file points at the learner's line.
expect_usage "pwcc without an input file" tools/pwcc -o "$tmp/x"
expect_usage "pwcc with a missing file" tools/pwcc "$tmp/none.cu" -o "$tmp/x"
expect_usage "pwsan with an unknown tool" tools/pwsan --tool leakcheck true
printf '__global__ void k(int *p)\n{\n    __shared__ int s = 0;\n    p[0] = s;\n}\n' >"$tmp/init_shared.cu"
PW_NO_MAKE=1 PW_BUILD=$BUILD tools/pwcc -c "$tmp/init_shared.cu" -o "$tmp/init_shared.o" >"$tmp/so" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "init_shared.cu:3: error: .*initializer" "$tmp/so"; then
    ok "pwcc: a __shared__ variable with an initializer is refused at the learner's line 3"
else
    bad "pwcc: __shared__ with an initializer" "exit $rc (want nonzero), want 'init_shared.cu:3: error: ... initializer'" "$(head -3 "$tmp/so")"
fi

# The nvcc build, where there is one: without a GPU each program says so in one line, exit 77.
if [ -x "$BUILD/gpu/ch08/reduce" ] && [ -z "${HAVE_CUDA_DEVICE:-}" ] && ! nvidia-smi -L >/dev/null 2>&1; then
    "$BUILD/gpu/ch08/reduce" --tiny >"$tmp/so" 2>"$tmp/se"
    rc=$?
    if [ $rc -eq 77 ] && [ "$(wc -l <"$tmp/so")" -eq 1 ] && grep -q 'skipped: no CUDA device' "$tmp/so"; then
        ok "ch08 GPU build without a GPU: one line, exit 77"
    else
        bad "ch08 GPU build without a GPU" "exit $rc (want 77)" "$(head -3 "$tmp/so" "$tmp/se")"
    fi
fi

# Predict, run, explain: each answer line quotes this run's own counts (a
# hard-coded answer would not follow the CSV), and the README, run.sh and
# solutions/08-cuda-warps/ANSWERS.md agree on how many predictions there are.
if [ -x "$ch08_bin/warps" ] && [ -x "$ch08_bin/memory" ] && [ -x "$ch08_bin/reduce" ]; then
    "$ch08_bin/warps" -n 3000 --rounds 20 --csv "$tmp/ch08_w.csv" >"$tmp/so" 2>&1
    w=$tmp/ch08_w.csv
    want=$(awk -v el="$(ch08_q "$w" branch_on_lane simt_efficiency)" -v ew="$(ch08_q "$w" branch_on_warp simt_efficiency)" \
               -v sl="$(ch08_q "$w" branch_on_lane warp_steps)" -v sw="$(ch08_q "$w" branch_on_warp warp_steps)" \
               'BEGIN { printf "answer: branch_on_lane ran at SIMT efficiency %.3f, branch_on_warp at %.3f: the lane branch issued|  %.2fx", el, ew, sl / sw }')
    got=$(grep -A1 '^answer: branch_on_lane' "$tmp/so" | paste -sd'|' | sed 's/ the warp steps.*//')
    ab=$(ch08_q "$w" count_ballot atomics); aa=$(ch08_q "$w" count_atomic atomics)
    want2=$(awk -v b="$ab" -v a="$aa" 'BEGIN { printf "answer: count_ballot made %d atomics (one per warp), count_atomic %d (one per match): %.1fx fewer", b, a, a / b }')
    # The whoami answer is about the fixed 100-element launch: element 99, block 1, warp 1, lane 3, 4 lanes busy.
    if [ "$got" = "$want" ] && grep -qxF "$want2" "$tmp/so" \
       && grep -qx 'answer: element 99 ran in block 1, warp 1, lane 3; its warp has 4 busy lanes of 32' "$tmp/so"; then
        ok "ch08 warps answers: where element 99 ran, efficiencies, step ratio and atomics equal this run's CSV"
    else
        bad "ch08 warps answers against the CSV" "got:  $got" "want: $want" "want: $want2" "$(grep -A1 '^answer' "$tmp/so")"
    fi

    "$ch08_bin/memory" --tiny --csv "$tmp/ch08_m.csv" >"$tmp/so" 2>&1
    m=$tmp/ch08_m.csv
    want=$(awk -v s1="$(ch08_q "$m" stride_1 load_sectors_per_request)" -v s2="$(ch08_q "$m" stride_2 load_sectors_per_request)" \
               -v s8="$(ch08_q "$m" stride_8 load_sectors_per_request)" -v a="$(ch08_q "$m" aos_x load_sectors_per_request)" \
               -v ws="$(ch08_q "$m" transpose_shared max_conflict_ways)" -v wp="$(ch08_q "$m" transpose_padded max_conflict_ways)" \
               'BEGIN { printf "stride 2 takes %.2f sectors (%.1fx stride 1s %.2f), at stride 8 %.2f|%.0f-way conflicted, %.0f-way", s2, s2 / s1, s1, s8, ws, wp }')
    got="$(grep -o 'stride 2 takes .*, at stride 8 [0-9.]*' "$tmp/so" | tr -d "'")|$(grep -o '[0-9]*-way conflicted, [0-9]*-way' "$tmp/so")"
    if [ "$got" = "$want" ] && [ "$(grep -c '^answer: ' "$tmp/so")" = 2 ]; then
        ok "ch08 memory answers: sectors per warp load and conflict ways equal this run's CSV ($got)"
    else
        bad "ch08 memory answers against the CSV" "got:  $got" "want: $want"
    fi

    "$ch08_bin/reduce" -n 5000 --csv "$tmp/ch08_r.csv" >"$tmp/so" 2>&1
    r=$tmp/ch08_r.csv
    # The rung with the lowest efficiency and the steps ratio, recomputed from the CSV.
    want=$(awk -F, '/^#/ || /^program,/ { next } $3 == "quantity" && $7 == "simt_efficiency" { if (lo == "" || $NF < e) { lo = $2; e = $NF } }
                   $3 == "quantity" && $7 == "warp_steps" { if (first == "") first = $NF; last = $NF; lastn = $2; n = $5 }
                   END { printf "%s %.3f|%s %.3f %.1f", lo, e, lastn, last / n, first / last }' "$r")
    got="$(sed -n 's/^answer: \([a-z_]*\) has the lowest SIMT efficiency (\([0-9.]*\)).*/\1 \2/p' "$tmp/so")|$(sed -n 's/^  \([a-z_]*\) issues \([0-9.]*\) warp steps per element, \([0-9.]*\)x fewer.*/\1 \2 \3/p' "$tmp/so")"
    if [ "$got" = "$want" ]; then
        ok "ch08 reduce answer: lowest-efficiency rung and instruction ratio equal this run's CSV ($got)"
    else
        bad "ch08 reduce answer against the CSV" "got:  $got" "want: $want"
    fi
fi
# The Predict/Questions/ANSWERS.md structure is tests/tool_predict.sh's.
