#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# How honest is `schedlens gate` on this machine? (a few minutes)
#  1. A pool of real iterations: a small suite (pipe -l 2000, messaging -p -g 1 -l 10 -f 8),
#     40 iterations each, run once with `schedlens run`.
#  2. Pairs of disjoint random samples of the pool (3, 5, 10 and 20 iterations a side), written
#     as BASE and NEW documents and gated at the defaults: A/A (the false alarm rate, target
#     <= 1%), and with NEW's time-like metrics multiplied by 1+s (throughputs divided) for
#     s = 2%, 5%, 10%, 25% and 2x (the share caught); each cell also says how often the gate
#     was inconclusive. And A/A as consecutive blocks in time order (this machine's drift).
#  4. One real injection: pipe with 10% and 25% more round trips (elapsed grows), 10 against 10.
set -u
bin=${SCHEDLENS:-build/schedlens}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null || { echo "bench-gate: python3 is needed to resample"; exit 0; }
"$bin" bench --list 2>/dev/null | grep -q '^  pipe ' || { echo "bench-gate: no pipe workload"; exit 0; }

cat >"$tmp/pool.json" <<'JSON'
{ "suite": "gate-pool", "iterations": 40,
  "entries": [ { "workload": "pipe", "group": "pipe", "args": ["-l", "2000"] },
               { "workload": "messaging", "group": "hackbench", "args": ["-p", "-g", "1", "-l", "10", "-f", "8"] } ] }
JSON
start=$(date +%s)
"$bin" run -q --suite "$tmp/pool.json" -o "$tmp/pool-results.json" || exit 1
echo "pool: 2 workloads x 40 iterations in $(( $(date +%s) - start )) s"

SCHEDLENS_BIN=$bin python3 - "$tmp" <<'PY'
import json, os, random, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

tmp = sys.argv[1]
bin_ = os.environ["SCHEDLENS_BIN"]
pool = json.load(open(os.path.join(tmp, "pool-results.json")))
rng = random.Random(20261129)
N = 10

def sample(idx, scale=1.0):
    doc = dict(pool)
    doc["entries"] = []
    for e in pool["entries"]:
        ne = dict(e)
        its = [e["iterations"][i] for i in idx]
        if scale != 1.0:
            out = []
            for it in its:
                v = dict(it["values"])
                for k in v:
                    b = e["metrics"][k]["better"]
                    if b == "lower":
                        v[k] *= scale
                    elif b == "higher":
                        v[k] /= scale
                out.append({"values": v})
            its = out
        ne["iterations"] = its
        doc["entries"].append(ne)
    return doc

counter = [0]

def gate(a, b, name, extra=()):
    counter[0] += 1
    tag = "%s-%d" % (name, counter[0])
    pa, pb = os.path.join(tmp, tag + "-a.json"), os.path.join(tmp, tag + "-b.json")
    json.dump(a, open(pa, "w"))
    json.dump(b, open(pb, "w"))
    return lambda: subprocess.run([bin_, "gate", "-q", *extra, pa, pb], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL).returncode

def run_all(jobs):
    with ThreadPoolExecutor(max_workers=2) as ex:
        return list(ex.map(lambda f: f(), jobs))

n = min(len(e["iterations"]) for e in pool["entries"])
# every cell: K pairs of disjoint random samples of the pool, NEW's times x (1 + s) and its
# throughputs / (1 + s); the gate's exits counted (0 pass, 1 regression, 3 inconclusive)
K = 100
slow = [0.0, 0.02, 0.05, 0.10, 0.25, 1.0]
sizes = [m for m in (3, 5, 10, 20) if 2 * m <= n]
def table(extra, title):
    cells = {}
    for N in sizes:
        for s in slow:
            jobs = []
            for _ in range(K):
                idx = rng.sample(range(n), 2 * N)
                jobs.append(gate(sample(idx[:N]), sample(idx[N:], 1 + s), "c", extra))
            rcs = run_all(jobs)
            cells[N, s] = (sum(rc == 1 for rc in rcs), sum(rc == 3 for rc in rcs),
                           sum(rc not in (0, 1, 3) for rc in rcs))
    print("gate %s, %d resampled pairs a cell: %% of pairs found a regression / inconclusive "
          "(the rest pass)" % (title, K))
    print("%-6s %-18s" % ("n", "A/A (false alarm)") +
          "".join("%-14s" % ("+%g%%" % (100 * s) if s < 1 else "2x") for s in slow[1:]))
    for N in sizes:
        row = "%-6d %-18s" % (N, "%d%% / %d%%" % (cells[N, 0.0][0], cells[N, 0.0][1]))
        for s in slow[1:]:
            row += "%-14s" % ("%d%% / %d%%" % (cells[N, s][0], cells[N, s][1]))
        print(row)
    bad = sum(c[2] for c in cells.values())
    if bad:
        print("note: %d gate runs exited with an error" % bad)

table((), "at the defaults (--alpha 0.01, --beta 0.05, --min-effect 5%)")
table(("--min-effect", "50%"), "with --min-effect 50% (what this machine's noise can resolve)")
# A/A, consecutive blocks in time order (adds this machine's drift between runs)
N = 10
blocks = [list(range(i, i + N)) for i in range(0, n - N + 1, N)]
rcs = run_all([gate(sample(blocks[i]), sample(blocks[i + 1]), "ab") for i in range(len(blocks) - 1)])
print("A/A, consecutive blocks of %d iterations in time order: %d regressions, %d inconclusive of %d pairs"
      % (N, sum(rc == 1 for rc in rcs), sum(rc == 3 for rc in rcs), len(rcs)))
cv = []
for e in pool["entries"]:
    for k, m in e["metrics"].items():
        if m["better"] == "none":
            continue
        v = [it["values"][k] for it in e["iterations"] if k in it["values"]]
        mu = sum(v) / len(v)
        sd = (sum((x - mu) ** 2 for x in v) / (len(v) - 1)) ** 0.5
        cv.append("%s %s %.1f%%" % (e["id"], k, 100 * sd / mu))
print("coefficient of variation of the pool: " + ", ".join(cv))
PY

# a real slowdown: more round trips in the same workload
for extra in 10 25; do
	loops=$((2000 * (100 + extra) / 100))
	sed "s/\"gate-pool\"/\"gate-real\"/; s/\"iterations\": 40/\"iterations\": 10/" "$tmp/pool.json" |
		jq '.entries |= [.[0]]' >"$tmp/real-a.json"
	jq ".entries[0].args = [\"-l\", \"$loops\"]" "$tmp/real-a.json" >"$tmp/real-b.json"
	rm -f "$tmp/ra.json" "$tmp/rb.json"
	"$bin" run -q --suite "$tmp/real-a.json" -o "$tmp/ra.json" && "$bin" run -q --suite "$tmp/real-b.json" -o "$tmp/rb.json" || exit 1
	"$bin" gate -q -m elapsed "$tmp/ra.json" "$tmp/rb.json" >"$tmp/g.out"
	rc=$?
	echo "real injection: pipe with $extra% more round trips (elapsed), 10 vs 10: gate exit $rc: $(tail -1 "$tmp/g.out")"
done
echo "total $(( $(date +%s) - start )) s"
