// SPDX-License-Identifier: GPL-2.0
// A C++ program whose hot functions have mangled names: a member of a class template in a
// namespace, and two overloads that demangle to one name without their parameters, as perf
// 6.1 shows them (lab::ring<unsigned int>::walk, lab::spin twice). Build: g++ -O2 -g.
// Usage: cxxnames [ROUNDS]
#include <cstdio>
#include <cstdlib>

namespace lab {
template <typename T> struct ring {
	T *next;
	unsigned long n;
	__attribute__((noinline)) T walk(T p, unsigned long steps) const
	{
		while (steps--)
			p = next[p];
		return p;
	}
};

__attribute__((noinline)) unsigned int spin(unsigned int x, int rounds)
{
	while (rounds--)
		x = x * 2654435761u + 1;
	return x;
}

__attribute__((noinline)) unsigned long spin(unsigned long x, int rounds)
{
	while (rounds--)
		x = x * 6364136223846793005ul + 1;
	return x;
}
} // namespace lab

int main(int argc, char **argv)
{
	unsigned long n = 1ul << 22, i, rounds = argc > 1 ? strtoul(argv[1], 0, 10) : 20;
	lab::ring<unsigned int> r{ new unsigned int[n], n };
	unsigned int p = 0;

	for (i = 0; i < n; i++)
		r.next[i] = (unsigned int)((i * 2654435761u + 1) % n);
	for (i = 0; i < rounds; i++) {
		p = r.walk(p, 1000000);
		p = (p + lab::spin(p, 4000000) + (unsigned int)lab::spin((unsigned long)p, 4000000)) % n;
	}
	printf("%u\n", p);
	return 0;
}
