/* 4 threads: main -> spawn 1; each thread runs worker (started by libc,
   so no caller in this program), which calls work_item 5 times. */
// e2e-ldflags: -pthread
#include <pthread.h>
#include <stdio.h>
#include "fixture.h"

static int results[4];

NOIPA int work_item(int t, int i) { return t * 10 + i; }

NOIPA void *worker(void *arg)
{
   int t = *(int *)arg, s = 0;
   for (int i = 0; i < 5; i++)
      s += work_item(t, i);
   results[t] = s;
   return NULL;
}

NOIPA void spawn(void)
{
   pthread_t th[4];
   int id[4];
   for (int t = 0; t < 4; t++) {
      id[t] = t;
      pthread_create(&th[t], NULL, worker, &id[t]);
   }
   for (int t = 0; t < 4; t++)
      pthread_join(th[t], NULL);
}

int main(void)
{
   spawn();
   printf("%d\n", results[0] + results[1] + results[2] + results[3]);
   return 0;
}
