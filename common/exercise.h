/* common/exercise.h: what exercise skeletons and checkers share.
 *
 * A skeleton's unfinished function calls PW_NOT_YET_IMPLEMENTED(), which
 * says so in one line and exits 1: the checker reports "not yet
 * implemented" instead of crashing on an empty result.
 *
 * A checker is a program like any other (exit 0 pass, 1 wrong, 2 usage):
 *
 *   int main(int argc, char **argv)
 *   {
 *       pw_ex_begin(argc, argv);       // --help, bad arguments, how it is graded
 *       ... try the learner's code, pw_ex_fail() on the first mistake ...
 *       return pw_ex_pass("...");      // PASS, unless the build found a rule broken
 *   }
 *
 * What the build found out about the learner's object file (tools/ex_inspect.sh
 * writes it into the checker as pw_ex_this): a call into the reference or
 * the library's own answer, object code without the instructions the
 * exercise is about, whether it runs under ThreadSanitizer. */
#ifndef PW_EXERCISE_H
#define PW_EXERCISE_H

#include <stdio.h>
#include <stdlib.h>

#define PW_NOT_YET_IMPLEMENTED() \
    do { fprintf(stderr, "not yet implemented: %s() in %s\n", __func__, __FILE__); exit(1); } while (0)

/* Generated per checker by tools/ex_inspect.sh (BUILD/ex|sol/ID/facts.c). */
typedef struct {
    const char *id;            /* "3.1" */
    const char *file;          /* the graded file, as make names it */
    const char *violation;     /* NULL, or one line: which rule the object file breaks */
    int violation_first;       /* 1: report it before any test (a call into the reference:
                                * wrong whatever the results), 0: after all passed */
    const char *hint;          /* NULL, or what to do about it (may hold several lines) */
    const char *notes;         /* lines printed first: how this build grades (sanitizer, object-code checks) */
    const char *preprocessed;  /* the learner's file as the compiler reads it (cc -E), or NULL */
    const char *omp_tool;      /* an OpenMP tool (LLVM's libarcher) that lets ThreadSanitizer see OpenMP, or NULL */
} pw_ex_facts;
extern const pw_ex_facts pw_ex_this;

/* Start of every checker's main: `--help` prints what the checker is and
 * exits 0; any other argument gets one line on stderr and exit 2 (a checker
 * takes none). Then stdout is unbuffered (what was printed survives a
 * crash) and the build's notes are printed; a file that calls what it was
 * asked to write is failed here, before any test runs it. */
void pw_ex_begin(int argc, char **argv);

/* For checkers that print a progress line per case ("  n = 17     ") and
 * then "ok" or, through this, "wrong" and one line "FAIL: <why>", the line
 * tools/grade.sh quotes in its verdict. */
void pw_ex_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The end of a checker whose every test passed: "PASS: <fmt>" and 0, or,
 * when the build found the object file breaking a rule of the exercise
 * (it calls the reference, has no vector instructions ...), "FAIL: ..."
 * and 1. Use as `return pw_ex_pass(...)`. */
int pw_ex_pass(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* UNDER_SANITIZER: defined when the checker is built with ASan or TSan
 * (gcc names them __SANITIZE_*__, clang through __has_feature). A checker
 * that judges speed skips that part there: the sanitizer slows the
 * learner's loop and the reference differently. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

#endif
