#!/bin/sh
# Run each libFuzzer target in turn for SECONDS (one at a time: the
# machine is shared).  usage: fuzz/run.sh BUILD SECONDS TARGET...
# Corpus: BUILD/fuzz/work/T (new units), seeded from fuzz/corpus/T and
# fuzz/regress/T.  Crashing inputs: BUILD/fuzz/findings/T/ (minimize with
# "BUILD/fuzz/fuzz-T -minimize_crash=1 FILE" and copy to fuzz/regress/T/).
# Executions are added up in BUILD/fuzz/execs-T; the totals are printed.
set -u
build=$1 secs=$2
shift 2
rc=0
for t in "$@"; do
	w=$build/fuzz/work/$t f=$build/fuzz/findings/$t
	mkdir -p "$w" "$f" "fuzz/regress/$t"
	log=$build/fuzz/log-$t
	"$build/fuzz/fuzz-$t" -max_total_time="$secs" -print_final_stats=1 \
		-timeout=10 -rss_limit_mb=1024 -max_len=8192 \
		-artifact_prefix="$f/" "$w" "fuzz/corpus/$t" "fuzz/regress/$t" \
		>"$log" 2>&1 || rc=1
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	old=$(cat "$build/fuzz/execs-$t" 2>/dev/null || echo 0)
	echo $((old + ${n:-0})) >"$build/fuzz/execs-$t"
	printf '%-9s %10s executions this run, %12s in total%s\n' "$t" \
		"${n:-0}" "$((old + ${n:-0}))" \
		"$(grep -q '^==[0-9]*==ERROR\|^SUMMARY' "$log" && echo ', FINDING: see '"$log")"
done
exit $rc
