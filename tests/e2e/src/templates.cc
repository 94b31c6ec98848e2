// Templates: apply<T> calls twice<T>; main calls apply<int> 3 times and
// apply<double> 2 times.
#include <cstdio>
#include "fixture.h"

template <typename T> NOIPA T twice(T x) { return x + x; }
template <typename T> NOIPA T apply(T x) { return twice(x) + 1; }

int main()
{
   int si = 0;
   double sd = 0;
   for (int i = 0; i < 3; i++)
      si += apply(i);
   for (int i = 0; i < 2; i++)
      sd += apply(i + 0.5);
   std::printf("%d %.1f\n", si, sd);
   return 0;
}
