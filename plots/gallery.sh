#!/usr/bin/env bash
# plots/gallery.sh: writes plots/out/index.html, one page with every figure
# under plots/out/<chapter>/, grouped by chapter, each with its caption (the
# "# caption:" of plots/<chapter>/<figure>.gp) and the machine it was measured
# on (the metadata of the CSV named in its "# data:"). `make chapters` runs it.
#
# The page is always written. Every plots/*/*.gp whose figure is not there is
# listed first, under "Figures not drawn", with its caption, why it is missing
# and the one command that makes it: gnuplot is not installed (said once for
# the page), its CSV is missing (make chapter-N), or its CSV is there but it
# was not drawn (plots/render.sh shows why). The last line printed counts both.
#
# The page is self-contained: CSS inline and figures embedded as data: URIs,
# so it can be mailed or copied anywhere as one file.
#   PLOTS_OUT     the figures' folder and the page's (default plots/out)
#   RESULTS_ROOT  the CSV folder (default results)
# Relative paths are from the repo root. Tests point both at a scratch folder.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
out=${PLOTS_OUT:-plots/out}
results=${RESULTS_ROOT:-results}
page=$out/index.html
mkdir -p "$out"

esc() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g'; }
# The value of a "# key: value" line of a file (script header or CSV metadata).
header() { if [ -f "$1" ]; then sed -n "s/^# $2: *//p" "$1" | head -n 1; fi; }
# What writes a folder's data and what draws it: chapters have make chapter-N
# and render.sh; the others (plots/ladder) have a make target of their name.
writes() { case $1 in [0-9][0-9]-*) echo "make chapter-$((10#${1%%-*}))" ;; *) echo "make $1" ;; esac; }
draws()  { case $1 in [0-9][0-9]-*) echo "bash plots/render.sh $1" ;; *) echo "make $1" ;; esac; }

