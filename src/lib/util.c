// SPDX-License-Identifier: GPL-2.0
#include "schedlens/util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int err__set(struct errbuf *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (e) {
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

int err__prefix(struct errbuf *e, int code, const char *fmt, ...)
{
	char old[sizeof(e->msg)], pre[256];
	va_list ap;

	if (!e)
		return code;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	snprintf(old, sizeof(old), "%s", e->msg);
	snprintf(e->msg, sizeof(e->msg), "%s: %s", pre, old);
	return code;
}

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 0);
	if (errno)
		return -errno;
	if (*end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -errno;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno)
		return -errno;
	if (*end || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_duration_ns(const char *s, uint64_t *out)
{
	static const struct {
		const char *suffix;
		double mult;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 } };
	char num[64], *end;
	double v;
	size_t i;

	if (!s || !*s || strlen(s) >= sizeof(num))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0 || !isfinite(v))
		return -EINVAL;
	if (!*end) {
		*out = (uint64_t)(v * 1e9);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcmp(end, units[i].suffix)) {
			*out = (uint64_t)(v * units[i].mult);
			return 0;
		}
	}
	return -EINVAL;
}

size_t fmt_fixed2(char *buf, size_t cap, double v, int width)
{
	char d[32];
	double x = v * 100.0, f;
	uint64_t n;
	size_t i = sizeof(d), len, pad;
	int ret;

	if (!(x >= 0 && x < 1e15) || signbit(v))
		goto slow;
	n = (uint64_t)x;
	f = x - (double)n;
	if (f > 0.5 - 1e-6 && f < 0.5 + 1e-6)
		goto slow;
	n += f > 0.5;
	d[--i] = (char)('0' + n % 10);
	d[--i] = (char)('0' + n / 10 % 10);
	d[--i] = '.';
	n /= 100;
	do
		d[--i] = (char)('0' + n % 10);
	while (n /= 10);
	len = sizeof(d) - i;
	pad = width > 0 && (size_t)width > len ? (size_t)width - len : 0;
	if (pad + len >= cap)
		goto slow;
	memset(buf, ' ', pad);
	memcpy(buf + pad, d + i, len);
	buf[pad + len] = '\0';
	return pad + len;
slow:
	ret = snprintf(buf, cap, "%*.2f", width, v);
	return ret < 0 ? 0 : (size_t)ret;
}

/* the 8 hex digits of @x (32 bits) as ASCII, in memory in the order they are written */
static inline uint64_t hex8(uint64_t x)
{
	uint64_t ten;

	/* one nibble a byte, the most significant in the highest byte */
	x = ((x & 0xffff0000ull) << 16) | (x & 0xffffull);
	x = ((x & 0x0000ff000000ff00ull) << 8) | (x & 0x000000ff000000ffull);
	x = ((x & 0x00f000f000f000f0ull) << 4) | (x & 0x000f000f000f000full);
	ten = ((x + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;	/* digit > 9 */
	x += 0x3030303030303030ull + ten * ('a' - '0' - 10);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

size_t fmt_hex(char *buf, uint64_t v, int digits, bool prefix)
{
	size_t nd = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1, n = 0;
	uint64_t d[2];

	if (digits > 16)
		digits = 16;
	if (digits > 0 && nd < (size_t)digits)
		nd = (size_t)digits;
	if (prefix) {
		buf[n++] = '0';
		buf[n++] = 'x';
	}
	v <<= 4 * (16 - nd);	/* the digits wanted first: one copy of 16 bytes, then cut */
	d[0] = hex8(v >> 32);
	d[1] = hex8(v & 0xffffffffull);
	memcpy(buf + n, d, 16);
	buf[n + nd] = '\0';
	return n + nd;
}

const char fmt_digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
				  "25262728293031323334353637383940414243444546474849"
				  "50515253545556575859606162636465666768697071727374"
				  "75767778798081828384858687888990919293949596979899";

char *fmt_dec_back(uint64_t v, char *end)
{
	char *p = end;

	while (v >= 100) {
		const char *d = &fmt_digit_pairs[v % 100 * 2];

		*--p = d[1];
		*--p = d[0];
		v /= 100;
	}
	if (v >= 10) {
		*--p = fmt_digit_pairs[v * 2 + 1];
		*--p = fmt_digit_pairs[v * 2];
	} else {
		*--p = (char)('0' + v);
	}
	return p;
}

uint64_t hash_bytes(const void *p, size_t len, uint64_t seed)
{
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ seed ^ len, w = 0;

	if (len < 8) {
		memcpy(&w, s, len);
	} else {
		for (; len > 8; s += 8, len -= 8) {
			memcpy(&w, s, 8);
			h = (h ^ w) * 0xff51afd7ed558ccdull;
			h ^= h >> 32;
		}
		memcpy(&w, s + len - 8, 8);	/* the last 8 bytes (over the word before) */
	}
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	return h ^ h >> 29;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int read_file_str(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, ret = 0;

	if (len == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		ret = -errno;
		n = 0;
	}
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	close(fd);
	return ret;
}

int read_file_all(const char *path, char **out, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *buf = NULL, *nb;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;
	ssize_t got;

	if (fd < 0)
		return -errno;
	do {
		if (n + 1 >= cap || !buf) {
			nb = realloc(buf, buf ? cap *= 2 : cap);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0)
			ret = -errno;
		else
			n += (size_t)got;
	} while (!ret && got > 0);
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}
