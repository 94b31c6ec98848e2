/* Calls into a shared library of ours (libplt.c) through the PLT
   sections of binaries built with -fcf-protection and an IBT-enabled
   PLT, as Ubuntu and Fedora build theirs: main -> lib_add 10 times
   through a .plt.sec stub, and main -> lib_scale 10 times through a
   .plt.got stub (main also takes lib_scale's address, so its GOT entry
   is in .got); each lib_add -> lib_scale once, through the library's
   own PLT.  x86 only: other targets have neither section. */
// e2e-lib: libplt
// e2e-arch: x86_64
// e2e-cflags: -fcf-protection -Wl,-z,ibtplt
#include <stdio.h>

int lib_add(int a, int b);
int lib_scale(int x);

int (*volatile scale_fn)(int) = lib_scale;

int main(void)
{
   int s = 0;
   for (int i = 0; i < 10; i++)
      s = lib_add(s, i) + lib_scale(i);
   printf("%d\n", s);
   return 0;
}
