# tests/ch02.sh: chapter 02's own tests, sourced by tests/run.sh (uses ok,
# bad, expect_usage, $BUILD, $SAN, $tmp). What --tiny and the bad-input
# matrix do not cover: the rungs that run are the ones the probe says this
# build can use, --isa caps and skips, the scalar rungs really are scalar
# and the auto ones vectorised (in the object code, for the ISA and compiler
# at hand), and the options of chapter 02 that take text.
#
# The ISA comes from the probe (build/ch01/probe --static), never from
# /proc/cpuinfo: a -march=x86-64-v3 build on an AVX-512 CPU must behave, and
# be tested, as it would on an AVX2 machine.

ch02=$BUILD/ch02
ch02_isa=
if [ -x "$BUILD/ch01/probe" ]; then
    ch02_isa=$("$BUILD/ch01/probe" --static 2>/dev/null | awk '/^SIMD:/ { sub(",", "", $2); print $2 }')
fi
# ch02_rank ISA: x86's ISAs nest, so they compare as numbers.
ch02_rank() { case $1 in SSE) echo 1 ;; AVX2) echo 2 ;; AVX-512) echo 3 ;; *) echo 0 ;; esac; }

if [ -x "$ch02/lanes" ]; then
    # The rungs that run are those the probe allows: a v3 build skips the
    # AVX-512 rungs even on a CPU that has them, and runs the AVX2 ones.
    if [ -n "$ch02_isa" ] && [ "$(ch02_rank "$ch02_isa")" -gt 0 ]; then
        "$ch02/lanes" --tiny >"$tmp/ch02" 2>&1
        want=ok why=
        for r in sse:1 avx2:2 avx512:3; do
            rung=square_${r%:*}
            if [ "${r#*:}" -le "$(ch02_rank "$ch02_isa")" ]; then
                grep -q "^$rung " "$tmp/ch02" || { want=bad; why="$rung did not run"; }
            else
                grep -q "^skipped: $rung " "$tmp/ch02" || { want=bad; why="$rung was not reported skipped"; }
            fi
        done
        if [ $want = ok ]; then ok "ch02 lanes runs the rungs up to the probe's $ch02_isa and skips the rest"
        else bad "ch02 lanes rungs follow the probe's ISA ($ch02_isa)" "$why" "$(grep -E '^(skipped|square)' "$tmp/ch02" | head -8)"; fi

        # --isa sse: the AVX2 and AVX-512 rungs are reported skipped, not failed.
        if "$ch02/lanes" --tiny --isa sse >"$tmp/ch02" 2>&1 && grep -q '^skipped: square_avx2 ' "$tmp/ch02" \
           && grep -q '^skipped: dot_avx512_8acc ' "$tmp/ch02" && grep -q 'all variants match' "$tmp/ch02"; then
            ok "ch02 lanes --isa sse: verifies, skips the AVX2 and AVX-512 rungs"
        else
            bad "ch02 lanes --isa sse" "$(tail -5 "$tmp/ch02")"
        fi
    fi
    if "$ch02/dot" --tiny --isa scalar >"$tmp/ch02" 2>&1 && grep -q '^skipped: dot_avx512_bf16' "$tmp/ch02" \
       && ! grep -q '^dot_sse' "$tmp/ch02"; then
        ok "ch02 dot --isa scalar: only the portable rungs run"
    else
        bad "ch02 dot --isa scalar" "$(tail -5 "$tmp/ch02")"
    fi
    # lanes and dot end with findings computed from their own tables.
    if "$ch02/lanes" --tiny >"$tmp/ch02" 2>&1 && grep -q '^What this run shows:' "$tmp/ch02" \
       && grep -qE '^- square: ' "$tmp/ch02"; then ok "ch02 lanes prints findings computed from its table"
    else bad "ch02 lanes findings" "$(tail -8 "$tmp/ch02")"; fi
    if "$ch02/dot" --tiny >"$tmp/ch02" 2>&1 && { [ "$(ch02_rank "$ch02_isa")" -eq 0 ] \
       || grep -qE '^what this run shows \(n = [0-9]+, ' "$tmp/ch02"; }; then
        ok "ch02 dot prints findings for its widest ISA"
    else bad "ch02 dot findings" "$(tail -8 "$tmp/ch02")"; fi
    # branches ends with findings computed from its own tables.
    if "$ch02/branches" --tiny >"$tmp/ch02" 2>&1 && grep -q '^What this run shows:' "$tmp/ch02" \
       && grep -qE '^- [0-9]+ of [0-9]+ rungs cost the same' "$tmp/ch02"; then
        ok "ch02 branches prints findings computed from its tables"
    else
        bad "ch02 branches findings" "$(tail -8 "$tmp/ch02")"
    fi
    for p in lanes dot branches; do
        expect_usage "ch02 $p --isa avx3" "$ch02/$p" --isa avx3
        expect_usage "ch02 $p --isa ''" "$ch02/$p" --isa ''
    done
    expect_usage "ch02 branches -n 1000,2000 (one size only)" "$ch02/branches" -n 1000,2000
