#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Checks, in seconds, that every series under kernel-patches/ applies cleanly (no fuzz, no
# reject) to Debian's linux-source-6.1, in the order its manifest gives:
#   base = linux-source-6.1+revert   the revert applies to pristine 6.1, then each patch in
#                                    turn, and the result equals pristine 6.1 again
#   base = linux-source-6.1          each patch applies in turn to pristine 6.1
# Each step is a `patch --dry-run` first, then applied to a scratch copy for the next step.
# Only the files the patches touch are extracted from the tarball, once, into a cache.
#
# Usage: scripts/check-patches.sh [--tarball FILE] [--cache DIR] [SERIES_DIR...]
# Exit: 0 all apply, 1 a patch failed, 2 usage or setup error, 77 tarball absent (skipped).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/linux-source-6.1.tar.xz
cache=$top/build/kernel-src
series=()

usage() {
	echo "usage: check-patches.sh [--tarball FILE] [--cache DIR] [SERIES_DIR...]" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--tarball) [ $# -ge 2 ] || usage; tarball=$2; shift 2 ;;
	--cache) [ $# -ge 2 ] || usage; cache=$2; shift 2 ;;
	-h|--help) usage ;;
	-*) echo "check-patches: unknown option '$1'" >&2; usage ;;
	*) series+=("$1"); shift ;;
	esac
