#!/usr/bin/env python3
"""make bench: figures for README.md, measured against the real pcscd with eid-sim.

Prints wall time (median of N runs), APDUs per run (counted by eid-sim --trace; each APDU is
one PC/SC round trip to the card), and peak RSS of the eid process; then PACE CPU time in
process (eid-bench). Runs inside `pcsc-env.sh run` (private pcscd).
Measures; asserts nothing.

Peak RSS comes from GNU time (Debian package `time`) around a few extra runs, not from this
script's wait4: Linux keeps a process's peak RSS across execve, so a child forked (or vforked)
from Python reports at least Python's own RSS (about 14 MiB here), whatever it runs.
"""
import os
import statistics
import subprocess
import sys
import time

BIN = sys.argv[1]
TIME = "/usr/bin/time"
RSS_RUNS = 5
READER, PORT = os.environ["EID_E2E_READERS"].split(";")[0].split("=")


def start_sim(*args):
    trace = open(f"/tmp/eid-bench-trace-{os.getpid()}", "w+")
    sim = subprocess.Popen([f"{BIN}/eid-sim", "--vpcd", f"127.0.0.1:{PORT}", "--trace", *args],
                           stdout=subprocess.DEVNULL, stderr=trace)
    for _ in range(150):
        out = subprocess.run([f"{BIN}/eid", "readers", "--json"], capture_output=True, text=True).stdout
        if f'"name":"{READER}","attached":true,"keypad":false,"card":{{' in out:
            return sim, trace
        time.sleep(0.1)
    sim.terminate()
    sim.wait()
    raise SystemExit("bench: the software card did not appear")


def apdus(trace):
    trace.flush()
    trace.seek(0)
    return sum(1 for line in trace if line.startswith("eid-sim: apdu"))


def measure(name, argv, runs, stdin_for=None, sim_args=()):
    sim, trace = start_sim(*sim_args)
    try:
        before = apdus(trace)
        walls, rss = [], []
        # The first `runs` runs are timed; the last RSS_RUNS run under GNU time for peak RSS.
        for i in range(runs + RSS_RUNS):
            timed = i < runs
            rss_file = f"/tmp/eid-bench-rss-{os.getpid()}"
            command = argv if timed else [TIME, "-f", "%M", "-o", rss_file, *argv]
            start = time.perf_counter()
            proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL)
            if stdin_for:
                proc.stdin.write(stdin_for(i).encode())
            proc.stdin.close()
            proc.stdout.read()
            _, status, _ = os.wait4(proc.pid, 0)
            if timed:
                walls.append(time.perf_counter() - start)
            else:
                with open(rss_file) as f:
                    rss.append(int(f.read().split()[-1]))
                os.remove(rss_file)
            if status != 0:
                raise SystemExit(f"bench: {' '.join(argv)} exited with status {status >> 8}")
        count = (apdus(trace) - before) / (runs + RSS_RUNS)
    finally:
        sim.terminate()
        sim.wait()
    print(f"{name:<34} wall median {statistics.median(walls) * 1000:6.1f} ms  "
          f"(min {min(walls) * 1000:.1f}, max {max(walls) * 1000:.1f}, n={runs})  "
          f"APDUs {count:4.1f}  peak RSS {max(rss) / 1024:5.1f} MiB")


def main():
    if not os.access(TIME, os.X_OK):
        raise SystemExit(f"bench: {TIME} is missing (Debian package time); it measures peak RSS")
    print(f"eid bench — {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, reader '{READER}'")
    measure("eid readers --json", [f"{BIN}/eid", "readers", "--json"], 20)

    def answers(i):
        old, new = ("123456", "654321") if i % 2 == 0 else ("654321", "123456")
        return (f'{{"cmd":"SET_PIN","value":"{old}"}}\n'
                f'{{"cmd":"SET_NEW_PIN","value":"{new}"}}\n')
    measure("eid change-pin --json (happy path)",
            [f"{BIN}/eid", "change-pin", "--json", "--reader", READER, "--timeout", "10"], 20, stdin_for=answers)
    subprocess.run([f"{BIN}/eid-bench", "50"], check=True)


if __name__ == "__main__":
    main()
