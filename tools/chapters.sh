#!/usr/bin/env bash
# tools/chapters.sh: what `make chapters` runs after the build: each chapter
# in order (make chapter-N), with its pace, then the gallery.
#
#   CHAPTERS      chapter numbers to run ("1 5"; the Makefile passes them all)
#   CHAPTER_DIRS  every chapter's folder name (01-measure ...), for the names
#   RESULTS_ROOT  where the CSV go (default results)
#   PLOTS_OUT     where the figures and the gallery go (default plots/out)
#   MAKE          the make that called us (its flags come along in MAKEFLAGS)
#
# It prints "[k/n] chapter NN name" before each chapter, with the time it
# took on this machine last time when there was one (kept in
# $RESULTS_ROOT/.chapter-times), and "... done in S s" after it; at the end
# the total and where the gallery is. Without gnuplot it says so once here
# (not once per chapter) and the gallery lists the figures not drawn. When
# chapters 07 and 09 both ran it draws the ladder too (make ladder).
set -uo pipefail
cd "$(dirname "$0")/.."
results=${RESULTS_ROOT:-results}
out=${PLOTS_OUT:-plots/out}
times=$results/.chapter-times
read -r -a nums <<<"${CHAPTERS:-}"
[ ${#nums[@]} -gt 0 ] || { echo "chapters: no chapters to run (CHAPTERS is empty)" >&2; exit 2; }

dir_of() {   # 5 -> 05-amdahl, or nothing
    local d
    for d in ${CHAPTER_DIRS:-}; do [ "$((10#${d%%-*}))" = "$1" ] && { echo "$d"; return; }; done
}
for i in "${!nums[@]}"; do
    c=${nums[$i]}
    case $c in *[!0-9]*|'') echo "chapters: '$c' is not a chapter number (CHAPTERS=\"1 5\")" >&2; exit 2 ;; esac
    c=$((10#$c)); nums[$i]=$c          # 05 is chapter 5 (make chapter-5)
    [ -n "$(dir_of "$c")" ] || { echo "chapters: there is no chapter $c (chapters: ${CHAPTER_DIRS:-none})" >&2; exit 2; }
done

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "figures: gnuplot is not installed, so the chapters print their tables and write CSV but draw no figure;"
    echo "         the gallery lists the figures not drawn. 'make deps' installs gnuplot, then 'make chapters' draws them."
    export PW_FIGURES_NOTED=1   # plots/render.sh: this was said once, here
fi

mkdir -p "$results"
# One probe for the whole run: the first program that measures the machine's
# peak and bandwidth writes this file, every later one reads it
# (common/probe.h), so every chapter compares against the same numbers.
export PW_PROBE_CACHE=$results/.probe
rm -f "$PW_PROBE_CACHE"
. chapters/lib.sh            # last_time, keep_time: the same times files as the steps

start=$SECONDS k=0 n=${#nums[@]}
for c in "${nums[@]}"; do
    k=$((k + 1)); d=$(dir_of "$c"); t0=$SECONDS
    last=$(last_time "$d" "$times")
    printf '\n\033[1m==> [%d/%d] chapter %s (%s)%s\033[0m\n' "$k" "$n" "${d%%-*}" "${d#*-}" \
        "${last:+: about $last s, as it took here last time}"
    if ! ${MAKE:-make} --no-print-directory "chapter-$c"; then
        echo "==> [$k/$n] chapter ${d%%-*} failed after $((SECONDS - t0)) s: make chapter-$c shows why" >&2
        exit 1
    fi
    keep_time "$d" "$((SECONDS - t0))" "$times"
    printf '\033[1m==> [%d/%d] chapter %s ... done in %d s\033[0m\n' "$k" "$n" "${d%%-*}" "$((SECONDS - t0))"
done

# The README's first figure, one GEMM from the loop to the cluster, is drawn
# from chapters 07 and 09 (make ladder): here when both ran.
if [[ " ${nums[*]} " == *" 7 "* && " ${nums[*]} " == *" 9 "* ]]; then
    t0=$SECONDS
    printf '\n\033[1m==> the ladder: one GEMM from the loop to the cluster, from chapters 07 and 09 (make ladder)\033[0m\n'
    ${MAKE:-make} --no-print-directory ladder || { echo "==> the ladder failed: make ladder shows why" >&2; exit 1; }
    printf '\033[1m==> the ladder ... done in %d s\033[0m\n' "$((SECONDS - t0))"
fi

echo
RESULTS_ROOT=$results PLOTS_OUT=$out bash plots/gallery.sh || exit 1
total=$((SECONDS - start))
printf '%d chapter%s in %d min %02d s; the gallery: %s\n' "$n" "$([ "$n" -gt 1 ] && echo s)" \
    $((total / 60)) $((total % 60)) "$out/index.html"
