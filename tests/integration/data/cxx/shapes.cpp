/*
 * Call sites in shapes C has not, on the provider of fields.sh: in nested
 * namespaces, in a class template's member and static member, in a lambda
 * inside a function template, in a std::function, in a constructor, with
 * std::string arguments. cxx.sh builds it with g++ and clang++ at every
 * standard it tests and checks its events.
 */
#include "tp.h"
#include <functional>
#include <string>
#include <vector>

namespace outer {
namespace inner {
template <typename T> struct emitter {
	T base;
	void emit(const std::string &label) const
	{
		tracepoint(fields, pair_first, static_cast<int>(base), label.c_str());
	}
	static void emit_static(T x)
	{
		lttng_ust_tracepoint(fields, pair_second, static_cast<int>(x), "static member");
	}
};

template <typename T> void emit_all(const std::vector<T> &xs)
{
	for (const auto &x : xs) {
		auto fn = [&](int k) {
			if (tracepoint_enabled(fields, pair_first))
				do_tracepoint(fields, pair_first, k, "lambda in template");
		};
		fn(static_cast<int>(x));
	}
}

struct raii {
	explicit raii(int v) { tracepoint(fields, enums_auto, v); }
};
} // namespace inner
} // namespace outer

int main()
{
	using namespace outer::inner;
	emitter<long> e{3};
	std::function<void(int)> f = [](int v) {
		tracepoint(fields, pair_second, v, std::string("std::function").c_str());
	};

	e.emit(std::string("class template"));
	emitter<short>::emit_static(4);
	emit_all(std::vector<unsigned>{5, 6});
	f(7);
	raii r(21);
	(void)r;
	return 0;
}
