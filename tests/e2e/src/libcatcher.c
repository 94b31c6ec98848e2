/* The harness of ljcatch.c: a shared library that runs two benchmarks
   and catches a longjmp out of the first (as a test framework catches a
   failed check), then runs the second. */
#include <setjmp.h>
#include "fixture.h"

typedef void bench_fn(void);

static jmp_buf catcher_env;
static volatile int catcher_state;

NOIPA void catcher_fail(void) { longjmp(catcher_env, 1); }

NOIPA void catcher_run(bench_fn *a, bench_fn *b)
{
   if (!setjmp(catcher_env))
      a();
   catcher_state++;
   b();
   catcher_state++;
}
