// SPDX-License-Identifier: GPL-2.0
/* Function names as users type them: clone suffixes, and the nearest names for a miss. */
#include <stdlib.h>
#include <string.h>

#include "schedlens/symmatch.h"

#define NAME_MAX_CMP 255

/* one dot-separated component of a clone suffix: a known tag or a number */
static bool clone_part(const char *p, size_t n)
{
	static const char *const tags[] = { "isra", "constprop", "part", "cold", "llvm",
					    "lto_priv", "localalias" };
	size_t i;

	if (!n)
		return false;
	if (strspn(p, "0123456789") >= n)
		return true;
	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (strlen(tags[i]) == n && !strncmp(p, tags[i], n))
			return true;
	return false;
}

static bool clone_suffix(const char *p)
{
	bool tag = false;

	while (*p == '.') {
		size_t n = strcspn(p + 1, ".");

		if (!clone_part(p + 1, n))
			return false;
		tag |= !(strspn(p + 1, "0123456789") >= n);
		p += n + 1;
	}
	return !*p && tag;
}

size_t symmatch__base_len(const char *sym)
{
	const char *dot;

	for (dot = strchr(sym + (*sym == '.'), '.'); dot; dot = strchr(dot + 1, '.'))
		if (clone_suffix(dot))
			return (size_t)(dot - sym);
	return strlen(sym);
}

bool symmatch__is(const char *want, const char *sym)
{
	size_t wl, bl;

	if (!want || !sym)
		return false;
	if (!strcmp(want, sym))
		return true;
	wl = strlen(want);
	if (symmatch__base_len(want) != wl)
		return false;
	bl = symmatch__base_len(sym);
	return bl == wl && !strncmp(want, sym, wl);
}

static unsigned int distance_n(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned int row[NAME_MAX_CMP + 1], diag, up;
	size_t i, j;

	la = la > NAME_MAX_CMP ? NAME_MAX_CMP : la;
	lb = lb > NAME_MAX_CMP ? NAME_MAX_CMP : lb;
	for (j = 0; j <= lb; j++)
		row[j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = (unsigned int)i;
		for (j = 1; j <= lb; j++) {
			unsigned int best = diag + (a[i - 1] != b[j - 1]);

			up = row[j];
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

unsigned int symmatch__distance(const char *a, const char *b)
{
	return distance_n(a, strlen(a), b, strlen(b));
}

static unsigned int nearness(const char *want, size_t wl, const char *name)
{
	size_t bl = symmatch__base_len(name);
	char base[NAME_MAX_CMP + 1];

	if (bl > NAME_MAX_CMP)
		bl = NAME_MAX_CMP;
	memcpy(base, name, bl);
	base[bl] = '\0';
	if (!strcmp(base, want))
		return 0;
	if (wl >= 3 && (strstr(base, want) || (bl >= 3 && strstr(want, base))))
		return 1;
	return distance_n(want, wl, base, bl);
}

size_t symmatch__nearest(const char *want, const char *const *names, size_t nr, size_t *out,
			 size_t max)
{
	size_t wl = strlen(want), limit = wl / 2 > 3 ? wl / 2 : 3, n = 0, i, k;
	unsigned int *d = NULL;

	if (!max || !(d = malloc((max + 1) * sizeof(*d))))
		return 0;
	for (i = 0; i < nr; i++) {
		unsigned int di = names[i] ? nearness(want, wl, names[i]) : ~0u;
		size_t bl = names[i] ? symmatch__base_len(names[i]) : 0;
		bool dup = false;

		if (di > limit)
			continue;
		for (k = 0; k < n && !dup; k++)
			dup = symmatch__base_len(names[out[k]]) == bl &&
			      !strncmp(names[out[k]], names[i], bl);
		if (dup)
			continue;
		for (k = n; k > 0 && d[k - 1] > di; k--) {
			if (k < max) {
				d[k] = d[k - 1];
				out[k] = out[k - 1];
			}
		}
		if (k < max) {
			d[k] = di;
			out[k] = i;
			n += n < max;
		}
	}
	free(d);
	return n;
}
