# tests/tool_runner.sh: tests/run.sh itself (its parts run side by side or
# alone), sourced by tests/run.sh. Each check runs tests/run.sh again on a
# small plan:
#   - the same parts side by side (PW_TEST_JOBS=2) and one at a time (1)
#     give the same "N passed, 0 failed", N > 0;
#   - a failing side-by-side part (programs, given /bin/false as a program)
#     is counted: rc 1, "0 passed, N failed" with N > 0;
#   - an unknown part and a bad PW_TEST_JOBS: one line, exit 2.

tr_run() { env -u PARTS -u PW_TEST_JOBS "$@" bash tests/run.sh >"$tmp/tr.out" 2>"$tmp/tr.err"; }
tr_last() { tail -n 1 "$tmp/tr.out"; }

tr_run PARTS="tool_predict tool_docker" PW_TEST_JOBS=2; tr_rc2=$? tr_l2=$(tr_last)
tr_side=$(grep -c '^== side by side, 2 at a time (they time nothing): tool_docker tool_predict$' "$tmp/tr.out")
tr_run PARTS="tool_predict tool_docker" PW_TEST_JOBS=1; tr_rc1=$? tr_l1=$(tr_last)
if [ $tr_rc2 -eq 0 ] && [ $tr_rc1 -eq 0 ] && [ "$tr_l2" = "$tr_l1" ] && [ "$tr_side" -eq 1 ] \
   && [[ $tr_l2 =~ ^[1-9][0-9]*\ passed,\ 0\ failed$ ]]; then
    ok "tests/run.sh: two parts side by side and one at a time count the same ($tr_l2)"
else
    bad "tests/run.sh: side by side against one at a time" "2 jobs: rc $tr_rc2, '$tr_l2'; 1 job: rc $tr_rc1, '$tr_l1'"
fi

tr_run PARTS=programs PROGRAMS=/bin/false PW_TEST_JOBS=2; tr_rc=$? tr_l=$(tr_last)
if [ $tr_rc -eq 1 ] && [[ $tr_l =~ ^0\ passed,\ [1-9][0-9]*\ failed$ ]] && grep -q '^FAIL false --help' "$tmp/tr.out"; then
    ok "tests/run.sh: a failing side-by-side part is counted ($tr_l, exit 1)"
else
    bad "tests/run.sh: a failing side-by-side part" "rc $tr_rc (want 1), last line '$tr_l'" "$(head -3 "$tmp/tr.out")"
fi

for tr_case in "PARTS=no-such-part" "PW_TEST_JOBS=0" "PW_TEST_JOBS=two"; do
    tr_run "$tr_case"; tr_rc=$?
    if [ $tr_rc -eq 2 ] && [ "$(wc -l <"$tmp/tr.err")" -eq 1 ] && [ ! -s "$tmp/tr.out" ]; then
        ok "tests/run.sh $tr_case: one line ($(cat "$tmp/tr.err")), exit 2"
    else
        bad "tests/run.sh $tr_case" "exit $tr_rc (want 2), $(wc -l <"$tmp/tr.err") stderr lines (want 1)" "$(head -3 "$tmp/tr.err")"
    fi
done
