#!/usr/bin/env python3
"""make symbol-order: the order in which the release link lays out eid's code and conformance
descriptors (packaging/symbol-order.txt, read by lld through Package.swift's releaseLinking).

Why (README "Memory"): the kernel maps a file page into a process with the 15 pages around it
(fault-around, 64 KiB), and every page mapped counts in RSS. `eid --version` executes about
1,100 functions, 390 KiB of code, but they lay scattered over 12.8 MiB of .text, and the Swift
runtime's first conformance lookup (ArgumentParser's `as?` casts) reads each of the program's
~5,000 protocol conformance descriptors, scattered over 2 MiB of .rodata: so 4 MiB of code and
2 MiB of data were resident. Laid out together they fault in together.

What: the symbols of every function the executable runs in `eid --version`, `eid readers`,
`eid change-pin` (twice, so the PIN stays), `eid auth` against eid-testserver and `eid serve`
(idle with an SDK client, then one browser activation), in the order they first ran (from
valgrind's exp-bbv, which lists each basic block as it first runs it; callgrind is too slow for a
TLS handshake within eid's 15 s connect timeout), after every conformance descriptor (`…Mc`) the
binary has. lld places the sections that define them first in their output sections, in this order;
sections it cannot find are ignored (--no-warn-symbol-ordering), so a stale list costs memory,
never correctness. Code the Swift toolchain ships in one section per object (the standard
library's Swift.o .text, 1.5 MiB) moves as one piece.

Run inside `pcsc-env.sh run` (private pcscd, one eid-sim card), with Debian's python3, BIN the
release build's directory (`make symbol-order` does both). valgrind cannot read the release
binary's DWARF, so it runs a copy without debug sections (objcopy --strip-debug).
"""
import asyncio
import bisect
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
REAL_BIN, OUTPUT = sys.argv[1], sys.argv[2]
WORK = tempfile.mkdtemp(prefix="eid-symbol-order-")
PROFILES = os.path.join(WORK, "profiles")
# A BIN directory for bench.py's helpers whose `eid` runs the stripped copy under callgrind while
# EID_PROFILE_DIR is set (the phases below), else the real binary (readiness checks).
WRAPPED = os.path.join(WORK, "bin")
os.makedirs(WRAPPED)
os.makedirs(PROFILES)
STRIPPED = os.path.join(WORK, "eid")
subprocess.run(["objcopy", "--strip-debug", os.path.join(REAL_BIN, "eid"), STRIPPED], check=True)
for name in os.listdir(REAL_BIN):
    path = os.path.join(REAL_BIN, name)
    if name != "eid" and os.path.isfile(path) and os.access(path, os.X_OK):
        os.symlink(path, os.path.join(WRAPPED, name))
with open(os.path.join(WRAPPED, "eid"), "w") as f:
    f.write(f"""#!/bin/sh
[ -n "$EID_PROFILE_DIR" ] || exec {REAL_BIN}/eid "$@"
exec valgrind -q --tool=exp-bbv --bb-out-file=/dev/null --pc-out-file="$EID_PROFILE_DIR/pc.$$" {STRIPPED} "$@"
""")
os.chmod(os.path.join(WRAPPED, "eid"), 0o755)

sys.argv[1] = WRAPPED  # bench.py reads BIN from its first argument
import bench  # noqa: E402
from ausweisapp2 import SoftwareCard  # noqa: E402


def phase(name, run):
    """Runs `run` with eid under callgrind; its profiles go to PROFILES/NN-name/."""
    directory = os.path.join(PROFILES, f"{len(os.listdir(PROFILES)):02d}-{name}")
    os.makedirs(directory)
    os.environ["EID_PROFILE_DIR"] = directory
    try:
        run()
    finally:
        del os.environ["EID_PROFILE_DIR"]
    print(f"symbol-order: {name}: {len(os.listdir(directory))} profile(s)")


def change_pin_twice():
    for run in (0, 1):
        bench.eid_change_pin(run)


def serve_once(server, card):
    server.origin = f"https://127.0.0.1:{server.port}"
    asyncio.run(asyncio.wait_for(bench.serve_runs(WRAPPED, server, card, 1), 300))


def function_table(executable):
    """The executable's functions as (sorted start addresses, [(start, end, symbol)]), from nm."""
    listed = subprocess.run(["nm", "--defined-only", "-S", executable], capture_output=True, text=True,
                            check=True).stdout
    functions = []
    for line in listed.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tTwW":
            start = int(fields[0], 16)
            functions.append((start, start + max(int(fields[1], 16), 1), fields[3]))
    functions.sort()
    return [f[0] for f in functions], functions


def executed_functions(profile, executable, table):
    """The functions of `executable` a run executed, first run first, from exp-bbv's PC file: one
    `F:id:address:name` line per basic block, ids in the order valgrind first ran them. valgrind
    loads a position-independent executable at its own base: the block of `(below main)` (the
    entry point) gives it."""
    entry = int(subprocess.run(["readelf", "-h", executable], capture_output=True, text=True,
                               check=True).stdout.split("Entry point address:")[1].split()[0], 16)
    blocks = []
    with open(profile, errors="replace") as f:
        for line in f:
            fields = line.rstrip("\n").split(":", 3)
            if len(fields) == 4 and fields[0] == "F":
                blocks.append((int(fields[1]), int(fields[2], 16), fields[3]))
    base = next(address for _, address, name in blocks if name == "(below main)") - entry
    starts, functions = table
    order, seen = [], set()
    for _, address, _ in sorted(blocks):
        index = bisect.bisect_right(starts, address - base) - 1
        if index >= 0 and address - base < functions[index][1]:
            symbol = functions[index][2]
            if symbol not in seen:
                seen.add(symbol)
                order.append(symbol)
    return order


def main():
    card = SoftwareCard(REAL_BIN, bench.PORT)
    server = None
    try:
        server = bench.TestServer()
        bench.wait_for_card()
        phase("version", lambda: subprocess.run([f"{WRAPPED}/eid", "--version"], check=True,
                                                stdout=subprocess.DEVNULL))
        phase("readers", lambda: subprocess.run([f"{WRAPPED}/eid", "readers", "--json"], check=True,
                                                stdout=subprocess.DEVNULL))
        phase("change-pin", change_pin_twice)
        phase("auth", lambda: bench.eid_auth(server.url))
        phase("serve", lambda: serve_once(server, card))
    finally:
        if server:
            server.stop()
        card.stop()
    symbols, seen = [], set()
    table = function_table(STRIPPED)
    for directory in sorted(os.listdir(PROFILES)):
        for profile in sorted(os.listdir(os.path.join(PROFILES, directory))):
            for symbol in executed_functions(os.path.join(PROFILES, directory, profile), STRIPPED, table):
                if symbol not in seen:
                    seen.add(symbol)
                    symbols.append(symbol)
    listed = subprocess.run(["nm", "--defined-only", STRIPPED], capture_output=True, text=True, check=True).stdout
    descriptors = sorted({line.split()[2] for line in listed.splitlines()
                          if len(line.split()) == 3 and line.split()[2].endswith("Mc")})
    with open(OUTPUT, "w") as f:
        f.write("".join(f"{s}\n" for s in descriptors + symbols))
    print(f"symbol-order: {len(descriptors)} conformance descriptors, {len(symbols)} functions -> {OUTPUT}")
    shutil.rmtree(WORK)


if __name__ == "__main__":
    main()
