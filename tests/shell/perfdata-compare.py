#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Compare `schedlens report -t TAB` with a `perf report --stdio` reference (possibly cut
# short): every reference line must have an entry with the same keys and a share within TOL
# percentage points, and complete sections must have as many entries. Prints the worst error.
# usage: perfdata-compare.py REF OURS TOL
import sys

def parse_ref(path):
    sections, cur, spans, complete = [], None, None, False
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("# Samples:"):
            cur = {"event": line.split("'")[1] if "'" in line else "", "rows": [], "complete": False}
            sections.append(cur)
            spans = None
            continue
        if cur is None:
            continue
        if line.startswith("# ...") and spans is None:
            spans, i = [], 0
            while i < len(line):
                if line[i] == ".":
                    j = i
                    while j < len(line) and line[j] == ".":
                        j += 1
                    spans.append((i, j))
                    i = j
                else:
                    i += 1
            continue
        if spans and line.strip() and not line.startswith("#"):
            pct = float(line[: spans[0][1]].strip().rstrip("%"))
            keys = []
            for k, (a, b) in enumerate(spans[1:]):
                end = spans[k + 2][0] if k + 2 < len(spans) else len(line)
                keys.append(line[a:end].strip())
            cur["rows"].append((pct, tuple(keys)))
        elif spans and not line.strip() and cur["rows"]:
            cur["complete"] = True
    return sections

def parse_ours(path):
    out = {}
    order = []
    for line in open(path, encoding="utf-8", errors="replace"):
        f = line.rstrip("\n").split("\t")
        if len(f) < 4:
            continue
        ev = f[0]
        if ev not in out:
            out[ev] = {}
            order.append(ev)
        out[ev][tuple(x.strip() for x in f[3:])] = float(f[1])
    return order, out

ref, ours, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])
sections = parse_ref(ref)
order, got = parse_ours(ours)
if len(sections) > len(order):
    print(f"FAIL: reference has {len(sections)} events with samples, schedlens {len(order)}")
    sys.exit(1)
worst, n, bad = 0.0, 0, 0
for i, sec in enumerate(sections):
    g = got[order[i]]
    for pct, keys in sec["rows"]:
        n += 1
        if keys not in g:
            # perf cuts a column to its width: match such keys by prefix
            cand = [k for k in g if len(k) == len(keys) and all(a == b or a.startswith(b) for a, b in zip(k, keys))]
            if len(cand) == 1:
                keys = cand[0]
        if keys not in g:
            print(f"FAIL: {order[i]}: {keys} ({pct}%) missing in schedlens")
            bad += 1
            continue
        d = abs(g[keys] - pct)
        worst = max(worst, d)
        if d > tol:
            print(f"FAIL: {order[i]}: {keys}: perf {pct}% schedlens {g[keys]:.4f}%")
            bad += 1
    if sec["complete"] and len(sec["rows"]) != len(g):
        extra = []
        print(f"FAIL: {order[i]}: perf has {len(sec['rows'])} entries, schedlens {len(g)}: extra {extra[:5]}")
        bad += 1
print(f"{n} entries compared, max difference {worst:.4f} percentage points")
sys.exit(1 if bad else 0)
