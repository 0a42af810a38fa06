# plots/02-simd/speedup.awk: lanes.csv -> one row per hand-written rung:
#   series,label,lanes,speedup
# speedup = the scalar rung's median / this rung's, same kernel and size;
# label = "square, 16 KiB (L1)": the kernel, x and y's footprint and the
# cache level that holds it (from the CSV's metadata). Rows with lanes
# "auto" are left out: the compiler chose their width.
BEGIN { FS = ","; print "series,label,lanes,speedup" }
/^# l1d_bytes: / { l1 = $0; sub(/.*: /, "", l1) }
/^# l2_bytes: /  { l2 = $0; sub(/.*: /, "", l2) }
/^# l3_bytes: /  { l3 = $0; sub(/.*: /, "", l3) }
/^#/ { next }
!h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next }
$ix["kind"] != "summary" { next }
{
    v = $ix["variant"]; k = v; sub(/_.*/, "", k); n = $ix["n"]; key = k "_" n
    if (v ~ /_scalar$/) base[key] = $ix["median_s"]
    if ($ix["param"] !~ /^[0-9]+$/ || !(key in base)) next
    b = 8 * n    # x and y
    where = (l1 + 0 && b <= l1 + 0) ? "L1" : (l2 + 0 && b <= l2 + 0) ? "L2" : (l3 + 0 && b <= l3 + 0) ? "L3" : "DRAM"
    size = b >= 1048576 ? sprintf("%g MiB", b / 1048576) : sprintf("%g KiB", b / 1024)
    printf "%s,%s %s (%s),%s,%.4f\n", key, k, size, where, $ix["param"], base[key] / $ix["median_s"]
}
