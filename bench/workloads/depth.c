/* Turns Callgrind's instrumentation on deep in the stack.
 *
 *   depth DEPTH CYCLES WORK
 *
 * CYCLES times: recurse DEPTH frames, CALLGRIND_START_INSTRUMENTATION,
 * WORK iterations of a small loop, CALLGRIND_STOP_INSTRUMENTATION (not
 * after the last cycle, so a single cycle leaves a profile), unwind.
 * Under --instr-atstart=no every START is the late start that a patched
 * Callgrind answers by seeding its call stack from the DEPTH native
 * frames; the cost of seeding is the wall-time difference between
 * DEPTH=256 and DEPTH=1, divided by CYCLES.  With --instr-atstart=yes
 * the first START is a no-op. */
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/callgrind.h>

static volatile unsigned long sink;

static void __attribute__((noinline)) work(long n)
{
   for (long i = 0; i < n; i++)
      sink += (unsigned long)i * 2654435761u;
}

static void __attribute__((noinline)) dive(int depth, long n, int last)
{
   if (depth > 1) {
      dive(depth - 1, n, last);
      sink++;   /* not a tail call: the frame stays on the stack */
      return;
   }
   CALLGRIND_START_INSTRUMENTATION;
   work(n);
   if (!last)
      CALLGRIND_STOP_INSTRUMENTATION;
}

int main(int argc, char **argv)
{
   if (argc != 4) {
      fprintf(stderr, "usage: depth DEPTH CYCLES WORK\n");
      return 2;
   }
   int depth = atoi(argv[1]), cycles = atoi(argv[2]);
   long n = atol(argv[3]);
   if (depth < 1 || cycles < 1 || n < 0) {
      fprintf(stderr, "depth: DEPTH and CYCLES must be >= 1, WORK >= 0\n");
      return 2;
   }
   for (int c = 0; c < cycles; c++)
      dive(depth, n, c == cycles - 1);
   printf("%lu\n", sink);
   return 0;
}
