#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs every unit test binary (Check) and every shell test, then prints one closing line:
#   N passed, N failed, N skipped
# A Check binary counts one test per check it runs, less those that print the skip marker
# (tests/unit/skip.h), which count as skips; a shell test counts one, and skips by exiting 77
# after printing its reason. The shell tests run in a random order when --seed is given or
# CI is set (the seed is printed, so `--seed N` repeats an order), else in name order.
# Usage: tests/run.sh [--build DIR] [--seed N] [PATTERN]
set -u
build=build
seed=
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	*) break ;;
	esac
done
[ -z "$seed" ] && [ -n "${CI:-}" ] && seed=$((RANDOM * 32768 + RANDOM))
[ -z "$seed" ] || [[ $seed =~ ^[0-9]+$ ]] || { echo "run.sh: --seed wants a number" >&2; exit 2; }
pattern=${1:-}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export SCHEDLENS="$top/$build/schedlens"
export SCHEDLENS_TOP="$top"
export FIXTURES="${FIXTURES:-$top/../shared/fixtures}"
export CK_FORK=yes
passed=0 failed=0 skipped=0
failed_names=() skipped_names=()
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

for t in "$build"/tests/test-*; do
	[ -x "$t" ] || continue
	name=unit/$(basename "$t")
	[ -n "$pattern" ] && [[ $name != *$pattern* ]] && continue
	out="$log/$(basename "$t").out"
	"$t" >"$out" 2>&1
	rc=$?
	line=$(grep -E '^[0-9]+%: Checks: ' "$out" | tail -1)
	skips=$(grep -c "^schedlens-skip: " "$out")
	checks=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
	fails=$(sed -E 's/.*Failures: ([0-9]+).*/\1/' <<<"$line")
	errs=$(sed -E 's/.*Errors: ([0-9]+).*/\1/' <<<"$line")
	if [ -z "$line" ]; then checks=1 fails=1 errs=0; fi
	bad=$((fails + errs))
	[ $rc -ne 0 ] && [ $bad -eq 0 ] && bad=1
	[ $skips -gt $((checks - bad)) ] && skips=$((checks - bad))
	passed=$((passed + checks - bad - skips))
	failed=$((failed + bad))
	skipped=$((skipped + skips))
	while read -r why; do
		skipped_names+=("$name: $why")
	done < <(sed -n 's/^schedlens-skip: //p' "$out")
	if [ $bad -gt 0 ]; then
		failed_names+=("$name")
		echo "FAIL $name ($bad of $checks)"
		grep -vE '^[0-9]+%: Checks' "$out" | tail -20 | sed 's/^/    /'
	else
		note=
		[ $skips -gt 0 ] && note=", $skips skipped"
		echo "ok   $name ($checks checks$note)"
	fi
done

shell_tests=(tests/shell/*.sh)
if [ -n "$seed" ]; then
	echo "shell tests in random order, seed $seed (tests/run.sh --seed $seed repeats it)"
	mapfile -t shell_tests < <(printf '%s\n' "${shell_tests[@]}" |
		awk -v s="$seed" 'BEGIN { srand(s) } { printf "%.12f\t%s\n", rand(), $0 }' |
		sort -k1,1 | cut -f2-)
fi
for t in "${shell_tests[@]}"; do
	[ -f "$t" ] || continue
	[ "$(basename "$t")" = lib.sh ] && continue
	name=shell/$(basename "$t" .sh)
	[ -n "$pattern" ] && [[ $name != *$pattern* ]] && continue
	out="$log/$(basename "$t").out"
	timeout 600 bash "$t" >"$out" 2>&1 </dev/null
	rc=$?
	case $rc in
	0) passed=$((passed + 1)); echo "ok   $name" ;;
	77) skipped=$((skipped + 1)); reason=$(tail -1 "$out")
	    skipped_names+=("$name: $reason"); echo "skip $name: $reason" ;;
	*) failed=$((failed + 1)); failed_names+=("$name"); echo "FAIL $name (exit $rc)"
	   tail -30 "$out" | sed 's/^/    /' ;;
	esac
done

echo
[ ${#skipped_names[@]} -gt 0 ] && printf 'skipped: %s\n' "${skipped_names[@]}"
[ ${#failed_names[@]} -gt 0 ] && printf 'failed: %s\n' "${failed_names[@]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
