# tests/tool_ladder.sh: make ladder (tools/ladder.sh, tools/ladder.c,
# plots/ladder/ladder.gp), sourced by tests/run.sh (ok, bad, expect_usage,
# $BUILD, $SAN, $tmp).
#
# From the chapters' --tiny runs in a temp results root: the ladder is built,
# its rungs in order, measured and modelled flagged, speedups consistent with
# the times, the cluster rungs equal to their closed forms on 2, 4 and 8
# devices, every modelled rung under its ceiling, the figure drawn; and a
# missing, incomplete or wrong CSV, or a chapter run whose check failed,
# gives one line and exit 1 with nothing written or drawn.

ladder_test() {
    local L=$BUILD/tools/ladder root=$tmp/ladder-root out=$tmp/ladder-out
    if ! make -s --no-print-directory BUILD="$BUILD" SAN="$SAN" "$L" "$BUILD/ch07/gemm" "$BUILD/ch09/gemm" >"$tmp/ladder.build" 2>&1; then
        bad "ladder: builds" "$(tail -n 5 "$tmp/ladder.build")"; return
    fi
    expect_usage "ladder: no arguments" "$L"
    expect_usage "ladder: --devices 1" "$L" --gemm07 a --gemm09 b --devices 1
    expect_usage "ladder: --devices two" "$L" --gemm07 a --gemm09 b --devices two
    expect_usage "ladder: unknown option" "$L" --gemm07 a --gemm09 b --speed 3
    expect_usage "ladder: --csv without a value" "$L" --gemm07 a --gemm09 b --csv

    # ---- the ladder from --tiny runs of chapters 07 and 09
    rm -rf "$root" "$out"
    if ! BUILD=$BUILD RESULTS_ROOT=$root PLOTS_OUT=$out TINY=1 timeout 120 bash tools/ladder.sh >"$tmp/ladder.out" 2>&1; then
        bad "ladder: tools/ladder.sh on --tiny runs exits 0" "$(tail -n 5 "$tmp/ladder.out")"; return
    fi
    if sanitizer_report "$tmp/ladder.out"; then bad "ladder: sanitizer report" "$(grep -m3 -E 'Sanitizer|runtime error' "$tmp/ladder.out")"; fi
    local csv=$root/ladder/ladder.csv f07=$root/07-gemm-cpu/gemm.csv f09=$root/ladder/gemm09.csv
    [ -f "$csv" ] && [ -f "$f07" ] && [ -f "$f09" ] || { bad "ladder: ran the missing chapters and wrote $csv"; return; }
    ok "ladder: ran chapters 07 and 09 (--tiny) where their CSVs were missing, wrote ladder.csv"
    local cores
    cores=$(sed -n 's/^# amdahl_5_omp:.*cores=\([0-9]*\).*/\1/p' "$f07")
    local want="1_naive 2_ikj 3_blocked 4_simd" t
    for ((t = 1; t <= cores; t++)); do want+=" 5_omp_${t}t"; done
    want+=" GPU_SIMT_7_warptile GPU_Tensor_Cores_9_wmma cluster_DP_8_GPUs cluster_TP_8_GPUs"
    local got
    got=$(awk -F, '!/^#/ && $1 != "order" { gsub(/ /, "_", $2); printf "%s%s", (n++ ? " " : ""), $2 }' "$csv")
    if [ "$got" = "$want" ]; then ok "ladder: the rungs in order (loop, SIMD, $cores thread counts, GPU, cluster)"
    else bad "ladder: the rungs in order" "got:  $got" "want: $want"; fi
    local flags
    flags=$(awk -F, -v m=$((4 + cores)) '!/^#/ && $1 != "order" { if (($1 <= m) != ($3 == "measured") || ($3 != "measured" && $3 != "modelled")) print $1, $3 }' "$csv")
    if [ -z "$flags" ]; then ok "ladder: the CPU rungs flagged measured, the GPU and cluster rungs modelled"
    else bad "ladder: measured/modelled flags" "$flags"; fi
    grep -q 'MODEL' "$tmp/ladder.out" && grep -q 'measured' "$tmp/ladder.out" &&
        grep -q "^cluster TP 8 GPUs *o*|* " "$tmp/ladder.out" && grep -q "^4_simd *#" "$tmp/ladder.out" &&
        ok "ladder: the table and the terminal plot ('#' measured, 'o' modelled)" ||
        bad "ladder: the table and the terminal plot" "$(tail -n 14 "$tmp/ladder.out")"
    # speedup = the loop's time / the rung's time, the loop's own is 1
    local incons
    incons=$(awk -F, '!/^#/ && $1 != "order" { if ($1 == 1) { t0 = $4; if ($5 != 1) print "naive", $5 } \
        else { r = t0 / $4; if (r / $5 > 1 + 1e-5 || r / $5 < 1 - 1e-5) print $2, $5, r } }' "$csv")
    [ -z "$incons" ] && ok "ladder: every speedup is the loop's time over the rung's" || bad "ladder: speedups" "$incons"
    # a modelled rung never beats its ceiling
    local over
    over=$(awk -F, '!/^#/ && $3 == "modelled" && $5 > $6 * (1 + 1e-6) { print $2, $5, $6 }' "$csv")
    [ -z "$over" ] && ok "ladder: every modelled rung is at or under its ceiling" || bad "ladder: a model above its ceiling" "$over"

    # ---- the cluster rungs against their closed forms, on 2, 4 and 8 devices:
    # tc/t + s (t-1)(alpha + 4 n^2 / t / bw), s = 2 (DP all-reduce) or 1 (TP
    # all-gather), alpha = 1 us and bw = 450 GB/s (the cluster's one-node link)
    local n d
    n=$(sed -n 's/^# n: //p' "$csv")
    for d in 2 4 8; do
        if ! "$L" --gemm07 "$f07" --gemm09 "$f09" --devices $d --csv "$root/ladder/d$d.csv" >"$tmp/ladder.d" 2>&1; then
            bad "ladder: --devices $d" "$(tail -n 3 "$tmp/ladder.d")"; continue
        fi
        local res
        res=$(awk -F, -v n="$n" -v t=$d '!/^#/ && $1 != "order" { if ($2 ~ /Tensor Cores/) tc = $4; \
            if ($2 ~ /^cluster DP/) dp = $4; if ($2 ~ /^cluster TP/) tp = $4 } \
            END { c = 1e-6 + 4 * n * n / t / 450e9; wdp = tc / t + 2 * (t - 1) * c; wtp = tc / t + (t - 1) * c; \
              e = (dp - wdp) / wdp; if (e < 0) e = -e; f = (tp - wtp) / wtp; if (f < 0) f = -f; \
              if (e > 1e-5 || f > 1e-5) printf "DP %g want %g, TP %g want %g", dp, wdp, tp, wtp }' "$root/ladder/d$d.csv")
        [ -z "$res" ] && ok "ladder: DP and TP on $d devices equal their closed forms (n = $n)" || bad "ladder: closed forms on $d devices" "$res"
    done

    # ---- the figure
    if command -v gnuplot >/dev/null 2>&1; then
        if [ -s "$out/ladder/ladder.png" ] && [ -s "$out/ladder/ladder.svg" ] && grep -q 'model' "$out/ladder/ladder.svg"; then
            ok "ladder: the figure drawn (png, svg)"
        else bad "ladder: the figure" "$(ls -l "$out/ladder" 2>&1)"; fi
    else
        printf 'SKIP ladder: the figure (gnuplot not found)\n'; skip=$((skip + 1))
    fi

    # ---- refusals: one line, exit 1, no CSV written
    ladder_refuses() {   # LABEL F07 F09
        rm -f "$root/ladder/refused.csv"
        timeout 60 "$L" --gemm07 "$2" --gemm09 "$3" --csv "$root/ladder/refused.csv" >"$tmp/ladder.so" 2>"$tmp/ladder.se"
        local rc=$? lines
        lines=$(wc -l <"$tmp/ladder.se")
        if [ $rc -eq 1 ] && [ "$lines" -eq 1 ] && [ ! -e "$root/ladder/refused.csv" ] && ! grep -q 'speedup' "$tmp/ladder.so"; then
            ok "ladder: refuses $1: $(cut -c1-100 "$tmp/ladder.se")"
        else bad "ladder: refuses $1" "exit $rc (want 1), $lines stderr lines (want 1)" "$(head -c 400 "$tmp/ladder.se")"; fi
    }
    ladder_refuses "a missing chapter 07 CSV" "$root/none.csv" "$f09"
    ladder_refuses "a missing chapter 09 CSV" "$f07" "$root/none.csv"
    : >"$root/empty.csv"
    ladder_refuses "an empty CSV" "$root/empty.csv" "$f09"
    grep -v ',4_simd,summary,' "$f07" >"$root/no-simd.csv"
    ladder_refuses "a chapter 07 CSV without its 4_simd rows" "$root/no-simd.csv" "$f09"
    grep -v ',5_omp,summary,0,[0-9]*,2,' "$f07" >"$root/no-omp2.csv"
    [ "$cores" -ge 2 ] && ladder_refuses "a chapter 07 CSV without 5_omp on 2 threads" "$root/no-omp2.csv" "$f09"
    awk -F, 'BEGIN { OFS = "," } $2 == "1_naive" && $7 == "ladder" { $17 = "nan" } 1' "$f07" >"$root/nan.csv"
    ladder_refuses "a chapter 07 CSV whose 1_naive rate is nan" "$root/nan.csv" "$f09"
    grep -v ',9_wmma_shared_fp16,' "$f09" >"$root/no-tc.csv"
    ladder_refuses "a chapter 09 CSV without the Tensor Core rung" "$f07" "$root/no-tc.csv"
    awk -F, -v n="$n" 'BEGIN { OFS = "," } $5 == n && $7 ~ /^model_/ { $5 = 4 * n } 1' "$f09" >"$root/other-n.csv"
    ladder_refuses "a chapter 09 model at another n than chapter 07's" "$f07" "$root/other-n.csv"

    # a chapter run whose check fails writes no CSV: the ladder stops with one
    # line and draws nothing (chapter 07's gemm with a corrupted 4_simd rung)
    local fake=$tmp/ladder-fake root2=$tmp/ladder-root2
    rm -rf "$fake" "$root2" "$tmp/ladder-out2"
    mkdir -p "$fake/ch07" "$fake/ch09" "$fake/tools"
    printf '#!/bin/sh\nexec "%s" --plant 4_simd "$@"\n' "$PWD/$BUILD/ch07/gemm" >"$fake/ch07/gemm"
    chmod +x "$fake/ch07/gemm"
    ln -s "$PWD/$BUILD/ch09/gemm" "$fake/ch09/gemm"; ln -s "$PWD/$L" "$fake/tools/ladder"
    BUILD=$fake RESULTS_ROOT=$root2 PLOTS_OUT=$tmp/ladder-out2 TINY=1 timeout 60 bash tools/ladder.sh >"$tmp/ladder.so" 2>"$tmp/ladder.se"
    local rc=$?
    if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/ladder.se")" -eq 1 ] && [ ! -e "$root2/ladder/ladder.csv" ] && [ ! -e "$tmp/ladder-out2/ladder" ]; then
        ok "ladder: a chapter 07 run that failed its check: one line, exit 1, nothing drawn"
    else bad "ladder: a failed chapter 07 run" "exit $rc (want 1)" "$(head -c 400 "$tmp/ladder.se")"; fi
}
ladder_test
