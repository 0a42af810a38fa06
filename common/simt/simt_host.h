/* common/simt/simt_host.h: the workbook's host-side helpers, for a .cu driver.
 *
 * A .cu driver is C++ (for nvcc, and for tools/pwcc on the emulator).
 * common/ is C: under C++ its declarations must say so (extern "C"), or the
 * linker looks for C++ names that libpw.a does not have. Include this instead of the individual headers. */
#ifndef PW_SIMT_HOST_H
#define PW_SIMT_HOST_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif
#include "check.h"
#include "options.h"
#include "results.h"
#include "timing.h"
#include "util.h"
#ifdef __cplusplus
}
#endif

#include "simt.h"

#endif
