/* views-b.c: the other check_match (see views-a.c). */
static volatile long sink;

static __attribute__((noinline)) void check_match(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

void from_b(void)
{
	check_match(30000);
}
