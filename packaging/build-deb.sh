#!/usr/bin/env bash
# make deb: packages the release build of eid and eid-sim, their man pages, the completions, the
# systemd user units (eid.socket, eid.service) and the eid:// desktop entry as a Debian package,
# with dpkg-deb; make deb-testserver: eid-testserver, its man page and completions
# as a package of its own (eid-testserver). Both carry the copyright file (DEP-5) and the changelog
# of packaging/debian in /usr/share/doc/PACKAGE; the changelog's last entry gives the Maintainer
# field and must have the version of Sources/Online/EIDVersion.swift.
# Usage: packaging/build-deb.sh BIN_DIR OUT_DIR [PACKAGE]
# (PACKAGE: eid, the default, or eid-testserver). Prints the path of the .deb. The binaries link
# the Swift runtime statically (make release); it refuses to package them if ldd shows a library
# from the Swift toolchain.
set -euo pipefail

bin=${1:?usage: build-deb.sh BIN_DIR OUT_DIR [eid|eid-testserver]}
out=${2:?usage: build-deb.sh BIN_DIR OUT_DIR [eid|eid-testserver]}
package=${3:-eid}
root=$(cd "$(dirname "$0")/.." && pwd)

case $package in
    eid) executables=(eid eid-sim) ;;
    eid-testserver) executables=(eid-testserver) ;;
    *) echo "build-deb.sh: unknown package $package (eid or eid-testserver)" >&2; exit 64 ;;
esac
# The project's one version (eid --version prints it; eid-testserver has no --version).
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' "$root/Sources/Online/EIDVersion.swift")
[ -n "$version" ] || { echo "build-deb.sh: no version in Sources/Online/EIDVersion.swift" >&2; exit 1; }
changelog=$root/packaging/debian/changelog
logged=$(dpkg-parsechangelog -l "$changelog" -S Version)
[ "$logged" = "$version" ] || {
    echo "build-deb.sh: packaging/debian/changelog's last entry is $logged, eid is $version: add an entry" >&2
    exit 1
}
maintainer=$(dpkg-parsechangelog -l "$changelog" -S Maintainer)
arch=$(dpkg --print-architecture)
stage=$(mktemp -d)
chmod 755 "$stage"
trap 'rm -rf "$stage"' EXIT

binaries=()
for exe in "${executables[@]}"; do
    install -D -m 755 "$bin/$exe" "$stage/usr/bin/$exe"
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/$exe"
    binaries+=("$stage/usr/bin/$exe")
done
install -d "$stage/usr/share/man/man1" "$stage/usr/share/doc/$package"
for exe in "${executables[@]}"; do
    gzip -9n < "$root/man/$exe.1" > "$stage/usr/share/man/man1/$exe.1.gz"
done
# A native package (no Debian revision): changelog.gz, not changelog.Debian.gz.
install -m 644 "$root/packaging/debian/copyright" "$stage/usr/share/doc/$package/copyright"
gzip -9n < "$changelog" > "$stage/usr/share/doc/$package/changelog.gz"
# bash-completion sources the file: no hashbang (the argument parser writes one).
install -d "$stage/usr/share/bash-completion/completions"
for exe in "${executables[@]}"; do
    sed '1{/^#!/d}' "$root/completions/$exe.bash" > "$stage/usr/share/bash-completion/completions/$exe"
    install -D -m 644 "$root/completions/_$exe" "$stage/usr/share/zsh/vendor-completions/_$exe"
    install -D -m 644 "$root/completions/$exe.fish" "$stage/usr/share/fish/vendor_completions.d/$exe.fish"
done
if [ "$package" = eid ]; then
    # The desktop: eid serve on 127.0.0.1:24727 by socket activation (systemctl --user enable --now
    # eid.socket), and the eid:// scheme handler (desktop-file-utils' dpkg trigger updates the
    # MIME cache).
    install -D -m 644 "$root/packaging/systemd/eid.socket" "$stage/usr/lib/systemd/user/eid.socket"
    install -D -m 644 "$root/packaging/systemd/eid.service" "$stage/usr/lib/systemd/user/eid.service"
    install -D -m 644 "$root/packaging/desktop/eid.desktop" "$stage/usr/share/applications/eid.desktop"
fi

