#!/usr/bin/env bash
# scripts/ctest_skips.sh CTEST_OUTPUT BUILD_DIR|LASTTEST_LOG — how many tests CTest skipped and why: the names from
# CTest's "did not run" list, each with the reason: a Qt Test function's QSKIP line (SKIP   : Class::function() REASON),
# else the reason after the last "SKIPPED: " or "SKIP: " it printed (a doctest MESSAGE, a suite's runner, a script
# exiting 77), else the last line its test printed. The log is BUILD_DIR's LastTest.log, or a copy of it kept after
# the run (a later ctest in the same folder replaces LastTest.log).
set -u
out=$1 log=$2
[ -d "$log" ] && log="$log/Testing/Temporary/LastTest.log"
mapfile -t skipped < <(sed -n 's/^[[:space:]]*[0-9]* - \(.*\) (Skipped)$/\1/p' "$out")
echo "${#skipped[@]} test(s) skipped ($out)"
for name in "${skipped[@]}"; do
    reason=$(awk -v t="$name" '
        $0 ~ "^[0-9]+/[0-9]+ Test: " { cur = substr($0, index($0, "Test: ") + 6); next }
        cur == t && /^Output:/ { grab = 1; next }
        cur == t && /^<end of output>/ { grab = 0 }
        grab && NF && !/^-+$/ { last = $0 }
        grab && match($0, /SKIP(PED)?: /) { said = substr($0, RSTART + RLENGTH) }
        grab && /^SKIP   : / { qskip = $0; sub(/^SKIP   : [^ ]* */, "", qskip) }
        END { print (qskip != "" ? qskip : said != "" ? said : last) }' "$log")
    echo "  skipped: $name: ${reason:-no reason printed}"
done
