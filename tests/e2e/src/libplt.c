/* The shared library of plt.c. */
#include "fixture.h"

NOIPA int lib_scale(int x) { return x * 2; }
NOIPA int lib_add(int a, int b) { return a + lib_scale(b); }
