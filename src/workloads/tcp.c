// SPDX-License-Identifier: GPL-2.0
/*
 * tcp: tbench-style request/response over loopback TCP (127.0.0.1 only). C client/server pairs
 * of threads; each client sends a request of Q bytes and reads a response of R bytes, over and
 * over. After a warm-up, transactions completed in a measured window of D seconds give the
 * transactions/s and the throughput (both directions, MB = 10^6 bytes).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "schedlens/phase.h"
#include "schedlens/workload.h"
#include "wl.h"

#define TCP_IO_TIMEOUT_S 10

struct tcp_cfg {
	long clients, req, resp;
	uint64_t duration_ns, warmup_ns;
};

struct tcp_conn {
	const struct tcp_cfg *cfg;
	_Atomic int *stop;
	int fd;
	bool client;
	_Atomic uint64_t txns;
};

static const char tcp_usage[] =
	"usage: schedlens bench tcp [-c N] [-s BYTES] [-S BYTES] [-d DURATION] [-w DURATION]\n"
	"  -c, --clients N          client/server pairs over 127.0.0.1 (default 4)\n"
	"  -s, --request-size B     request bytes (default 256)\n"
	"  -S, --response-size B    response bytes (default 4096)\n"
	"  -d, --duration D         measured time (default 2s)\n"
	"  -w, --warmup D           warm-up before measuring (default 0.5s, 0 for none)\n";

static int tcp_parse(int argc, char **argv, void **cfgp, struct errbuf *err)
{
	static const struct option opts[] = {
		{ "clients", required_argument, NULL, 'c' },
		{ "request-size", required_argument, NULL, 's' },
		{ "response-size", required_argument, NULL, 'S' },
		{ "duration", required_argument, NULL, 'd' },
		{ "warmup", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	struct tcp_cfg *cfg = calloc(1, sizeof(*cfg));
	int c, ret = 0;

	if (!cfg)
		return err__set(err, -ENOMEM, "out of memory");
	*cfg = (struct tcp_cfg){ 4, 256, 4096, 2000000000ull, 500000000ull };
	wl__getopt_reset();
	while (!ret && (c = getopt_long(argc, argv, ":c:s:S:d:w:", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			ret = wl__parse_long(err, "tcp", "--clients", optarg, 1, 256, &cfg->clients);
			break;
		case 's':
			ret = wl__parse_long(err, "tcp", "--request-size", optarg, 1, 1 << 24, &cfg->req);
			break;
		case 'S':
			ret = wl__parse_long(err, "tcp", "--response-size", optarg, 1, 1 << 24,
					     &cfg->resp);
			break;
		case 'd':
			ret = wl__parse_duration(err, "tcp", "--duration", optarg, false, 3600,
						 &cfg->duration_ns);
			break;
		case 'w':
			ret = wl__parse_duration(err, "tcp", "--warmup", optarg, true, 3600,
						 &cfg->warmup_ns);
			break;
		default:
			ret = wl__bad_option(err, "tcp", argv, c);
		}
	}
	if (!ret)
		ret = wl__no_args(err, "tcp", argc, argv);
	if (ret) {
		free(cfg);
		return ret;
	}
	*cfgp = cfg;
	return 0;
}

/*
 * Move exactly @len bytes; 0, or -EPIPE at EOF, or -errno (-EAGAIN after the I/O timeout,
 * -EINTR once the run stops).
 */
static int tcp_io(struct wl_tasks *t, int fd, char *buf, size_t len, bool wr)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = wr ? send(fd, buf + done, len - done, MSG_NOSIGNAL) :
			 recv(fd, buf + done, len - done, 0);
		if (n < 0 && errno == EINTR && !wl_tasks__stopped(t))
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -EPIPE;
		done += (size_t)n;
	}
	return 0;
}

static int tcp_conn_run(struct wl_tasks *t, void *arg)
{
	struct tcp_conn *c = arg;
	size_t req = (size_t)c->cfg->req, resp = (size_t)c->cfg->resp;
	char *buf = calloc(1, req > resp ? req : resp);
	int ret;

	ret = wl_tasks__ready(t, buf ? 0 : -ENOMEM);
	while (!ret && c->client) {
		if (atomic_load_explicit(c->stop, memory_order_relaxed) || wl_tasks__stopped(t)) {
			shutdown(c->fd, SHUT_WR);
			break;
		}
		ret = tcp_io(t, c->fd, buf, req, true) ?: tcp_io(t, c->fd, buf, resp, false);
		if (!ret)
			atomic_fetch_add_explicit(&c->txns, 1, memory_order_relaxed);
	}
	while (!ret && !c->client) {
		ret = tcp_io(t, c->fd, buf, req, false);
		if (ret == -EPIPE) {
			ret = 0;
			break;
		}
		ret = ret ?: tcp_io(t, c->fd, buf, resp, true);
	}
	free(buf);
	return ret;
}

