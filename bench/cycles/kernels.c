/* Small kernels for bench/cycles-bench: each does one kind of work n
 * times.  Run as
 *
 *   kernels NAME N      run kernel NAME with size N, print its time (ns)
 *   kernels --list      the kernel names
 *
 * The kernel runs inside run_kernel(), so that Callgrind can collect it
 * alone (--toggle-collect=run_kernel), and only it is instrumented
 * (--instr-atstart=no and the client requests around it, so that the
 * setup runs fast); the time is taken around it.
 * Each kernel returns a checksum that is printed, so that the compiler
 * keeps its work. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__has_include)
#  if __has_include(<valgrind/callgrind.h>)
#    include <valgrind/callgrind.h>
#  endif
#endif
#ifndef CALLGRIND_START_INSTRUMENTATION
#  define CALLGRIND_START_INSTRUMENTATION
#  define CALLGRIND_STOP_INSTRUMENTATION
#endif

typedef uint64_t (*kernel_fn)(long n);

static volatile uint64_t seed = 12345;   /* unknown to the compiler */
#define KEEP(x) __asm__ __volatile__("" : "+r"(x))
#define KEEPF(x) __asm__ __volatile__("" : "+x"(x))

static uint64_t xorshift(uint64_t* s)
{
   *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
   return *s;
}

static uint64_t k_int_add_chain(long n)
{
   uint64_t x = seed;
   for (long i = 0; i < n; i++) { x += i; KEEP(x); }
   return x;
}

static uint64_t k_int_add_ilp(long n)
{
   uint64_t a = seed, b = a + 1, c = a + 2, d = a + 3;
   for (long i = 0; i < n; i++) {
      a += i; b ^= i; c += a; d ^= b;
      KEEP(a); KEEP(b); KEEP(c); KEEP(d);
   }
   return a + b + c + d;
}

static uint64_t k_int_mul_chain(long n)
{
   uint64_t x = seed | 1;
   for (long i = 0; i < n; i++) { x *= 0x9E3779B97F4A7C15ULL; KEEP(x); }
   return x;
}

static uint64_t k_int_div32(long n)
{
   uint32_t x = (uint32_t)seed | 0x80000000u, d = (uint32_t)seed % 5 + 3;
   for (long i = 0; i < n; i++) { x = x / d + 0x7fffffffu; KEEP(x); }
   return x;
}

static uint64_t k_int_div64(long n)
{
   uint64_t x = seed | (1ULL << 63), d = seed % 5 + 3;
   for (long i = 0; i < n; i++) { x = x / d + (1ULL << 62) + (1ULL << 61); KEEP(x); }
   return x;
}

static uint64_t k_int_mod_const(long n)
{
   uint64_t x = seed, s = 0;
   for (long i = 0; i < n; i++) { s += (x + i) % 10; KEEP(s); }
   return s;
}

static uint64_t k_fp_add_chain(long n)
{
   double x = (double)seed;
   for (long i = 0; i < n; i++) { x += 1.5; KEEPF(x); }
   return (uint64_t)x;
}

static uint64_t k_fp_mul_chain(long n)
{
   double x = 1.0 + (double)(seed & 1);
   for (long i = 0; i < n; i++) { x *= 1.0000001; KEEPF(x); }
   return (uint64_t)x;
}

static uint64_t k_fp_div_chain(long n)
{
   double x = 1e300 + (double)seed;
   for (long i = 0; i < n; i++) { x = x / 1.0000001 + 1.0; KEEPF(x); }
   return (uint64_t)x;
}

static uint64_t k_fp_sqrt_chain(long n)
{
   double x = 2.0 + (double)(seed & 7);
   for (long i = 0; i < n; i++) { x = sqrt(x) + 1.0; KEEPF(x); }
   return (uint64_t)(x * 1000);
}

static uint64_t k_fp_horner(long n)
{
   double s = 0, x = 0.5 + (double)(seed & 1) / 4;
   for (long i = 0; i < n; i++) {
      double p = ((((1.1 * x + 2.2) * x + 3.3) * x + 4.4) * x + 5.5) * x + 6.6;
      s += p; x += 1e-9; KEEPF(x);
   }
   return (uint64_t)s;
}

static uint64_t k_fp_libm_exp(long n)
{
   double s = 0;
   for (long i = 0; i < n; i++) s += exp((double)(i & 1023) * 1e-3);
   return (uint64_t)s;
}