fi

# ---- the object code (x86 only: the instruction names are x86's) ----------
# "Scalar" means: no packed floating-point ARITHMETIC (add, sub, mul, div,
# fma, sqrt, min, max on ...ps). Moving or selecting whole registers is not
# arithmetic on more lanes: clang selects between two scalars with vblendvps
# (AVX2) or andps/andnps/orps (SSE) on an xmm register, and zeroes registers
# with vxorps, in code that computes one float at a time. "Vectorised" is
# the same test the other way round: packed arithmetic present.
packed='\sv?(add|sub|mul|div|sqrt|min|max|rcp|rsqrt|f[n]?m(add|sub)[0-9]*|dp|hadd|hsub)ps\s'
# count_packed OBJECT [FUNCTION]: packed arithmetic instructions in OBJECT
# (in FUNCTION only, if given).
count_packed() {
    objdump -d --no-show-raw-insn "$1" | awk -v f="<${2:-}>:" '$2 == f || f == "<>:" { p = 1; if ($2 == f) next } /^$/ && f != "<>:" { p = 0 } p' \
        | grep -cE "$packed"
}
if command -v objdump >/dev/null 2>&1 && [ -f "$BUILD/kernels/simd_scalar.o" ] && [ "$(uname -m)" = x86_64 ]; then
    n=$(count_packed "$BUILD/kernels/simd_scalar.o")
    if [ "$n" -eq 0 ]; then ok "ch02 kernels/simd_scalar.o has no packed (vector) arithmetic"
    else bad "ch02 kernels/simd_scalar.o is not scalar: $n packed arithmetic instructions" \
             "$(objdump -d --no-show-raw-insn "$BUILD/kernels/simd_scalar.o" | grep -m3 -E "$packed")"; fi

    # The compiler that built the kernels, from the object's .comment.
    ch02_cc=gcc
    objdump -s -j .comment "$BUILD/kernels/simd.o" 2>/dev/null | grep -q clang && ch02_cc=clang
    if [ -z "$SAN" ] && [ -n "$ch02_isa" ]; then
        for f in simd_square_auto simd_saxpy_auto simd_dot_auto16; do
            n=$(count_packed "$BUILD/kernels/simd.o" "$f")
            if [ "$n" -gt 0 ]; then ok "ch02 $f is vectorised ($n packed instructions)"
            else bad "ch02 $f is not vectorised" "no packed arithmetic in its object code"; fi
        done
        n=$(count_packed "$BUILD/kernels/simd_notrap.o" simd_piecewise_notrap)
        if [ "$n" -gt 0 ]; then ok "ch02 simd_piecewise_notrap (-fno-trapping-math) is vectorised for $ch02_isa by $ch02_cc ($n packed)"
        else bad "ch02 simd_piecewise_notrap is not vectorised ($ch02_isa, $ch02_cc)" "no packed arithmetic in its object code"; fi

        # piecewise_auto under C's default trap rules: clang assumes no traps
        # and vectorises it for any ISA; gcc computes both arms only where
        # AVX-512 masks switch lanes off, and keeps the branch below that.
        n=$(count_packed "$BUILD/kernels/simd.o" simd_piecewise_auto)
        jumps=$(objdump -d --no-show-raw-insn "$BUILD/kernels/simd.o" | awk -v f="<simd_piecewise_auto>:" \
                '$2 == f { p = 1; next } /^$/ { p = 0 } p' | grep -cE '\sv?u?comiss\s')
        if [ $ch02_cc = clang ] || [ "$ch02_isa" = AVX-512 ]; then
            if [ "$n" -gt 0 ]; then ok "ch02 simd_piecewise_auto is vectorised ($ch02_cc, $ch02_isa: $n packed)"
            else bad "ch02 simd_piecewise_auto is not vectorised ($ch02_cc, $ch02_isa)" \
                     "expected a compare and a blend: clang assumes no float traps; gcc uses AVX-512 masks"; fi
        elif [ "$n" -eq 0 ] && [ "$jumps" -gt 0 ]; then
            ok "ch02 simd_piecewise_auto keeps its branch ($ch02_cc, $ch02_isa: a compare and a jump per element, as chapter 02 says)"
        elif [ "$n" -gt 0 ]; then
            # A newer gcc may if-convert without masks; the lesson's programs
            # measure which one they got, so this is news, not a failure.
            ok "ch02 simd_piecewise_auto is vectorised by this $ch02_cc without AVX-512 ($n packed): newer than the README's gcc 12"
        else
            bad "ch02 simd_piecewise_auto ($ch02_cc, $ch02_isa)" "neither vectorised nor a compare-and-jump: what did the compiler do?"
        fi
    fi
