#!/usr/bin/env bash
# The PC/SC test environment of eid: the real pcscd with the vsmartcard vpcd reader driver,
# into which eid-sim (the software eID card) plugs over TCP.
#
#   pcsc-env.sh install        install what is missing (Debian packages; needs root or sudo)
#   pcsc-env.sh start DIR      start a private pcscd with two vpcd readers; write DIR/env
#   pcsc-env.sh stop DIR       stop what `start DIR` started (by PID)
#   pcsc-env.sh run DIR CMD..  start, run CMD with DIR/env loaded, stop (also on failure or ^C)
#
# The private pcscd runs in its own mount namespace with its own /run/pcscd (pcscd has that
# directory compiled in, so a second one beside a running one would refuse to start; clients find
# the private one through PCSCLITE_CSOCK_NAME), so it neither needs nor disturbs a pcscd that is
# already running.
# DIR/env exports:
#   PCSCLITE_CSOCK_NAME      the socket of the private pcscd (libpcsclite honours it)
#   EID_E2E_READERS          "reader name=vpcd port" pairs, separated by ';'
#   EID_E2E_EMPTY_SOCKET     the socket of a second private pcscd that has no reader at all
#   EID_E2E_DIR              DIR itself (where tests keep artefacts, e.g. browser screenshots)
set -euo pipefail

PACKAGES=(pcscd libpcsclite-dev vsmartcard-vpcd libssl-dev libxml2-dev libeac-dev openpace pcsc-tools tmux pinentry-tty pinentry-curses desktop-file-utils ausweisapp2 python3-websockets systemd)
VPCD_DRIVER=/usr/lib/pcsc/drivers/serial/libifdvpcd.so
BASE_PORT=${EID_E2E_BASE_PORT:-37888}
# vsmartcard's nPA emulator, an independent card for the peer tests (Tests/Support/vicc).
PACKAGES+=(vsmartcard-vpicc python3-pycryptodome)
# libcurl with its OpenSSL backend for the TLS target; the openssl command line is TLSTests' peer server.
PACKAGES+=(libcurl4-openssl-dev openssl)
# eid-testserver's tests talk to it with independent TLS clients: curl and openssl s_client.
PACKAGES+=(curl)
# A real browser for the tests of the eID client on port 24727 (serve_browser_tests.py).
PACKAGES+=(chromium chromium-driver python3-selenium)
# The HTTP CONNECT proxy of the proxy tests (EndToEndTests' ProxyTests start it on loopback themselves):
# tinyproxy-bin is the executable alone, without the tinyproxy package's system service on port 8888.
PACKAGES+=(tinyproxy-bin)
# make deb: dpkg-shlibdeps (dpkg-dev) finds the package's Depends, lintian judges the .deb as Debian does.
PACKAGES+=(dpkg-dev lintian)
# What the end-to-end tests run besides (a test without it would be skipped, which CI does not
# allow: docs/testing.md "Skips"): readelf (binutils) reads the libraries the executables name;
# unshare, prlimit and setsid (util-linux) give a private mount namespace, RLIMIT_MEMLOCK 0 and a
# session of its own; Debian's python3 runs the peer scripts.
PACKAGES+=(binutils util-linux python3)
# PersoSim, the independent phone side of the remote reader tests (make persosim-test): its kit builds with
# Debian's JDK (javac, jar, keytool; jdb drives the card removal) against these jars (the kit's build.sh).
PACKAGES+=(default-jdk-headless libbcprov-java libbcpkix-java libbctls-java libbcutil-java libandroid-json-org-java
    libosgi-core-java libosgi-compendium-java libxstream-java libjackson2-core-java libjackson2-databind-java
    libjackson2-annotations-java libjakarta-annotation-api-java)

say() { printf 'pcsc-env: %s\n' "$*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        say "need root (or sudo) for: $*"; return 1; fi
}

