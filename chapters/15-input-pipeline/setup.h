/* chapters/15-input-pipeline/setup.h: the options and the data set every
 * program of chapter 15 shares (one place, so the three programs measure
 * the same loop). Not a program: chapter.mk builds only the .c files.
 *
 * The default work is sized so that on a 2020s x86 core loading a batch
 * (decode 40 rounds per word, 20 words per sample, 64 samples: about 0.17 ms)
 * takes two to three times the gradient step of the 16-64-4 MLP (about
 * 0.065 ms): a loop that waits for its data most of the time, as the seed's
 * profile found, yet one loader beside the training thread can nearly keep
 * up, so even 2 cores show the effect. Every program measures both on the
 * machine at hand and prints them; nothing assumes the ratio. */
#ifndef PW_CH15_SETUP_H
#define PW_CH15_SETUP_H

#include "loader.h"
#include "options.h"

typedef struct {
    long long batch, steps, rounds, capacity;
    double noise, lr;
} ch15_opts;

#define CH15_NOPTS 6
static inline ch15_opts ch15_defaults(void) { return (ch15_opts){ 64, -1, 40, 4, 0.05, 0.05 }; }

/* Fill out[0..CH15_NOPTS) with the shared flags. */
static inline void ch15_opt_table(ch15_opts *o, pw_opt *out)
{
    out[0] = (pw_opt){ "-b", "--batch", PW_OPT_INT, &o->batch, "B", "samples per batch (default 64)", 1, 1 << 16 };
    out[1] = (pw_opt){ "-s", "--steps", PW_OPT_INT, &o->steps, "S", "training steps, one batch each (default 60; --tiny 12)", 2, 100000 };
    out[2] = (pw_opt){ NULL, "--rounds", PW_OPT_INT, &o->rounds, "R", "decode work: mixing rounds per word (default 40)", 1, 1 << 20 };
    out[3] = (pw_opt){ "-q", "--queue", PW_OPT_INT, &o->capacity, "Q", "bounded queue: batches ready at most (default 4)", 1, 1 << 16 };
    out[4] = (pw_opt){ NULL, "--noise", PW_OPT_DOUBLE, &o->noise, "A", "augmentation: noise amplitude (default 0.05)", 0, 10 };
    out[5] = (pw_opt){ NULL, "--lr", PW_OPT_DOUBLE, &o->lr, "LR", "learning rate (default 0.05)", 0, 10 };
}

/* The data set for these options (the steps default depends on --tiny). */
static inline void ch15_dataset(ch15_opts *o, const pw_common_opts *common, ld_dataset *ds)
{
    if (o->steps < 0) o->steps = common->tiny ? 12 : 60;
    mlp_shape s = { 16, 64, 4 };
    pw_require_memory(common->prog, "-b", o->batch * o->steps, (size_t)(s.d + s.o) * sizeof(float), 3);
    ld_config c = { s, (size_t)o->batch, (int)o->steps, 2024, (int)o->rounds, (float)o->noise };
    ld_dataset_init(ds, &c);
}

#endif
