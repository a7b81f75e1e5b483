#!/usr/bin/env bash
# make test: the packaged eid runs on a machine without the Swift toolchain. Judges both packages
# (eid, eid-testserver) with lintian, where any error or warning fails (an override needs its
# reason in README.md), and checks that each is at most 10 MiB. Unpacks them; checks that their
# Maintainer is the contact README.md and the copyright file give and that groff says nothing
# about the man pages at 80 columns either;
# checks with ldd that no library resolves into the toolchain (/opt/swift) or is missing, and
# checks the systemd user units (systemd-analyze verify) and the eid:// desktop entry
# (desktop-file-validate, its command line parsed by eid), and runs eid and eid-testserver from the
# packages with the toolchain hidden: in a private mount namespace with an empty
# tmpfs over the toolchain directory and an empty LD_LIBRARY_PATH (as root, or in a user namespace);
# there the packaged eid authenticates with its in-process card (--simulator) against the packaged
# eid-testserver over HTTPS on loopback.
# Usage: Tests/Support/deb-test.sh EID.deb EID-TESTSERVER.deb [TOOLCHAIN_DIR]
set -euo pipefail

usage="usage: deb-test.sh EID.deb EID-TESTSERVER.deb [TOOLCHAIN_DIR]"
deb=${1:?$usage}
server_deb=${2:?$usage}
toolchain=${3:-/opt/swift}
fail() { echo "deb-test: FAIL: $*" >&2; exit 1; }

# lintian: no error, no warning (overrides shipped in the package count as explained).
for package in "$deb" "$server_deb"; do
    status=0
    said=$(lintian --fail-on error,warning "$package" 2>&1) || status=$?
    # (As root it also says that running as root is not recommended: not about the package.)
    said=$(grep -v '^running with root privileges' <<< "$said" || true)
    [ "$status" -eq 0 ] || fail "lintian $(basename "$package") (status $status): $said"
    [ -z "$said" ] || echo "deb-test: lintian $(basename "$package"): $said"
    size=$(stat -c %s "$package")
    [ "$size" -le $((10 * 1024 * 1024)) ] || fail "$(basename "$package") is $size bytes, more than 10 MiB"
done

dir=$(mktemp -d)
server_pid=
trap '[ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
dpkg-deb -x "$deb" "$dir"
dpkg-deb -x "$server_deb" "$dir"
version=$(dpkg-deb -f "$deb" Version)
[ "$(dpkg-deb -f "$server_deb" Version)" = "$version" ] || fail "eid-testserver's package is not version $version"

# The Maintainer is the project's contact as README.md and the copyright file give it.
root=$(cd "$(dirname "$0")/../.." && pwd)
maintainer=$(dpkg-deb -f "$deb" Maintainer)
[ "$(dpkg-deb -f "$server_deb" Maintainer)" = "$maintainer" ] || fail "the packages name different maintainers"
grep -qF "Contact: **$maintainer**" "$root/README.md" || fail "README.md does not give $maintainer as the contact"
grep -qxF "Upstream-Contact: $maintainer" "$dir/usr/share/doc/eid/copyright" \
    || fail "the copyright file's Upstream-Contact is not $maintainer"

