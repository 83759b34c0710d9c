#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make run: the main job. Runs the quick suite on this machine into build/run/quick.json (the
# previous run becomes quick.prev.json), prints its summary (MMTests' rows), compares it with
# the previous run and gates on it when there is one (tables, build/run/quick.svg), and shows
# where the scheduler spends its time when `schedlens report --focus sched` exists.
set -u
bin=${1:-build/schedlens}
top=$(cd "$(dirname "$0")/.." && pwd)
out=${RUN_DIR:-$top/build/run}
mkdir -p "$out"
"$bin" version || exit 1

[ -f "$out/quick.json" ] && mv -f "$out/quick.json" "$out/quick.prev.json"
echo "== schedlens run --suite quick -o $out/quick.json"
"$bin" run --suite quick -o "$out/quick.json" -q || exit 1

echo
echo "== summary (MMTests' rows per entry; the suite's gate metrics)"
metrics=$(jq -r '[.entries[].metrics | to_entries[] | select(.value.gate) | .key] | unique | .[]' "$out/quick.json")
margs=()
for m in $metrics; do margs+=(-m "$m"); done
"$bin" compare "${margs[@]}" "$out/quick.json" || exit 1

rc=0
if [ -f "$out/quick.prev.json" ]; then
	echo "== previous run -> this run (medians; the change of the geometric means, its 95% CI and Welch's t on the logs)"
	"$bin" compare -l previous -l this "${margs[@]}" --plot "$out/quick.svg" \
		"$out/quick.prev.json" "$out/quick.json" || exit 1
	echo "plot: $out/quick.svg"
	echo
	echo "== schedlens gate previous this"
	"$bin" gate "$out/quick.prev.json" "$out/quick.json"
	rc=$?
	[ $rc -eq 1 ] && echo "(a regression between two runs of the same build means this machine was busier during one of them)"
	[ $rc -eq 3 ] && echo "(inconclusive: these runs are too few or too noisy to rule out a regression of the minimum effect; more iterations, or a larger --min-effect, would tell)"
else
	echo "(run 'make run' again to compare and gate against this run)"
fi

if "$bin" report --help 2>&1 | grep -q -- '--focus'; then
	echo
	echo "== scheduler hot spots (schedlens report --focus sched) over hackbench-process-pipes"
	"$bin" record -g -o "$out/sched.data" --bench messaging -p -g 2 -l 200 >/dev/null &&
		"$bin" report --focus sched --skid-caller -i "$out/sched.data" | head -40 ||
		echo "(schedlens record/report failed)"
fi
exit $([ $rc -eq 2 ] && echo 1 || echo 0)
