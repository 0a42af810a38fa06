/* common/simt/cuda/helper_string.h: the command-line helpers of cuda-samples'
 * Common/helper_string.h that sample programs use, on the SIMT emulator.
 * A flag is written -name, --name, -name=value or --name=value. */
#ifndef PW_CUDA_HELPER_STRING_H
#define PW_CUDA_HELPER_STRING_H

#include <stdlib.h>
#include <string.h>

/* The argument's text after its leading dashes. */
static inline int stringRemoveDelimiter(char delimiter, const char *string)
{
    int i = 0;
    while (string[i] == delimiter)
        i++;
    return i;
}
/* argv[i] names the flag (before any '='): its value, or "" without one; NULL if no argument does. */
static inline const char *pw_find_flag(const int argc, const char **argv, const char *name)
{
    size_t n = strlen(name);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i] + stringRemoveDelimiter('-', argv[i]);
        if (a != argv[i] && strncmp(a, name, n) == 0 && (a[n] == '\0' || a[n] == '='))
            return a[n] == '=' ? a + n + 1 : a + n;
    }
    return NULL;
}
static inline bool checkCmdLineFlag(const int argc, const char **argv, const char *name)
{
    return pw_find_flag(argc, argv, name) != NULL;
}
static inline int getCmdLineArgumentInt(const int argc, const char **argv, const char *name)
{
    const char *v = pw_find_flag(argc, argv, name);
    return v ? atoi(v) : 0;
}
static inline float getCmdLineArgumentFloat(const int argc, const char **argv, const char *name)
{
    const char *v = pw_find_flag(argc, argv, name);
    return v ? (float)atof(v) : 0.0f;
}
static inline bool getCmdLineArgumentString(const int argc, const char **argv, const char *name, char **value)
{
    const char *v = pw_find_flag(argc, argv, name);
    if (v && *v)
        *value = (char *)v;
    return v && *v;
}

#endif
