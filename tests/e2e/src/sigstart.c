/* Instrumentation switched on inside a signal handler, two calls deep in
   it (Callgrind runs with --instr-atstart=no), as 'callgrind_control -i
   on' can land anywhere: main -> interrupted raises SIGUSR1; the handler
   calls outer -> inner, and inner starts instrumentation, then calls
   work.  Only the handler's frames are seeded, uncounted (handler ->
   outer 0, outer -> inner 0); the code the signal interrupted is not
   the handler's caller.  After the handler returns, interrupted calls
   work and returns into main, which was never seen calling it (an
   emulated call: main -> interrupted 1), then main calls work twice
   more through bench. */
// e2e-vgopts: --instr-atstart=no
// e2e-stacks: off the exact stacks hang the handler's seeded frames below [signal 10] and move main's frames below the emulated caller of interrupted, where the --separate-callers contexts of the profile keep handler and interrupted as roots (callgrind/tests/stacks-seed-signal checks the exact stacks of this case)
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <valgrind/callgrind.h>
#include "fixture.h"

static volatile long sink;

NOIPA void work(void) { for (int i = 0; i < 100; i++) sink += i; }

NOIPA void inner(void)
{
   CALLGRIND_START_INSTRUMENTATION;
   work();
}

NOIPA void outer(void) { inner(); work(); }
NOIPA void handler(int sig) { (void)sig; outer(); }
NOIPA void interrupted(void) { raise(SIGUSR1); work(); }
NOIPA void bench(void) { work(); work(); }

int main(void)
{
   struct sigaction sa;
   memset(&sa, 0, sizeof sa);
   sa.sa_handler = handler;
   sigaction(SIGUSR1, &sa, NULL);
   interrupted();
   bench();
   printf("%ld\n", sink);
   return 0;
}
