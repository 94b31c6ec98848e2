// An exception thrown through 3 frames: main -> f1 -> f2 -> f3, which
// throws; main catches it.  Twice.
#include <cstdio>
#include <stdexcept>
#include "fixture.h"

NOIPA void f3(int n) { throw std::runtime_error(n ? "odd" : "even"); }
NOIPA void f2(int n) { f3(n); std::puts("not reached"); }
NOIPA void f1(int n) { f2(n); std::puts("not reached"); }

int main()
{
   int caught = 0;
   for (int i = 0; i < 2; i++) {
      try {
         f1(i);
      } catch (const std::exception &) {
         caught++;
      }
   }
   std::printf("%d\n", caught);
   return 0;
}