static float fa[4096], fb[4096];

static uint64_t k_simd_sum(long n)
{
   float s = 0;
   for (long r = 0; r < n; r++) {
      for (int i = 0; i < 4096; i++) fa[i] += fb[i];
      KEEP(r);
   }
   for (int i = 0; i < 4096; i++) s += fa[i];
   return (uint64_t)s;
}

static uint64_t k_simd_dot(long n)
{
   float s = 0;
   for (long r = 0; r < n; r++) {
      float t = 0;
      for (int i = 0; i < 4096; i++) t += fa[i] * fb[i];
      s += t;
      KEEP(r);
   }
   return (uint64_t)s;
}

static uint64_t* big;
#define BIG_WORDS (8L << 20)    /* 64 MiB */

static uint64_t k_mem_seq(long n)
{
   uint64_t s = 0;
   for (long r = 0; r < n; r++)
      for (long i = 0; i < BIG_WORDS; i += 8) s += big[i];
   return s;
}

static uint64_t k_mem_chase(long n)
{
   uint64_t p = 0;
   for (long i = 0; i < n; i++) p = big[p];
   return p;
}

static uint64_t k_mem_memcpy(long n)
{
   static char src[1 << 20], dst[1 << 20];
   uint64_t s = 0;
   for (long r = 0; r < n; r++) { memcpy(dst, src, sizeof src); s += dst[r & 1023]; KEEP(s); }
   return s;
}

static uint64_t k_branch_predictable(long n)
{
   uint64_t s = 0;
   for (long i = 0; i < n; i++) {
      if ((i & 7) == 0) s += 3; else s ^= i;
      KEEP(s);
   }
   return s;
}

static unsigned char* rnd;
#define RND_BYTES (1 << 20)

static uint64_t k_branch_random(long n)
{
   uint64_t s = 0;
   for (long i = 0; i < n; i++) {
      if (rnd[i & (RND_BYTES - 1)] & 1) s += i; else s ^= i * 3;
      KEEP(s);
   }
   return s;
}

static char* text;
#define TEXT_BYTES (64 << 10)

static uint64_t k_str_strlen(long n)
{
   uint64_t s = 0;
   for (long r = 0; r < n; r++) { s += strlen(text + (r & 63)); KEEP(s); }
   return s;
}

static uint64_t k_str_strcmp(long n)
{
   static char a[TEXT_BYTES], b[TEXT_BYTES];
   uint64_t s = 0;
   memcpy(a, text, TEXT_BYTES); memcpy(b, text, TEXT_BYTES);
   /* strcmp is pure: without hiding a from the compiler, it would
    * compare once for the whole loop */
   for (long r = 0; r < n; r++) { char* pa = a; KEEP(pa); s += (uint64_t)strcmp(pa, b) + 1; KEEP(s); }
   return s;
}

static int cmp_int(const void* x, const void* y)
{
   int a = *(const int*)x, b = *(const int*)y;
   return (a > b) - (a < b);
}

static uint64_t k_qsort(long n)
{
   int* v = malloc(sizeof(int) * 65536);
   uint64_t st = seed, s = 0;
   for (long r = 0; r < n; r++) {
      for (int i = 0; i < 65536; i++) v[i] = (int)xorshift(&st);
      qsort(v, 65536, sizeof v[0], cmp_int);
      s += (uint64_t)v[r & 65535];
   }
   free(v);
   return s;
}

static uint64_t k_crc32_bitwise(long n)
{
   uint32_t c = 0xffffffffu;
   for (long i = 0; i < n; i++) {
      c ^= (uint32_t)i;
      for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
   }
   return c;
}

static uint64_t k_matmul(long n)
{
   enum { M = 96 };
   static double a[M][M], b[M][M], c[M][M];
   for (int i = 0; i < M; i++)
      for (int j = 0; j < M; j++) { a[i][j] = i + j; b[i][j] = i - j; }
   for (long r = 0; r < n; r++)
      for (int i = 0; i < M; i++)
         for (int j = 0; j < M; j++) {
            double t = 0;
            for (int k = 0; k < M; k++) t += a[i][k] * b[k][j];
            c[i][j] = t;
         }
   return (uint64_t)c[5][7];
}

