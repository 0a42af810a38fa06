# tests/tool_chapters.sh: make chapters' set-up and pace (tools/chapters.sh,
# chapters/lib.sh, the Makefile's install step), sourced by tests/run.sh.
#   - with gnuplot hidden from PATH and PW_INSTALL=0, one chapter through
#     `make chapters`: rc 0, the missing gnuplot said once (not per
#     chapter), "[1/1] chapter NN ... done in S s", the total and the
#     gallery's path, and a gallery page naming the figures not drawn and
#     the one command that draws them;
#   - make -n chapters / test plan `tools/deps.sh --auto gnuplot` first when
#     gnuplot is missing, and nothing of the kind with PW_INSTALL=0;
#   - bad CHAPTERS: one line, exit 2;
#   - chapters/lib.sh's step: the time of a step is kept, the next run of it
#     announces it (the ETA), a failing step stops the script with its exit
#     status and keeps no time.

# A PATH with everything this one has except gnuplot.
tc=$tmp/tc; mkdir -p "$tc/bin"
IFS=: read -r -a tc_dirs <<<"$PATH"
for tc_d in "${tc_dirs[@]}"; do
    for tc_f in "$tc_d"/*; do
        tc_b=${tc_f##*/}
        case $tc_b in gnuplot*) continue ;; esac
        [ -x "$tc_f" ] && [ ! -e "$tc/bin/$tc_b" ] && ln -s "$tc_f" "$tc/bin/$tc_b"
    done
done
# make as a user would call it: none of make test's own settings, gnuplot hidden.
tc_make() { env -u PW_DETECTED -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u PW_INSTALL PATH="$tc/bin" \
                make --no-print-directory CC="$CC" BUILD="$BUILD" "$@"; }

# The chapter: 11 (its runs are modelled, a few seconds).
tc_ch=11 tc_dir=$(cd chapters && echo 11-*)
if [ -n "$SAN" ]; then
    skip=$((skip + 1)); echo "SKIP make chapters without gnuplot: not under SAN=$SAN (make test runs it on the plain build)"
elif tc_make -n chapter-$tc_ch PW_INSTALL=0 2>/dev/null | grep -q -- "-o $BUILD/"; then
    skip=$((skip + 1)); echo "SKIP make chapters without gnuplot: chapter $tc_ch's programs in $BUILD/ are not make's build for CC=$CC (it would rebuild them)"
else
    tc_make -s chapters CHAPTERS=$tc_ch PW_INSTALL=0 RESULTS_ROOT="$tc/r" PLOTS_OUT="$tc/p" >"$tc/out" 2>&1
    tc_rc=$?
    tc_said=$(grep -c 'gnuplot' "$tc/out")
    tc_page=$tc/p/index.html
    if [ $tc_rc -eq 0 ] && [ "$(grep -c 'gnuplot is not installed, so the chapters' "$tc/out")" -eq 1 ] \
       && ! grep -q 'figures skipped' "$tc/out" \
       && grep -qE "^(.\[1m)?==> \[1/1\] chapter $tc_ch \(${tc_dir#*-}\)" "$tc/out" \
       && grep -qE "==> \[1/1\] chapter $tc_ch \.\.\. done in [0-9]+ s" "$tc/out" \
       && grep -qE "^1 chapter in [0-9]+ min [0-9]+ s; the gallery: $tc_page\$" "$tc/out" \
       && [ -s "$tc/r/$tc_dir/tp_block.csv" ] && [ -f "$tc_page" ] \
       && grep -q 'Figures not drawn' "$tc_page" && grep -q 'make deps' "$tc_page" \
       && grep -q ">$tc_dir/gantt<" "$tc_page"; then
        ok "make chapters CHAPTERS=$tc_ch without gnuplot, PW_INSTALL=0: rc 0, gnuplot's absence said once, [1/1] ... done in S s, the total, a gallery naming the figures not drawn and 'make deps'"
    else
        bad "make chapters without gnuplot" "rc $tc_rc (want 0), $tc_said lines name gnuplot (want the message once)" \
            "$(grep -E 'gnuplot|==>|chapter|gallery' "$tc/out" | head -8)" "$(tail -3 "$tc/out")"
    fi
fi

