/* common/base.c: sizes written for people (base.h). */
#include "base.h"

#include <stdio.h>

const char *pw_fmt_bytes(double bytes, char *buf, size_t len)
{
    static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    int u = 0;
    while (bytes >= 1024.0 && u < 6) { bytes /= 1024.0; u++; }
    if (bytes == (double)(long long)bytes)
        snprintf(buf, len, "%lld %s", (long long)bytes, unit[u]);
    else
        snprintf(buf, len, "%.1f %s", bytes, unit[u]);
    return buf;
}
