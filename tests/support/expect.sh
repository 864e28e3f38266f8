# tests/support/expect.sh — shell helpers for command-line tests (sourced): a temporary folder, a failure count,
# expect (exit code), contains (pattern in out or err), one_line_error, and finish (the summary and exit status).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

expect() {  # expect CODE DESCRIPTION -- command...   (stdout to $tmp/out, stderr to $tmp/err)
    local code=$1 what=$2; shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -ne "$code" ]; then
        echo "FAIL: $what: exit $got, expected $code"; sed 's/^/  | /' "$tmp/out" "$tmp/err" | head -20; fails=$((fails + 1))
    fi
}
contains() {  # contains FILE PATTERN DESCRIPTION   (FILE: out or err)
    grep -q -- "$2" "$tmp/$1" || { echo "FAIL: $3: no '$2' in $1"; head -5 "$tmp/$1" | sed 's/^/  | /'; fails=$((fails + 1)); }
}
one_line_error() {  # one_line_error DESCRIPTION: the last command's stderr is exactly one line
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL: $1: stderr is not one line"; cat "$tmp/err"; fails=$((fails + 1)); }
}
finish() {  # finish WHAT: prints the summary, exits 1 when a check failed
    if [ "$fails" -ne 0 ]; then echo "$1: $fails check(s) failed"; exit 1; fi
    echo "$1: all passed"
    exit 0
}
