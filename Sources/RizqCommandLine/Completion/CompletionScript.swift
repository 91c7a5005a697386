#if CLI
/// The completion scripts `rizq-prefs --generate-completion-script bash|zsh|fish` prints and
/// scripts/install (and the .deb) installs where each shell looks. Each is the same small
/// function: it hands the words typed to `rizq-prefs __complete` (``ShellCompletion``) and
/// offers what comes back, listing file or folder names itself on `:files` and `:directories`.
/// No command is named in them: a new command, option or value completes without a new script.
package enum CompletionScript {
    /// The shells there is a script for.
    package static let shells = ["bash", "zsh", "fish"]

    /// The script for `shell`, or `nil` for another shell.
    package static func script(for shell: String) -> String? {
        switch shell {
        case "bash": return bash
        case "zsh": return zsh
        case "fish": return fish
        default: return nil
        }
    }

    // bash: bash-completion's word splitting (when it is loaded) keeps `--type=int` one word.
    private static let bash = #"""
        # bash completion for rizq-prefs (rizq-prefs --generate-completion-script bash): the
        # program itself says what completes (rizq-prefs __complete WORD…).
        _rizq_prefs() {
            local cur words cword
            if declare -F _get_comp_words_by_ref > /dev/null; then
                _get_comp_words_by_ref -n =: cur words cword
            else
                words=("${COMP_WORDS[@]}") cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]}
            fi
            local IFS=$'\n' line
            local -a lines
            lines=($("${words[0]}" __complete "${words[@]:1:cword}" 2> /dev/null)) || return 0
            COMPREPLY=()
            for line in "${lines[@]}"; do
                case "$line" in
                    :files) compopt -o filenames 2> /dev/null; COMPREPLY+=($(compgen -f -- "$cur")) ;;
                    :directories) compopt -o filenames 2> /dev/null; COMPREPLY+=($(compgen -d -- "$cur")) ;;
                    *) COMPREPLY+=("${line%%$'\t'*}") ;;
                esac
            done
            # bash-completion: a `--name=` candidate completes after the `=` the shell split at.
            declare -F __ltrim_colon_completions > /dev/null && __ltrim_colon_completions "$cur"
            return 0
        }
        complete -F _rizq_prefs rizq-prefs

        """#

    private static let zsh = #"""
        #compdef rizq-prefs
        # zsh completion for rizq-prefs (rizq-prefs --generate-completion-script zsh): the
        # program itself says what completes (rizq-prefs __complete WORD…).
        _rizq-prefs() {
            local -a lines described plain
            local line
            lines=("${(@f)$("${words[1]}" __complete "${(@)words[2,CURRENT]}" 2> /dev/null)}")
            for line in "${lines[@]}"; do
                case "$line" in
                    '') ;;
                    :files) _files ;;
                    :directories) _files -/ ;;
                    *$'\t'*) described+=("${${line%%$'\t'*}//:/\\:}:${line#*$'\t'}") ;;
                    *) plain+=("$line") ;;
                esac
            done
            (( ${#described} )) && _describe -t commands 'rizq-prefs' described
            (( ${#plain} )) && compadd -a plain
            return 0
        }
        if [[ "${funcstack[1]}" = _rizq-prefs ]]; then
            _rizq-prefs "$@"
        else
            compdef _rizq-prefs rizq-prefs
        fi

        """#

    private static let fish = #"""
        # fish completion for rizq-prefs (rizq-prefs --generate-completion-script fish): the
        # program itself says what completes (rizq-prefs __complete WORD…).
        function __rizq_prefs_complete
            set -l words (commandline -opc)
            set -l current (commandline -ct)
            for line in ($words[1] __complete $words[2..-1] $current 2> /dev/null)
                switch $line
                    case :files
                        __fish_complete_path $current
                    case :directories
                        __fish_complete_directories $current
                    case '*'
                        echo $line
                end
            end
        end
        complete -c rizq-prefs -f -a '(__rizq_prefs_complete)'

        """#
}
#endif
