// Deep recursion and many small calls, C++ style: a binary tree built and
// walked recursively through virtual calls, and a mutually recursive
// descent thousands of frames deep.
//
//   recursion SCALE
//
// Instrumentation starts after the setup (the tree), so that under
// --instr-atstart=no the START comes with frames on the stack.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>
#include <valgrind/callgrind.h>

namespace {

struct Node {
   virtual ~Node() = default;
   virtual long sum() const = 0;
};

struct Leaf : Node {
   long v;
   explicit Leaf(long x) : v(x) {}
   long sum() const override { return v; }
};

struct Pair : Node {
   std::unique_ptr<Node> l, r;
   Pair(std::unique_ptr<Node> a, std::unique_ptr<Node> b) : l(std::move(a)), r(std::move(b)) {}
   long sum() const override { return l->sum() + r->sum(); }
};

std::unique_ptr<Node> build(int depth, long &next)
{
   if (depth == 0)
      return std::make_unique<Leaf>(next++);
   auto l = build(depth - 1, next);
   auto r = build(depth - 1, next);
   return std::make_unique<Pair>(std::move(l), std::move(r));
}

long odd(long n);
long __attribute__((noinline)) even(long n) { return n == 0 ? 1 : odd(n - 1) + 1; }
long __attribute__((noinline)) odd(long n) { return n == 0 ? 0 : even(n - 1) + 1; }

long __attribute__((noinline)) started(const Node &tree, int scale)
{
   CALLGRIND_START_INSTRUMENTATION;
   long total = 0;
   for (int i = 0; i < scale; i++) {
      total += tree.sum();
      total += even(5000 + i);
   }
   return total;
}

}  // namespace

int main(int argc, char **argv)
{
   int scale = argc > 1 ? std::atoi(argv[1]) : 0;
   if (scale < 1) {
      std::fprintf(stderr, "usage: recursion SCALE (>= 1)\n");
      return 2;
   }
   long next = 0;
   auto tree = build(12, next);
   std::printf("%ld\n", started(*tree, scale));
   return 0;
}
