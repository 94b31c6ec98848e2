/* Estimated cycles (patch 0034, --cycle-estimation=yes): main calls divs
   and adds 3 times each.  The call graph is unchanged by the option, and
   the exact stacks add up to the totals of every event, Ct and Cl
   included.  x86_64 and arm64 have cycle tables; pristine upstream has
   no such option. */
// e2e-arch: x86_64 arm64
// e2e-vgopts: --cycle-estimation=yes
// e2e-upstream-vgopts:
#include <stdio.h>
#include "fixture.h"

static volatile unsigned long divisor = 7;

NOIPA unsigned long divs(unsigned long d)
{
   unsigned long x = ~0UL;
   for (unsigned long i = 0; i < 1000; i++) x = x / d + i;
   return x;
}

NOIPA unsigned long adds(unsigned long d)
{
   unsigned long x = ~0UL;
   for (unsigned long i = 0; i < 1000; i++) { x = x + d + i; __asm__ __volatile__("" : "+r"(x)); }
   return x;
}

int main(void)
{
   unsigned long s = 0;
   for (int i = 0; i < 3; i++)
      s += divs(divisor) ^ adds(divisor);
   printf("%lu\n", s & 1);
   return 0;
}
