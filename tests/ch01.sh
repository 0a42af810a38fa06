# tests/ch01.sh: chapter 01's own tests, sourced by tests/run.sh (uses ok,
# bad, $BUILD, $tmp). What --tiny and the bad-input matrix do not cover: the
# probe reports the ISA this build can use (its flags and the CPU together),
# and every program ends with findings computed from its own numbers.

ch01=$BUILD/ch01
# ch01_rank ISA: x86's ISAs nest, so they compare as numbers.
ch01_rank() { case $1 in SSE | NEON) echo 1 ;; AVX2) echo 2 ;; AVX-512) echo 3 ;; *) echo 0 ;; esac; }
if [ -x "$ch01/probe" ]; then
    "$ch01/probe" --static >"$tmp/ch01" 2>&1
    isa=$(awk '/^SIMD:/ { sub(",", "", $2); print $2 }' "$tmp/ch01")
    # What the build targets (SIMD_ISA, from mk/detect.mk) against what the
    # CPU has (/proc/cpuinfo: only here, to check the probe itself).
    if [ -n "${SIMD_ISA:-}" ] && [ "$(uname -m)" = x86_64 ] && [ -r /proc/cpuinfo ]; then
        flags=$(grep -m1 '^flags' /proc/cpuinfo)
        cpu=SSE
        [[ $flags == *" avx2 "* && $flags == *" fma "* ]] && cpu=AVX2
        [[ $flags == *" avx512f "* ]] && cpu=AVX-512
        want=$SIMD_ISA
        [ "$(ch01_rank "$cpu")" -lt "$(ch01_rank "$want")" ] && want=$cpu
        if [ "$isa" = "$want" ]; then
            ok "ch01 probe --static: $isa, the narrower of the build's $SIMD_ISA and the CPU's $cpu"
        else
            bad "ch01 probe --static says '$isa'" "want $want: the build targets $SIMD_ISA, the CPU has $cpu" \
                "$(head -4 "$tmp/ch01")"
        fi
        if [ "$cpu" != "$isa" ]; then
            if grep -q "the CPU has $cpu, but this build" "$tmp/ch01"; then ok "ch01 probe says the CPU has more than the build uses"
            else bad "ch01 probe does not say the CPU has $cpu" "$(head -4 "$tmp/ch01")"; fi
        fi
    fi
    regs=$(awk '/^SIMD:/ { for (i = 1; i < NF; i++) if ($(i + 1) == "vector") print $i }' "$tmp/ch01")
    if [ -n "$regs" ] && [ "$regs" -ge 8 ]; then ok "ch01 probe reports $regs vector registers"
    else bad "ch01 probe reports no vector register count" "$(grep '^SIMD:' "$tmp/ch01")"; fi

    # The sweep's findings: one paragraph per vector ISA the build can use.
    rank=$(ch01_rank "$isa")
    if [ "$rank" -gt 0 ]; then
        timeout 60 "$ch01/probe" --tiny >"$tmp/ch01" 2>&1
        n=$(grep -cE '^- (SSE|AVX2|AVX-512|NEON): one accumulator' "$tmp/ch01")
        if [ "$n" -eq "$rank" ] && grep -q '^What the sweep shows' "$tmp/ch01"; then
            ok "ch01 probe explains the sweep of each of its $rank vector ISAs from its numbers"
        else
            bad "ch01 probe's sweep findings" "$n paragraphs for $rank ISAs" "$(sed -n '/^What the sweep/,/^peak/p' "$tmp/ch01" | head -12)"
        fi
    fi
fi
for p in loops dependence timing; do
    [ -x "$ch01/$p" ] || continue
    timeout 60 "$ch01/$p" --tiny >"$tmp/ch01" 2>&1
    case $p in
        loops) pat='^What this run shows:' ;;
        dependence) pat='^what this run shows \(n = [0-9]+\):' ;;
        timing) pat='^  the cold call took [0-9.]+x the median' ;;
    esac
    if grep -qE "$pat" "$tmp/ch01"; then ok "ch01 $p --tiny ends with findings from its own numbers"
    else bad "ch01 $p --tiny findings" "no line matching '$pat'" "$(tail -6 "$tmp/ch01")"; fi
done
