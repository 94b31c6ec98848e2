/* source-prog.h - an inline function: its lines are in this file (fi=),
 * its cost in the functions it is inlined into. */
static inline __attribute__((always_inline)) int mix(int a, int b)
{
	int r = a * 31;

	r ^= b;
	return r + (a >> 3);
}
