// e2e-cflags: -foptimize-sibling-calls
/* Tail-call chains: built with sibling calls allowed, so at -O2 t1, t2
   and t3 end in a jump (x86_64 jmp, arm64 b), not a call.  The program
   still calls t1 -> t2 -> t3 -> leaf 10 times. */
#include <stdio.h>
#include "fixture.h"

NOIPA int leaf(int x) { return x * 7 + 3; }
NOIPA int t3(int x) { return leaf(x + 1); }
NOIPA int t2(int x) { return t3(x + 1); }
NOIPA int t1(int x) { return t2(x + 1); }

int main(void)
{
   int s = 0;
   for (int i = 0; i < 10; i++)
      s += t1(i);
   printf("%d\n", s);
   return 0;
}
