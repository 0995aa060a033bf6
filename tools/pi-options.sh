# shellcheck shell=bash
# What tools/pi-root.sh and tools/pi-boot.sh share, sourced by both once each has set TOOL
# (its name in what it says) and its defaults: how they speak (say, die, a failed command
# named with its line) and the options they both take.

say() { printf '%s: %s\n' "$TOOL" "$*"; }
die() { printf '\n%s: FAILED: %s\n' "$TOOL" "$*" >&2; exit 1; }
trap 'die "the command \"$BASH_COMMAND\" ($TOOL.sh line $LINENO) failed; see the messages above"' ERR

# shared_option ARGS...: one option both tools take, off the front of ARGS; sets `taken` to
# how many words it was (0: not one of them, for the tool's own options to read).
shared_option() {
    taken=0
    case "$1" in
        --release|--model|--checkout|--cache|--logs)
            [ $# -ge 2 ] || die "$1 needs a value"
            case "$1" in
                --release) releases=("$2") ;;
                --model) models=("$2") ;;
                --checkout) checkout="$2" ;;
                --cache) cache="$2" ;;
                --logs) logs="$2" ;;
            esac
            taken=2 ;;
        --build-only) build_only=1; taken=1 ;;
        --rebuild) rebuild=1; taken=1 ;;
        --keep) keep=1; taken=1 ;;
        -h|--help) usage; exit 0 ;;
    esac
}

# known_releases: every release asked for is one the tools build.
known_releases() {
    local release
    for release in "${releases[@]}"; do
        case "$release" in
            bookworm|trixie) ;;
            *) die "release $release: only bookworm and trixie are known here" ;;
        esac
    done
}