fi

# ---- predict, run, explain: each program's answer: line against its own
# table (so a hard-coded answer would fail), and the chapter's predictions
# and questions against run.sh and solutions/02-simd/ANSWERS.md.
. tests/ch01_predict.sh

if [ -x "$ch02/lanes" ]; then
    # Two sizes inside the caches: the answer quotes the widest square rung's
    # speedup at the smaller one, as the table printed it, and says the run
    # cannot show DRAM.
    timeout 60 "$ch02/lanes" --tiny >"$tmp/ch02a" 2>&1
    if grep -q '^answer: not shown on this run: no vector rung' "$tmp/ch02a"; then
        if [ "$(ch02_rank "$ch02_isa")" -eq 0 ]; then ok "ch02 lanes answers: no vector rung on this $ch02_isa build"
        else bad "ch02 lanes says no vector rung runs, but the probe says $ch02_isa"; fi
    else
        rung=$(sed -nE 's/^answer: (square_[a-z0-9]+) \(.*/\1/p' "$tmp/ch02a")
        got=$(sed -nE 's/^answer: .* ran ([0-9.]+x) scalar at n = 1000 .*/\1/p' "$tmp/ch02a")
        want=$(awk -v r="$rung" '$1 == r && $3 == 1000 { print $10 }' "$tmp/ch02a")
        if [ -n "$got" ] && [ "$got" = "$want" ] && grep -q '^answer: .*from DRAM: not shown on this run' "$tmp/ch02a"; then
            ok "ch02 lanes answers from its table: $rung ran $got scalar at n = 1000"
        else
            bad "ch02 lanes' answer does not match its table" "table: $rung at n = 1000: '$want'; answer: '$got'" \
                "$(grep '^answer:' "$tmp/ch02a")"
        fi
    fi
fi

