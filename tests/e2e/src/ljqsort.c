/* A longjmp out of a qsort callback: the first call of cmp, made by
   libc's qsort (called through the PLT), longjmps back into main, which
   then calls after() 1000 times.  The frames of qsort, of the PLT stub
   it was called through and of cmp are left by the longjmp: main's loop
   is main's, with its 1000 calls counted, not cost of the qsort call.
   Where calls do not move SP (arm64, riscv64), the skipped PLT stub's
   frame below qsort's stayed on the shadow stack before patch 0018, and
   main's loop was charged as skipped cost at the qsort call site. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include "fixture.h"

static jmp_buf env;

NOIPA int cmp(const void* a, const void* b)
{
   (void)a; (void)b;
   longjmp(env, 1);
}

NOIPA int after(int i) { return i * 2; }

int main(void)
{
   int v[8] = { 5, 3, 8, 1, 9, 2, 7, 4 };
   long s = 0;
   if (!setjmp(env))
      qsort(v, 8, sizeof v[0], cmp);
   for (int i = 0; i < 1000; i++)
      s += after(i);
   printf("%ld\n", s);
   return 0;
}
