#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Turns a table of the seeds' published figures (NAME.tsv) into two schedlens results
# documents, OUTDIR/NAME-base.json and OUTDIR/NAME-new.json. See README.md for the columns and
# for how a summary (mean and spread) becomes iteration values.
# Usage: make-docs.sh NAME.tsv OUTDIR
set -euo pipefail
export LC_ALL=C	# the documents' numbers are written the same in every locale
[ $# -eq 2 ] || { echo "usage: make-docs.sh NAME.tsv OUTDIR" >&2; exit 2; }
tsv=$1 out=$2
name=$(basename "$tsv" .tsv)
for side in base new; do
	awk -F'\t' -v side="$side" -v name="$name" '
	function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
	BEGIN {
		# normal quantiles at (i - 0.5) / 10, scaled below to a sample SD of exactly 1
		split("-1.6448536 -1.0364334 -0.6744898 -0.3853205 -0.1256613 0.1256613 0.3853205 0.6744898 1.0364334 1.6448536", z, " ")
		ss = 0
		for (i = 1; i <= 10; i++) ss += z[i] * z[i]
		zsd = sqrt(ss / 9)
	}
	/^#machine\t/ { machine = $2; next }
	/^#kernel\t/ { if ($2 == side) kernel = $3; next }
	/^#/ || NF == 0 { next }
	$1 == "side" { next }
	$1 != side { next }
	{
		id = $2; n = $7 + 0; mean = $8 + 0; spread = $9
		if (NF != 9 || (n != 1 && n != 10)) {
			printf "%s line %d: want 9 columns and n of 1 or 10\n", FILENAME, FNR > "/dev/stderr"
			bad = 1; exit 2
		}
		if (!(id in seen)) { seen[id] = 1; ids[++nids] = id; work[id] = $3 }
		if (id in nof && nof[id] != n) {
			printf "%s line %d: entry %s mixes n\n", FILENAME, FNR > "/dev/stderr"
			bad = 1; exit 2
		}
		nof[id] = n
		k = ++nm[id]; mname[id, k] = $4; munit[id, k] = $5; mbetter[id, k] = $6
		sd = 0
		if (spread ~ /^sem=/) { s = substr(spread, 5); sub(/%$/, "", s); sd = mean * s / 100 * sqrt(n) }
		else if (spread ~ /^cv=/) { s = substr(spread, 4); sub(/%$/, "", s); sd = mean * s / 100 }
		else if (spread ~ /^sd=/) sd = substr(spread, 4) + 0
		else if (spread != "-") {
			printf "%s line %d: spread %s\n", FILENAME, FNR > "/dev/stderr"; bad = 1; exit 2
		}
		for (i = 1; i <= n; i++)
			val[id, k, i] = n == 1 ? mean : mean + sd * z[i] / zsd
	}
	END {
		if (bad) exit 2
		printf "{\n  \"schema\": \"schedlens-results\",\n  \"schema_version\": 1,\n"
		printf "  \"tool\": {\"name\": \"schedlens\", \"version\": \"0.1.0\"},\n"
		printf "  \"kind\": \"seed-table\",\n  \"created\": \"2026-11-29T00:00:00Z\",\n"
		printf "  \"source\": %s,\n", jstr("tests/data/validate/" name ".tsv")
		printf "  \"machine\": {\"description\": %s, \"kernel\": %s},\n", jstr(machine), jstr(kernel)
		printf "  \"entries\": ["
		for (e = 1; e <= nids; e++) {
			id = ids[e]
			printf "%s\n    {\"id\": %s, \"workload\": %s, \"params\": {},\n", (e > 1 ? "," : ""), jstr(id), jstr(work[id])
			printf "     \"metrics\": {"
			for (k = 1; k <= nm[id]; k++)
				printf "%s%s: {\"unit\": %s, \"better\": %s}", (k > 1 ? ", " : ""), jstr(mname[id, k]), jstr(munit[id, k]), jstr(mbetter[id, k])
			printf "},\n     \"iterations\": ["
			for (i = 1; i <= nof[id]; i++) {
				printf "%s{\"values\": {", (i > 1 ? ", " : "")
				for (k = 1; k <= nm[id]; k++)
					printf "%s%s: %.10g", (k > 1 ? ", " : ""), jstr(mname[id, k]), val[id, k, i]
				printf "}}"
			}
			printf "]}"
		}
		printf "\n  ]\n}\n"
	}' "$tsv" >"$out/$name-$side.json"
done
