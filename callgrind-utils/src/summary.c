/* summary.c - not written yet. */
#include <callgrind-utils/callgrind-utils.h>
