/* views-a.c and views-b.c: a program for tests/views-valgrind.sh.  Two
 * static functions check_match, one in each file, do different amounts
 * of work (1 to 3); main calls fib, which recurses, and both files'
 * entry points. */
static volatile long sink;

static __attribute__((noinline)) void check_match(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

void from_a(void)
{
	check_match(10000);
}

long __attribute__((noinline)) fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

void from_b(void);

int main(void)
{
	from_a();
	from_b();
	sink += fib(15);
	return 0;
}
