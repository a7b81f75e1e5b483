#!/usr/bin/env bash
# make deb: packages the release build of eid and eid-sim, the man page and the completions as a
# Debian package, with dpkg-deb. Usage: packaging/build-deb.sh BIN_DIR OUT_DIR
# Prints the path of the .deb. The binaries link the Swift runtime statically (make release); the
# package depends on the Debian packages that own the shared libraries ldd shows they still need,
# and refusing to build if any of them would come from the Swift toolchain.
set -euo pipefail

bin=${1:?usage: build-deb.sh BIN_DIR OUT_DIR}
out=${2:?usage: build-deb.sh BIN_DIR OUT_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)

version=$("$bin/eid" --version)
arch=$(dpkg --print-architecture)
stage=$(mktemp -d)
chmod 755 "$stage"
trap 'rm -rf "$stage"' EXIT

install -D -m 755 "$bin/eid" "$stage/usr/bin/eid"
install -D -m 755 "$bin/eid-sim" "$stage/usr/bin/eid-sim"
strip --strip-unneeded "$stage/usr/bin/eid" "$stage/usr/bin/eid-sim"
install -d "$stage/usr/share/man/man1"
gzip -9n < "$root/man/eid.1" > "$stage/usr/share/man/man1/eid.1.gz"
install -D -m 644 "$root/completions/eid.bash" "$stage/usr/share/bash-completion/completions/eid"
install -D -m 644 "$root/completions/_eid" "$stage/usr/share/zsh/vendor-completions/_eid"
install -D -m 644 "$root/completions/eid.fish" "$stage/usr/share/fish/vendor_completions.d/eid.fish"

# Depends: the package of every shared library the binaries load (libpcsclite1, libssl3, libc6, ...).
depends=()
for lib in $(ldd "$stage/usr/bin/eid" "$stage/usr/bin/eid-sim" | awk '$2 == "=>" { print $3 }' | sort -u); do
    case $lib in
    not | /opt/swift/*)
        echo "build-deb.sh: the binaries need a library from outside the system: $(ldd "$stage/usr/bin/eid" | grep -E 'not found|/opt/swift')" >&2
        exit 1 ;;
    esac
    real=$(readlink -f "$lib")
    owner=$(dpkg -S "$lib" 2>/dev/null || dpkg -S "$real" 2>/dev/null || dpkg -S "${real#/usr}" 2>/dev/null) || {
        echo "build-deb.sh: no Debian package owns $lib" >&2
        exit 1
    }
    depends+=("${owner%%:*}")
done
depends_line=$(printf '%s\n' "${depends[@]}" | sort -u | paste -sd, | sed 's/,/, /g')

install -d "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: eid
Version: $version
Architecture: $arch
Maintainer: eid maintainers <eid@localhost>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends_line
Recommends: pcscd
Suggests: libccid, vsmartcard-vpcd
Section: utils
Priority: optional
Description: command-line client for the German eID card (nPA, eAT)
 eid talks to the German identity card and the electronic residence permit through
 PC/SC (pcscd): it lists readers and cards with their PIN state and changes the PIN
 (transport PIN, PIN, with CAN and PUK when the card needs them). Every command has a
 JSON mode that speaks the messages of the AusweisApp2 SDK.
 .
 eid-sim is a software eID card for tests, plugged into pcscd through vpcd
 (vsmartcard-vpcd).
CONTROL

mkdir -p "$out"
deb="$out/eid_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" > /dev/null
echo "$deb"