# Figures: $out/<chapter>/<name>.svg, or .png where there is no SVG.
figures=()
for dir in "$out"/*/; do
    while read -r base; do
        if [ -f "$base.svg" ]; then figures+=("$base.svg"); else figures+=("$base.png"); fi
    done < <(for f in "$dir"*.svg "$dir"*.png; do echo "${f%.*}"; done | sort -u)
done

# Figures not drawn: one <li> each in $missing, and the count of each reason.
gnuplot=yes; command -v gnuplot >/dev/null 2>&1 || gnuplot=""
missing="" nmiss=0 nodata=0 undrawn=0 optin=0
for gp in plots/*/*.gp; do
    ch=$(basename "$(dirname "$gp")"); name=$(basename "$gp" .gp)
    [ -f "$out/$ch/$name.svg" ] || [ -f "$out/$ch/$name.png" ] && continue
    nmiss=$((nmiss + 1))
    absent=""
    for csv in $(header "$gp" data | tr ',' ' '); do
        [ -f "$results/$ch/$csv" ] || absent+=" $results/$ch/$csv"
    done
    if [ -z "$gnuplot" ]; then          # the page's one sentence says why
        why=""
        case $ch in [0-9][0-9]-*) ;; *) why="not part of <code>make chapters</code>: <code>$(writes "$ch")</code> draws it" ;; esac
    elif [ -n "$absent" ] && [ -n "$(header "$gp" opt-in)" ]; then
        # Its program runs only when asked (Open MPI's: MPI=1), not in make chapters.
        optin=$((optin + 1))
        why="opt-in, no data ($(esc <<<"${absent# }") missing): <code>$(writes "$ch") $(header "$gp" opt-in | esc)</code> writes its data"
    elif [ -n "$absent" ]; then
        nodata=$((nodata + 1))
        why="no data ($(esc <<<"${absent# }") missing): <code>$(writes "$ch")</code> writes its data"
    else
        undrawn=$((undrawn + 1))
        why="its data is there but it was not drawn: <code>$(draws "$ch")</code> draws it (or shows gnuplot's error)"
    fi
    caption=$(header "$gp" caption | esc)
    missing+="<li><span class=\"name\">$(esc <<<"$ch/$name")</span>: ${caption:-(no caption: $gp has no \"# caption:\" line)}"
    missing+="${why:+<div class=\"why\">$why</div>}</li>"$'\n'
done

# The short reason for the last line.
if [ -z "$gnuplot" ]; then reason="gnuplot is not installed: make deps"
else
    reason=""
    [ $nodata = 0 ] || reason="$nodata without data: make chapter-N"
    [ $optin = 0 ] || reason+="${reason:+; }$optin opt-in, not run by make chapters"
    [ $undrawn = 0 ] || reason+="${reason:+; }$undrawn with data: bash plots/render.sh NN-name"
fi

tmp=$page.tmp.$$
trap 'rm -f "$tmp"' EXIT
{
    cat <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parallel Workbook: figures</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 1000px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; padding-bottom: .2em; }
figure { margin: 1.5em 0 2.5em; } figure img { width: 100%; height: auto; border: 1px solid #eee; }
figcaption { margin-top: .5em; line-height: 1.4; } .name { font-weight: 600; }
.machine, .why { color: #666; font-size: .9em; margin-top: .3em; }
.missing li { margin: .8em 0; line-height: 1.4; } .missing .why { color: #a33; }
</style></head><body>
<h1>Parallel Workbook: figures</h1>
EOF
    echo "<p>Every figure drawn by <code>make chapter-N</code>, from the CSV in <code>$(esc <<<"$results")/</code>. Generated $(date -u +%Y-%m-%dT%H:%M:%SZ).</p>"
    if [ $nmiss -gt 0 ]; then
        echo "<section class=\"missing\"><h2 id=\"not-drawn\">Figures not drawn ($nmiss)</h2>"
        [ -n "$gnuplot" ] || echo "<p class=\"why\">gnuplot is not installed: <code>make deps</code> installs it, then <code>make chapters</code> draws every figure.</p>"
        printf '<ul>\n%s</ul></section>\n' "$missing"
    fi
    chapter=""
    for f in "${figures[@]}"; do
        ch=$(basename "$(dirname "$f")"); file=$(basename "$f"); name=${file%.*}
        if [ "$ch" != "$chapter" ]; then
            chapter=$ch; echo "<h2 id=\"$(esc <<<"$ch")\">$(esc <<<"$ch")</h2>"
        fi
        gp=plots/$ch/$name.gp
        caption=$(header "$gp" caption | esc)
        csv=$(header "$gp" data | tr ',' ' ' | awk '{print $1}')
        case $f in *.svg) mime=image/svg+xml ;; *) mime=image/png ;; esac
        echo "<figure id=\"$(esc <<<"$ch-$name")\">"
        printf '<img alt="%s" src="data:%s;base64,' "${caption:-$name}" "$mime"
        base64 <"$f" | tr -d '\n'
        echo '">'
        echo "<figcaption><span class=\"name\">$(esc <<<"$name")</span>: ${caption:-(no caption: $gp has no \"# caption:\" line)}"
        if [ -n "$csv" ] && [ -f "$results/$ch/$csv" ]; then
            m=$results/$ch/$csv
            # what the numbers are: the figure's "# source:" line (measured when absent)
            case $(header "$gp" source) in
                modelled) how="modelled (no measurement: the workbook's model, computed) on" ;;
                counted) how="counted (exact counts the program tallied: the SIMT emulator's sectors, a rank's buffers; no timing) on" ;;
                computed) how="computed (values, not timings) on" ;;
                *) how="measured on" ;;
            esac
            echo "<div class=\"machine\">$how $(header "$m" cpu | esc) ($(header "$m" cores | esc) cores)," \
                 "$(header "$m" date | esc), git $(header "$m" git | esc); data: $(esc <<<"$m")</div>"
        fi
        echo "</figcaption></figure>"
    done
    echo "</body></html>"
} >"$tmp"
mv -f "$tmp" "$page"

echo "gallery: $page (${#figures[@]} figures$([ $nmiss = 0 ] || echo ", $nmiss not drawn: $reason"))"
