/* A small program with a known call graph for tests/annotate-compare.sh
 * and tests/annotate-functions.sh:
 * plain calls, a loop, recursion, mutual recursion, a call through a
 * function pointer and calls into libc. */
#include <stdio.h>
#include <string.h>
#ifdef LATE_START     /* tests/annotate-functions.sh: a late start */
#include <valgrind/callgrind.h>
#endif

static int leaf(int x)
{
	return x * 3 + 1;
}

static int twice(int x)
{
	return leaf(x) + leaf(x + 1);
}

static int fact(int n)
{
	return n <= 1 ? 1 : n * fact(n - 1);
}

static int is_odd(int n);

static int is_even(int n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

static int is_odd(int n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

static int apply(int (*f)(int), int x)
{
	return f(x);
}

int main(int argc, char **argv)
{
	int sum = 0, i;

#ifdef LATE_START
	/* run with --instr-atstart=no: instrumentation starts here, and
	 * the cost of the first call is zeroed */
	CALLGRIND_START_INSTRUMENTATION;
	sum += twice(99);
	CALLGRIND_ZERO_STATS;
#endif
	for (i = 0; i < 50; i++)
		sum += twice(i);
	sum += fact(10) + is_even(17) + apply(leaf, argc);
	sum += (int)strlen(argv[0]);
	printf("%d\n", sum);
	return 0;
}