# The man pages are groff-clean on an 80-column terminal too (lintian reads them at 120).
for page in "$dir"/usr/share/man/man1/*.1.gz; do
    said=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 > /dev/null)
    [ -z "$said" ] || fail "groff warns about $(basename "$page") at 80 columns: $said"
done

for exe in eid eid-sim eid-testserver; do
    libs=$(ldd "$dir/usr/bin/$exe") || fail "ldd $exe"
    if grep -E "not found|$toolchain" <<< "$libs" >&2; then
        fail "$exe needs a library that is not on a system without the toolchain"
    fi
    if readelf -d "$dir/usr/bin/$exe" | grep -E "RPATH|RUNPATH" >&2; then
        fail "$exe has a run path: an installed binary finds its libraries where the system keeps them"
    fi
done
for f in usr/share/man/man1/eid.1.gz usr/share/man/man1/eid-sim.1.gz usr/share/bash-completion/completions/eid \
    usr/share/zsh/vendor-completions/_eid usr/share/fish/vendor_completions.d/eid.fish \
    usr/share/bash-completion/completions/eid-sim usr/share/zsh/vendor-completions/_eid-sim \
    usr/share/fish/vendor_completions.d/eid-sim.fish \
    usr/lib/systemd/user/eid.socket usr/lib/systemd/user/eid.service usr/share/applications/eid.desktop \
    usr/share/doc/eid/copyright usr/share/doc/eid/changelog.gz \
    usr/share/man/man1/eid-testserver.1.gz usr/share/bash-completion/completions/eid-testserver \
    usr/share/doc/eid-testserver/copyright usr/share/doc/eid-testserver/changelog.gz; do
    [ -s "$dir/$f" ] || fail "the packages lack $f"
done

# The desktop entry: valid (desktop-file-validate, hints aside), the eid:// handler.
desktop=$dir/usr/share/applications/eid.desktop
if command -v desktop-file-validate > /dev/null; then
    problems=$(desktop-file-validate --no-hints "$desktop" 2>&1) || fail "eid.desktop is not valid: $problems"
    [ -z "$problems" ] || fail "eid.desktop: $problems"
else
    echo "deb-test: desktop-file-validate missing (apt install desktop-file-utils); eid.desktop only parsed" >&2
fi
grep -qx 'MimeType=x-scheme-handler/eid;' "$desktop" || fail "eid.desktop does not handle eid:// links"
exec_line=$(sed -n 's/^Exec=//p' "$desktop")
[ "${exec_line%% *}" = /usr/bin/eid ] && [ "${exec_line##* }" = %u ] || fail "eid.desktop runs '$exec_line'"

# The units: systemd-analyze verify (no running systemd needed) must say nothing, with ExecStart
# pointed at the packaged eid; the socket listens where browsers call.
units=$(mktemp -d)
cp "$dir/usr/lib/systemd/user/eid.socket" "$dir/usr/lib/systemd/user/eid.service" "$units/"
grep -qx 'ExecStart=/usr/bin/eid serve' "$units/eid.service" || fail "eid.service does not start eid serve"
grep -qx 'ListenStream=127.0.0.1:24727' "$units/eid.socket" || fail "eid.socket does not listen on 127.0.0.1:24727"
sed -i "s|^ExecStart=/usr/bin/eid|ExecStart=$dir/usr/bin/eid|" "$units/eid.service"
said=$(systemd-analyze verify --man=no "$units/eid.socket" "$units/eid.service" 2>&1) \
    || fail "systemd-analyze verify: $said"
[ -z "$said" ] || fail "systemd-analyze verify: $said"
rm -rf "$units"

# Runs a command of the packages with the toolchain hidden, for at most $limit seconds (30 unless
# set); with PIDFILE set, the command's process id is written there.
namespace=(unshare -m --propagation private)
[ "$(id -u)" -eq 0 ] || namespace=(unshare --map-root-user -m --propagation private)
hidden() {
    "${namespace[@]}" sh -c '
        dir=$1 toolchain=$2 limit=$3; shift 3
        if [ -d "$toolchain" ]; then mount -t tmpfs -o size=1m tmpfs "$toolchain" || exit 99; fi
        [ -z "$(ls -A "$toolchain" 2>/dev/null)" ] || exit 98
        [ -z "${PIDFILE:-}" ] || echo $$ > "$PIDFILE"
        exec timeout "$limit" env LD_LIBRARY_PATH= PATH=/usr/bin:/bin "$dir/usr/bin/$@"' sh "$dir" "$toolchain" "${limit:-30}" "$@"
}

got=$(hidden eid --version) || fail "eid --version exited with $?"
[ "$got" = "$version" ] || fail "eid --version printed '$got', the package is version '$version'"

json=$(hidden eid readers --simulator --json) || fail "eid readers --simulator --json exited with $?"
python3 - "$json" <<'PY' || fail "eid readers --simulator --json printed no valid READER_LIST: $json"
import json, sys
lines = sys.argv[1].splitlines()
assert len(lines) == 1, lines
msg = json.loads(lines[0])
assert msg["msg"] == "READER_LIST", msg
sim = [r for r in msg["readers"] if r["name"] == "Simulator"]
assert len(sim) == 1 and sim[0]["attached"] is True and sim[0]["card"]["retryCounter"] == 3, msg
PY
# The desktop entry's command line parses: an eid:// link whose tcTokenURL is not https is
# refused after the options are read (exit 5 or so, never the usage status 64).
link='eid://127.0.0.1:24727/eID-Client?tcTokenURL=http%3A%2F%2F127.0.0.1%2Ftc'
# shellcheck disable=SC2086 # the Exec line's words, as the desktop splits them
set -- ${exec_line% %u}
status=0
hidden eid "${@:2}" "$link" > /dev/null 2>&1 || status=$?
[ "$status" -ne 0 ] && [ "$status" -ne 64 ] || fail "eid.desktop's '$exec_line' with $link exited with $status"

got=$(hidden eid-sim --help) || fail "eid-sim --help exited with $?"
grep -q -- "--vpcd" <<< "$got" || fail "eid-sim --help printed no usage"

# An online authentication, both sides from the packages: eid-testserver on a free port (its
# greeting names it; it makes an RSA 3072 key first, slow on a busy machine), then eid auth
# --simulator, answering as an SDK client would (ACCEPT, SET_PIN). No pcscd: --simulator's card only.
PIDFILE=$dir/serve.pid limit=300 hidden eid-testserver serve --port 0 > "$dir/serve.out" 2> "$dir/serve.err" &
port=
for _ in $(seq 1 600); do
    [ -n "$server_pid" ] || server_pid=$(cat "$dir/serve.pid" 2> /dev/null || true)
    port=$(sed -n 's/.*(port \([0-9]*\)).*/\1/p' "$dir/serve.out")
    [ -z "$port" ] && { [ -z "$server_pid" ] || kill -0 "$server_pid" 2> /dev/null; } || break
    sleep 0.1
