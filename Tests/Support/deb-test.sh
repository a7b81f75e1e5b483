#!/usr/bin/env bash
# make test: the packaged eid runs on a machine without the Swift toolchain. Unpacks the .deb,
# checks with ldd that no library resolves into the toolchain (/opt/swift) or is missing, and
# runs eid from the package with the toolchain hidden: in a private mount namespace with an empty
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
    usr/share/zsh/vendor-completions/_eid usr/share/fish/vendor_completions.d/eid.fish; do
    [ -s "$dir/$f" ] || fail "the package lacks $f"
done

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
got=$(hidden eid-sim --help) || fail "eid-sim --help exited with $?"
grep -q -- "--vpcd" <<< "$got" || fail "eid-sim --help printed no usage"
echo "deb-test: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) runs without $toolchain: eid $version, READER_LIST ok"
