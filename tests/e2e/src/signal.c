/* A signal handler that calls functions: main -> send 3 times, each
   raises SIGUSR1; the handler (entered by the kernel, so with no caller
   in this program) calls on_signal, which calls tally. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "fixture.h"

static volatile sig_atomic_t count;

NOIPA void tally(void) { count++; }
NOIPA void on_signal(int sig) { if (sig == SIGUSR1) tally(); }
NOIPA void handler(int sig) { on_signal(sig); }
NOIPA void send(void) { raise(SIGUSR1); }

int main(void)
{
   struct sigaction sa;
   memset(&sa, 0, sizeof sa);
   sa.sa_handler = handler;
   sigaction(SIGUSR1, &sa, NULL);
   for (int i = 0; i < 3; i++)
      send();
   printf("%d\n", (int)count);
   return 0;
}
