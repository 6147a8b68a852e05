#!/bin/sh
# Run each libFuzzer target in turn for SECONDS (one at a time: the
# machine is shared).  usage: fuzz/run.sh BUILD SECONDS TARGET...
# Corpus: BUILD/fuzz/work/T (new units), seeded from fuzz/corpus/T and
# fuzz/regress/T.  A finding ends a libFuzzer run; it is kept in
# BUILD/fuzz/findings/T/ (with its log) and fuzzing resumes for the rest
# of the time.  Minimize one with "BUILD/fuzz/fuzz-T -minimize_crash=1
# -runs=10000 FILE" and copy it to fuzz/regress/T/ (make check replays it).
# Executions are added up in BUILD/fuzz/execs-T; the totals are printed.
set -u
build=$1 secs=$2
shift 2
rc=0
for t in "$@"; do
	w=$build/fuzz/work/$t f=$build/fuzz/findings/$t
	mkdir -p "$w" "$f" "fuzz/regress/$t"
	log=$build/fuzz/log-$t
	start=$(date +%s) total=0 found=0
	while left=$((start + secs - $(date +%s))); [ "$left" -gt 5 ]; do
		"$build/fuzz/fuzz-$t" -max_total_time="$left" \
			-print_final_stats=1 -timeout=10 -rss_limit_mb=1024 \
			-max_len=8192 -artifact_prefix="$f/" \
			"$w" "fuzz/corpus/$t" "fuzz/regress/$t" >"$log" 2>&1
		n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		total=$((total + ${n:-0}))
		if grep -q '^SUMMARY\|ERROR: libFuzzer' "$log"; then
			found=$((found + 1))
			cp "$log" "$f/log-$(date +%s)"
			rc=1
		fi
	done
	old=$(cat "$build/fuzz/execs-$t" 2>/dev/null || echo 0)
	echo $((old + total)) >"$build/fuzz/execs-$t"
	printf '%-9s %10s executions this run, %12s in total, %d findings\n' \
		"$t" "$total" "$((old + total))" "$found"
done
exit $rc
