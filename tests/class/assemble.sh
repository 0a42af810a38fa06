#!/usr/bin/env bash
# tests/class/assemble.sh DEST: the synthetic class, ready to grade, in DEST
# (a new folder): each student's own files from tests/class/, plus the
# copies of solutions/ and exercises/ that handed-in.list names. Run from
# the repository's root:
#   bash tests/class/assemble.sh /tmp/class
#   make grade SUBMISSIONS=/tmp/class/ EXERCISES="1.1 1.2 3.1 8.1"
set -eu
dest=${1:-}
if [ -z "$dest" ] || [ -e "$dest" ]; then
    echo "assemble.sh: give a folder that does not exist yet (got '${dest}')" >&2
    exit 2
fi
here=$(dirname "$0")
mkdir -p "$dest"
cp -r "$here"/*/ "$dest/"
while read -r who path from; do
    case $who in '' | '#'*) continue ;; esac
    mkdir -p "$(dirname "$dest/$who/$path")"
    cp "$from/$path" "$dest/$who/$path"
done < "$here/handed-in.list"
