#!/usr/bin/env bash
# scripts/generated-docs.sh — the figures the documents quote, generated from recorded runs.
# A block in any tracked Markdown file that starts with the line
#   <!-- generated: rlab ARGS -->
# and ends with the line
#   <!-- end generated -->
# holds exactly what `rlab ARGS` prints (run from the repository root). `check` (the test) fails on any
# block that differs; `update` rewrites every block.
# Usage: scripts/generated-docs.sh check|update RLAB
set -euo pipefail
mode=${1:?usage: generated-docs.sh check|update RLAB}
rlab=$(realpath "${2:?usage: generated-docs.sh check|update RLAB}")
cd "$(dirname "$0")/.."
[[ $mode == check || $mode == update ]] || { echo "generated-docs.sh: mode must be check or update" >&2; exit 2; }

failed=0 blocks=0
while IFS= read -r file; do
    grep -q '^<!-- generated: rlab ' "$file" || continue
    out=$(mktemp)
    in_block=0 expected="" actual=""
    while IFS= read -r line || [[ -n $line ]]; do
        if [[ $in_block == 0 && $line =~ ^\<!--\ generated:\ rlab\ (.*)\ --\>$ ]]; then
            args=${BASH_REMATCH[1]}
            printf '%s\n' "$line" >> "$out"
            # shellcheck disable=SC2086  # ARGS is a word list written in the document
            expected=$("$rlab" $args </dev/null) || { echo "$file: 'rlab $args' failed" >&2; exit 2; }
            printf '%s\n' "$expected" >> "$out"
            in_block=1 actual="" blocks=$((blocks + 1))
            continue
        fi
        if [[ $in_block == 1 ]]; then
            if [[ $line == '<!-- end generated -->' ]]; then
                if [[ "$actual" != "$expected"$'\n' && "$actual" != "$expected" ]]; then
                    echo "$file: the block 'rlab $args' differs from what it prints now" >&2
                    diff <(printf '%s\n' "$expected") <(printf '%s' "$actual") | head -20 >&2 || true
                    failed=1
                fi
                printf '%s\n' "$line" >> "$out"
                in_block=0
            else
                actual+="$line"$'\n'
            fi
            continue
        fi
        printf '%s\n' "$line" >> "$out"
    done < "$file"
    [[ $in_block == 0 ]] || { echo "$file: a generated block has no '<!-- end generated -->' line" >&2; exit 2; }
    if [[ $mode == update ]]; then cat "$out" > "$file"; fi
    rm -f "$out"
done < <(git ls-files '*.md')

if [[ $blocks == 0 ]]; then echo "generated-docs.sh: no generated blocks found (expected some in docs/)" >&2; exit 1; fi
if [[ $mode == check && $failed == 1 ]]; then
    echo "generated-docs.sh: regenerate with: scripts/generated-docs.sh update build/default/app/cli/rlab" >&2
    exit 1
fi
echo "generated-docs.sh: $blocks generated block(s) $([[ $mode == check ]] && echo match || echo rewritten)"
