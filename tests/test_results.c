/* tests/test_results.c: the CSV has the documented shape, and a run that is
 * killed while writing leaves the previous file exactly as it was. */
#define _POSIX_C_SOURCE 200809L
#include "results.h"
#include "unit.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char path[256];

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "r");
    if (!f) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strdup(buf);
}

static void write_good(const char *variant)
{
    char *argv[] = { "./writer", "-n", "10", NULL };
    pw_csv *f = pw_csv_open(path, 3, argv);
    pw_csv_meta(f, "l1d_bytes", "%d", 32768);
    pw_bench_stats st = { .reps = 3, .median = 0.5, .min = 0.25, .q1 = 0.4, .q3 = 0.6, .max = 1, .mean = 0.55,
                          .cold = 2, .samples = { 0.25, 0.5, 1 } };
    pw_csv_summary(f, variant, 10, 2, "p", &st, 2e9, 4e9);
    pw_csv_samples(f, variant, 10, 2, "p", &st, 2e9, 0);
    pw_csv_quantity(f, "speedup", 4, 4, "model", 3.5);
    pw_csv_summary_overlap(f, "par", 10, 2, "", &st, 0, 0, 0.125);
    pw_csv_close(f);
}

static void test_schema(void)
{
    write_good("square");
    char *text = slurp(path);
    EXPECT(text != NULL, "the file exists after close");
    if (!text) return;
    EXPECT(!strncmp(text, "# program: writer\n", 18), "first line names the program: %.40s", text);
    const char *keys[] = { "# date: ", "# cpu: ", "# cores: ", "# compiler: ", "# cflags: ", "# omp: ",
                           "# git: ", "# command: writer -n 10\n", "# l1d_bytes: 32768\n" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        EXPECT(strstr(text, keys[i]) != NULL, "metadata has '%s'", keys[i]);
    const char *header = "\nprogram,variant,kind,rep,n,threads,param,reps,median_s,min_s,q1_s,q3_s,max_s,mean_s,"
                         "flops,bytes,gflops,gbs,overlap,value\n";
    EXPECT(strstr(text, header) != NULL, "the header is the documented one");
    EXPECT(strstr(text, "\nwriter,square,summary,0,10,2,p,3,5.000000e-01,2.500000e-01,4.000000e-01,"
                        "6.000000e-01,1.000000e+00,5.500000e-01,2e+09,4e+09,4,8,,\n") != NULL,
           "the summary row, with gflops = 2e9/0.5/1e9 = 4 and gbs = 8:\n%s", text);
    EXPECT(strstr(text, "\nwriter,square,sample,0,10,2,p,1,2.000000e+00,") != NULL, "rep 0 is the cold call");
    EXPECT(strstr(text, "\nwriter,square,sample,3,10,2,p,1,1.000000e+00,") != NULL, "rep 3 is the third sample");
    EXPECT(strstr(text, ",2e+09,0,4,,,\n") != NULL, "zero bytes leaves gbs empty");
    EXPECT(strstr(text, "\nwriter,speedup,quantity,0,4,4,model,0,,,,,,,0,0,,,,3.5\n") != NULL,
           "a quantity row: times and overlap empty, the number in value (the last column)");
    EXPECT(strstr(text, "\nwriter,par,summary,0,10,2,,3,5.000000e-01,") != NULL && strstr(text, ",0,0,,,0.125,\n") != NULL,
           "a threaded row carries its overlap before value:\n%s", text);
    int rows = 0;
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) rows += l[0] != '#';
    EXPECT(rows == 1 + 1 + 4 + 1 + 1, "header, 1 summary, 4 sample, 1 quantity and 1 threaded rows; got %d lines", rows);
    free(text);
}

static void test_killed_run_keeps_old_file(void)
{
    write_good("old");
    char *before = slurp(path);
    pid_t pid = fork();
    if (pid == 0) {
        /* The child starts a new run over the same file and dies mid-way. */
        char *argv[] = { "./writer", NULL };
        pw_csv *f = pw_csv_open(path, 1, argv);
        pw_bench_stats st = { .reps = 1, .median = 1, .samples = { 1 } };
        for (int i = 0; i < 1000; i++) pw_csv_summary(f, "new", i, 1, "", &st, 1, 1);
        raise(SIGKILL);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the writer was killed");
    char *after = slurp(path);
    EXPECT(before && after && !strcmp(before, after), "the old file is byte for byte unchanged");
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)pid);
    EXPECT(access(tmp, F_OK) == 0, "the dead run's partial output is in %s, apart", tmp);
    unlink(tmp);
    free(before);
    free(after);
}

static void test_unwritable_path_is_usage_error(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr)) _exit(3);
        char *argv[] = { "./writer", NULL };
        pw_csv_open("/nonexistent-dir/x.csv", 1, argv);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 2, "an unwritable --csv exits 2");
}

static void test_null_means_no_csv(void)
{
    char *argv[] = { "./writer", NULL };
    pw_csv *f = pw_csv_open(NULL, 1, argv);
    EXPECT(f == NULL, "no path, no file");
    pw_csv_meta(f, "k", "v");
    pw_csv_value(f, "x", 1, 1, "", 1, 1, 1);
    EXPECT(pw_csv_close(f) == 0, "every call accepts NULL");
}

/* Reading quantity rows back: only the variant, n and param prefix asked for. */
static double read_sum;
static int read_seen;
static void add_row(const char *param, double value, void *ctx)
{
    (void)ctx;
    read_sum += value;
    read_seen += !strncmp(param, "model_", 6);
}

static void test_read_quantities(void)
{
    pw_csv *f = pw_csv_open(path, 0, NULL);
    pw_csv_quantity(f, "rung", 4096, 256, "model_sectors", 1.5);
    pw_csv_quantity(f, "rung", 4096, 256, "model_lines", 2.5);
    pw_csv_quantity(f, "rung", 2048, 256, "model_sectors", 100);      /* another n */
    pw_csv_quantity(f, "other", 4096, 256, "model_sectors", 1000);    /* another variant */
    pw_csv_quantity(f, "rung", 4096, 256, "sectors", 10000);          /* no prefix */
    EXPECT(pw_csv_close(f) == 0, "written");
    read_sum = 0;
    read_seen = 0;
    int n = pw_csv_read_quantities(path, "rung", 4096, "model_", add_row, NULL);
    EXPECT(n == 2 && read_seen == 2 && read_sum == 4.0, "the two rows of rung at 4096 with model_: %d rows, sum %g", n,
           read_sum);
    EXPECT(pw_csv_read_quantities("/nonexistent/x.csv", "rung", 4096, "", add_row, NULL) == -1, "a missing file: -1");
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/pw_test_results_%ld.csv", (long)getpid());
    RUN(test_schema);
    RUN(test_killed_run_keeps_old_file);
    RUN(test_unwritable_path_is_usage_error);
    RUN(test_null_means_no_csv);
    RUN(test_read_quantities);
    unlink(path);
    return UNIT_RESULT();
}
