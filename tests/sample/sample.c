/* The demo program of README's first command: a small workload with a
   call graph that is easy to check by eye.  main builds a table of
   words, counts them in a hash table, sorts the counts with qsort and a
   callback, and computes Fibonacci numbers recursively.  Functions are
   noinline so that every call in the source is a call in the binary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define NBUCKETS 1024

struct entry { const char *word; unsigned count; struct entry *next; };

static struct entry *buckets[NBUCKETS];

static NOINLINE unsigned hash_word(const char *w)
{
   unsigned h = 5381;
   while (*w)
      h = h * 33u + (unsigned char)*w++;
   return h % NBUCKETS;
}

static NOINLINE void count_word(const char *w)
{
   unsigned h = hash_word(w);
   struct entry *e;
   for (e = buckets[h]; e; e = e->next)
      if (strcmp(e->word, w) == 0) {
         e->count++;
         return;
      }
   e = malloc(sizeof *e);
   if (!e)
      abort();
   e->word = w;
   e->count = 1;
   e->next = buckets[h];
   buckets[h] = e;
}

static NOINLINE int by_count(const void *a, const void *b)
{
   const struct entry *x = *(const struct entry *const *)a;
   const struct entry *y = *(const struct entry *const *)b;
   if (x->count != y->count)
      return x->count < y->count ? 1 : -1;
   return strcmp(x->word, y->word);
}

static NOINLINE unsigned long fib(unsigned n)
{
   return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
   static const char *words[] = { "call", "graph", "jump", "return", "frame",
                                  "stack", "call", "edge", "call", "frame" };
   struct entry *all[NBUCKETS];
   size_t n = 0, i;
   int round;

   for (round = 0; round < 2000; round++)
      for (i = 0; i < sizeof words / sizeof words[0]; i++)
         count_word(words[i]);
   for (i = 0; i < NBUCKETS; i++) {
      struct entry *e;
      for (e = buckets[i]; e; e = e->next)
         all[n++] = e;
   }
   qsort(all, n, sizeof all[0], by_count);
   for (i = 0; i < n && i < 3; i++)
      printf("%-8s %u\n", all[i]->word, all[i]->count);
   printf("fib(22) = %lu\n", fib(22));
   return 0;
}