install() {
    local missing=()
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then return 0; fi
    say "installing ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Starts pcscd with reader configs from $2 and its socket in $1; prints its PID.
start_pcscd() {
    local rundir=$1 confdir=$2 log=$3
    mkdir -p "$rundir" /run/pcscd
    # A mount namespace of its own: its /run/pcscd is $rundir, and nothing else sees it.
    setsid unshare -m --propagation private \
        sh -c "mount --bind '$rundir' /run/pcscd && exec pcscd --foreground -c '$confdir'" \
        >"$log" 2>&1 </dev/null &
    echo $!
}

wait_for_socket() {
    local sock=$1 pid=$2
    for _ in $(seq 1 100); do
        [ -S "$sock" ] && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

port_busy() { ss -ltn 2>/dev/null | grep -qE ":$1\b"; }

start() {
    local dir=$1
    mkdir -p "$dir/conf" "$dir/empty-conf" "$dir/run" "$dir/empty-run"
    dir=$(cd "$dir" && pwd)
    if [ -f "$dir/pcscd.pid" ] && kill -0 "$(cat "$dir/pcscd.pid")" 2>/dev/null; then
        say "a test pcscd from $dir still runs; stopping it first"
        stop "$dir"
    fi
    # vpcd listens on all addresses of this machine: take the first free pair of ports.
    local tries=0
    while port_busy "$BASE_PORT" || port_busy "$((BASE_PORT + 1))"; do
        tries=$((tries + 1))
        [ "$tries" -lt 50 ] || { say "no free pair of TCP ports from ${EID_E2E_BASE_PORT:-37888} on"; return 1; }
        BASE_PORT=$((BASE_PORT + 2))
    done
    # One vpcd entry: a reader with two slots on consecutive ports. (The vpcd driver keeps
    # its sockets in globals, so a second entry in the same pcscd would break the first.)
    printf 'FRIENDLYNAME "Virtual PCD"\nDEVICENAME /dev/null:0x%X\nLIBPATH %s\nCHANNELID 0x%X\n' \
        "$BASE_PORT" "$VPCD_DRIVER" "$BASE_PORT" >"$dir/conf/vpcd"
    local readers="Virtual PCD 00 00=$BASE_PORT;Virtual PCD 00 01=$((BASE_PORT + 1))"

    local pid empty_pid
    pid=$(start_pcscd "$dir/run" "$dir/conf" "$dir/pcscd.log")
    echo "$pid" >"$dir/pcscd.pid"
    empty_pid=$(start_pcscd "$dir/empty-run" "$dir/empty-conf" "$dir/pcscd-empty.log")
    echo "$empty_pid" >"$dir/pcscd-empty.pid"
    if ! wait_for_socket "$dir/run/pcscd.comm" "$pid" || ! wait_for_socket "$dir/empty-run/pcscd.comm" "$empty_pid"; then
        say "pcscd did not start; its log:"
        cat "$dir/pcscd.log" "$dir/pcscd-empty.log" >&2 || true
        stop "$dir"
        return 1
    fi
    # Ready when the vpcd driver listens on both ports (it opens them as pcscd loads it).
    for _ in $(seq 1 100); do
        if [ "$(ss -ltn 2>/dev/null | grep -cE ":($BASE_PORT|$((BASE_PORT + 1)))\b")" -ge 2 ]; then
            break
        fi
        sleep 0.1
    done
    cat >"$dir/env" <<EOF
export PCSCLITE_CSOCK_NAME='$dir/run/pcscd.comm'
export EID_E2E_READERS='$readers'
export EID_E2E_EMPTY_SOCKET='$dir/empty-run/pcscd.comm'
export EID_E2E_DIR='$dir'
EOF
    say "pcscd $pid up with readers: $readers"
}

stop() {
    local dir=$1 f pid
    for f in "$dir/pcscd.pid" "$dir/pcscd-empty.pid"; do
        [ -f "$f" ] || continue
        pid=$(cat "$f")
        # pcscd is its session leader (setsid): end the whole group, then make sure.
        kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL -- "-$pid" 2>/dev/null || true
        rm -f "$f"
    done
}

run() {
    local dir=$1
    shift
    start "$dir"
    # shellcheck disable=SC2064
    trap "stop '$dir'" EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    # shellcheck disable=SC1091
    . "$dir/env"
    "$@"
}

case "${1:-}" in
    install) install ;;
    start) start "${2:?DIR}" ;;
    stop) stop "${2:?DIR}" ;;
    run) shift; run "$@" ;;
    *) sed -n '2,16p' "$0" >&2; exit 64 ;;
esac
