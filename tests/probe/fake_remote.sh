#!/bin/sh
# fake_remote.sh: an ssh-like wrapper for tests of a probe on another machine, without a network.
# Called as ssh is: fake_remote.sh [options] HOST COMMAND [ARGUMENT...]; it runs COMMAND here and
# makes the link as bad as asked. Options (or the environment variable named after each):
#   --latency S        FAKE_REMOTE_LATENCY      each line back is held S seconds (e.g. 0.5)
#   --drop-line N      FAKE_REMOTE_DROP_LINE    the Nth line back (from 1) is lost
#   --protocol V       FAKE_REMOTE_PROTOCOL     hello answers protocol version V
#   --probe-version X  FAKE_REMOTE_VERSION      hello answers probe version X
#   --drop-link N      FAKE_REMOTE_DROP_LINK    the link drops instead of the Nth line back
#   --missing          FAKE_REMOTE_MISSING=1    COMMAND is not found on the other side (127)
#   --ask-password     FAKE_REMOTE_ASK=1        asks for a password on stderr and waits
#   --refuse-login     FAKE_REMOTE_REFUSE=1     the login is refused (as ssh -o BatchMode=yes)
latency=${FAKE_REMOTE_LATENCY:-}
drop_line=${FAKE_REMOTE_DROP_LINE:-0}
protocol=${FAKE_REMOTE_PROTOCOL:-}
version=${FAKE_REMOTE_VERSION:-}
drop_link=${FAKE_REMOTE_DROP_LINK:-0}
missing=${FAKE_REMOTE_MISSING:-}
ask=${FAKE_REMOTE_ASK:-}
refuse=${FAKE_REMOTE_REFUSE:-}
while [ $# -gt 0 ]; do
    case "$1" in
    --latency) latency=$2; shift 2 ;;
    --drop-line) drop_line=$2; shift 2 ;;
    --protocol) protocol=$2; shift 2 ;;
    --probe-version) version=$2; shift 2 ;;
    --drop-link) drop_link=$2; shift 2 ;;
    --missing) missing=1; shift ;;
    --ask-password) ask=1; shift ;;
    --refuse-login) refuse=1; shift ;;
    -o) shift 2 ;; # ssh options (BatchMode=yes, ...) are accepted and ignored
    *) break ;;
    esac
done
host=$1
shift
if [ -n "$refuse" ]; then
    echo "fake@$host: Permission denied (publickey,password)." >&2
    exit 255
fi
if [ -n "$ask" ]; then
    printf "fake@%s's password: " "$host" >&2
    # A terminal would be read here; without one, wait as a stuck login would.
    exec sleep 600
fi
if [ -n "$missing" ]; then
    echo "bash: line 1: $1: command not found" >&2
    exit 127
fi
if [ -z "$latency$protocol$version" ] && [ "$drop_line" = 0 ] && [ "$drop_link" = 0 ]; then
    exec "$@"
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/out"
exec 3<&0
"$@" <&3 >"$dir/out" &
pid=$!
exec 3<&-
n=0
while IFS= read -r line; do
    n=$((n + 1))
    if [ "$n" = "$drop_link" ]; then
        kill "$pid" 2>/dev/null
        echo "Connection to $host closed by remote host." >&2
        exit 255
    fi
    [ "$n" = "$drop_line" ] && continue
    [ -n "$latency" ] && sleep "$latency"
    if [ -n "$protocol" ]; then
        line=$(printf '%s\n' "$line" | sed "s/\"protocol\":[0-9]*/\"protocol\":$protocol/")
    fi
    if [ -n "$version" ]; then
        line=$(printf '%s\n' "$line" | sed "s/\"version\":\"[^\"]*\"/\"version\":\"$version\"/")
    fi
    printf '%s\n' "$line"
done <"$dir/out"
wait "$pid"
