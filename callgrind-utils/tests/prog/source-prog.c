/* source-prog.c - profiled by tests/annotate-source.sh: loops, calls on
 * one line, recursion, a call through a pointer, libc, and code inlined
 * from source-prog.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "source-prog.h"

static int square(int x)
{
	return x * x;
}

static int sum_squares(int n)
{
	int s = 0, i;

	for (i = 0; i < n; i++)
		s += square(i);
	return s;
}

static int depth(int n)
{
	if (n == 0)
		return 0;
	return 1 + depth(n - 1);
}

static int call(int (*f)(int), int x)
{
	return f(x);
}

int main(int argc, char **argv)
{
	int total = 0, i;
	char *buf = malloc(64);

	for (i = 0; i < 20; i++)
		total += sum_squares(i) + mix(i, total);
	total += depth(5) + call(square, argc) + call(depth, 3);
	memset(buf, total & 0x7f, 64);
	total += (int)strlen(argv[0]) + buf[3];
	free(buf);
	printf("%d\n", total);
	return 0;
}