done
[ -n "$port" ] || fail "eid-testserver serve did not say its port: $(cat "$dir/serve.out" "$dir/serve.err")"
answers='{"cmd":"ACCEPT"}
{"cmd":"SET_PIN","value":"123456"}'
status=0
auth=$(PCSCLITE_CSOCK_NAME=/nonexistent/pcscd.comm limit=120 \
    hidden eid auth --json --simulator "https://127.0.0.1:$port/tctoken" <<< "$answers" 2> "$dir/auth.err") || status=$?
[ "$status" -eq 0 ] || fail "eid auth exited with $status: $(cat "$dir/auth.err")"
result=$(curl -sSk --max-time 20 "https://127.0.0.1:$port/result") || fail "eid-testserver's /result did not answer"
python3 - "$auth" "$result" "$port" <<'PY' || fail "eid auth against eid-testserver: $auth / $result"
import json, sys
auth, result, port = sys.argv[1].splitlines(), json.loads(sys.argv[2]), sys.argv[3]
last = json.loads(auth[-1])
assert last["msg"] == "AUTH" and last["result"]["major"].endswith("resultmajor#ok"), last
assert last["url"].startswith(f"https://127.0.0.1:{port}/refresh?session="), last
assert result["ok"] is True, result
assert result["read"]["GivenNames"] == "ERIKA" and result["read"]["FamilyName"] == "MUSTERMANN", result
PY
! grep -q 123456 <<< "$auth$(cat "$dir/auth.err")" || fail "eid auth printed the PIN"
kill "$server_pid"
wait
server_pid=

echo "deb-test: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) and $(basename "$server_deb")" \
    "($(du -k "$server_deb" | cut -f1) KiB) run without $toolchain: eid $version, READER_LIST ok, auth ok"
