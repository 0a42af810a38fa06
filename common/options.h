/* common/options.h: strict command-line parsing, the same for every program.
 *
 * A program lists its own options in a table; the parser adds the common
 * ones every program has:
 *   --help           usage on stdout, exit 0
 *   --csv FILE       write results to FILE (tidy CSV, see results.h)
 *   -r, --reps N     at least N timed repeats (default 7)
 *   --min-time S     and at least S seconds of samples (default 0.05)
 *   --tiny           smallest meaningful run, for smoke tests
 *
 * Bad input never crashes and never guesses: one line on stderr naming the
 * option and what is wrong, then exit 2. Rejected: unknown options, missing
 * values, non-numeric text, zero or negative sizes, numbers past the
 * option's range or past 64 bits, empty lists and empty list items ("1,,2"),
 * and (through pw_require_memory) sizes whose buffers would not fit in the
 * memory this machine has available.
 *
 * Numbers may carry a binary suffix: 4K = 4096, 16M = 16777216, 1G.
 *
 *   static pw_list sizes = PW_LIST(1024, 1048576);      // the defaults
 *   pw_opt opts[] = {
 *       { "-n", "--size", PW_OPT_SIZES, &sizes, "N[,N...]", "elements", 1, PW_SIZE_MAX },
 *   };
 *   pw_common_opts common;
 *   pw_parse_or_exit(argc, argv, "square a vector", opts, 1, &common);
 */
#ifndef PW_OPTIONS_H
#define PW_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#define PW_MAX_LIST 64
/* Largest element count accepted before the memory check; big enough that
 * the memory check, not this limit, is what refuses 99999999999999. */
#define PW_SIZE_MAX (1LL << 50)

typedef struct {
    long long v[PW_MAX_LIST];
    int n;
} pw_list;

/* A list literal for defaults: PW_LIST(1, 2, 4). */
#define PW_LIST(...) { .v = { __VA_ARGS__ }, \
    .n = (int)(sizeof((long long[]){ __VA_ARGS__ }) / sizeof(long long)) }

typedef enum {
    PW_OPT_SIZES,   /* dest: pw_list*, comma-separated whole numbers in [min, max] */
    PW_OPT_INT,     /* dest: long long*, one whole number in [min, max] */
    PW_OPT_DOUBLE,  /* dest: double*, a finite number in [min, max] */
    PW_OPT_STRING,  /* dest: const char**, any non-empty text */
    PW_OPT_FLAG,    /* dest: bool*, no value */
} pw_opt_kind;

typedef struct {
    const char *short_name;  /* "-n", or NULL */
    const char *long_name;   /* "--size", or NULL */
    pw_opt_kind kind;
    void *dest;
    const char *metavar;     /* "N[,N...]" in --help */
    const char *help;        /* one line */
    long long min, max;      /* inclusive range for numbers (and list items) */
} pw_opt;

typedef struct {
    const char *prog;        /* program name, for messages */
    const char *csv;         /* --csv FILE, or NULL */
    int reps;                /* -r, or 0 for the default */
    double min_time;         /* --min-time, or 0 for the default */
    bool tiny;               /* --tiny */
} pw_common_opts;

enum { PW_PARSE_OK = 0, PW_PARSE_HELP = 1, PW_PARSE_ERROR = 2 };

/* Whether a file can be written at PATH (the folder exists and takes a new
 * file). If not, prints "PROG: OPTION PATH: cannot write there (why)" to
 * stderr and returns false. pw_parse calls it for --csv. */
bool pw_output_writable(const char *prog, const char *option, const char *path);

/* Parse argv. Returns PW_PARSE_OK, PW_PARSE_HELP (usage printed to stdout)
 * or PW_PARSE_ERROR (one line printed to stderr). Tests call this. */
int pw_parse(int argc, char **argv, const char *summary,
             const pw_opt *opts, int nopts, pw_common_opts *common);

/* The same, but exits: 0 after --help, 2 after an error. Programs call this. */
void pw_parse_or_exit(int argc, char **argv, const char *summary,
                      const pw_opt *opts, int nopts, pw_common_opts *common);

/* Parse a comma-separated list of whole numbers in [min, max] into *out, as
 * a PW_OPT_SIZES option does; `label` names the input in the error line
 * ("-t", or "THREADS" for an environment variable). Returns PW_PARSE_OK or
 * PW_PARSE_ERROR (one line printed to stderr). */
int pw_parse_list(const char *prog, const char *label, const char *text, pw_list *out,
                  long long min, long long max);

/* Bytes of memory available to a new allocation now (MemAvailable on
 * Linux, physical memory elsewhere). PW_MEM_AVAILABLE overrides it, so tests
 * can check the refusal without a machine that is short of memory. */
double pw_available_memory(void);

/* Exit 2 with one line if count elements of elem_bytes each, times
 * `buffers`, would overflow or exceed the available memory. `flag` names the
 * option the user can change ("-n"). */
void pw_require_memory(const char *prog, const char *flag, long long count,
                       size_t elem_bytes, int buffers);

/* Largest value in a list (sizes sweeps allocate once, for the largest). */
long long pw_list_max(const pw_list *l);

#endif
