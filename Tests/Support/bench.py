#!/usr/bin/env python3
"""make bench: figures for README.md, measured against the real pcscd with eid-sim.

Prints wall time (median of N runs), APDUs per run (counted by eid-sim --trace; each APDU is
one PC/SC round trip to the card), and peak RSS of the eid process; then PACE CPU time in
process (eid-bench); then Terminal Authentication, Chip Authentication and five data groups after
PACE by eid's library terminal through pcscd (eid-bench eac); then eid change-pin --json side by
side with AusweisApp2's RUN_CHANGE_PIN on the same eid-sim card. Runs inside `pcsc-env.sh run`
(private pcscd), with Debian's python3 (for python3-websockets). Measures; asserts nothing.

Peak RSS comes from GNU time (Debian package `time`) around a few extra runs, not from this
script's wait4: Linux keeps a process's peak RSS across execve, so a child forked (or vforked)
from Python reports at least Python's own RSS (about 14 MiB here), whatever it runs.
"""
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ausweisapp2 import AusweisApp2, SDKClient, SoftwareCard  # noqa: E402

BIN = sys.argv[1]
TIME = "/usr/bin/time"
RSS_RUNS = 5
READER, PORT = os.environ["EID_E2E_READERS"].split(";")[0].split("=")


def wait_for_empty_reader():
    """After a card is stopped, until pcscd shows its reader empty: a card started before vpcd
    has seen the old one go can be listed while it cannot yet be opened."""
    for _ in range(50):
        out = subprocess.run([f"{BIN}/eid", "readers", "--json"], capture_output=True, text=True).stdout
        if f'"name":"{READER}","attached":true,"keypad":false,"card":null' in out:
            return
        time.sleep(0.1)


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
        wait_for_empty_reader()
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
    eac_after_pace(20)
    compare_change_pin(10)


def eac_after_pace(runs):
    """TA + CA + five data groups by eid's library terminal through pcscd, after PACE with a CHAT
    (eid-bench eac: it times them and counts their APDUs)."""
    sim, trace = start_sim()
    try:
        subprocess.run([f"{BIN}/eid-bench", "eac", READER, str(runs)], check=True, timeout=120)
    finally:
        sim.terminate()
        sim.wait()
        trace.close()
        wait_for_empty_reader()


# eid and AusweisApp2, one change PIN after the other on one card: machine time without the
# waits for the user (workflow start -> ENTER_PIN, SET_PIN -> ENTER_NEW_PIN, SET_NEW_PIN ->
# CHANGE_PIN, summed) and APDUs per change (eid-sim --trace).
PINS = ("123456", "654321")


