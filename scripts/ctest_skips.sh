#!/usr/bin/env bash
# scripts/ctest_skips.sh CTEST_OUTPUT BUILD_DIR — how many tests CTest skipped and why: the names from CTest's
# "did not run" list, each with the reason: a Qt Test function's QSKIP line (SKIP   : Class::function() REASON),
# else the last line its test printed (the reason it gives before exiting 77).
set -u
out=$1 build=$2
log="$build/Testing/Temporary/LastTest.log"
mapfile -t skipped < <(sed -n 's/^[[:space:]]*[0-9]* - \(.*\) (Skipped)$/\1/p' "$out")
echo "${#skipped[@]} test(s) skipped in $build"
for name in "${skipped[@]}"; do
    reason=$(awk -v t="$name" '
        $0 ~ "^[0-9]+/[0-9]+ Test: " { cur = substr($0, index($0, "Test: ") + 6); next }
        cur == t && /^Output:/ { grab = 1; next }
        cur == t && /^<end of output>/ { grab = 0 }
        grab && NF && !/^-+$/ { last = $0 }
        grab && /^SKIP   : / { qskip = $0; sub(/^SKIP   : [^ ]* */, "", qskip) }
        END { print (qskip != "" ? qskip : last) }' "$log")
    echo "  skipped: $name: ${reason:-no reason printed}"
done
