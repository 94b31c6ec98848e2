/* A diamond: top calls left and right, both call bottom; 5 times. */
#include <stdio.h>
#include "fixture.h"

NOIPA int bottom(int x) { return x ^ 0x55; }
NOIPA int left(int x) { return bottom(x) + 1; }
NOIPA int right(int x) { return bottom(x) - 1; }
NOIPA int top(int x) { return left(x) * right(x); }

int main(void)
{
   int s = 0;
   for (int i = 0; i < 5; i++)
      s += top(i);
   printf("%d\n", s);
   return 0;
}