static int tcp_connect_pair(int lfd, const struct sockaddr_in *addr, int fds[2], struct errbuf *err)
{
	struct timeval tv = { TCP_IO_TIMEOUT_S, 0 };
	int one = 1, i;

	fds[1] = -1;
	fds[0] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fds[0] < 0 || connect(fds[0], (const struct sockaddr *)addr, sizeof(*addr)))
		return err__set(err, -errno, "tcp: cannot connect to 127.0.0.1:%d: %s",
				ntohs(addr->sin_port), strerror(errno));
	fds[1] = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (fds[1] < 0)
		return err__set(err, -errno, "tcp: cannot accept: %s", strerror(errno));
	/* a stuck peer ends the run after the timeout instead of hanging it */
	for (i = 0; i < 2; i++) {
		setsockopt(fds[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(fds[i], SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	}
	return 0;
}

static uint64_t tcp_total(struct tcp_conn *conns, size_t n)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += atomic_load_explicit(&conns[i].txns, memory_order_relaxed);
	return sum;
}

static int tcp_run(const void *vcfg, struct phase *ph, json_t *metrics, struct errbuf *err)
{
	const struct tcp_cfg *cfg = vcfg;
	size_t n = (size_t)cfg->clients * 2, i;
	struct tcp_conn *conns = calloc(n, sizeof(*conns));
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	uint64_t t0 = 0, t1 = 1, x0 = 0, x1 = 0;
	struct wl_tasks *t = NULL;
	_Atomic int stop = 0;
	int lfd, ret = 0, cut = 0, fds[2];
	double secs, txns;

	if (!conns)
		return err__set(err, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		conns[i].fd = -1;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(lfd, (int)cfg->clients) || getsockname(lfd, (struct sockaddr *)&addr, &alen)) {
		ret = err__set(err, -errno, "tcp: cannot listen on 127.0.0.1: %s", strerror(errno));
		goto out_close;
	}
	for (i = 0; i < n && !ret; i += 2) {
		ret = tcp_connect_pair(lfd, &addr, fds, err);
		conns[i] = (struct tcp_conn){ .cfg = cfg, .stop = &stop, .fd = fds[0], .client = true };
		conns[i + 1] = (struct tcp_conn){ .cfg = cfg, .stop = &stop, .fd = fds[1] };
	}
	t = ret ? NULL : wl_tasks__new(true, n, err);
	if (!ret && !t)
		ret = -ENOMEM;
	for (i = 0; i < n && !ret; i++)
		ret = wl_tasks__spawn(t, tcp_conn_run, &conns[i], err);
	if (!ret)
		ret = wl_tasks__wait_ready(t, err);
	if (ret)
		goto out_tasks;
	wl_tasks__go(t, false);
	/* a stop in the warm-up leaves nothing to say; a task that ended early, a failure */
	ret = wl_tasks__sleep(t, cfg->warmup_ns) ?: wl__phase_begin(ph, err);
	if (ret)
		goto out_stop;
	t0 = now_ns();
	x0 = tcp_total(conns, n);
	cut = wl_tasks__sleep(t, cfg->duration_ns);
	x1 = tcp_total(conns, n);
	t1 = now_ns();
	/* stopped: the load ends first, the phase after */
	if (cut)
		atomic_store(&stop, 1);
	ret = wl__phase_end(ph, err) ?: (cut == -EINTR ? 0 : cut);
out_stop:
	atomic_store(&stop, 1);
	if (wl_tasks__join(t, ret && ret != -ECHILD ? NULL : err) && (!ret || ret == -ECHILD))
		ret = -EIO;
	if (ret == -ECHILD)
		ret = err__set(err, -EIO, "tcp: a connection ended before the run did");
	if (ret)
		goto out_tasks;
	secs = (double)(t1 - t0) / 1e9;
	txns = (double)(x1 - x0);
	ret = wl__metric(metrics, "transactions_per_s", txns / secs, "ops/s", BETTER_HIGHER) ?:
	      wl__metric(metrics, "throughput", txns * (double)(cfg->req + cfg->resp) / 1e6 / secs,
			 "MB/s", BETTER_HIGHER);
	/* stopped in the measured phase: its figures so far, and how long it ran */
	if (!ret && cut)
		ret = wl__metric(metrics, "elapsed", secs, "s", BETTER_NONE) ?: cut;
out_tasks:
	wl_tasks__delete(t);
out_close:
	for (i = 0; i < n; i++)
		if (conns[i].fd >= 0)
			close(conns[i].fd);
	if (lfd >= 0)
		close(lfd);
	free(conns);
	return ret;
}

static void tcp_format(const void *vcfg, const json_t *m, char *buf, size_t len)
{
	const struct tcp_cfg *cfg = vcfg;

	char d[64];

	wl__seconds(m, "elapsed", cfg->duration_ns, d, sizeof(d));
	snprintf(buf, len,
		 "tcp: %ld pairs over 127.0.0.1, %ld-byte requests, %ld-byte responses, %s s: "
		 "%.0f transactions/s, %.2f MB/s",
		 cfg->clients, cfg->req, cfg->resp, d, wl__value(m, "transactions_per_s"),
		 wl__value(m, "throughput"));
}

static json_t *tcp_params(const void *vcfg)
{
	const struct tcp_cfg *cfg = vcfg;

	return json_pack("{s:I, s:I, s:I, s:f, s:f}", "clients", (json_int_t)cfg->clients,
			 "request_size", (json_int_t)cfg->req, "response_size", (json_int_t)cfg->resp,
			 "duration_s", (double)cfg->duration_ns / 1e9, "warmup_s",
			 (double)cfg->warmup_ns / 1e9);
}

const struct workload workload_tcp = {
	.name = "tcp",
	.summary = "client/server pairs exchange requests and responses over loopback TCP (tbench-style)",
	.usage = tcp_usage,
	.parse = tcp_parse,
	.run = tcp_run,
	.format = tcp_format,
	.params = tcp_params,
	.free = free,
};
