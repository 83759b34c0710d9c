# SPDX-License-Identifier: GPL-2.0
# The --lab half of scripts/kernel-ab.sh, sourced by it after the series is read ($top,
# $series, $name, $suite, the before/after patch arrays, $jobs, $dry, $workdir, $cpus,
# $iterations, $runs, $bin, $tarball and its run() come from there).
#
# One tree for every series: $workdir/linux-source-6.1, its objects in $workdir/x86_64, the
# patches applied now listed in its .schedlens-applied; a kernel is reached from the tree as it
# is by taking back the patches past the common prefix and applying the rest, so that the after
# kernel (before + the series) is an incremental build. Compilers run through ccache
# ($CCACHE_DIR, default $workdir/ccache).

lab_steps=()

# timed NAME CMD...: run CMD, note how long it took (and its status when not 0)
timed() {
	local what=$1 t0 t1 rc=0
	shift
	t0=$(date +%s%N)
	"$@" || rc=$?
	t1=$(date +%s%N)
	lab_steps+=("$(printf '  %-34s %7.1f s%s' "$what" "$(( (t1 - t0) / 1000000 ))e-3" \
		"$([ $rc -eq 0 ] || echo "  (exit $rc)")")")
	return $rc
}

lab_src= lab_obj= kmake=()

lab_extract() {
	[ -f "$lab_src/.schedlens-extracted" ] && return 0
	run rm -rf "$lab_src"
	run mkdir -p "$workdir"
	run tar -I 'xz -T0' -xf "$tarball" -C "$workdir"
	[ $dry -eq 1 ] && return 0
	: > "$lab_src/.schedlens-applied"
	touch "$lab_src/.schedlens-extracted"
}

