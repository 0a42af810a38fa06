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

# The nvcc build without a GPU: tests/tool_gpu_guard.sh, for every nvcc-built program.

# Predict, run, explain: each answer line quotes this run's own counts (a
# hard-coded answer would not follow the CSV), and the README, run.sh and
# solutions/08-cuda-warps/ANSWERS.md agree on how many predictions there are.
# Not under TSan: these runs are on one OS thread and their counts do not
# depend on the build (the plain, clang and ASan passes check them); under
# TSan reduce -n 5000 alone takes over a minute. TSan's part is the
# 2-worker runs above.
if [ "$SAN" = tsan ]; then
    skip=$((skip + 1)); echo "SKIP ch08 answers against the CSV: one OS thread, the same counts as in the other builds (not under TSan)"
elif [ -x "$ch08_bin/warps" ] && [ -x "$ch08_bin/memory" ] && [ -x "$ch08_bin/reduce" ]; then
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
    if [ "$got" = "$want" ] && [ "$(grep -c '^answer: ' "$tmp/so")" = 4 ]; then
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

# ---- the GPU model (common/gpu_model.h) on the emulator's counts ------------------------------
# ch08_rows CSV N PREFIX: "variant param value" of the quantity rows at n = N whose param starts
# with PREFIX, sorted (the threads column, the n a count came from, left out).
ch08_rows() { awk -F, -v N="$2" -v P="$3" '/^#/ || /^program,/ { next }
                $3 == "quantity" && $5 == N && index($7, P) == 1 { print $2, $7, $NF }' "$1" | sort; }
# ch08_table OUT CSV N TAG BYTES FIRST: each row of the model's table in OUT (after the line
# "== modelled ...", from the row of variant FIRST to the first blank or "time us" line) against the CSV:
# "variant time GB/s bound" as printed, and as recomputed from the CSV's modelled rows (time
# in us to 2 decimals, BYTES x N / t in GB/s to 1, the bound: the largest of the six terms,
# the first listed on a tie). Prints "printed|recomputed".
ch08_table() {
    local printed recomputed
    printed=$(awk -v first="$6" '/^== modelled/ { model = 1 } model && $1 == first && $2 ~ /^[0-9.]+$/ { on = 1 }
                                 on && (NF == 0 || /^time us/) { exit }
                                 on { print $1, $2, $3, ($4 ~ /%$/ ? $5 : $4) }' "$1")
    recomputed=$(awk -F, -v N="$3" -v T="modelled_$4_" -v B="$5" '/^#/ || /^program,/ { next }
        $3 == "quantity" && $5 == N && index($7, T) == 1 { p = substr($7, length(T) + 1); v[$2, p] = $NF
                                                           if (!($2 in seen)) { seen[$2] = 1; o[++k] = $2 } }
        END { split("fp issue l1 latency l2 dram", t, " ")
              for (i = 1; i <= k; i++) { x = o[i]; b = 1
                  for (j = 2; j <= 6; j++) if (v[x, "t_" t[j]] + 0 > v[x, "t_" t[b]] + 0) b = j
                  printf "%s %.2f %.1f %s\n", x, 1e6 * v[x, "t_s"], B * N / v[x, "t_s"] * 1e-9, t[b] == "fp" ? "fp32" : t[b] } }' "$2")
    echo "$printed|$recomputed"
}

# The counting runs take seconds; a sanitizer makes them 10-60 times slower (TSan: ten minutes) and
# cannot change a count (the emulator counts, not the compiler); the sanitizer builds still run every
# program's --tiny, model included, in tests/run.sh's generic part.
if [ -z "$SAN" ] && [ -x "$ch08_bin/memory" ] && [ -x "$ch08_bin/reduce" ] && [ -x "$ch08_bin/warps" ]; then
    # reduce: the model's table and its two answer lines, recomputed from the CSV's modelled rows
    # (the H100 SXM by default, n = 2^22).
    "$ch08_bin/reduce" -n 64K --csv "$tmp/ch08_rm.csv" >"$tmp/rm.out" 2>&1
    r=$tmp/ch08_rm.csv
    tab=$(ch08_table "$tmp/rm.out" "$r" 4194304 h100_sxm 4 interleaved)
    want=$(awk -F, -v N=4194304 '/^#/ || /^program,/ { next }
        $3 == "quantity" && $5 == N && index($7, "modelled_h100_sxm_") == 1 { p = substr($7, 19); v[$2, p] = $NF
                                                                             if (!($2 in seen)) { seen[$2] = 1; o[++k] = $2 } }
        END { best = 2; for (i = 3; i <= k; i++) if (v[o[i-1], "t_s"] / v[o[i], "t_s"] > v[o[best-1], "t_s"] / v[o[best], "t_s"]) best = i
              split("fp issue l1 latency l2 dram", t, " "); x = o[k]; b = 1
              for (j = 2; j <= 6; j++) if (v[x, "t_" t[j]] + 0 > v[x, "t_" t[b]] + 0) b = j
              printf "%s -> %s, %.2fx|%s, is %s-bound in the model: %.2f us, %.1f GB/s", o[best-1], o[best],
                     v[o[best-1], "t_s"] / v[o[best], "t_s"], x, t[b] == "fp" ? "fp32" : t[b], 1e6 * v[x, "t_s"], 4 * N / v[x, "t_s"] * 1e-9 }' "$r")
    got="$(grep -A1 '^answer: modelled on the' "$tmp/rm.out" | paste -sd' ' | tr -s ' ' | sed -n 's/.*the biggest step is \([a-z_]* -> [a-z_]*, [0-9.]*x\).*/\1/p')|$(grep '^answer: the last rung' "$tmp/rm.out" | sed -n 's/^answer: the last rung, \(.* GB\/s\) modelled$/\1/p')"
    if [ "${tab%|*}" = "${tab#*|}" ] && [ -n "${tab%|*}" ] && [ "$got" = "$want" ] && grep -q "modelled, not measured: the H100 SXM" "$tmp/rm.out"; then
        ok "ch08 reduce model: each rung's time, GB/s and bound, and both answers, equal this run's CSV ($got)"
    else
        bad "ch08 reduce model against the CSV" "table printed|recomputed: $tab" "answers got:  $got" "answers want: $want"
    fi

    # The published ladder: each row of common/gpus/published/reduction-ladders.csv beside the
    # model, its ratio = modelled / published.
    pub=common/gpus/published/reduction-ladders.csv
    if [ -f "$pub" ]; then
        got=$(awk -F, 'FNR == 1 { file++ } /^#/ || /^program,/ || /^device,/ { next }
            file == 1 { want[$3] = $6; ladder = $2; n = $5; next }
            $3 == "quantity" && $5 == n && $7 == "published_" ladder "_gbs" { pubv[$2] = $NF }
            $3 == "quantity" && $5 == n && $7 == "modelled_" ladder "_gbs" { mod[$2] = $NF }
            $3 == "quantity" && $5 == n && $7 == "modelled_" ladder "_ratio" { rat[$2] = $NF }
            END { bad = 0; rows = 0
                  for (r in want) { rows++; if (!(r in rat) || pubv[r] + 0 != want[r] + 0 || \
                      (rat[r] - mod[r] / want[r]) ^ 2 > 1e-8 * rat[r] ^ 2) bad++ }
                  print rows, bad }' "$pub" "$r")
        if [ "${got#* }" = 0 ] && [ "${got% *}" -gt 0 ] && grep -q '^benchmark: .* rungs within 25% of the published GB/s' "$tmp/rm.out"; then
            ok "ch08 reduce: the published ladder's ${got% *} rungs printed beside the model, ratio = modelled / published in the CSV"
        else
            bad "ch08 reduce published ladder" "rows, mismatches: $got" "$(grep -A3 'published' "$tmp/rm.out" | head -8)"
        fi
    fi

    # The scaling is exact: the counts at n scaled to N equal those counted at N itself, for
    # every rung (rungs 0-4 by N / n; rung 5 past its 2048-block grid, blocks of 64 from n =
    # 1M on, by a launch of 4 blocks doing N's per-block work), and so do the modelled times.
    "$ch08_bin/reduce" -n 256K --model-n 256K --csv "$tmp/ch08_r1.csv" >/dev/null 2>&1
    "$ch08_bin/reduce" -n 16K --model-n 256K --csv "$tmp/ch08_r2.csv" >/dev/null 2>&1
    "$ch08_bin/reduce" -b 64 -n 2M --model-n 2M --csv "$tmp/ch08_r3.csv" >/dev/null 2>&1
    "$ch08_bin/reduce" -b 64 -n 64K --model-n 2M --csv "$tmp/ch08_r4.csv" >"$tmp/r4.out" 2>&1
    a=$(ch08_rows "$tmp/ch08_r1.csv" 262144 model); b=$(ch08_rows "$tmp/ch08_r2.csv" 262144 model)
    c=$(ch08_rows "$tmp/ch08_r3.csv" 2097152 model); d=$(ch08_rows "$tmp/ch08_r4.csv" 2097152 model)
    if [ -n "$a" ] && [ "$a" = "$b" ] && [ -n "$c" ] && [ "$c" = "$d" ] && grep -q 'many_per_thread .*4 blk x 512$' "$tmp/r4.out" &&
       [ "$(grep -c 'NOT exact' "$tmp/r4.out")" = 0 ]; then
        ok "ch08 reduce: the counts scaled from n = 16K (x 16) and, past rung 5's grid, from 4 blocks (x 512) equal those counted at N, and so do the modelled times"
    else
        bad "ch08 reduce scaling" "at 256K from 256K and 16K: $(diff <(echo "$a") <(echo "$b") | head -4 | tr '\n' ' ')" \
            "at 2M, blocks of 64, from 2M and 64K: $(diff <(echo "$c") <(echo "$d") | head -4 | tr '\n' ' ')"
    fi

    # --device: another file changes the times; a path works; an unknown name is a usage error.
    "$ch08_bin/reduce" -n 64K --device a100-sxm --csv "$tmp/ch08_ra.csv" >"$tmp/ra.out" 2>&1
    cp common/gpus/h100-sxm.gpu "$tmp/my-gpu.gpu"
    "$ch08_bin/reduce" -n 64K --device "$tmp/my-gpu.gpu" --csv "$tmp/ch08_rp.csv" >/dev/null 2>&1
    h=$(ch08_rows "$r" 4194304 modelled_h100_sxm_t_s | awk '{ print $1, $3 }')
    a=$(ch08_rows "$tmp/ch08_ra.csv" 4194304 modelled_a100_sxm_t_s | awk '{ print $1, $3 }')
    p=$(ch08_rows "$tmp/ch08_rp.csv" 4194304 modelled_my_gpu_t_s | awk '{ print $1, $3 }')
    differ=$(join <(echo "$h") <(echo "$a") | awk '$2 != $3 { n++ } END { print n + 0 }')
    if [ "$differ" = 6 ] && [ "$h" = "$p" ] && grep -q 'modelled, not measured: the A100 SXM4 80GB' "$tmp/ra.out"; then
        ok "ch08 reduce --device: a100-sxm changes all 6 modelled times, a path to a copy of h100-sxm.gpu gives the H100's"
    else
        bad "ch08 reduce --device" "rungs whose time differs on a100-sxm: $differ (want 6)" "h100: $(tr '\n' ' ' <<<"$h")" "path: $(tr '\n' ' ' <<<"$p")"
    fi
    for prog in reduce memory warps; do
        expect_usage "ch08 $prog --device nosuch (no such device file)" "$ch08_bin/$prog" --device nosuch
    done

    # memory: the model's table and answers against the CSV, and the scaling (sides 128 and 256
    # scaled to 512; --tiny's side 200 is not a multiple of 128, so it counts again at 128).
    "$ch08_bin/memory" -n 256 --model-n 512 --csv "$tmp/ch08_mm.csv" >"$tmp/mm.out" 2>&1
    m=$tmp/ch08_mm.csv
    tab=$(ch08_table "$tmp/mm.out" "$m" 262144 h100_sxm 8 stride_1)
    want=$(awk -F, -v N=262144 '/^#/ || /^program,/ { next } $3 == "quantity" && $5 == N && $7 == "modelled_h100_sxm_t_s" { t[$2] = $NF }
                 END { printf "%.2fx stride 1%ss time, stride 32 %.2fx; aos_x %.2fx|", t["stride_8"] / t["stride_1"], "\047", t["stride_32"] / t["stride_1"], t["aos_x"] / t["soa_x"]
                       a = t["transpose_naive"] / t["transpose_shared"]; b = t["transpose_shared"] / t["transpose_padded"]
                       if (b > a) printf "transpose_shared -> transpose_padded, %.2fx", b; else printf "transpose_naive -> transpose_shared, %.2fx", a }' "$m")
    joined=$(grep -A1 '^answer: modelled on the\|^answer: the transposes' "$tmp/mm.out" | paste -sd' ' | tr -s ' ')
    got="$(echo "$joined" | sed -n 's/.*stride 8 takes \([0-9.]*x stride 1.s time\).*\(, stride 32 [0-9.]*x; aos_x [0-9.]*x\).*/\1\2/p')|$(echo "$joined" | sed -n 's/.*biggest modelled step is \([a-z_]* -> [a-z_]*, [0-9.]*x\).*/\1/p')"
    "$ch08_bin/memory" -n 128 --model-n 512 --csv "$tmp/ch08_m2.csv" >/dev/null 2>&1
    "$ch08_bin/memory" --tiny --model-n 512 --csv "$tmp/ch08_m3.csv" >/dev/null 2>&1
    a=$(ch08_rows "$m" 262144 model); b=$(ch08_rows "$tmp/ch08_m2.csv" 262144 model); c=$(ch08_rows "$tmp/ch08_m3.csv" 262144 model)
    if [ "${tab%|*}" = "${tab#*|}" ] && [ -n "${tab%|*}" ] && [ "$got" = "$want" ] && [ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" = "$c" ]; then
        ok "ch08 memory model: table and answers equal this run's CSV ($got); counts from sides 256, 128 and 200 scale to 512 alike"
    else
        bad "ch08 memory model" "table printed|recomputed: $tab" "answers got:  $got" "answers want: $want" \
            "scaling 256 vs 128: $(diff <(echo "$a") <(echo "$b") | head -3 | tr '\n' ' ')" "256 vs 200: $(diff <(echo "$a") <(echo "$c") | head -3 | tr '\n' ' ')"
    fi

    # warps: the branches' modelled answer from the CSV.
    "$ch08_bin/warps" -n 4096 --rounds 20 --csv "$tmp/ch08_wm.csv" >"$tmp/wm.out" 2>&1
    want=$(awk -F, '/^#/ || /^program,/ { next } $3 == "quantity" && $7 == "modelled_h100_sxm_t_s" { t[$2] = $NF }
                   END { printf "branch_on_lane takes %.2fx", t["branch_on_lane"] / t["branch_on_warp"] }' "$tmp/ch08_wm.csv")
    got=$(grep '^answer: modelled on the' "$tmp/wm.out" | grep -o 'branch_on_lane takes [0-9.]*x')
    if [ -n "$got" ] && [ "$got" = "$want" ]; then ok "ch08 warps model: the branches' answer equals this run's CSV ($got)"
    else bad "ch08 warps model answer against the CSV" "got:  $got" "want: $want"; fi
fi
# The Predict/Questions/ANSWERS.md structure is tests/tool_predict.sh's.
