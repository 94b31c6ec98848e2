/* A benchmark harness that starts instrumentation late, as benchmark
   runners do.  Callgrind runs with --instr-atstart=no, main hands
   bench_sum to runner_run of librunner.so, whose runner_run ->
   runner_setup -> runner_measure switches instrumentation on
   (CALLGRIND_START_INSTRUMENTATION) and calls bench_sum 3 times.
   The runner is object-skipped (--obj-skip), so none of its functions
   appears as fn= or cfn= ('e2e-absent'), and its calls are charged to
   main, the nearest caller that is not skipped:
   main -> bench_sum 3, bench_sum -> sum_to 3, sum_to -> square 3+4+5 = 12
   (sum_to(n) squares 1..n, for n = 3, 4, 5), and after the runner
   returns, main -> report 1.  What ran before the switch (main ->
   runner_run) is not counted.

   Upstream has no --obj-skip.  Its nearest option is --fn-skip with the
   runner's function names ('e2e-upstream-vgopts'); that is what a runner
   there can do, and the check shows whether they still leak. */
// e2e-lib: librunner
// e2e-vgopts: --instr-atstart=no --obj-skip=*/librunner.so
// e2e-upstream-vgopts: --instr-atstart=no --fn-skip=runner_*
// e2e-absent: runner_
#include <stdio.h>
#include "fixture.h"

typedef int bench_fn(int);
int runner_run(bench_fn *bench, int reps);

NOIPA int square(int x) { return x * x; }

NOIPA int sum_to(int n)
{
   int s = 0;
   for (int i = 1; i <= n; i++)
      s += square(i);
   return s;
}

NOIPA int bench_sum(int i) { return sum_to(i + 3); }

NOIPA void report(int r) { printf("%d\n", r); }

int main(void)
{
   report(runner_run(bench_sum, 3));
   return 0;
}
