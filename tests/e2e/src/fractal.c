// e2e-ldflags: -lm
/* A fractal: region() splits a square into 4 quadrants down to depth 3
   (1 + 4 + 16 + 64 = 85 calls: 1 from main, 84 from region) and
   evaluates point() at each of the 64 leaves, which calls libm. */
#include <math.h>
#include <stdio.h>
#include "fixture.h"

NOIPA double point(double x, double y)
{
   return sin(hypot(x, y)) * atan2(y, x + 2.0);
}

NOIPA double region(int depth, double x, double y, double size)
{
   double h = size / 2;
   if (depth == 0)
      return point(x + h, y + h);
   return region(depth - 1, x, y, h) + region(depth - 1, x + h, y, h) +
          region(depth - 1, x, y + h, h) + region(depth - 1, x + h, y + h, h);
}

int main(void)
{
   printf("%.3f\n", region(3, -1.0, -1.0, 2.0));
   return 0;
}
