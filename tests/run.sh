#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs every unit test binary (Check) and every shell test, then prints one closing line:
#   N passed, N failed, N skipped
# A Check binary counts one test per check it runs; a shell test counts one, and skips by
# exiting 77 after printing its reason. Usage: tests/run.sh [--build DIR] [PATTERN]
set -u
build=build
[ "${1:-}" = --build ] && { build=$2; shift 2; }
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
	checks=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
	fails=$(sed -E 's/.*Failures: ([0-9]+).*/\1/' <<<"$line")
	errs=$(sed -E 's/.*Errors: ([0-9]+).*/\1/' <<<"$line")
	if [ -z "$line" ]; then checks=1 fails=1 errs=0; fi
	bad=$((fails + errs))
	[ $rc -ne 0 ] && [ $bad -eq 0 ] && bad=1
	passed=$((passed + checks - bad))
	failed=$((failed + bad))
	if [ $bad -gt 0 ]; then
		failed_names+=("$name")
		echo "FAIL $name ($bad of $checks)"
		grep -vE '^[0-9]+%: Checks' "$out" | tail -20 | sed 's/^/    /'
	else
		echo "ok   $name ($checks checks)"
	fi
done

for t in tests/shell/*.sh; do
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