# ch02_dot_answer [ARGS...]: dot --tiny's answer against its table: the
# widest ISA's best rung (accumulators, GFLOP/s) and its share of the best
# FMA loop ('-' in the table where the ISA has no FMA: then not shown).
ch02_dot_answer() {
    timeout 60 "$ch02/dot" --tiny "$@" >"$tmp/ch02a" 2>&1
    local ans isa pfx acc rate best loop share row want_share label="ch02 dot --tiny${*:+ $*}"
    ans=$(grep '^answer:' "$tmp/ch02a")
    isa=$(sed -nE 's/^answer: ([A-Z0-9-]+): the best rung.*/\1/p' <<<"$ans")
    if [ -z "$isa" ]; then
        if [ "$(ch02_rank "$ch02_isa")" -eq 0 ] && grep -q 'not shown on this run: no vector rung' <<<"$ans"; then
            ok "$label answers: no vector rung on this build"
        else bad "$label: no answer naming an ISA" "$ans"; fi
        return
    fi
    pfx=$(tr -d '-' <<<"$isa" | tr 'A-Z' 'a-z')
    read -r best loop <<<"$(awk -v p="dot_${pfx}_" 'index($1, p) == 1 && $1 ~ /acc$/ {
        if ($7 > b) b = $7; if ($8 != "-" && $8 > l) l = $8 } END { print b, l + 0 }' "$tmp/ch02a")"
    read -r acc rate <<<"$(sed -nE 's/.*the best rung, ([0-9]+) accumulators, made ([0-9.]+) GFLOP\/s.*/\1 \2/p' <<<"$ans")"
    row=$(awk -v n="dot_${pfx}_${acc}acc" '$1 == n { print $7 }' "$tmp/ch02a")
    share=$(sed -nE 's/.*; ([0-9]+)% of the best FMA loop \(([0-9.]+) GFLOP.*/\1 \2/p' <<<"$ans")
    want_share=$(awk -v b="$best" -v l="$loop" 'BEGIN { if (l > 0) print 100 * b / l }')
    # Rows that print the same best (ties at the table's rounding) may both be it.
    if [ -n "$rate" ] && [ "$row" = "$rate" ] && pr_close "$rate" "$best" 0 \
       && { { [ "$loop" = 0 ] && grep -q 'not shown on this run (no FMA' <<<"$ans"; } \
            || { pr_close "${share#* }" "$loop" 0.05 && pr_close "${share% *}" "$want_share" 1; }; }; then
        ok "$label answers from its table: $isa's best is $acc accumulators, $rate GFLOP/s${share:+, ${share% *}% of the FMA loop}"
    else
        bad "$label: the answer does not match the table" "table: best $best GFLOP/s, FMA loop $loop; row of $acc accumulators: '$row'" "$ans"
    fi
}
if [ -x "$ch02/dot" ]; then
    ch02_dot_answer
    [ "$(ch02_rank "$ch02_isa")" -gt 0 ] && ch02_dot_answer --isa sse
fi

if [ -x "$ch02/branches" ]; then
    timeout 60 "$ch02/branches" --tiny >"$tmp/ch02a" 2>&1
    want=$(awk '$1 == "piecewise_auto" && !a { a = $5 } $1 == "piecewise_branch" && !b { b = $5 } END { print a, b }' "$tmp/ch02a")
    got=$(sed -nE 's/^answer: piecewise_auto: ([0-9.]+x) random over sorted.*; piecewise_branch: ([0-9.]+x), .*/\1 \2/p' "$tmp/ch02a")
    # The branchy rung's verdict must follow its ratio: 2x or more is shown.
    shown=$(awk -v r="${want#* }" 'BEGIN { print (r + 0 >= 2 ? "yes" : "no") }')
    said=yes; grep -q '^answer: .*piecewise_branch: [0-9.]*x, not shown' "$tmp/ch02a" && said=no
    if [ -n "$got" ] && [ "$got" = "$want" ] && [ "$said" = "$shown" ]; then
        ok "ch02 branches answers from its table: random/sorted $got (auto, branch)"
    else
        bad "ch02 branches' answer does not match its table" "table: '$want'; answer: '$got' (shown: $said, want $shown)" \
            "$(grep '^answer:' "$tmp/ch02a")"
    fi
fi
