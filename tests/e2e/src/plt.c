/* A call through the PLT into a shared library of ours (libplt.c):
   main -> lib_add 10 times, each lib_add -> lib_scale once (through the
   library's own PLT: lib_scale is exported). */
// e2e-lib: libplt
#include <stdio.h>

int lib_add(int a, int b);

int main(void)
{
   int s = 0;
   for (int i = 0; i < 10; i++)
      s = lib_add(s, i);
   printf("%d\n", s);
   return 0;
}
