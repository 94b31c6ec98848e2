/* qsort with a callback.  glibc 2.36 sorts these 32 bytes with its
   merge sort (msort_with_tmp); for 8 sorted ints each merge of two
   halves of k compares k times: 4*1 + 2*2 + 1*4 = 12 compares.  Each
   compare calls key() twice: 24 calls, from code reached through libc. */
#include <stdio.h>
#include <stdlib.h>
#include "fixture.h"

NOIPA int key(const void *p) { return *(const int *)p; }

NOIPA int cmp(const void *a, const void *b)
{
   int ka = key(a), kb = key(b);
   return (ka > kb) - (ka < kb);
}

NOIPA void sort(int *v, size_t n) { qsort(v, n, sizeof *v, cmp); }

int main(void)
{
   int v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
   sort(v, 8);
   printf("%d %d\n", v[0], v[7]);
   return 0;
}