def eid_change_pin(run):
    """One `eid change-pin --json`, answering each ENTER_* when it comes: (machine s, wall s)."""
    old, new = PINS if run % 2 == 0 else PINS[::-1]
    spawn = time.monotonic()
    proc = subprocess.Popen([f"{BIN}/eid", "change-pin", "--json", "--reader", READER, "--timeout", "10"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    marks = {}
    try:
        for line in proc.stdout:
            now = time.monotonic()
            if line.startswith('{"msg":"CHANGE_PIN"}'):
                marks["start"] = now
            elif line.startswith('{"msg":"ENTER_PIN"'):
                marks["enter_pin"] = now
                proc.stdin.write(f'{{"cmd":"SET_PIN","value":"{old}"}}\n')
                proc.stdin.flush()
                marks["set_pin"] = time.monotonic()
            elif line.startswith('{"msg":"ENTER_NEW_PIN"'):
                marks["enter_new_pin"] = now
                proc.stdin.write(f'{{"cmd":"SET_NEW_PIN","value":"{new}"}}\n')
                proc.stdin.flush()
                marks["set_new_pin"] = time.monotonic()
            elif line.startswith('{"msg":"CHANGE_PIN","success":true'):
                marks["done"] = now
        proc.stdin.close()
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if proc.returncode != 0 or "done" not in marks:
        raise SystemExit(f"bench: eid change-pin failed (status {proc.returncode})")
    machine = ((marks["enter_pin"] - marks["start"]) + (marks["enter_new_pin"] - marks["set_pin"])
               + (marks["done"] - marks["set_new_pin"]))
    return machine, time.monotonic() - spawn


async def ausweisapp2_change_pin(client, run):
    """One RUN_CHANGE_PIN: machine seconds (RUN -> ENTER_PIN, SET_PIN -> ENTER_NEW_PIN,
    SET_NEW_PIN -> CHANGE_PIN)."""
    old, new = PINS if run % 2 == 0 else PINS[::-1]
    await client.send("RUN_CHANGE_PIN")
    await client.expect("CHANGE_PIN")
    enter_pin = await client.expect("ENTER_PIN")
    await client.send("SET_PIN", value=old)
    set_pin = client.last_sent["SET_PIN"]
    enter_new_pin = await client.expect("ENTER_NEW_PIN")
    await client.send("SET_NEW_PIN", value=new)
    set_new_pin = client.last_sent["SET_NEW_PIN"]
    done = await client.expect("CHANGE_PIN")
    if done.get("success") is not True:
        raise SystemExit("bench: AusweisApp2's change PIN failed")
    return ((enter_pin["_at"] - client.last_sent["RUN_CHANGE_PIN"]) + (enter_new_pin["_at"] - set_pin)
            + (done["_at"] - set_new_pin))


def compare_change_pin(runs):
    if not shutil.which("AusweisApp2"):
        print("AusweisApp2 is not installed: no side-by-side change PIN (make deps installs it)")
        return
    card = SoftwareCard(BIN, PORT)
    app = AusweisApp2()
    rows = []
    try:
        async def aa2_runs():
            client = await SDKClient.connect(app.url)
            try:
                await client.wait_for_reader(READER, has_card=True)
                times, counts = [], []
                for i in range(runs):
                    before = card.apdu_count()
                    times.append(await ausweisapp2_change_pin(client, i))
                    await asyncio.sleep(0.3)  # its closing commands after CHANGE_PIN
                    counts.append(card.apdu_count() - before)
                return times, counts
            finally:
                await client.close()

        # AusweisApp2 first, then eid, alternately on the same card (an even number of runs
        # leaves the PIN as it was).
        aa2_times, aa2_counts = asyncio.run(asyncio.wait_for(aa2_runs(), 120))
        eid_times, eid_walls, eid_counts = [], [], []
        for i in range(runs):
            before = card.apdu_count()
            machine, wall = eid_change_pin(i)
            eid_times.append(machine)
            eid_walls.append(wall)
            eid_counts.append(card.apdu_count() - before)
        rows = [("eid change-pin --json", eid_times, eid_counts,
                 f"{statistics.median(eid_walls) * 1000:.1f} ms (process start to exit)"),
                ("AusweisApp2 RUN_CHANGE_PIN", aa2_times, aa2_counts, "n/a (a running service)")]
    finally:
        app.stop()
        card.stop()
    print(f"\nchange PIN on one eid-sim card, {runs} runs each (machine time: workflow start -> ENTER_PIN +")
    print("SET_PIN -> ENTER_NEW_PIN + SET_NEW_PIN -> CHANGE_PIN; APDUs counted by eid-sim --trace)")
    print(f"| {'terminal':<28} | machine time median (min-max) | APDUs | wall |")
    print(f"| {'-' * 28} | {'-' * 29} | {'-' * 5} | {'-' * 4} |")
    for name, times, counts, wall in rows:
        spread = f"{statistics.median(times) * 1000:.1f} ms ({min(times) * 1000:.1f}-{max(times) * 1000:.1f})"
        print(f"| {name:<28} | {spread:<29} | {statistics.median(counts):5.0f} | {wall} |")


if __name__ == "__main__":
    main()
