#!/usr/bin/env bash
# tools/scoreboard.sh: grade every exercise and print one table.
#
#   bash tools/scoreboard.sh 1.1 1.2 ...      (make check-exercises passes them all)
#
# For each id: build its checker with the learner's file (make
# $BUILD/ex/ID/check; BUILD defaults to build, as in the Makefile), then
# grade it with tools/grade.sh -q. A file that does not compile is a row of
# the table like any other: the board never stops at the first failure.
# Ends with "scoreboard: P of N exercises pass"; exit 0 only if all pass.
set -u

BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
if (( $# == 0 )); then
    echo "usage: bash tools/scoreboard.sh ID [ID...]   (e.g. 1.1 1.2; make check-exercises passes them all)" >&2
    exit 2
fi

ids=() files=() verdicts=() errors=()
pass=0
for id in "$@"; do
    checker=$BUILD/ex/$id/check
    # The file the learner edits, as the Makefile knows it: the last word of
    # `make ex-ID`'s grading command (-o: without looking at the checker's
    # inputs, so a missing file is still named).
    file=$("$MAKE" -n --no-print-directory BUILD="$BUILD" -o "$checker" "ex-$id" 2>/dev/null |
           grep -m1 'tools/grade.sh' | awk '{print $NF}')
    if [[ -z $file ]]; then
        ids+=("$id") files+=("?") verdicts+=("FAIL: no such exercise (make help lists them)") errors+=("")
        continue
    fi
    printf '  grading %s (%s)\n' "$id" "$file"

    if [[ ! -f $file ]]; then
        ids+=("$id") files+=("$file") verdicts+=("FAIL: the file is missing") errors+=("")
        continue
    fi
    if ! out=$("$MAKE" -s --no-print-directory BUILD="$BUILD" "$checker" 2>&1); then
        ids+=("$id") files+=("$file") verdicts+=("FAIL: does not compile") errors+=("$out")
        continue
    fi
    if line=$(bash tools/grade.sh -q "$id" "$checker" "$file"); then pass=$(( pass + 1 )); fi
    # The verdict line is "ex ID (FILE): VERDICT".
    ids+=("$id") files+=("$file") verdicts+=("${line#*): }") errors+=("")
done

# The table, the file column as wide as the longest file name.
width=4
for f in "${files[@]}"; do (( ${#f} > width )) && width=${#f}; done
echo
printf '  %-5s  %-*s  %s\n' id "$width" file verdict
printf '  %-5s  %-*s  %s\n' ----- "$width" "$(printf '%*s' "$width" '' | tr ' ' -)" -------
for k in "${!ids[@]}"; do
    printf '  %-5s  %-*s  %s\n' "${ids[$k]}" "$width" "${files[$k]}" "${verdicts[$k]}"
done

# What the compiler said, for the files that do not compile: the first errors.
for k in "${!ids[@]}"; do
    [[ -n ${errors[$k]} ]] || continue
    echo
    echo "ex ${ids[$k]} does not compile; the compiler said (first lines):"
    { grep -E 'error|warning' <<<"${errors[$k]}" || echo "${errors[$k]}"; } | head -n 8 | sed 's/^/  /'
done

echo
total=${#ids[@]}
(( pass < total )) && echo "make ex-N.K shows the checker's full explanation for one exercise"
echo "scoreboard: $pass of $total exercises pass"
(( pass == total ))