# No library may come from the Swift toolchain or be missing.
if ldd "${binaries[@]}" | grep -E "not found|/opt/swift" >&2; then
    echo "build-deb.sh: the binaries need a library that a machine without the toolchain lacks" >&2
    exit 1
fi

# Depends: dpkg-shlibdeps (dpkg-dev) names the package and minimum version of every shared
# library the binaries link (libc6, libpcsclite1; libssl3 for eid-testserver's libssl and libcrypto; libstdc++ and
# the unwinder are linked statically, packaging/static-link).
work=$(mktemp -d)
trap 'rm -rf "$stage" "$work"' EXIT
mkdir "$work/debian" "$stage/DEBIAN"
printf 'Source: eid\n\nPackage: %s\nArchitecture: any\n' "$package" > "$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O "${binaries[@]}" 2> "$work/log") || {
    cat "$work/log" >&2
    exit 1
}
depends_line=${shlibs#shlibs:Depends=}
[ -n "$depends_line" ] || { echo "build-deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# What dpkg-shlibdeps cannot see: libcurl (with libssl), libxml2 and libcrypto are loaded on first use
# (dlopen: Sources/CCurl, Sources/CLibSSL, Sources/CLibXML2, Sources/COpenSSL), and lld's packed relative relocations
# (DT_RELR) need glibc 2.36, which no versioned symbol the binaries use says. libcrypto's package and
# version as its shlibs file names them (what dpkg-shlibdeps said while eid linked it).
depends_line=$(printf '%s' "$depends_line" | sed -E 's/libc6 \(>= [0-9.]+\)/libc6 (>= 2.36)/')
libcrypto=$(sed -n 's/^libcrypto 3 //p' /var/lib/dpkg/info/libssl3*.shlibs 2> /dev/null | head -n 1)
case "$package" in
    eid) depends_line="$depends_line, ${libcrypto:-libssl3 (>= 3.0.0)}, libcurl4 (>= 7.85.0), libxml2 (>= 2.9.14)" ;;
    eid-testserver) depends_line="$depends_line, libxml2 (>= 2.9.14)" ;;
esac

if [ "$package" = eid ]; then
cat > "$stage/DEBIAN/control" <<CONTROL
Package: eid
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends_line
Recommends: pcscd, pinentry-gnome3 | pinentry
Suggests: libccid, vsmartcard-vpcd
Section: utils
Priority: optional
Description: command-line client for the German eID card (nPA, eAT)
 eid talks to the German identity card and the electronic residence permit
 through PC/SC (pcscd): it lists readers and cards with their PIN state,
 changes the PIN (transport PIN, PIN, with CAN and PUK when the card needs
 them) and authenticates to online services (eid auth, TR-03124). Every
 command has a JSON mode that speaks the messages of the AusweisApp2 SDK.
 .
 eid serve is the local eID client browsers and SDK clients call on
 127.0.0.1:24727, started by a systemd user socket (systemctl --user enable
 --now eid.socket); eid:// links open eid auth, which asks through pinentry.
 .
 eid-sim is a software eID card for tests, plugged into pcscd through vpcd
 (vsmartcard-vpcd).
CONTROL
else
cat > "$stage/DEBIAN/control" <<CONTROL
Package: eid-testserver
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends_line
Suggests: eid
Section: devel
Priority: optional
Description: local eService and eID server for testing eID logins (TEST ONLY)
 eid-testserver serves a TcToken and the server side of a whole German eID
 online authentication (PAOS, EAC, secure messaging) over HTTPS with OpenSSL,
 with its own test PKI and per-session fault injection, so that an eID login
 can be tested in CI without a card or a real eID server (with eid and
 eid-sim, package eid). Its keys are kept in the clear: never use it for
 anything real.
CONTROL
fi

(cd "$stage" && find usr -type f -printf '%P\0' | sort -z | sed -z 's|^|usr/|' | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
mkdir -p "$out"
deb="$out/${package}_${version}_${arch}.deb"
# xz -9: its 64 MiB window spans both executables, so the Swift runtime they share is stored once
# (6.4 MiB instead of 9.3 MiB with dpkg-deb's default -6 and its 8 MiB window).
dpkg-deb --root-owner-group -Zxz -z9 --build "$stage" "$deb" > /dev/null
echo "$deb"
