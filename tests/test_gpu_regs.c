/* tests/test_gpu_regs.c: ptxas's registers per thread (common/gpu_regs.c):
 * the committed table parses and has the workbook's kernels on every arch
 * with counts ptxas could give; exact and base-name matching; the nearest
 * arch's count and the default as estimates; malformed tables are skipped
 * line by line, never a crash. (Regenerating the table with nvcc: tests/regs.sh.) */
#define _POSIX_C_SOURCE 200809L   /* setenv, mkstemp */
#include "gpu_regs.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *archs[] = { "sm_80", "sm_86", "sm_90" };

/* text into a new temporary file; its path into path (to unlink). 0 on failure. */
static int write_table(char *path, size_t len, const char *text)
{
    snprintf(path, len, "/tmp/pw_regs_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    FILE *f = fdopen(fd, "w");
    if (!f) { close(fd); unlink(path); return 0; }
    fputs(text, f);
    fclose(f);
    return 1;
}

/* Only the given tables (NULL: none), for the tests of pw_gpu_kernel_regs. */
static void use_tables(const char *build, const char *committed)
{
    setenv("PW_REGS_BUILD", build ? build : "", 1);
    setenv("PW_REGS_COMMITTED", committed ? committed : "", 1);
}

static void default_tables(void)
{
    unsetenv("PW_REGS_BUILD");
    unsetenv("PW_REGS_COMMITTED");
}

/* The committed table: readable, says which nvcc and when, no bad line. */
static void test_committed_parses(void)
{
    default_tables();
    const char *path = pw_gpu_regs_committed_table();
    pw_regs_hit h;
    int r = pw_gpu_regs_lookup(path, "sm_90", "gg_naive", &h);
    EXPECT(r == 1, "%s: gg_naive on sm_90: %d", path, r);
    EXPECT(h.bad_lines == 0, "%d malformed lines, the first line %d", h.bad_lines, h.first_bad_line);
    EXPECT(h.nvcc[0] != '\0', "the table's '# nvcc' line");
    EXPECT(strlen(h.date) == 10 && h.date[4] == '-', "the table's '# date' line: '%s'", h.date);
}

/* The workbook's kernels on each arch, counts in ptxas's range. */
static void test_known_kernels(void)
{
    default_tables();
    const char *path = pw_gpu_regs_committed_table();
    static const char *kernels[] = {
        "gg_naive", "gg_coalesced", "gg_smem", "gg_reg1d", "gg_reg2d", "gg_vec4", "gg_warptile",
        "gg_wmma_global<__half>", "gg_wmma_shared<__half>", "gg_wmma_shared<__nv_bfloat16>",
        "gg_convert_kernel<float>", "whoami", "reduce_many", "transpose_padded", "count_ballot",
    };
    for (int a = 0; a < 3; a++)
        for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
            pw_regs_hit h;
            int r = pw_gpu_regs_lookup(path, archs[a], kernels[k], &h);
            EXPECT(r == 1 && !h.by_base && h.rows == 1, "%s on %s: found %d, by_base %d, rows %d",
                   kernels[k], archs[a], r, h.by_base, h.rows);
            EXPECT(h.regs >= 1 && h.regs <= 255, "%s on %s: %d registers", kernels[k], archs[a], h.regs);
            /* What pw_gpu_kernel_regs gives (this build's table first, where there is one): ptxas's. */
            int regs = -1, smem = -1;
            char note[160];
            pw_regs_source s = pw_gpu_kernel_regs(archs[a], kernels[k], &regs, &smem, note, sizeof note);
            EXPECT(s != PW_REGS_ESTIMATE && regs >= 1 && regs <= 255 && strncmp(note, "ptxas, ", 7) == 0,
                   "%s on %s: source %d, %d registers, '%s'", kernels[k], archs[a], (int)s, regs, note);
        }
    /* Static shared memory is the source's, on every arch: transpose_padded's
     * tile is 32 x 33 floats, transpose_shared's 32 x 32, whoami has none. */
    for (int a = 0; a < 3; a++) {
        pw_regs_hit h;
        pw_gpu_regs_lookup(path, archs[a], "transpose_padded", &h);
        EXPECT(h.static_smem == 32 * 33 * 4, "transpose_padded on %s: %d bytes", archs[a], h.static_smem);
        pw_gpu_regs_lookup(path, archs[a], "transpose_shared", &h);
        EXPECT(h.static_smem == 32 * 32 * 4, "transpose_shared on %s: %d bytes", archs[a], h.static_smem);
        pw_gpu_regs_lookup(path, archs[a], "whoami", &h);
        EXPECT(h.static_smem == 0, "whoami on %s: %d bytes", archs[a], h.static_smem);
    }
    /* Only the committed table: the source says so, with its nvcc and date. */
    use_tables(NULL, path);
    char note[160];
    int regs = 0;
    pw_regs_source s = pw_gpu_kernel_regs("sm_86", "gg_reg2d", &regs, NULL, note, sizeof note);
    EXPECT(s == PW_REGS_PTXAS_COMMITTED && strncmp(note, "ptxas, committed table (nvcc ", 29) == 0,
           "source %d, '%s'", (int)s, note);
    default_tables();
}

