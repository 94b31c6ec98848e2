/* A small program for tests/stacks-valgrind.sh, whose exact stacks are
 * known: four threads run worker (recursion in fib), which main never
 * calls; main calls spin from a and from b, 100 times more from a; a
 * SIGUSR1 handler runs while main is in raise(). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

static volatile long sink;

static long __attribute__((noinline)) fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void *worker(void *arg)
{
	sink += fib(16 + (int)(long)arg);
	return NULL;
}

static void __attribute__((noinline)) spin(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

static void __attribute__((noinline)) a(void)
{
	spin(100000);
}

static void __attribute__((noinline)) b(void)
{
	spin(1000);
}

static void on_usr1(int sig)
{
	(void)sig;
	spin(5000);
}

int main(void)
{
	pthread_t t[4];
	long i;

	signal(SIGUSR1, on_usr1);
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	a();
	b();
	raise(SIGUSR1);
	printf("%ld\n", sink);
	return 0;
}