done
if [ ${#series[@]} -eq 0 ]; then
	for d in "$top"/kernel-patches/*/; do
		[ -f "$d/manifest" ] && series+=("${d%/}")
	done
fi
[ ${#series[@]} -gt 0 ] || { echo "check-patches: no series found" >&2; exit 2; }

if [ ! -r "$tarball" ]; then
	echo "'$tarball' is absent: apt-get install linux-source-6.1"
	exit 77
fi

# manifest_get FILE KEY: the values of KEY, one per line, in order
manifest_get() {
	sed -n "s/^[[:space:]]*$2[[:space:]]*=[[:space:]]*//p" "$1" | sed 's/[[:space:]]*$//'
}

# touched PATCH: the files a patch changes, from its +++ lines, without the b/ prefix
touched() {
	sed -n 's/^+++ [^/]*\/\([^[:space:]]*\).*/\1/p' "$1"
}

fail=0
declare -A steps_of base_of
files=()
for s in "${series[@]}"; do
	m=$s/manifest
	if [ ! -f "$m" ]; then
		echo "FAIL $s: no manifest"
		fail=1
		continue
	fi
	base=$(manifest_get "$m" base)
	revert=$(manifest_get "$m" revert)
	mapfile -t patches < <(manifest_get "$m" patch)
	case $base in
	linux-source-6.1+revert)
		[ -n "$revert" ] || { echo "FAIL $s: base is '$base' but no revert is named"; fail=1; continue; } ;;
	linux-source-6.1)
		[ -z "$revert" ] || { echo "FAIL $s: a revert is named but base is '$base'"; fail=1; continue; } ;;
	*)
		echo "FAIL $s: unknown base '$base' (linux-source-6.1 or linux-source-6.1+revert)"
		fail=1
		continue ;;
	esac
	[ ${#patches[@]} -gt 0 ] || { echo "FAIL $s: the manifest names no patch"; fail=1; continue; }
	if [ "$(manifest_get "$m" name)" != "$(basename "$s")" ]; then
		echo "FAIL $s: the manifest's name is '$(manifest_get "$m" name)'"
		fail=1
		continue
	fi
	for f in "$s"/*.patch; do
		[ -e "$f" ] || continue
		f=$(basename "$f")
		if [ "$f" != "$revert" ] && ! printf '%s\n' "${patches[@]}" | grep -qxF "$f"; then
			echo "FAIL $s/$f: not named in the manifest"
			fail=1
		fi
	done
	list=()
	[ -n "$revert" ] && list+=("$revert")
	list+=("${patches[@]}")
	ok=1
	for p in "${list[@]}"; do
		if [ ! -f "$s/$p" ]; then
			echo "FAIL $s/$p: named in the manifest but absent"
			ok=0
		elif [ -z "$(touched "$s/$p")" ]; then
			echo "FAIL $s/$p: not a unified diff (no +++ line)"
			ok=0
		else
			mapfile -t -O ${#files[@]} files < <(touched "$s/$p")
		fi
	done
	[ $ok -eq 1 ] || { fail=1; continue; }
	steps_of[$s]=$(printf '%s\n' "${list[@]}")
	base_of[$s]=$base
done

# Extract what is missing from the cache, in one pass over the tarball.
stamp="$(stat -c '%s %Y' "$tarball")"
top_dir=$(tar -tJf "$tarball" 2>/dev/null | head -1 | cut -d/ -f1)
[ -n "$top_dir" ] || { echo "check-patches: cannot list '$tarball'" >&2; exit 2; }
if [ "$(cat "$cache/.stamp" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$cache"
fi
mkdir -p "$cache" || exit 2
missing=()
for f in $(printf '%s\n' "${files[@]}" | sort -u); do
	[ -f "$cache/$top_dir/$f" ] || missing+=("$top_dir/$f")
done
if [ ${#missing[@]} -gt 0 ]; then
	if ! tar -I 'xz -T0' -xf "$tarball" -C "$cache" "${missing[@]}" 2>"$cache/.tar-err"; then
		echo "FAIL cannot extract from '$tarball':"
		sed 's/^/    /' "$cache/.tar-err"
		exit 1
	fi
	echo "$stamp" >"$cache/.stamp"
fi
pristine=$cache/$top_dir

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# step DIR PATCH LABEL: dry-run PATCH in DIR, then apply it; report offsets, fail on fuzz
step() {
	local dir=$1 p=$2 label=$3 out
	if ! out=$(cd "$dir" && patch -p1 -F0 -N --dry-run <"$p" 2>&1); then
		echo "FAIL $label:"
		echo "$out" | sed 's/^/    /'
		return 1
	fi
	(cd "$dir" && patch -p1 -F0 -N -s <"$p" >/dev/null 2>&1) || {
		echo "FAIL $label: dry run passed but applying failed"
		return 1
	}
	if grep -q 'offset' <<<"$out"; then
		echo "ok   $label ($(grep -c offset <<<"$out") hunk(s) at an offset)"
	else
		echo "ok   $label"
	fi
}

for s in "${series[@]}"; do
	[ -n "${steps_of[$s]:-}" ] || continue
	name=$(basename "$s")
	dir=$work/$name
	mkdir -p "$dir"
	mapfile -t list <<<"${steps_of[$s]}"
	for p in "${list[@]}"; do
		for f in $(touched "$s/$p"); do
			[ -f "$dir/$f" ] && continue
			mkdir -p "$dir/$(dirname "$f")"
			cp "$pristine/$f" "$dir/$f"
		done
	done
	on=linux-source-6.1
	ok=1
	for p in "${list[@]}"; do
		step "$dir" "$(cd "$s" && pwd)/$p" "$name/$p on $on" || { ok=0; break; }
		if [ "$p" = "${list[0]}" ] && [ "${base_of[$s]}" = linux-source-6.1+revert ]; then
			on=linux-source-6.1+revert
		else
			on="$on+${p%%-*}"
		fi
	done
	if [ $ok -eq 1 ] && [ "${base_of[$s]}" = linux-source-6.1+revert ]; then
		for f in $(cd "$dir" && find . -type f ! -name '*.orig' | sed 's|^\./||'); do
			if ! cmp -s "$dir/$f" "$pristine/$f"; then
				echo "FAIL $name: revert then patches does not give back 6.1's $f:"
				diff -u "$pristine/$f" "$dir/$f" | head -20 | sed 's/^/    /'
				ok=0
			fi
		done
		[ $ok -eq 1 ] && echo "ok   $name: revert + patches == linux-source-6.1"
	fi
	[ $ok -eq 1 ] || fail=1
done
exit $fail
