/* setjmp/longjmp: trial() runs 3 times; each dives 4 levels
   (dive(3) .. dive(0)) and longjmps back out of all of them, then calls
   landed(). */
#include <setjmp.h>
#include <stdio.h>
#include "fixture.h"

static jmp_buf env;

NOIPA void dive(int n)
{
   if (n == 0)
      longjmp(env, 1);
   dive(n - 1);
}

NOIPA int landed(void) { return 1; }

NOIPA int trial(void)
{
   if (setjmp(env) == 0) {
      dive(3);
      return 0;
   }
   return landed();
}

int main(void)
{
   int s = 0;
   for (int i = 0; i < 3; i++)
      s += trial();
   printf("%d\n", s);
   return 0;
}
