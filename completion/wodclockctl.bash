# bash completion for wodclockctl: its commands, their options, and the preset names the
# running daemon lists (`wodclockctl presets`; nothing when no daemon answers).
# Installed as /usr/share/bash-completion/completions/wodclockctl.

_wodclockctl_commands="status start pause resume toggle reset finish next previous lap mute
load run again recent presets schedule history reload watch version stats snapshot explain
devices heats lane score results"

# The presets of the daemon the command line points at: the names of `wodclockctl presets`,
# whose lines are a marker column ('*' for the loaded one), then the name.
_wodclockctl_presets() {
  local socket=()
  [ -n "$1" ] && socket=(--socket "$1")
  wodclockctl "${socket[@]}" presets 2>/dev/null | cut -c3- | awk '{ print $1 }'
}

_wodclockctl() {
  local cur prev words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
  cur=${words[cword]}
  prev=${words[cword - 1]}
  COMPREPLY=()

  # The socket given so far, and the command (the first word that is not an option).
  local socket="" command="" i
  for ((i = 1; i < cword; i++)); do
    case ${words[i]} in
      --socket) socket=${words[i + 1]}; ((i++)) ;;
      --socket=*) socket=${words[i]#--socket=} ;;
      -*) ;;
      *) command=${words[i]}; break ;;
    esac
  done

  if [ "$prev" = --socket ]; then
    COMPREPLY=($(compgen -f -- "$cur"))
    return
  fi
  if [ -z "$command" ]; then
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W "--socket --json --help --version" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "$_wodclockctl_commands" -- "$cur"))
    fi
    return
  fi
  case $command in
    load)
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "--start --replace --help" -- "$cur"))
      else
        local IFS=$'\n'
        COMPREPLY=($(compgen -W "$(_wodclockctl_presets "$socket")" -- "$cur"))
      fi
      ;;
    run | again) COMPREPLY=($(compgen -W "--start --replace --help" -- "$cur")) ;;
    mute) COMPREPLY=($(compgen -W "on off --help" -- "$cur")) ;;
    history)
      [ "$prev" = --limit ] || COMPREPLY=($(compgen -W "--limit --help" -- "$cur")) ;;
    snapshot)
      case $prev in
        --png) COMPREPLY=($(compgen -f -- "$cur")) ;;
        --output | --size | --scale) ;;
        *) COMPREPLY=($(compgen -W "--png --output --size --scale --help" -- "$cur")) ;;
      esac
      ;;
    explain) COMPREPLY=($(compgen -W "--json --help" -- "$cur")) ;;
    heats)
      case $prev in
        heats) COMPREPLY=($(compgen -W "load next clear board --help" -- "$cur")) ;;
        load) COMPREPLY=($(compgen -f -- "$cur")) ;;
        board) COMPREPLY=($(compgen -W "on off" -- "$cur")) ;;
      esac
      ;;
    lane)
      [ "$prev" = lane ] && COMPREPLY=($(compgen -W "finish undo tiebreak reps score --help" -- "$cur")) ;;
    results) COMPREPLY=($(compgen -W "--csv --help" -- "$cur")) ;;
    *) COMPREPLY=($(compgen -W "--help" -- "$cur")) ;;
  esac
}
complete -F _wodclockctl wodclockctl
