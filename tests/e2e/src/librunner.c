/* The benchmark runner of latestart.c: a shared library, as harnesses
   are.  runner_run -> runner_setup -> runner_measure, and runner_measure
   switches instrumentation on and calls the benchmark REPS times.  The
   runner's own functions call each other through its PLT (they are
   exported), like a real harness's do. */
#include <valgrind/callgrind.h>
#include "fixture.h"

typedef int bench_fn(int);

NOIPA int runner_measure(bench_fn *bench, int reps)
{
   int sum = 0;
   CALLGRIND_START_INSTRUMENTATION;
   for (int i = 0; i < reps; i++)
      sum += bench(i);
   return sum;
}

NOIPA int runner_setup(bench_fn *bench, int reps) { return runner_measure(bench, reps) + 1; }

NOIPA int runner_run(bench_fn *bench, int reps) { return runner_setup(bench, reps) + 1; }
