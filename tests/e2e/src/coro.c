/* Coroutines: ping and pong run on stacks of their own (makecontext,
   two 64 KiB stacks next to each other in one mapping) and are resumed
   in turn by main's scheduler, 4 rounds each; each round but the last
   does its work (work_a, work_b) and yields back (swapcontext).  In the
   last round each returns, and glibc switches to the scheduler.  A
   coroutine's calls are its own: swapcontext does not call ping or
   pong, yield does not call them back, and no function is a recursion
   clone because it runs in two coroutines at once. */
#include <stdio.h>
#include <sys/mman.h>
#include <ucontext.h>
#include "fixture.h"

#define ROUNDS 3
#define STACK (64 * 1024)

static ucontext_t sched_ctx, ping_ctx, pong_ctx;
static ucontext_t* running;
static volatile long sink;

NOIPA void work_a(void) { for (int i = 0; i < 1000; i++) sink += i; }
NOIPA void work_b(void) { for (int i = 0; i < 2000; i++) sink ^= i; }

NOIPA void yield(void) { swapcontext(running, &sched_ctx); }

NOIPA void ping(void)
{
   for (int i = 0; i < ROUNDS; i++) { work_a(); yield(); }
}

NOIPA void pong(void)
{
   for (int i = 0; i < ROUNDS; i++) { work_b(); yield(); }
}

NOIPA void resume(ucontext_t* c)
{
   running = c;
   swapcontext(&sched_ctx, c);
}

NOIPA void setup(ucontext_t* c, void (*fn)(void), char* stack)
{
   getcontext(c);
   c->uc_stack.ss_sp = stack;
   c->uc_stack.ss_size = STACK;
   c->uc_link = &sched_ctx;
   makecontext(c, fn, 0);
}

int main(void)
{
   /* a third stack's room on top: Valgrind does not unwind a stack that
      ends where its mapping ends */
   char* stacks = mmap(NULL, 3 * STACK, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (stacks == MAP_FAILED) return 1;
   setup(&ping_ctx, ping, stacks);
   setup(&pong_ctx, pong, stacks + STACK);
   for (int r = 0; r <= ROUNDS; r++) {
      resume(&ping_ctx);
      resume(&pong_ctx);
   }
   printf("%ld\n", sink);
   return 0;
}
