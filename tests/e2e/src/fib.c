/* Recursion: fib(15) makes 2*fib(16)-1 = 1973 calls, 1 from main and
   1972 from fib itself. */
#include <stdio.h>
#include "fixture.h"

NOIPA int fib(int n)
{
   if (n < 2)
      return n;
   return fib(n - 1) + fib(n - 2);
}

int main(void)
{
   printf("%d\n", fib(15));
   return 0;
}
