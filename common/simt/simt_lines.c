/* common/simt/simt_lines.c: which source line an instruction address is
 * (for every report: "at kernel.cu:42"), from the program's own debug
 * information through addr2line. Calls no other file of the emulator but
 * simt_state.c. */
#define _GNU_SOURCE
#include "simt_state.h"

/* ---- source lines: which line an instruction address is ---------------------------- */

static uintptr_t program_bias;
static bool bias_known;
#ifdef PW_SIMT_HAVE_PHDR
static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    program_bias = info->dlpi_addr;
    return 1;
}
#endif

/* "file.cu:12" for an instruction of the program: its debug line table, read
 * by addr2line (binutils), once per address; else the function's name. */
/* One line of addr2line's answer, without its newline and discriminator;
 * false if it names no line ("??", or line ? or 0). */
static bool clean_line(char *line)
{
    line[strcspn(line, "\n")] = 0;
    char *disc = strstr(line, " (discriminator");
    if (disc) *disc = 0;
    size_t n = strlen(line);
    return n >= 2 && strncmp(line, "??", 2) != 0 && strcmp(line + n - 2, ":?") != 0 && strcmp(line + n - 2, ":0") != 0;
}

static void site_text(const void *ra, char *buf, size_t len);

/* Blocks on several OS threads report at once: one lookup at a time (the
 * cache, the load bias; addr2line is slow anyway). */
void simt_site_text(const void *ra, char *buf, size_t len)
{
    static pthread_mutex_t lines_lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lines_lock);
    site_text(ra, buf, len);
    pthread_mutex_unlock(&lines_lock);
}

static void site_text(const void *ra, char *buf, size_t len)
{
    static struct { const void *ra; char text[160]; } cache[64];
    static int ncache;
    for (int i = 0; i < ncache; i++)
        if (cache[i].ra == ra) { snprintf(buf, len, "%s", cache[i].text); return; }
    char text[160] = "";
    Dl_info info;
    const char *object = NULL;
    uintptr_t off = 0;
    if (dladdr(ra, &info) && info.dli_fname) {
        object = info.dli_fname;
        if (!bias_known) {
#ifdef PW_SIMT_HAVE_PHDR
            dl_iterate_phdr(first_object, NULL);
#endif
            bias_known = true;
        }
        /* the main program: addresses relative to its load bias; a library: to its base */
        uintptr_t base = info.dli_fbase && strstr(object, ".so") ? (uintptr_t)info.dli_fbase : program_bias;
        off = (uintptr_t)ra - base - 1;   /* the return address is after the call: step back into it */
        char exe[4096];
        if (!strstr(object, ".so")) {
            ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
            if (n > 0) { exe[n] = 0; object = exe; }
        }
        char cmd[4400];
        /* the call's own line, with its chain of inlined calls (-i: innermost
         * first); the line to show is the first one outside the emulator's own
         * headers (an atomicAdd or a cudaFree wrapper is inlined from there) */
        snprintf(cmd, sizeof cmd, "addr2line -i -e '%s' 0x%lx 2>/dev/null", object, (unsigned long)off);
        FILE *p = popen(cmd, "r");
        if (p) {
            char line[160];
            bool chosen = false;
            while (fgets(line, sizeof line, p)) {
                if (!clean_line(line) && strncmp(line, "??", 2) == 0) continue;
                bool ours = strstr(line, "common/simt/") || strstr(line, "/c++/");
                if (!text[0] || (!chosen && !ours)) snprintf(text, sizeof text, "%s", line);
                if (!ours) chosen = true;
            }
            pclose(p);
        }
        /* clang gives the instrumentation's call (and the access after it)
         * line 0 at times: then the nearest line before it, which computed
         * the address, is the access's */
        if (text[0] && !clean_line(text)) {
            size_t n = (size_t)snprintf(cmd, sizeof cmd, "addr2line -e '%s'", object);
            for (unsigned back = 1; back <= 48 && n < sizeof cmd - 24; back++)
                n += (size_t)snprintf(cmd + n, sizeof cmd - n, " 0x%lx", (unsigned long)(off - back));
            snprintf(cmd + n, sizeof cmd - n, " 2>/dev/null");
            p = popen(cmd, "r");
            if (p) {
                char line[160];
                while (fgets(line, sizeof line, p)) {
                    if (!clean_line(line)) continue;
                    snprintf(text, sizeof text, "%s", line);
                    break;
                }
                pclose(p);
            }
        }
        if (!text[0] && info.dli_sname) snprintf(text, sizeof text, "%s+0x%lx", info.dli_sname,
                                                 (unsigned long)((uintptr_t)ra - (uintptr_t)info.dli_saddr));
    }
    if (!text[0]) snprintf(text, sizeof text, "pc %p", ra);
    /* a path under the current folder: shorter */
    char cwd[4096];
    const char *shown = text;
    if (getcwd(cwd, sizeof cwd)) {
        size_t n = strlen(cwd);
        if (strncmp(text, cwd, n) == 0 && text[n] == '/') shown = text + n + 1;
    }
    snprintf(buf, len, "%s", shown);
    if (ncache < 64) {
        cache[ncache].ra = ra;
        snprintf(cache[ncache].text, sizeof cache[ncache].text, "%s", shown);
        ncache++;
    }
}
