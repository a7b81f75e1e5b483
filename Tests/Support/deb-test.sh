#!/usr/bin/env bash
# make test: the packaged eid runs on a machine without the Swift toolchain. Unpacks the .deb,
# checks with ldd that no library resolves into the toolchain (/opt/swift) or is missing, and
# checks the systemd user units (systemd-analyze verify) and the eid:// desktop entry
# (desktop-file-validate, its command line parsed by eid), and runs eid from the package with the
# toolchain hidden: in a private mount namespace with an empty
# tmpfs over the toolchain directory and an empty LD_LIBRARY_PATH (as root, or in a user namespace).
# Usage: Tests/Support/deb-test.sh PACKAGE.deb [TOOLCHAIN_DIR]
set -euo pipefail

deb=${1:?usage: deb-test.sh PACKAGE.deb [TOOLCHAIN_DIR]}
toolchain=${2:-/opt/swift}
fail() { echo "deb-test: FAIL: $*" >&2; exit 1; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
dpkg-deb -x "$deb" "$dir"
version=$(dpkg-deb -f "$deb" Version)

for exe in eid eid-sim; do
    libs=$(ldd "$dir/usr/bin/$exe") || fail "ldd $exe"
    if grep -E "not found|$toolchain" <<< "$libs" >&2; then
        fail "$exe needs a library that is not on a system without the toolchain"
    fi
    if readelf -d "$dir/usr/bin/$exe" | grep -E "RPATH|RUNPATH" >&2; then
        fail "$exe has a run path: an installed binary finds its libraries where the system keeps them"
    fi
done
for f in usr/share/man/man1/eid.1.gz usr/share/bash-completion/completions/eid \
    usr/share/zsh/vendor-completions/_eid usr/share/fish/vendor_completions.d/eid.fish \
    usr/lib/systemd/user/eid.socket usr/lib/systemd/user/eid.service usr/share/applications/eid.desktop; do
    [ -s "$dir/$f" ] || fail "the package lacks $f"
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

# Runs a command of the package with the toolchain hidden, for at most 30 seconds.
namespace=(unshare -m --propagation private)
[ "$(id -u)" -eq 0 ] || namespace=(unshare --map-root-user -m --propagation private)
hidden() {
    "${namespace[@]}" sh -c '
        dir=$1 toolchain=$2; shift 2
        if [ -d "$toolchain" ]; then mount -t tmpfs -o size=1m tmpfs "$toolchain" || exit 99; fi
        [ -z "$(ls -A "$toolchain" 2>/dev/null)" ] || exit 98
        exec timeout 30 env LD_LIBRARY_PATH= PATH=/usr/bin:/bin "$dir/usr/bin/$@"' sh "$dir" "$toolchain" "$@"
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
sim = [r for r in msg["reader"] if r["name"] == "Simulator"]
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
echo "deb-test: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) runs without $toolchain: eid $version, READER_LIST ok"
