/* Shared by the e2e fixtures.  NOIPA keeps a function a real function at
   -O2: not inlined, not cloned (fib.constprop.0), not split (.part.0), so
   every call in the source is a call in the binary on both architectures
   and the hand-written expectation holds at -O0 and -O2 alike. */
#ifndef E2E_FIXTURE_H
#define E2E_FIXTURE_H
#define NOIPA __attribute__((noipa))
#endif
