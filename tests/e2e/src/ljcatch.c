/* A longjmp out of a benchmark back into the harness that called it, a
   shared library skipped with --obj-skip (libcatcher.c): bench_a calls
   work, then fails (catcher_fail longjmps back into catcher_run), and
   the harness calls bench_b, which calls work twice.  With the harness
   skipped, both benchmarks are main's callees; bench_a's frame is left
   by the longjmp, so bench_b is not its callee.  Where calls do not
   move SP (arm64), the frame left was only found when main was the
   landing function (patch 0018 matches it by its return address, which
   lies in the harness). */
// e2e-lib: libcatcher
// e2e-vgopts: --obj-skip=*/libcatcher.so
// e2e-upstream-vgopts: --fn-skip=catcher_*
// e2e-absent: catcher_
#include <stdio.h>
#include "fixture.h"

extern void catcher_run(void (*a)(void), void (*b)(void));
extern void catcher_fail(void);

static volatile int sink;

NOIPA void work(void) { sink++; }
NOIPA void bench_a(void) { work(); catcher_fail(); sink++; }
NOIPA void bench_b(void) { work(); work(); sink++; }

int main(void)
{
   catcher_run(bench_a, bench_b);
   printf("%d\n", sink);
   return 0;
}
