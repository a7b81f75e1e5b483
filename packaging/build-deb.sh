#!/usr/bin/env bash
# make deb: packages the release build of eid and eid-sim, the man page and the completions as a
# Debian package, with dpkg-deb. Usage: packaging/build-deb.sh BIN_DIR OUT_DIR
# Prints the path of the .deb. The binaries link the Swift runtime statically (make release); it
# refuses to package them if ldd shows a library from the Swift toolchain.
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

# No library may come from the Swift toolchain or be missing.
if ldd "$stage/usr/bin/eid" "$stage/usr/bin/eid-sim" | grep -E "not found|/opt/swift" >&2; then
    echo "build-deb.sh: the binaries need a library that a machine without the toolchain lacks" >&2
    exit 1
fi

# Depends: dpkg-shlibdeps (dpkg-dev) names the package and minimum version of every shared
# library the binaries load (libc6, libgcc-s1, libstdc++6, libpcsclite1, libssl3, libxml2).
work=$(mktemp -d)
trap 'rm -rf "$stage" "$work"' EXIT
mkdir "$work/debian" "$stage/DEBIAN"
printf 'Source: eid\n\nPackage: eid\nArchitecture: any\n' > "$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O "$stage/usr/bin/eid" "$stage/usr/bin/eid-sim" 2> "$work/log") || {
    cat "$work/log" >&2
    exit 1
}
depends_line=${shlibs#shlibs:Depends=}
[ -n "$depends_line" ] || { echo "build-deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

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