/* The emulator's names: spaces, symbolic template arguments, base names. */
static void test_names_committed(void)
{
    default_tables();
    const char *path = pw_gpu_regs_committed_table();
    pw_regs_hit h, h16, hbf;
    EXPECT(pw_gpu_regs_lookup(path, "sm_90", " gg_wmma_shared< __half > ", &h) == 1 && !h.by_base,
           "spaces removed: an exact match");
    pw_gpu_regs_lookup(path, "sm_90", "gg_wmma_shared<__half>", &h16);
    pw_gpu_regs_lookup(path, "sm_90", "gg_wmma_shared<__nv_bfloat16>", &hbf);
    EXPECT(h.regs == h16.regs, "%d == %d", h.regs, h16.regs);
    /* Symbolic arguments: the base name's instantiations, the largest count. */
    int r = pw_gpu_regs_lookup(path, "sm_90", "gg_wmma_shared<T>", &h);
    int most = h16.regs > hbf.regs ? h16.regs : hbf.regs;
    EXPECT(r == 1 && h.by_base && h.rows == 2 && h.regs == most && h.agree == (h16.regs == hbf.regs),
           "gg_wmma_shared<T>: found %d, by_base %d, rows %d, %d registers (want %d), agree %d",
           r, h.by_base, h.rows, h.regs, most, h.agree);
    /* The base name alone, and template arguments on a kernel that has none. */
    r = pw_gpu_regs_lookup(path, "sm_80", "gg_convert_kernel", &h);
    EXPECT(r == 1 && h.by_base && h.rows == 3, "gg_convert_kernel: %d, by_base %d, rows %d", r, h.by_base, h.rows);
    pw_regs_hit plain;
    pw_gpu_regs_lookup(path, "sm_80", "gg_warptile", &plain);
    r = pw_gpu_regs_lookup(path, "sm_80", "gg_warptile<BM,BN,BK>", &h);
    EXPECT(r == 1 && h.regs == plain.regs, "gg_warptile<BM,BN,BK>: %d, %d registers (want %d)", r, h.regs, plain.regs);
    /* Not a prefix match: gg_wmma is no kernel. */
    EXPECT(pw_gpu_regs_lookup(path, "sm_80", "gg_wmma", &h) == 0, "gg_wmma is not found");
    EXPECT(pw_gpu_regs_lookup(path, "sm_70", "gg_naive", &h) == 0, "no sm_70 rows");
}

