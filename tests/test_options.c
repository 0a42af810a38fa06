/* tests/test_options.c: the parser takes good input and refuses each kind of
 * bad input with PW_PARSE_ERROR (programs turn that into exit 2). The shell
 * tests in tests/run.sh check the same through every real program. */
#define _POSIX_C_SOURCE 200809L
#include "options.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pw_list sizes, threads;
static long long count;
static double ratio;
static const char *name;
static bool verbose;
static const pw_opt opts[] = {
    { "-n", "--size", PW_OPT_SIZES, &sizes, "N[,N...]", "sizes", 1, PW_SIZE_MAX },
    { "-t", "--threads", PW_OPT_SIZES, &threads, "T[,T...]", "threads", 1, 4096 },
    { "-k", NULL, PW_OPT_INT, &count, "K", "a count", 1, 100 },
    { NULL, "--ratio", PW_OPT_DOUBLE, &ratio, "R", "a ratio", 0, 1 },
    { NULL, "--name", PW_OPT_STRING, &name, "S", "a name", 0, 0 },
    { "-v", NULL, PW_OPT_FLAG, &verbose, NULL, "verbose", 0, 0 },
};
static char errors[1024];   /* what the last parse wrote to stderr */

/* Parse a command line given as one string of space-separated words. */
static int parse(const char *line, pw_common_opts *common)
{
    static char buf[512];
    char *argv[32] = { "prog" };
    int argc = 1;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " ")) argv[argc++] = w;
    /* "EMPTY" stands for an empty argument, which strtok cannot produce. */
    for (int i = 1; i < argc; i++) if (!strcmp(argv[i], "EMPTY")) argv[i] = "";
    /* Capture stderr (and stdout, for --help) in temporary files. */
    FILE *err = tmpfile(), *out = tmpfile();
    fflush(stderr);
    fflush(stdout);
    int saved_err = dup(2), saved_out = dup(1);
    dup2(fileno(err), 2);
    dup2(fileno(out), 1);
    int rc = pw_parse(argc, argv, "test", opts, 6, common);
    fflush(stderr);
    fflush(stdout);
    dup2(saved_err, 2);
    dup2(saved_out, 1);
    close(saved_err);
    close(saved_out);
    rewind(err);
    size_t got = fread(errors, 1, sizeof errors - 1, err);
    errors[got] = '\0';
    fclose(err);
    fclose(out);
    return rc;
}

static void test_good_input(void)
{
    pw_common_opts c;
    EXPECT(parse("-n 1,2,4", &c) == PW_PARSE_OK, "a list parses");
    EXPECT(sizes.n == 3 && sizes.v[0] == 1 && sizes.v[2] == 4, "list values 1,2,4, got n=%d", sizes.n);
    EXPECT(parse("-n 4K,16M,1G", &c) == PW_PARSE_OK, "binary suffixes parse");
    EXPECT(sizes.v[0] == 4096 && sizes.v[1] == 16777216 && sizes.v[2] == 1073741824LL, "K, M, G are 2^10, 2^20, 2^30");
    EXPECT(parse("--size=7 -k 100 --ratio 0.5 --name x -v", &c) == PW_PARSE_OK, "--opt=value and every kind");
    EXPECT(sizes.n == 1 && sizes.v[0] == 7 && count == 100 && ratio == 0.5 && !strcmp(name, "x") && verbose,
           "values land in their destinations");
    EXPECT(parse("-t 1,2,4 --csv out.csv -r 9 --min-time 0.2 --tiny", &c) == PW_PARSE_OK, "common options parse");
    EXPECT(threads.n == 3 && !strcmp(c.csv, "out.csv") && c.reps == 9 && c.min_time == 0.2 && c.tiny,
           "common options land in pw_common_opts");
    EXPECT(parse("", &c) == PW_PARSE_OK && c.csv == NULL && c.reps == 0 && !c.tiny, "no options: defaults");
    EXPECT(parse("--help", &c) == PW_PARSE_HELP, "--help is not an error");
}

static void test_bad_input(void)
{
    static const char *bad[] = {
        "--bogus",                   /* unknown option */
        "bare",                      /* a stray word */
        "-n",                        /* missing value */
        "-n -5",                     /* negative */
        "-n 0",                      /* zero */
        "-n abc",                    /* not a number */
        "-n 12x",                    /* trailing junk */
        "-n 1.5",                    /* not whole */
        "-n 99999999999999999999",   /* past 64 bits */
        "-n 9999999999999999G",      /* past 64 bits after the suffix */
        "-n 99999999999999999",      /* past the option's own maximum */
        "-n EMPTY",                  /* empty list */
        "-n 1,,2",                   /* empty item */
        "-n 1,",                     /* trailing empty item */
        "-t 1000000",                /* absurd thread count: past max */
        "-k 101",                    /* past max */
        "--ratio 2",                 /* past max */
        "--ratio nan",               /* not finite */
        "--ratio 1e999",             /* overflows a double */
        "--name EMPTY",              /* empty text */
        "-v=1",                      /* a flag takes no value */
        "--tiny=yes",                /* nor does a common flag */
        "-r 0",                      /* zero repeats */
        "-r 1001",                   /* more samples than are kept */
        "--csv",                     /* missing file */
        "--min-time -1",             /* negative time */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pw_common_opts c;
        int rc = parse(bad[i], &c);
        EXPECT(rc == PW_PARSE_ERROR, "'%s' is refused, got %d", bad[i], rc);
        char *nl = strchr(errors, '\n');
        EXPECT(nl && nl[1] == '\0' && !strncmp(errors, "prog: ", 6),
               "'%s' gets one line starting with the program's name, got: %s", bad[i], errors);
    }
}

static void test_list_limit(void)
{
    char line[512] = "-n ";
    for (int i = 0; i < PW_MAX_LIST; i++) strcat(line, i ? ",1" : "1");
    pw_common_opts c;
    EXPECT(parse(line, &c) == PW_PARSE_OK && sizes.n == PW_MAX_LIST, "a list of %d items is fine", PW_MAX_LIST);
    strcat(line, ",1");
    EXPECT(parse(line, &c) == PW_PARSE_ERROR, "a list of %d items is refused", PW_MAX_LIST + 1);
}

static void test_list_max(void)
{
    pw_list l = PW_LIST(3, 99, 7);
    EXPECT(l.n == 3, "PW_LIST counts its items");
    EXPECT(pw_list_max(&l) == 99, "largest of 3,99,7 is 99");
}

int main(void)
{
    RUN(test_good_input);
    RUN(test_bad_input);
    RUN(test_list_limit);
    RUN(test_list_max);
    return UNIT_RESULT();
}