# lab_tree PATCH...: the tree with exactly these patches (NAME/FILE under kernel-patches/)
lab_tree() {
	local want=("$@") cur=() k=0 i
	[ $dry -eq 1 ] || mapfile -t cur < "$lab_src/.schedlens-applied"
	while [ $k -lt ${#cur[@]} ] && [ $k -lt ${#want[@]} ] && [ "${cur[$k]}" = "${want[$k]}" ]; do
		k=$((k + 1))
	done
	for ((i = ${#cur[@]} - 1; i >= k; i--)); do
		run patch -s -d "$lab_src" -p1 -R -F0 -i "$top/kernel-patches/${cur[$i]}" || return
		[ $dry -eq 1 ] || sed -i '$d' "$lab_src/.schedlens-applied"
	done
	for ((i = k; i < ${#want[@]}; i++)); do
		run patch -s -d "$lab_src" -p1 -N -F0 -i "$top/kernel-patches/${want[$i]}" || return
		[ $dry -eq 1 ] || echo "${want[$i]}" >> "$lab_src/.schedlens-applied"
	done
}

# the lab config, made again when kernel-patches/lab.config changed; every line must survive
lab_config() {
	local frag=$top/kernel-patches/lab.config line missing=()
	cmp -s "$frag" "$lab_obj/.schedlens-lab.config" && return 0
	run mkdir -p "$lab_obj"
	run cp "$frag" "$lab_src/kernel/configs/schedlens-lab.config"
	if [ $dry -eq 1 ]; then
		run make -s -C "$lab_src" O="$lab_obj" "${kmake[@]}" tinyconfig schedlens-lab.config
		return 0
	fi
	make -s -C "$lab_src" O="$lab_obj" "${kmake[@]}" tinyconfig schedlens-lab.config \
		> "$workdir/config.log" 2>&1 || { cat "$workdir/config.log" >&2; return 1; }
	while read -r line; do
		grep -qx "$line" "$lab_obj/.config" || missing+=("$line")
	done < <(grep '^CONFIG_' "$frag")
	if [ ${#missing[@]} -gt 0 ]; then
		echo "kernel-ab: lab.config lines olddefconfig dropped: ${missing[*]}" >&2
		return 1
	fi
	cp "$frag" "$lab_obj/.schedlens-lab.config"
}

# lab_kernel TAG PATCH...: that kernel's bzImage into $out/TAG
lab_kernel() {
	local tag=$1
	shift
	echo "== $tag: linux-source-6.1${*:+ + $*}"
	timed "$tag: patch the tree" lab_tree "$@" || return
	timed "$tag: config" lab_config || return
	timed "$tag: make bzImage" run make -s -C "$lab_src" O="$lab_obj" "${kmake[@]}" \
		KBUILD_BUILD_VERSION="$name-$tag" -j"$jobs" bzImage || return
	run mkdir -p "$out/$tag"
	run cp "$lab_obj/arch/x86/boot/bzImage" "$out/$tag/bzImage"
}

# lab_guest TAG: boot it, run the suite and the sched runs, bring back the documents
lab_guest() {
	local tag=$1 d=$out/$1 rc=0
	local vm=("$bin" vm --kernel "$d/bzImage" --cpus "$cpus" --memory 1G --timeout 900 -o "$d"
		  --copy "$top/scripts/kernel-ab-guest.sh")
	# the series' lab-sized suite where it has one (same suite name, groups and metrics)
	if [ -f "$series/lab-suite.json" ]; then
		vm+=(--copy "$series/lab-suite.json" --exec -- sh kernel-ab-guest.sh lab-suite.json)
	else
		vm+=(--exec -- sh kernel-ab-guest.sh "$suite")
	fi
	vm+=("$runs" ${iterations:+"$iterations"})
	if [ $dry -eq 1 ]; then
		run "${vm[@]}"
		return 0
	fi
	rm -f "$d"/sched-*.json "$d"/run.json "$d"/status.txt
	timed "$tag: boot and run ($cpus CPUs)" "${vm[@]}" > "$d/guest.log" 2>&1 || rc=$?
	echo "$tag: $(cat "$d/uname.txt" 2>/dev/null), vm exit $rc; the guest's steps (name, exit, seconds):"
	sed 's/^/    /' "$d/status.txt" "$d/topology.txt" 2>/dev/null || true
	[ $rc -eq 0 ] || { tail -20 "$d/guest.log" >&2; return $rc; }
	# the series are about wakeups inside one LLC: the guest's CPUs must share one, in
	# cacheinfo and in the kernel's MC domain (CONFIG_SCHED_MC), or no mechanism can show
	if ! grep -q "^cpu0 llc 0-$((cpus - 1)) domains .*MC" "$d/topology.txt"; then
		echo "kernel-ab: the guest's $cpus CPUs do not share one LLC (topology.txt above)" >&2
		return 1
	fi
	# the runs of one kernel as the iterations of one document: their spread is the run to run one
	jq -s '. as $a | $a[0] | .entries[0].iterations = [$a[].entries[0].iterations[]]' \
		"$d"/sched-[0-9]*.json > "$d/sched.json"
}

# both guests at once: under TCG each runs on one host thread (x86: thread=single), so on a
# host of two CPUs or more the pair takes about the time of one. Their output and step times
# are printed after both end, before then after.
lab_guests() {
	local n=${#lab_steps[@]} tag i pids=() rc=0

	if [ $dry -eq 1 ]; then
		lab_guest before && lab_guest after
		return
	fi
	for tag in before after; do
		( lab_guest $tag; r=$?; printf '%s\n' "${lab_steps[@]:$n}" > "$out/$tag.steps"
		  exit $r ) > "$out/$tag.out" 2>&1 &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || rc=$?
	done
	for tag in before after; do
		cat "$out/$tag.out"
		while IFS= read -r i; do
			[ -n "$i" ] && lab_steps+=("$i")
		done < "$out/$tag.steps"
		rm -f "$out/$tag.out" "$out/$tag.steps"
	done
	return $rc
}

lab_main() {
	local rc=0 b a p
	: "${workdir:=$top/build/kernel-lab}"
	workdir=$(readlink -m "$workdir")
	lab_src=$workdir/linux-source-6.1
	lab_obj=$workdir/x86_64
	out=$workdir/ab/$name
	export CCACHE_DIR=${CCACHE_DIR:-$workdir/ccache}
	kmake=(ARCH=x86_64 "CC=ccache gcc" KBUILD_BUILD_USER=schedlens KBUILD_BUILD_HOST=lab
	       KBUILD_BUILD_TIMESTAMP=2026-01-01)
	b=() a=()
	for p in "${before[@]}"; do b+=("$name/$p"); done
	for p in "${after[@]}"; do a+=("$name/$p"); done
	echo "series:  $name (suite '$suite'$([ -f "$series/lab-suite.json" ] && echo ", lab-sized: $name/lab-suite.json"); $runs sched runs)"
	echo "before:  linux-source-6.1${before[*]:+ + ${before[*]}}"
	echo "after:   linux-source-6.1 + ${after[*]}"
	echo "config:  tinyconfig + kernel-patches/lab.config (x86_64, no modules)"
	echo "workdir: $workdir (ccache $CCACHE_DIR)"
	[ -r "$tarball" ] || { echo "kernel-ab: '$tarball' is absent: apt-get install linux-source-6.1" >&2; return 1; }
	if [ $dry -eq 0 ]; then
		for p in ccache jq qemu-system-x86_64; do
			command -v $p > /dev/null ||
				{ echo "kernel-ab: no '$p': run scripts/deps.sh" >&2; return 1; }
		done
		[ -x "$bin" ] ||
			{ echo "kernel-ab: no schedlens at '$bin' (make, or --schedlens FILE)" >&2; return 1; }
		timed "check-patches" bash "$top/scripts/check-patches.sh" "$series" || return
	fi
	timed "extract linux-source-6.1" lab_extract || return
	lab_kernel before "${b[@]}" || return
	lab_kernel after "${a[@]}" || return
	run mkdir -p "$out/before" "$out/after"
	timed "both guests, at once (wall)" lab_guests || return
	if [ $dry -eq 0 ]; then
		echo
		echo "\$ schedlens compare before/run.json after/run.json"
		"$bin" compare "$out/before/run.json" "$out/after/run.json" || true
		echo
		echo "\$ schedlens validate kernel-patches/$name before/run.json after/run.json before/sched.json after/sched.json"
		(cd "$out" && "$bin" validate "$series" before/run.json after/run.json \
			before/sched.json after/sched.json) || rc=$?
	fi
	echo
	echo "steps:"
	printf '%s\n' "${lab_steps[@]}"
	echo "files:   $out/{before,after}/{bzImage,run.json,sched.json,guest.log}"
	return $rc
}
