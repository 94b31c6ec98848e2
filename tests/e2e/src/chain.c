/* A call chain main -> a -> b -> c -> d, 10 times. */
#include <stdio.h>
#include "fixture.h"

NOIPA int d(int x) { return x * 3 + 1; }
NOIPA int c(int x) { return d(x) + 1; }
NOIPA int b(int x) { return c(x) + 1; }
NOIPA int a(int x) { return b(x) + 1; }

int main(void)
{
   int s = 0;
   for (int i = 0; i < 10; i++)
      s += a(i);
   printf("%d\n", s);
   return 0;
}
