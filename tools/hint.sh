#!/usr/bin/env bash
# tools/hint.sh: levelled hints for one exercise; `make hint-N.K` calls it.
#
#   tools/hint.sh N.K "EXERCISES" STATEDIR [LEVEL]   show the next level (or LEVEL)
#   tools/hint.sh --reset N.K STATEDIR               start that exercise over
#
# EXERCISES is the list of exercise ids (make's $(EXERCISES)); N.K must be in
# it. Its hints are the file exercises/NN-name/hints/<exercise>.md whose first
# line is "# Hints for N.K <exercise>"; it has three sections, each starting
# with a line "## Level L: ..." (1: what to think about, 2: the structure and
# the pitfall the checker catches, 3: close to the code).
# STATEDIR/N.K holds the last level shown, so each run without LEVEL shows
# the next one; after level 3 it shows level 3 again and says so. LEVEL=L
# shows level L without touching the state. Each exercise has its own state
# file: asking for 3.1 does not move 10.1. Bad input: one line, exit 2.
set -uo pipefail
usage() { echo "hint: $1" >&2; exit 2; }

if [ "${1:-}" = --reset ]; then
    [ $# -eq 3 ] || usage "usage: tools/hint.sh --reset N.K STATEDIR"
    [[ $2 =~ ^[0-9]+\.[0-9]+$ ]] || usage "'$2' is not an exercise id like 10.1"
    rm -f "$3/$2"
    echo "hints for $2 start again at level 1 (make hint-$2)"
    exit 0
fi

[ $# -eq 3 ] || [ $# -eq 4 ] || usage "usage: tools/hint.sh N.K \"EXERCISES\" STATEDIR [LEVEL]"
id=$1 list=$2 state=$3 want=${4:-}
[[ $id =~ ^[0-9]+\.[0-9]+$ ]] && [[ " $list " == *" $id "* ]] ||
    usage "no exercise '$id' (make help lists them: ${list%% *} ... ${list##* })"
file=$(grep -l -m1 -x "# Hints for $id [a-z_0-9]*" exercises/*/hints/*.md 2>/dev/null | head -n 1)
[ -n "$file" ] && [ -r "$file" ] || usage "exercise $id has no hint file (exercises/*/hints/*.md)"
if [ -n "$want" ]; then
    [[ $want =~ ^[1-3]$ ]] || usage "LEVEL must be 1, 2 or 3, not '$want'"
fi

last=0
if [ -r "$state/$id" ]; then
    last=$(head -c 8 "$state/$id")
    [[ $last =~ ^[0-3]$ ]] || last=0     # a garbled state file starts over
fi

if [ -n "$want" ]; then
    level=$want
else
    level=$((last < 3 ? last + 1 : 3))
    mkdir -p "$state" || usage "cannot create $state"
    echo "$level" >"$state/$id"
fi

text=$(awk -v L="$level" '
    /^## Level [0-9]/ { on = ($3 == L ":" || $3 == L); if (on) print; next }
    on' "$file")
[ -n "$text" ] || usage "$file has no '## Level $level' section"

echo "== hint for exercise $id, level $level of 3 =="
printf '%s\n' "$text" | sed '1s/^## //'
if [ -z "$want" ] && [ "$last" -ge 3 ]; then
    echo "(that was already the last level: there is no level 4; make hint-reset-$id starts over)"
elif [ -z "$want" ] && [ "$level" -lt 3 ]; then
    echo "(make hint-$id again for level $((level + 1)))"
fi
