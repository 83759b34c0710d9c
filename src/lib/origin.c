// SPDX-License-Identifier: GPL-2.0
/* Whether an input was recorded on the kernel that runs now: see origin.h for the rules. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "schedlens/machine.h"
#include "schedlens/origin.h"

/* the first bytes of a build-id, as a name for it in a message */
static const char *id_str(const uint8_t *id, size_t n, char *buf)
{
	size_t i;

	for (i = 0; i < n && i < 4; i++)
		sprintf(buf + 2 * i, "%02x", id[i]);
	buf[2 * i] = '\0';
	return buf;
}

static const char *or_unknown(const char *s)
{
	return s ? s : "an unknown release";
}

static void by_build_id(struct origin *o, const struct origin_facts *in,
			const struct origin_facts *here)
{
	char a[9], b[9];

	if (in->build_id_size != here->build_id_size ||
	    memcmp(in->build_id, here->build_id, in->build_id_size)) {
		o->kernel = ORIGIN_OTHER;
		snprintf(o->why, sizeof(o->why),
			 "recorded on kernel %s (build-id %s..), this is %s (build-id %s..)",
			 or_unknown(in->os_release), id_str(in->build_id, in->build_id_size, a),
			 or_unknown(here->os_release),
			 id_str(here->build_id, here->build_id_size, b));
	} else if (in->kernel_text && in->kernel_text == here->kernel_text) {
		o->kernel = ORIGIN_BOOT;
	} else if (in->kernel_text && here->kernel_text) {
		o->kernel = ORIGIN_BUILD;
		snprintf(o->why, sizeof(o->why),
			 "recorded on this kernel at another boot (its text at %#llx, now at %#llx)",
			 (unsigned long long)in->kernel_text,
			 (unsigned long long)here->kernel_text);
	} else {
		o->kernel = ORIGIN_BUILD;
		snprintf(o->why, sizeof(o->why),
			 "recorded on this kernel, where its text lay is not known (%s)",
			 in->kernel_text ? "/proc/kallsyms hides addresses here"
					 : "the input has no kernel map");
	}
}

void origin__compare(struct origin *o, const struct origin_facts *in,
		     const struct origin_facts *here)
{
	*o = (struct origin){ .kernel = ORIGIN_UNKNOWN };
	o->same_host = !in->hostname || !here->hostname || !strcmp(in->hostname, here->hostname);
	if (in->build_id_size && here->build_id_size) {
		by_build_id(o, in, here);
	} else if (in->os_release && here->os_release && strcmp(in->os_release, here->os_release)) {
		o->kernel = ORIGIN_OTHER;
		snprintf(o->why, sizeof(o->why), "recorded on kernel %s, this is %s",
			 in->os_release, here->os_release);
	} else if (in->os_release && here->os_release) {
		o->kernel = ORIGIN_RELEASE;
		snprintf(o->why, sizeof(o->why),
			 "recorded on kernel %s with no build-id to tell whether it is this build",
			 in->os_release);
	} else {
		snprintf(o->why, sizeof(o->why), "the input does not name the kernel it was recorded on");
	}
}

/*
 * Where the running kernel's text lies: _text, or _stext where kallsyms has no _text (arm64
 * 6.1), as perf's reference symbol; both are among the first lines of /proc/kallsyms.
 */
static uint64_t running_text(void)
{
	FILE *fp = fopen("/proc/kallsyms", "re");
	unsigned long long addr = 0, a;
	char line[256], name[128], type;
	int i;

	if (!fp)
		return 0;
	for (i = 0; i < 1024 && fgets(line, sizeof(line), fp); i++) {
		if (sscanf(line, "%llx %c %127s", &a, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text")) {
			addr = a;
			break;
		}
		if (!strcmp(name, "_stext") && !addr)
			addr = a;
	}
	fclose(fp);
	return addr;
}

void origin__of_input(struct origin *o, const struct origin_facts *in)
{
	struct origin_facts here = { 0 };
	uint8_t id[64];
	struct utsname u;
	int n;

	if (!uname(&u)) {
		here.hostname = u.nodename;
		here.os_release = u.release;
	}
	n = machine__kernel_build_id(id, sizeof(id));
	if (n > 0) {
		here.build_id = id;
		here.build_id_size = (size_t)n;
	}
	if (in->build_id_size || in->kernel_text)
		here.kernel_text = running_text();
	origin__compare(o, in, &here);
}

void origin__live(struct origin *o)
{
	*o = (struct origin){ .kernel = ORIGIN_BOOT, .same_host = true };
}

bool origin__kallsyms_apply(const struct origin *o)
{
	return o->kernel == ORIGIN_BOOT;
}

bool origin__same_machine(const struct origin *o)
{
	return o->same_host && o->kernel != ORIGIN_OTHER;
}

const char *origin__warning(const struct origin *o, const char *what, char *buf, size_t len)
{
	if (origin__kallsyms_apply(o))
		return NULL;
	snprintf(buf, len, "%s: %s", o->why, what);
	return buf;
}
