/* plain.c - libsdplain.so, loaded with dlopen(3) by dlapp: nothing to do
 * with tracing, the same file for trax and LTTng-UST. */
int plain_add(int n)
{
	return n + 1;
}
