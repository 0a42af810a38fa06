#!/usr/bin/env bash
# plots/render.sh NN-name: draws every plots/NN-name/*.gp from the chapter's
# CSV in results/NN-name/ into plots/out/NN-name/<script>.png and .svg, and
# prints the scripts marked "# terminal: yes" as text. `make chapter-N` runs it.
#
# gnuplot is optional: without it the figures are skipped with one line. A
# script whose CSV is missing is skipped too (the chapter has not run), and
# one marked "# opt-in: FLAG" whose CSV is missing is not drawn, said as such
# (its program runs only with make chapter-N FLAG: Open MPI's, for one). But a
# script that fails on data that exists is a bug: its error is shown and the
# exit status is 1, so tests catch broken scripts.
set -euo pipefail
chapter=${1:-}
case $chapter in
    [0-9][0-9]-*) ;;
    *) echo "usage: bash plots/render.sh NN-name (e.g. 01-measure)" >&2; exit 2 ;;
esac

# First, and with builtins only: a PATH without gnuplot may lack more.
# make chapters says it once for all the chapters (PW_FIGURES_NOTED=1).
if ! command -v gnuplot >/dev/null 2>&1; then
    [ "${PW_FIGURES_NOTED:-}" = 1 ] || echo "figures skipped: gnuplot not found ('make deps' installs it)"
    exit 0
fi
cd "$(dirname "$0")/.."            # the scripts' paths are from the repo root

# Tests point these elsewhere to draw from the CSV of a smoke run.
results=${RESULTS_ROOT:-results}/$chapter
outdir=${PLOTS_OUT:-plots/out}/$chapter
num=${chapter%%-*}; num=$((10#$num))  # for the hint: make chapter-1
shopt -s nullglob
scripts=(plots/"$chapter"/*.gp)
[ ${#scripts[@]} -gt 0 ] || exit 0   # a chapter without figures
mkdir -p "$outdir"

# The value of a script's "# key: value" header line.
header() { sed -n "s/^# $2: *//p" "$1" | head -n 1; }

# gnuplot FMT OUT SCRIPT: one rendering; errors go to $err.
draw() { gnuplot -e "results='$results'; out='$2'; fmt='$1'" "$3" 2>"$err"; }

err=$(mktemp); trap 'rm -f "$err" "$outdir"/.*.tmp.$$*' EXIT
drawn=0 skipped=0 failed=0 optin=0
for gp in "${scripts[@]}"; do
    name=$(basename "$gp" .gp)
    missing=""
    for csv in $(header "$gp" data | tr ',' ' '); do
        [ -f "$results/$csv" ] || missing+=" $results/$csv"
    done
    flag=$(header "$gp" opt-in)
    if [ -n "$missing" ] && [ -n "$flag" ]; then
        echo "$gp: not drawn: opt-in, make chapter-$num $flag writes$missing"
        optin=$((optin + 1)); continue
    fi
    if [ -n "$missing" ]; then
        echo "$gp: skipped:$missing missing (make chapter-$num writes it)"
        skipped=$((skipped + 1)); continue
    fi

    # Into a temporary name first, so a failed script leaves no half figure
    # (and the previous one, if any, stays).
    tmp=$outdir/.$name.tmp.$$
    ok=1
    for fmt in png svg; do
        # A misspelt column or a filter that matches nothing is only a warning
        # to gnuplot, and draws an empty figure: for us it is a failure.
        if draw "$fmt" "$tmp" "$gp" && ! grep -qE 'no column with header|no valid points' "$err"; then
            mv -f "$tmp.$fmt" "$outdir/$name.$fmt"
            if [ -s "$err" ]; then   # other warnings: shown, once each
                awk -v p="$gp ($fmt): " '!seen[$0]++ { print p $0 }' "$err"
            fi
        else
            echo "$gp: gnuplot failed ($fmt):"; awk '!seen[$0]++' "$err"
            ok=0; break
        fi
    done
    if [ "$ok" = 0 ]; then failed=$((failed + 1)); continue; fi
    drawn=$((drawn + 1))

    # The terminal copy: what the learner sees right after the chapter's tables.
    if [ "$(header "$gp" terminal)" = yes ]; then
        if draw dumb "$tmp" "$gp" >"$tmp.txt"; then
            # dumb starts with a form feed and pads every line to its width
            echo; tr -d '\f' <"$tmp.txt" | sed 's/ *$//; /^$/d'
        else
            echo "$gp: gnuplot failed (dumb):"; cat "$err"; failed=$((failed + 1))
        fi
        rm -f "$tmp.txt"
    fi
done

echo "figures: $drawn in $outdir/ (png, svg)$([ $skipped = 0 ] || echo ", $skipped skipped")$([ $optin = 0 ] || echo ", $optin opt-in not drawn")$([ $failed = 0 ] || echo ", $failed FAILED")"
[ "$failed" = 0 ]
