# packaging/completion/rlab.bash — bash completion for rlab. The commands, flags and value lists are read from
# the installed rlab's own --help when completing, so they always match the program that will run.

# The lines of `rlab [COMMAND] --help`, cached per command for this shell.
_rlab_help() {
    local key="_rlab_help_cache_${1:-top}"
    key=${key//-/_}
    if [[ -z ${!key+set} ]]; then
        printf -v "$key" '%s' "$(command rlab ${1:+"$1"} --help 2>/dev/null)"
    fi
    printf '%s\n' "${!key}"
}

_rlab() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local commands cmd="" w i
    # The commands are the words under "Subcommands:" of `rlab --help`.
    commands=$(_rlab_help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' | tr '\n' ' ')
    for ((i = 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        if [[ " $commands " == *" $w "* ]]; then
            cmd=$w
            break
        fi
    done
    local help
    help=$(_rlab_help "$cmd")

    if [[ $prev == --kernel && ( $cmd == run || $cmd == check ) ]]; then
        # A plain CUDA file's kernels: the names after __global__ in the FILE.cu on the line (a template's name needs
        # its arguments after it, reduce6<256>; rlab says so when they are missing).
        local file=""
        for ((i = 1; i < COMP_CWORD; i++)); do
            w=${COMP_WORDS[i]}
            [[ $w == *.cu && -f $w ]] && file=$w
        done
        if [[ -n $file ]]; then
            local names
            names=$(sed -n 's/.*__global__[^(]*[^A-Za-z0-9_(]\([A-Za-z_][A-Za-z0-9_]*\)[[:space:]]*(.*/\1/p' "$file" | sort -u)
            COMPREPLY=($(compgen -W "$names" -- "$cur"))
        fi
        return 0
    fi
    if [[ $prev == -* ]]; then
        # The option's line: "  -o,--output TEXT    description"; a flag without a value has no TEXT/INT/... word.
        local line
        line=$(printf '%s\n' "$help" | grep -E -- "^ +(-[a-z],)?${prev}( [A-Z]+)" | head -n 1)
        if [[ -n $line ]]; then
            local desc values=""
            desc=$(printf '%s\n' "$line" | sed -E 's/^ +[^ ]+ [A-Z]+(=[^ ]*)?( \.\.\.)? +//')
            if [[ $desc =~ ^([a-z0-9.-]+(\|[a-z0-9.A-Z-]+)+) ]]; then
                values=${BASH_REMATCH[1]//|/ }          # "auto|cpu|cuda ..." -> auto cpu cuda
                values=${values//VALUES/}
            elif [[ $desc == *"(repeatable): "* ]]; then
                values=${desc#*"(repeatable): "}        # "inject a bug (repeatable): a, b, c" -> a b c
                values=${values//,/}
            fi
            if [[ -n $values ]]; then
                COMPREPLY=($(compgen -W "$values" -- "$cur"))
            else
                COMPREPLY=($(compgen -f -- "$cur"))      # FILE, NAME, N: offer files; numbers are typed
            fi
            return 0
        fi
    fi
    if [[ -n $cmd && -n $cur && $cur != -* ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))              # a command's FILE argument (import, check FILE.cu)
    elif [[ -n $cmd || $cur == -* ]]; then
        local flags
        flags=$(printf '%s\n' "$help" | grep -oE -- '^ +(-[a-z],)?--[a-z][a-z0-9-]*' | sed -E 's/^ +//; s/,/ /')
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
    fi
}

complete -F _rlab rlab
