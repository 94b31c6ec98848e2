/* Mutual recursion: is_even(10) -> is_odd(9) -> is_even(8) ... ->
   is_even(0): 5 calls each way. */
#include <stdio.h>
#include "fixture.h"

NOIPA int is_odd(unsigned n);

NOIPA int is_even(unsigned n)
{
   if (n == 0)
      return 1;
   return is_odd(n - 1);
}

NOIPA int is_odd(unsigned n)
{
   if (n == 0)
      return 0;
   return is_even(n - 1);
}

int main(void)
{
   printf("%d\n", is_even(10));
   return 0;
}