static const char synthetic[] =
    "# made by hand for tests/test_gpu_regs.c\n"
    "# nvcc 12.4 (V12.4.131)\n"
    "# date 2025-01-02\n"
    "# arch\tkernel\tregs\tstatic_smem_bytes\tfile\n"
    "sm_90\tsame<1>\t40\t0\ta.cu\n"
    "sm_90\tsame<2>\t40\t0\ta.cu\n"
    "sm_90\tdiffer<1,float>\t40\t100\ta.cu\n"
    "sm_90\tdiffer<2,float>\t64\t200\ta.cu\n"
    "sm_90\tdiffer<3,float>\t48\t300\ta.cu\n"
    "sm_80\tportable\t20\t16\ta.cu\n"
    "sm_86\tportable\t24\t16\ta.cu\n"
    "sm_90\tportable\t30\t16\ta.cu\n"
    "sm_90\tns::k\t17\t0\tb.cu\n";

/* Matching, sources and notes on a table whose answers are known. */
static void test_synthetic(void)
{
    char path[64];
    if (!write_table(path, sizeof path, synthetic)) SKIP("cannot write a temporary file");
    use_tables(path, NULL);
    int regs = -1, smem = -1;
    char note[200];
    pw_regs_source s;

    s = pw_gpu_kernel_regs("sm_90", "differ<2,float>", &regs, &smem, note, sizeof note);
    EXPECT(s == PW_REGS_PTXAS_BUILD && regs == 64 && smem == 200, "exact: %d %d %d", (int)s, regs, smem);
    EXPECT(strcmp(note, "ptxas, this build (nvcc 12.4)") == 0, "note '%s'", note);

    s = pw_gpu_kernel_regs("sm_90", "differ<N,T>", &regs, &smem, note, sizeof note);
    EXPECT(s == PW_REGS_PTXAS_BUILD && regs == 64 && smem == 300, "base, largest: %d %d %d", (int)s, regs, smem);
    EXPECT(strstr(note, "largest of 3 instantiations of differ<>") != NULL, "note '%s'", note);

    s = pw_gpu_kernel_regs("sm_90", "same<N>", &regs, &smem, note, sizeof note);
    EXPECT(s == PW_REGS_PTXAS_BUILD && regs == 40 && smem == 0, "base, agreeing: %d %d %d", (int)s, regs, smem);
    EXPECT(strstr(note, "by base name same") != NULL && !strstr(note, "largest"), "note '%s'", note);

    s = pw_gpu_kernel_regs("sm_90", "ns :: k", &regs, NULL, note, sizeof note);
    EXPECT(s == PW_REGS_PTXAS_BUILD && regs == 17, "qualified name: %d %d", (int)s, regs);

    /* Only in the committed table: its source and date. */
    use_tables(NULL, path);
    s = pw_gpu_kernel_regs("sm_86", "portable", &regs, &smem, note, sizeof note);
    EXPECT(s == PW_REGS_PTXAS_COMMITTED && regs == 24 && smem == 16, "committed: %d %d %d", (int)s, regs, smem);
    EXPECT(strcmp(note, "ptxas, committed table (nvcc 12.4, 2025-01-02)") == 0, "note '%s'", note);
    /* The build's table first, when both have the kernel. */
    char path2[64];
    if (write_table(path2, sizeof path2, "sm_86\tportable\t26\t0\tc.cu\n")) {
        use_tables(path2, path);
        s = pw_gpu_kernel_regs("sm_86", "portable", &regs, &smem, note, sizeof note);
        EXPECT(s == PW_REGS_PTXAS_BUILD && regs == 26 && strcmp(note, "ptxas, this build") == 0,
               "build first: %d %d '%s'", (int)s, regs, note);
        /* ... and the committed one for what the build's lacks. */
        s = pw_gpu_kernel_regs("sm_90", "portable", &regs, &smem, note, sizeof note);
        EXPECT(s == PW_REGS_PTXAS_COMMITTED && regs == 30, "committed after build: %d %d", (int)s, regs);
        unlink(path2);
    }

    /* Another arch: the nearest below (sm_89 -> sm_86), else above (sm_75 -> sm_80). */
    use_tables(path, NULL);
    char near[16];
    EXPECT(pw_gpu_regs_nearest_arch(path, "sm_89", "portable", near, sizeof near) == 1 && strcmp(near, "sm_86") == 0,
           "sm_89 -> '%s'", near);
    EXPECT(pw_gpu_regs_nearest_arch(path, "sm_100", "portable", near, sizeof near) == 1 && strcmp(near, "sm_90") == 0,
           "sm_100 -> '%s'", near);
    s = pw_gpu_kernel_regs("sm_89", "portable", &regs, &smem, note, sizeof note);
    EXPECT(s == PW_REGS_ESTIMATE && regs == 24 && smem == 16, "sm_89: %d %d %d", (int)s, regs, smem);
    EXPECT(strcmp(note, "estimate: sm_86's ptxas count (sm_89 not in ptxas's table)") == 0, "note '%s'", note);
    s = pw_gpu_kernel_regs("sm_75", "portable", &regs, &smem, note, sizeof note);
    EXPECT(s == PW_REGS_ESTIMATE && regs == 20, "sm_75: %d %d", (int)s, regs);
    s = pw_gpu_kernel_regs("sm_80", "same<1>", &regs, &smem, note, sizeof note);
    EXPECT(s == PW_REGS_ESTIMATE && regs == 40 && strstr(note, "sm_90's"), "sm_80 same<1>: %d %d '%s'", (int)s, regs, note);

    /* Unknown: the default, said to be an estimate. */
    s = pw_gpu_kernel_regs("sm_90", "my_kernel", &regs, &smem, note, sizeof note);
    EXPECT(s == PW_REGS_ESTIMATE && regs == PW_REGS_ESTIMATE_DEFAULT && smem == 0, "unknown: %d %d %d",
           (int)s, regs, smem);
    EXPECT(strncmp(note, "estimate: not in ptxas's table", 30) == 0, "note '%s'", note);
    /* NULL outputs, NULL or empty names, a tiny note buffer: no crash. */
    s = pw_gpu_kernel_regs("sm_90", "differ<2,float>", NULL, NULL, NULL, 0);
    EXPECT(s == PW_REGS_PTXAS_BUILD, "NULL outputs: %d", (int)s);
    s = pw_gpu_kernel_regs(NULL, NULL, &regs, &smem, note, 4);
    EXPECT(s == PW_REGS_ESTIMATE && regs == PW_REGS_ESTIMATE_DEFAULT && strlen(note) == 3, "NULLs: %d '%s'", (int)s, note);
    s = pw_gpu_kernel_regs("sm_90", "", &regs, &smem, note, sizeof note);
    EXPECT(s == PW_REGS_ESTIMATE, "empty name: %d", (int)s);

    /* No table at all. */
    use_tables("/nonexistent/registers.tsv", NULL);
    s = pw_gpu_kernel_regs("sm_90", "same<1>", &regs, &smem, note, sizeof note);
    EXPECT(s == PW_REGS_ESTIMATE && regs == PW_REGS_ESTIMATE_DEFAULT, "no table: %d %d", (int)s, regs);
    pw_regs_hit h;
    EXPECT(pw_gpu_regs_lookup("/nonexistent/registers.tsv", "sm_90", "x", &h) == -1, "unreadable: -1");
    EXPECT(pw_gpu_regs_lookup(NULL, "sm_90", "x", &h) == -1, "NULL path: -1");
    default_tables();
    unlink(path);
}

