/* common/gpu_published.c: published ladders and the model's targets (gpu_published.h). */
#include "gpu_published.h"
#include "gpu_model.h"

#include <stdio.h>
#include <string.h>

int pw_published_read(const char *file, pw_published_row *rows, int cap, char *path, size_t path_len)
{
    snprintf(path, path_len, "%s/published/%s", pw_gpu_dir(), file);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[512];
    int n = 0;
    while (n < cap && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || !strncmp(line, "device,", 7) || line[0] == '\n') continue;
        pw_published_row r;
        memset(&r, 0, sizeof r);
        int got = sscanf(line, "%63[^,],%31[^,],%31[^,],%63[^,],%lld,%lf,%d,%d", r.device, r.ladder, r.rung, r.theirs,
                         &r.n, &r.value, &r.block, &r.grid);
        if ((got == 6 || got == 8) && r.n > 0 && r.value > 0 && (got == 6 || (r.block > 0 && r.grid > 0)))
            rows[n++] = r;
    }
    fclose(f);
    return n;
}

int pw_published_same_group(const pw_published_row *rows, int first, int k)
{
    return !strcmp(rows[k].device, rows[first].device) && !strcmp(rows[k].ladder, rows[first].ladder);
}

int pw_published_group_start(const pw_published_row *rows, int k)
{
    for (int j = 0; j < k; j++)
        if (pw_published_same_group(rows, j, k)) return 0;
    return 1;
}

int pw_published_within(double modelled, double published)
{
    double r = modelled / published;
    return r >= 0.75 && r <= 1.25;
}

void pw_published_targets(const char *const *labels, const double *published, const double *modelled, int m,
                          const char *unit, const char *extra)
{
    int within = 0, rank_ok = 1, steps = 0, steps_ok = 0;
    for (int a = 0; a < m; a++) {
        within += pw_published_within(modelled[a], published[a]);
        for (int b = 0; b < m; b++)
            if (published[a] < published[b] && !(modelled[a] < modelled[b])) rank_ok = 0;
    }
    printf("%-33s %9s %9s %6s\n", "step", "published", "modelled", "ratio");
    for (int a = 1; a < m; a++) {
        double sp = published[a] / published[a - 1], sm = modelled[a] / modelled[a - 1];
        char step[96];
        snprintf(step, sizeof step, "%s -> %s", labels[a - 1], labels[a]);
        steps++;
        steps_ok += pw_published_within(sm, sp);
        printf("%-33s %8.2fx %8.2fx %6.2f\n", step, sp, sm, sm / sp);
    }
    printf("benchmark: %d of %d rungs within 25%% of the published %s%s\n", within, m, unit, extra ? extra : "");
    printf("benchmark: rank order of the rungs %s\n", rank_ok ? "preserved" : "NOT preserved");
    printf("benchmark: %d of %d steps' speedups within 25%% of the published ones\n", steps_ok, steps);
}
