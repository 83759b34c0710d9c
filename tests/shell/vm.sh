#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedlens vm: usage errors before any work; then, where QEMU and a kernel in the cache are at
# hand (make lab fetches them), a guest whose command's stdout, stderr, exit status and files
# come back, a file given with --copy goes in, and SIGINT ends the guest with exit 130.
source "$(dirname "$0")/lib.sh"

expect_rc 2 "$SCHEDLENS" vm
grep -q "no command" "$TMP/err" || fail "vm without a command: $(cat "$TMP/err")"
expect_rc 2 "$SCHEDLENS" vm --arch sparc -- list
grep -q "x86_64 or arm64" "$TMP/err" || fail "bad --arch: $(cat "$TMP/err")"
expect_rc 2 "$SCHEDLENS" vm --memory 12x -- list
expect_rc 2 "$SCHEDLENS" vm --debian 5.10 -- list
expect_rc 2 "$SCHEDLENS" vm --kernel /x --debian 6.1 -- list
expect_rc 2 "$SCHEDLENS" vm --copy "$TMP/none" -- list
expect_rc 125 "$SCHEDLENS" vm --kernel "$TMP/none" -- list
grep -q "cannot read the kernel '$TMP/none'" "$TMP/err" || fail "missing kernel: $(cat "$TMP/err")"

command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed (scripts/deps.sh)"
[ "$(uname -m)" = x86_64 ] || skip "the guest test boots an x86-64 kernel"
cache=${XDG_CACHE_HOME:-$HOME/.cache}/schedlens/kernels
version=
for v in 6.12 6.1; do
	ls -d "$cache"/linux-image-"$v".*-cloud-amd64/boot 2>/dev/null | grep -q . && { version=$v; break; }
done
[ -n "$version" ] || skip "no Debian kernel in '$cache' (make lab fetches them)"

echo "to the guest" > "$TMP/in.txt"
mkdir "$TMP/back"
cat > "$TMP/cmd.sh" <<'GUEST'
cat in.txt
echo "on stderr" >&2
uname -r > release.txt
schedlens version > version.txt
exit 7
GUEST
expect_rc 7 "$SCHEDLENS" vm --debian "$version" --timeout 300 --copy "$TMP/in.txt" \
	--copy "$TMP/cmd.sh" -o "$TMP/back" --exec -- sh cmd.sh
grep -qx "to the guest" "$TMP/out" || fail "the guest's stdout: $(cat "$TMP/out")"
grep -qx "on stderr" "$TMP/err" || fail "the guest's stderr: $(cat "$TMP/err")"
grep -q "^$version" "$TMP/back/release.txt" || fail "guest kernel '$(cat "$TMP/back/release.txt")', not $version"
[ "$(cat "$TMP/back/version.txt")" = "$("$SCHEDLENS" version)" ] || fail "not this schedlens in the guest"
[ ! -e "$TMP/back/in.txt" ] && [ ! -e "$TMP/back/cmd.sh" ] || fail "the --copy files came back"

# SIGINT: once the guest's command has said it runs, vm ends the guest and exits 130
mkfifo "$TMP/fifo"
"$SCHEDLENS" vm --debian "$version" --timeout 300 --exec -- sh -c 'echo running; sleep 600' \
	> "$TMP/fifo" 2> "$TMP/err2" &
pid=$!
exec 7< "$TMP/fifo"
read -r -t 240 line <&7 || { kill -KILL $pid; fail "the guest did not start: $(cat "$TMP/err2")"; }
[ "$line" = running ] || fail "guest said '$line'"
kill -INT $pid
wait $pid
rc=$?
exec 7<&-
[ $rc -eq 130 ] || fail "vm exited $rc after SIGINT, expected 130: $(cat "$TMP/err2")"
grep -q "interrupted" "$TMP/err2" || fail "no word of the interrupt: $(cat "$TMP/err2")"