/* Malformed lines: each skipped and counted, the good rows still found. */
static void test_malformed(void)
{
    char longline[5000];
    memset(longline, 'x', sizeof longline - 2);
    longline[sizeof longline - 2] = '\n';
    longline[sizeof longline - 1] = '\0';
    char text[8192];
    snprintf(text, sizeof text,
             "# nvcc 13.0 (V13.0.88)\n"
             "sm_90\tgood\t33\t0\tk.cu\n"          /* line 2: fine */
             "sm_90\tshort\t12\n"                  /* 3: three fields */
             "sm_90\tnonnum\tmany\t0\tk.cu\n"      /* 4: regs not a number */
             "sm_90\ttoomany\t300\t0\tk.cu\n"      /* 5: over 255 */
             "sm_90\tneg\t-4\t0\tk.cu\n"           /* 6: negative */
             "gpu90\tbadarch\t10\t0\tk.cu\n"       /* 7: not sm_NN */
             "sm_90\thas space\t10\t0\tk.cu\n"     /* 8: a space in the name */
             "sm_90\textra\t10\t0\tk.cu\tmore\n"   /* 9: six fields */
             "sm_90\tnofile\t10\t0\t\n"            /* 10: no file */
             "%s"                                  /* 11: 5000 characters */
             "\n"                                  /* 12: empty: not counted */
             "sm_90\t\t10\t0\tk.cu\n"              /* 13: no name */
             "sm_90\tsmem\t10\t12x\tk.cu\n"        /* 14: bad shared memory */
             "\x01\xff\xfe garbage\n"              /* 15: bytes */
             "sm_90\tcrlf\t21\t8\tk.cu\r\n"        /* 16: fine (CRLF) */
             "sm_90\tlast\t22\t0\tk.cu",           /* 17: fine, no newline */
             longline);
    char path[64];
    if (!write_table(path, sizeof path, text)) SKIP("cannot write a temporary file");
    pw_regs_hit h;
    EXPECT(pw_gpu_regs_lookup(path, "sm_90", "good", &h) == 1 && h.regs == 33, "good: %d", h.regs);
    EXPECT(h.bad_lines == 12 && h.first_bad_line == 3, "%d bad lines (want 12), first %d (want 3)",
           h.bad_lines, h.first_bad_line);
    EXPECT(pw_gpu_regs_lookup(path, "sm_90", "crlf", &h) == 1 && h.regs == 21 && h.static_smem == 8,
           "crlf: %d %d", h.regs, h.static_smem);
    EXPECT(pw_gpu_regs_lookup(path, "sm_90", "last", &h) == 1 && h.regs == 22, "last: %d", h.regs);
    static const char *skipped[] = { "short", "nonnum", "toomany", "neg", "badarch", "has space", "extra", "nofile", "smem" };
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
        EXPECT(pw_gpu_regs_lookup(path, "sm_90", skipped[i], &h) == 0, "'%s' was skipped", skipped[i]);
    /* pw_gpu_kernel_regs says so in its note. */
    use_tables(path, NULL);
    char note[200];
    int regs = 0;
    pw_regs_source s = pw_gpu_kernel_regs("sm_90", "good", &regs, NULL, note, sizeof note);
    EXPECT(s == PW_REGS_PTXAS_BUILD && regs == 33 && strstr(note, "skipped 12 malformed lines") && strstr(note, ":3)"),
           "%d %d '%s'", (int)s, regs, note);
    default_tables();
    unlink(path);

    /* An empty file, and one of junk only: nothing found, no crash. */
    if (write_table(path, sizeof path, "")) {
        EXPECT(pw_gpu_regs_lookup(path, "sm_90", "good", &h) == 0 && h.bad_lines == 0, "empty: %d", h.bad_lines);
        unlink(path);
    }
    if (write_table(path, sizeof path, "\t\t\t\t\n\t\n#\nsm_\n")) {
        EXPECT(pw_gpu_regs_lookup(path, "sm_90", "good", &h) == 0 && h.bad_lines == 3, "junk: %d", h.bad_lines);
        EXPECT(pw_gpu_regs_nearest_arch(path, "sm_90", "good", NULL, 0) == 0, "junk: no arch");
        unlink(path);
    }
}

int main(void)
{
    RUN(test_committed_parses);
    RUN(test_known_kernels);
    RUN(test_names_committed);
    RUN(test_synthetic);
    RUN(test_malformed);
    return UNIT_RESULT();
}
