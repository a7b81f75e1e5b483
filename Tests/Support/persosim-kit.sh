#!/usr/bin/env bash
# Builds PersoSim's headless remote IFD server (the independent phone side of make persosim-test)
# from the PersoSim kit, once:
#
#   persosim-kit.sh KIT BUILD
#
# KIT is the kit's folder (its build.sh compiles PersoSim's exported sources with Debian's JDK and
# jars, no fetch). It may be read-only (CI lays ../shared out without write bits), and build.sh
# writes beside itself, so the kit is copied into BUILD, an ignored folder, and built there.
# BUILD/kit.sha256 names the kit that was built: the build is reused until a file of the kit
# changes. PersoSim is GPL-3.0: it is built and run as a separate process, never linked into eid,
# and nothing of it enters this repository (BUILD is git-ignored).
set -euo pipefail

if [ $# -ne 2 ] || [ -z "$1" ] || [ -z "$2" ]; then
    echo "usage: persosim-kit.sh KIT BUILD" >&2
    exit 2
fi
kit=$1
build=$2
say() { printf 'persosim-kit: %s\n' "$*" >&2; }

[ -f "$kit/build.sh" ] || { say "no PersoSim kit at $kit (no build.sh there)"; exit 1; }
kit=$(cd "$kit" && pwd)
case "$(realpath -m "$build")" in
    / | "$kit" | "$kit"/*) say "refusing to build in $build (the root or the kit itself)"; exit 1 ;;
esac

# The kit as it is now: every file's name and content.
sum=$(cd "$kit" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
if [ -f "$build/kit.sha256" ] && [ "$(cat "$build/kit.sha256")" = "$sum" ] \
    && [ -f "$build/persosim-remoteifd-headless.jar" ] && [ -f "$build/server.jks" ]; then
    exit 0
fi

say "building PersoSim's remote IFD server from $kit in $build"
rm -rf "$build"
mkdir -p "$build"
cp -R "$kit/." "$build/"
chmod -R u+w "$build"
if ! (cd "$build" && ./build.sh) >"$build/build.log" 2>&1; then
    cat "$build/build.log" >&2
    say "the build failed (its log: $build/build.log); make deps installs the JDK and jars it needs"
    exit 1
fi
say "$(tail -n 1 "$build/build.log")"
echo "$sum" >"$build/kit.sha256"
