/* The package test's program: its function names can only come from a
   separate debug file, which the test puts in a build-id tree named by
   NIX_DEBUG_INFO_DIRS (tests/package/run.sh). */
#include <stdio.h>

__attribute__((noinline)) static int pkgfx_leaf(int i)
{
   return i * 3 + 1;
}

__attribute__((noinline)) static int pkgfx_outer(int n)
{
   int i, sum = 0;
   for (i = 0; i < n; i++)
      sum += pkgfx_leaf(i);
   return sum;
}

int main(void)
{
   printf("%d\n", pkgfx_outer(100));
   return 0;
}
