// Virtual calls: total() calls area() through the vtable on 2 circles
// and 2 squares; main calls total() 3 times: 6 calls to each area().
// The shapes are constant-initialized statics without destructors, so
// no constructor or destructor runs (at -O0 they would be calls).
#include <cstdio>
#include "fixture.h"

struct Shape {
   virtual double area() const = 0;
};
struct Circle : Shape {
   double r;
   constexpr explicit Circle(double r) : r(r) {}
   NOIPA double area() const override { return 3.14159 * r * r; }
};
struct Square : Shape {
   double s;
   constexpr explicit Square(double s) : s(s) {}
   NOIPA double area() const override { return s * s; }
};

NOIPA double total(Shape *const *v, int n)
{
   double t = 0;
   for (int i = 0; i < n; i++)
      t += v[i]->area();
   return t;
}

int main()
{
   static Circle c1(1), c2(2);
   static Square s1(1), s2(3);
   static Shape *const v[4] = { &c1, &s1, &c2, &s2 };
   double t = 0;
   for (int i = 0; i < 3; i++)
      t += total(v, 4);
   std::printf("%.2f\n", t);
   return 0;
}
