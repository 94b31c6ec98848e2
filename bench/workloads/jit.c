/* A tiny JIT: writes machine code for 'return x * A + B' into an
 * executable mapping, calls it many times, and rewrites it with new
 * constants ROUNDS times, telling Valgrind to drop its translations each
 * time (VALGRIND_DISCARD_TRANSLATIONS, as JIT engines do).  The code has
 * no symbols and no object file: Callgrind sees anonymous addresses.
 *
 *   jit ROUNDS CALLS
 *
 * Instrumentation starts after the first code is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <valgrind/valgrind.h>
#include <valgrind/callgrind.h>

typedef long (*jit_fn)(long);

static size_t emit(unsigned char *p, unsigned a, unsigned b)
{
#if defined(__x86_64__)
   /* imul rax, rdi, imm32; add rax, imm32; ret */
   size_t n = 0;
   p[n++] = 0x48; p[n++] = 0x69; p[n++] = 0xc7;
   memcpy(p + n, &a, 4); n += 4;
   p[n++] = 0x48; p[n++] = 0x05;
   memcpy(p + n, &b, 4); n += 4;
   p[n++] = 0xc3;
   return n;
#elif defined(__aarch64__)
   /* movz x1, #a; mul x0, x0, x1; add x0, x0, #b; ret (a, b < 4096) */
   unsigned insn[4] = {
      0xd2800001u | ((a & 0xffffu) << 5),
      0x9b017c00u,
      0x91000000u | ((b & 0xfffu) << 10),
      0xd65f03c0u,
   };
   memcpy(p, insn, sizeof insn);
   __builtin___clear_cache((char *)p, (char *)p + sizeof insn);
   return sizeof insn;
#else
#error "jit.c: no code generator for this architecture"
#endif
}

int main(int argc, char **argv)
{
   int rounds = argc > 2 ? atoi(argv[1]) : 0;
   long calls = argc > 2 ? atol(argv[2]) : 0;
   if (rounds < 1 || calls < 1) {
      fprintf(stderr, "usage: jit ROUNDS CALLS (both >= 1)\n");
      return 2;
   }
   unsigned char *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (code == MAP_FAILED) {
      perror("jit: mmap");
      return 1;
   }
   long total = 0;
   for (int r = 0; r < rounds; r++) {
      size_t n = emit(code, 3 + (unsigned)r % 1000, 7 + (unsigned)r % 1000);
      VALGRIND_DISCARD_TRANSLATIONS(code, n);
      if (r == 0)
         CALLGRIND_START_INSTRUMENTATION;
      jit_fn f = (jit_fn)(void *)code;
      for (long i = 0; i < calls; i++)
         total += f(i);
   }
   printf("%ld\n", total);
   return 0;
}
