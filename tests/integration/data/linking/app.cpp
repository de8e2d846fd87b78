// C++ application using a provider compiled as C.
#include <iostream>
#include <string>
#include "tp.h"

namespace {
struct Greeter {
	std::string name;
	void greet(int n) const { tracepoint(linkprov, hello, n, name.c_str()); }
};
}

int main()
{
	Greeter g{"from C++"};
	for (int i = 10; i < 13; i++)
		g.greet(i);
	std::cout << "done" << std::endl;
	return 0;
}
