// SPDX-License-Identifier: GPL-2.0
/* tracefs: where it is, tracepoint ids, and formats parsed into a libtraceevent handle. */
#include <errno.h>
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "stream-int.h"

#define TRACEFS_MAGIC_NR 0x74726163

static bool tracefs__mounted(const char *dir)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	return access(path, R_OK) == 0;
}

int tracefs__find(const char *hint, char *buf, size_t len, struct errbuf *err)
{
	static const char *const places[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	size_t i;

	if (hint) {
		if (!tracefs__mounted(hint))
			return err__set(err, -ENOENT,
					"'%s' is not a mounted tracefs: mount -t tracefs nodev '%s'",
					hint, hint);
		snprintf(buf, len, "%s", hint);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(places); i++) {
		if (tracefs__mounted(places[i])) {
			snprintf(buf, len, "%s", places[i]);
			return 0;
		}
	}
	return err__set(err, -ENOENT,
			"tracefs is not mounted at /sys/kernel/tracing: "
			"mount -t tracefs nodev /sys/kernel/tracing (as root)");
}

static int split_name(const char *name, char *sys, char *ev, size_t len)
{
	const char *colon = strchr(name, ':');

	if (!colon || colon == name || !colon[1] || (size_t)(colon - name) >= len ||
	    strlen(colon + 1) >= len || strchr(name, '/') || strstr(name, ".."))
		return -EINVAL;
	memcpy(sys, name, colon - name);
	sys[colon - name] = '\0';
	strcpy(ev, colon + 1);
	return 0;
}

int tracepoint__attr(const char *tracefs, const char *name, struct perf_event_attr *attr,
		     struct errbuf *err)
{
	char dir[256], sys[128], ev[128], path[768], buf[32];
	uint64_t id;
	int ret;

	if (split_name(name, sys, ev, sizeof(sys)))
		return err__set(err, -EINVAL, "'%s' is not a tracepoint name (want SYSTEM:EVENT)",
				name);
	ret = tracefs__find(tracefs, dir, sizeof(dir), err);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, ev);
	ret = read_file_str(path, buf, sizeof(buf));
	if (ret)
		return err__set(err, ret == -ENOENT ? -ENOENT : ret,
				"unknown tracepoint '%s': no '%s'", name, path);
	if (parse_u64(buf, &id))
		return err__set(err, -EINVAL, "'%s': bad tracepoint id '%s'", path, buf);
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_RAW;
	return 0;
}

struct tep_handle *sampler_tep__load(const char *tracefs, struct stream_evsel *evsels, size_t nr,
				     struct errbuf *err)
{
	char dir[256], path[768], sys[128], ev[128];
	struct tep_handle *tep = NULL;
	char *buf = NULL;
	size_t size, i;
	int ret;

	if (tracefs__find(tracefs, dir, sizeof(dir), err))
		return NULL;
	tep = tep_alloc();
	if (!tep) {
		err__set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	tep_set_long_size(tep, sizeof(long));
	tep_set_page_size(tep, getpagesize());
	tep_set_file_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN :
									  TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_file_bigendian(tep) ? TEP_BIG_ENDIAN :
								  TEP_LITTLE_ENDIAN);
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	if (read_file_all(path, &buf, &size) == 0) {
		tep_parse_header_page(tep, buf, size, sizeof(long));
		free(buf);
		buf = NULL;
	}
	for (i = 0; i < nr; i++) {
		if (evsels[i].attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		if (split_name(evsels[i].name, sys, ev, sizeof(sys))) {
			err__set(err, -EINVAL, "'%s' is not a tracepoint name", evsels[i].name);
			goto out_free;
		}
		snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, sys, ev);
		ret = read_file_all(path, &buf, &size);
		if (ret) {
			err__set(err, ret, "cannot read '%s': %s", path, strerror(-ret));
			goto out_free;
		}
		if (tep_parse_event(tep, buf, size, sys) != TEP_ERRNO__SUCCESS) {
			err__set(err, -EINVAL, "cannot parse the format of '%s' ('%s')",
				 evsels[i].name, path);
			goto out_free;
		}
		free(buf);
		buf = NULL;
		evsels[i].tp = tep_find_event(tep, (int)evsels[i].attr.config);
	}
	return tep;
out_free:
	free(buf);
	tep_free(tep);
	return NULL;
}
