/* __thread access in a shared library (libtls.c): the library is built
   -fPIC, so its TLS goes through __tls_get_addr (x86_64) or a TLS
   descriptor (arm64).  main -> tls_bump 10 times, tls_bump -> tls_slot
   10 times (a static function: a direct call). */
// e2e-lib: libtls
#include <stdio.h>

int tls_bump(void);

int main(void)
{
   int s = 0;
   for (int i = 0; i < 10; i++)
      s += tls_bump();
   printf("%d\n", s);
   return 0;
}
