/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers every module uses: the error buffer through which library code reports detail
 * (library code never prints), and number parsing that checks what strtol/strtod leave behind.
 */
#ifndef SCHEDLENS_UTIL_H
#define SCHEDLENS_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Detail for the caller of a failing library function; msg is empty when nothing was said. */
struct errbuf {
	char msg[1024];
};

/* Fill @e (may be NULL) with the formatted message and return @code (a negative errno). */
int err__set(struct errbuf *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prefix the message already in @e with "@fmt: " and return @code. */
int err__prefix(struct errbuf *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Parse a whole string as a number. Return 0, or -EINVAL when @s is empty, has trailing
 * characters or is out of [min, max] (-ERANGE on overflow). Never atoi.
 */
int parse_long(const char *s, long min, long max, long *out);
int parse_u64(const char *s, uint64_t *out);
int parse_double(const char *s, double *out);
/* "10ms", "2s", "1.5", "500us" -> nanoseconds; a bare number is seconds */
int parse_duration_ns(const char *s, uint64_t *out);

/* A 64-bit hash of @len bytes at @p, @seed mixed in: 8 bytes a step, for hash tables. */
uint64_t hash_bytes(const void *p, size_t len, uint64_t seed);

/*
 * @v as printf's "%*.2f" with @width into @buf of @cap (NUL terminated, cut to fit as
 * snprintf's): the length it has whole. Digits without printf where the value is not within
 * a millionth of a cent of a tie (which printf rounds by the double's exact value): a
 * report prints two shares for each of its rows.
 */
size_t fmt_fixed2(char *buf, size_t cap, double v, int width);

/*
 * @v in lower-case hex, at least @digits digits, after "0x" where @prefix (printf's "%#.*llx"
 * leaves it out for 0: give v != 0 for that), NUL terminated into @buf of at least 21 bytes:
 * the length. Addresses, millions of them in a report or script, without printf.
 */
size_t fmt_hex(char *buf, uint64_t v, int digits, bool prefix);

/* "00" to "99", two characters each: decimals two digits a step */
extern const char fmt_digit_pairs[201];

/*
 * @v's decimal digits written backwards so that they end just before @end (at most 20 of
 * them, two a step, no NUL): where they begin. Numbers in `script`'s lines, without printf.
 */
char *fmt_dec_back(uint64_t v, char *end);

/* Monotonic clock in nanoseconds. */
uint64_t now_ns(void);

/* Read a whole small file (sysfs, procfs) into @buf, NUL terminated, trailing newline cut. */
int read_file_str(const char *path, char *buf, size_t len);
/*
 * Read a whole file of any size (tracefs files, whose stat size is 0, too) into *@out, malloc'd
 * and NUL terminated; its length in *@len when @len is not NULL. 0 or -errno.
 */
int read_file_all(const char *path, char **out, size_t *len);

#endif