# The install step, planned: gnuplot is missing on this PATH.
tc_make -n chapters >"$tc/plan" 2>&1
tc_make -n chapters PW_INSTALL=0 >"$tc/plan0" 2>&1
tc_make -n test >"$tc/plant" 2>&1
if grep -qE '^CC=".*" bash tools/deps.sh --auto .*gnuplot' "$tc/plan" && grep -q -- 'PW_INSTALL=0 chapters-run' "$tc/plan" \
   && grep -qE 'bash tools/deps.sh --auto .*gnuplot' "$tc/plant" && grep -q -- 'PW_INSTALL=0 test-run' "$tc/plant" \
   && ! grep -q 'tools/deps.sh' "$tc/plan0"; then
    ok "make chapters / make test without gnuplot: tools/deps.sh --auto gnuplot runs first, then the run with PW_INSTALL=0; PW_INSTALL=0 installs nothing"
else
    bad "make chapters / test: the install step" "$(grep -m2 -E 'deps|PW_INSTALL' "$tc/plan")" "$(grep -m2 -E 'deps' "$tc/plan0")" "$(grep -m2 -E 'deps|PW_INSTALL' "$tc/plant")"
fi

# Bad CHAPTERS: one line, exit 2, nothing run.
for tc_v in 99 x ''; do
    CHAPTERS=$tc_v CHAPTER_DIRS="01-measure 05-amdahl" RESULTS_ROOT=$tc/bad PLOTS_OUT=$tc/bad bash tools/chapters.sh >"$tc/so" 2>"$tc/se"
    tc_rc=$?
    if [ $tc_rc -eq 2 ] && [ "$(wc -l <"$tc/se")" -eq 1 ] && [ ! -s "$tc/so" ] && [ ! -e "$tc/bad/index.html" ]; then
        ok "tools/chapters.sh CHAPTERS='$tc_v': one line ($(cat "$tc/se")), exit 2"
    else
        bad "tools/chapters.sh CHAPTERS='$tc_v'" "exit $tc_rc (want 2), $(wc -l <"$tc/se") stderr lines (want 1)" "$(head -3 "$tc/se")"
    fi
done

# chapters/lib.sh: a step's time is kept and announced next time; PW_STEP_NOTE_S=0
# makes every step long enough to be announced.
tc_steps() { RESULTS=$tc/steps PW_STEP_NOTE_S=0 bash -c '. chapters/lib.sh; set -e; step "1. first" "$@"; echo after' _ "$@"; }
mkdir -p "$tc/steps"
tc_steps true >"$tc/s1" 2>&1; tc_rc1=$?
tc_steps true >"$tc/s2" 2>&1; tc_rc2=$?
tc_steps sh -c 'exit 3' >"$tc/s3" 2>&1; tc_rc3=$?
if [ $tc_rc1 -eq 0 ] && ! grep -q 'as it took here last time' "$tc/s1" && grep -q '^(step took 0 s)$' "$tc/s1" \
   && [ $tc_rc2 -eq 0 ] && grep -q '^(about 0 s, as it took here last time)$' "$tc/s2" && grep -q '^after$' "$tc/s2" \
   && [ $tc_rc3 -eq 3 ] && ! grep -q '^after$' "$tc/s3" && ! grep -q 'step took' "$tc/s3" \
   && [ "$(grep -c '^1. first	' "$tc/steps/.step-times")" -eq 1 ]; then
    ok "chapters/lib.sh step: its time is kept (one line), the next run announces it, a failing step stops the run with its exit status (3)"
else
    bad "chapters/lib.sh step" "rc $tc_rc1 $tc_rc2 $tc_rc3 (want 0 0 3)" "$(cat "$tc/s1" "$tc/s2" "$tc/s3" | head -12)"
fi

# make chapter-N: chapter-01 is chapter-1; an unknown chapter is one line
# naming the chapters that exist, exit 2 (make adds its own "Error 2" line).
tc_make -n chapter-01 >"$tc/c01" 2>&1; tc_rc01=$?
tc_make -n chapter-1 >"$tc/c1" 2>&1
tc_make chapter-99 >"$tc/c99" 2>&1; tc_rc99=$?
if [ $tc_rc01 -eq 0 ] && cmp -s "$tc/c01" "$tc/c1" && [ $tc_rc99 -eq 2 ] \
   && grep -q '^make chapter-99: no such chapter; the chapters are 1 2 ' "$tc/c99" \
   && [ "$(grep -vc 'Error 2' "$tc/c99")" -eq 1 ]; then
    ok "make chapter-01 runs chapter 1; make chapter-99 names the chapters that exist (exit 2)"
else
    bad "make chapter-01 / chapter-99" "rc $tc_rc01 $tc_rc99 (want 0 2)" "$(head -3 "$tc/c99")"
fi
