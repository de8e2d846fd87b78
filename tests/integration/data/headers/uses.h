/*
 * uses.h - names of the system headers LTTng-UST's public headers include
 * (stdio.h, stdlib.h, string.h, strings.h, stdint.h, stddef.h, stdbool.h,
 * stdarg.h, unistd.h, dlfcn.h, sys/types.h, endian.h, alloca.h, assert.h,
 * syscall.h; <type_traits> in C++), used by a program that includes no
 * system header itself.
 * Included after an LTTng-UST header; it must include nothing.
 */
#if defined(EXPECT_TRAX) && !defined(TRAX_TRACEPOINT_H)
#error "built against another <lttng/tracepoint.h> than trax's"
#endif
#if defined(EXPECT_LTTNG) && !defined(_LTTNG_UST_TRACEPOINT_H)
#error "built against another <lttng/tracepoint.h> than LTTng-UST's"
#endif

#ifdef __cplusplus
/* <type_traits>, which LTTng-UST 2.13's headers bring to C++ programs. */
static_assert(std::is_same<uint32_t, unsigned int>::value && std::is_signed<int64_t>::value &&
		  !std::is_pointer<size_t>::value,
	      "std type traits");
#endif

struct uses_pair {
	char c;
	int i;
};

static __attribute__((unused)) int uses_va(const char *fmt, va_list ap)
{
	char buf[64];

	return vsnprintf(buf, sizeof(buf), fmt, ap);
}

static __attribute__((unused)) int uses_std_names(int argc, char **argv)
{
	/* stdint.h, stddef.h, stdbool.h, sys/types.h */
	uint32_t u32 = UINT32_MAX;
	int64_t i64 = INT64_MIN;
	uintptr_t up = (uintptr_t)&u32;
	size_t off = offsetof(struct uses_pair, i);
	ptrdiff_t pd = (char *)&u32 - (char *)&u32;
	bool flag = true;
	pid_t pid;
	ssize_t ss = -1;
	off_t ot = 0;
	/* stdlib.h, string.h, strings.h, alloca.h, endian.h */
	char *heap = (char *)malloc(16);
	char *stack = (char *)alloca(8);
	void *lib;

	if (!heap)
		exit(EXIT_FAILURE);
	memset(heap, 0, 16);
	memcpy(stack, "abc", 4);
	strcpy(heap, stack);
	if (strlen(heap) != 3 || strcmp(heap, "abc") || strcasecmp(heap, "ABC") ||
	    atoi("12") != 12 || getenv("UNLIKELY_TO_BE_SET_12345") || htobe32(1) == 0)
		abort();
	free(heap);
	/* unistd.h, syscall.h */
	pid = getpid();
	if (pid <= 0 || syscall(SYS_gettid) <= 0 || sysconf(_SC_PAGESIZE) <= 0)
		abort();
	if (write(STDOUT_FILENO, "", 0) < 0)
		_exit(3);
	/* dlfcn.h */
	lib = dlopen(NULL, RTLD_NOW);
	if (!lib || !dlsym(lib, "main") || dlerror())
		(void)0;
	if (lib)
		dlclose(lib);
	/* assert.h, stdio.h, stdarg.h */
	assert(argc >= 1);
	fprintf(stderr, "%s", "");
	printf("%s%u %lld %lu %zu %td %d %zd %lld %p\n", argc > 1 ? argv[1] : "",
	       (unsigned)(u32 & 1), (long long)(i64 & 1), (unsigned long)(up & 0), off, pd,
	       flag ? 1 : 0, ss, (long long)ot, (void *)&uses_va);
	puts(NULL == (void *)0 ? "ok" : "no");
	return EXIT_SUCCESS;
}