static uint64_t k_hash_insert(long n)
{
   enum { SLOTS = 1 << 16 };
   static uint64_t keys[SLOTS];
   uint64_t st = seed, hits = 0;
   for (long i = 0; i < n; i++) {
      uint64_t k = (xorshift(&st) & 0xfffff) + 1, h = (k * 0x9E3779B97F4A7C15ULL) >> 48;
      /* emptied when half full: the probes stay short, and end */
      if ((i & (SLOTS / 2 - 1)) == 0) memset(keys, 0, sizeof keys);
      while (keys[h] && keys[h] != k) h = (h + 1) & (SLOTS - 1);
      hits += keys[h] == k;
      keys[h] = k;
   }
   return hits;
}

static const struct { const char* name; kernel_fn fn; } kernels[] = {
   { "int_add_chain", k_int_add_chain },
   { "int_add_ilp", k_int_add_ilp },
   { "int_mul_chain", k_int_mul_chain },
   { "int_div32", k_int_div32 },
   { "int_div64", k_int_div64 },
   { "int_mod_const", k_int_mod_const },
   { "fp_add_chain", k_fp_add_chain },
   { "fp_mul_chain", k_fp_mul_chain },
   { "fp_div_chain", k_fp_div_chain },
   { "fp_sqrt_chain", k_fp_sqrt_chain },
   { "fp_horner", k_fp_horner },
   { "fp_libm_exp", k_fp_libm_exp },
   { "simd_sum", k_simd_sum },
   { "simd_dot", k_simd_dot },
   { "mem_seq", k_mem_seq },
   { "mem_chase", k_mem_chase },
   { "mem_memcpy", k_mem_memcpy },
   { "branch_predictable", k_branch_predictable },
   { "branch_random", k_branch_random },
   { "str_strlen", k_str_strlen },
   { "str_strcmp", k_str_strcmp },
   { "qsort", k_qsort },
   { "crc32_bitwise", k_crc32_bitwise },
   { "matmul", k_matmul },
   { "hash_insert", k_hash_insert },
};

uint64_t run_kernel(kernel_fn fn, long n);

__attribute__((noinline))
uint64_t run_kernel(kernel_fn fn, long n)
{
   return fn(n);
}

static void setup(const char* name)
{
   uint64_t st = 88172645463325252ULL;
   if (strncmp(name, "mem_", 4) == 0) {
      big = malloc(BIG_WORDS * sizeof *big);
      /* a random cyclic permutation for the chase (Sattolo) */
      for (long i = 0; i < BIG_WORDS; i++) big[i] = i;
      for (long i = BIG_WORDS - 1; i > 0; i--) {
         long j = (long)(xorshift(&st) % (uint64_t)i);
         uint64_t t = big[i]; big[i] = big[j]; big[j] = t;
      }
   }
   rnd = malloc(RND_BYTES);
   for (long i = 0; i < RND_BYTES; i++) rnd[i] = (unsigned char)xorshift(&st);
   text = malloc(TEXT_BYTES + 64);
   for (long i = 0; i < TEXT_BYTES + 63; i++) text[i] = 'a' + (char)(i % 26);
   text[TEXT_BYTES + 63] = 0;
   for (int i = 0; i < 4096; i++) { fa[i] = (float)i * 0.5f; fb[i] = 1.0f / (float)(i + 1); }
}

int main(int argc, char** argv)
{
   size_t i;
   struct timespec t0, t1;

   if (argc == 2 && strcmp(argv[1], "--list") == 0) {
      for (i = 0; i < sizeof kernels / sizeof kernels[0]; i++) printf("%s\n", kernels[i].name);
      return 0;
   }
   if (argc != 3) { fprintf(stderr, "usage: kernels NAME N | --list\n"); return 2; }
   for (i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
      if (strcmp(kernels[i].name, argv[1]) == 0) break;
   if (i == sizeof kernels / sizeof kernels[0]) { fprintf(stderr, "no kernel %s\n", argv[1]); return 2; }
   setup(argv[1]);
   CALLGRIND_START_INSTRUMENTATION;
   clock_gettime(CLOCK_MONOTONIC, &t0);
   uint64_t r = run_kernel(kernels[i].fn, atol(argv[2]));
   clock_gettime(CLOCK_MONOTONIC, &t1);
   CALLGRIND_STOP_INSTRUMENTATION;
   printf("%lld %llu\n", (long long)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec)),
          (unsigned long long)r);
   return 0;
}
