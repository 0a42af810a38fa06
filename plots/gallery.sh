#!/usr/bin/env bash
# plots/gallery.sh: writes plots/out/index.html, one page with every figure
# under plots/out/<chapter>/, grouped by chapter, each with its caption (the
# "# caption:" of plots/<chapter>/<figure>.gp) and the machine it was measured
# on (the metadata of the CSV named in its "# data:"). `make chapters` runs it.
#
# The page is self-contained: CSS inline and figures embedded as data: URIs,
# so it can be mailed or copied anywhere as one file.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
page=plots/out/index.html

esc() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g'; }
# The value of a "# key: value" line of a file (script header or CSV metadata).
header() { if [ -f "$1" ]; then sed -n "s/^# $2: *//p" "$1" | head -n 1; fi; }

# Figures: plots/out/<chapter>/<name>.svg, or .png where there is no SVG.
figures=()
for dir in plots/out/*/; do
    while read -r base; do
        if [ -f "$base.svg" ]; then figures+=("$base.svg"); else figures+=("$base.png"); fi
    done < <(for f in "$dir"*.svg "$dir"*.png; do echo "${f%.*}"; done | sort -u)
done
if [ ${#figures[@]} -eq 0 ]; then
    echo "gallery: no figures in plots/out/ yet (make chapter-N draws them, with gnuplot)"
    exit 0
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
.machine { color: #666; font-size: .9em; margin-top: .3em; }
</style></head><body>
<h1>Parallel Workbook: figures</h1>
EOF
    echo "<p>Every figure drawn by <code>make chapter-N</code>, from the CSV in <code>results/</code>. Generated $(date -u +%Y-%m-%dT%H:%M:%SZ).</p>"
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
        if [ -n "$csv" ] && [ -f "results/$ch/$csv" ]; then
            m=results/$ch/$csv
            echo "<div class=\"machine\">measured on $(header "$m" cpu | esc) ($(header "$m" cores | esc) cores)," \
                 "$(header "$m" date | esc), git $(header "$m" git | esc); data: $(esc <<<"$m")</div>"
        fi
        echo "</figcaption></figure>"
    done
    echo "</body></html>"
} >"$tmp"
mv -f "$tmp" "$page"

echo "gallery: $page (${#figures[@]} figures)"
