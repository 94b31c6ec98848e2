/* The shared library of tls.c. */
#include "fixture.h"

__thread int counter;

static NOIPA int *tls_slot(void) { return &counter; }

NOIPA int tls_bump(void)
{
   int *p = tls_slot();
   return ++*p;
}
