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
from Python reports at least Python's own RSS (about 14 MiB here), whatever it runs. The running
eid-testserver's peak RSS is VmHWM of /proc/PID/status, which belongs to the address space that
execve made (so it does not include Python's).

HTTP requests and TLS handshakes are counted by eid-testserver itself (GET /stats: connections
accepted, TLS handshakes completed and how many resumed a session, HTTP requests received): a
snapshot before and after each authentication; the snapshot after counts its own connection,
handshake and request, which are subtracted.

The serve part (`bench.py BIN serve`) measures the local eID client on its port (issue 17), each
client in turn: AusweisApp2 (headless, as serve_peer_tests.py starts it) and `eid serve` from BIN
(when the build has it: `eid serve --help` shows its usage), one eid-sim card in the test pcscd and one
eid-testserver. With an SDK client connected and idle, SERVE_BENCH_RUNS (default 100) browser-style
activations (`GET /eID-Client?tcTokenURL=…` as raw HTTP, the SDK client answering AUTH, ACCEPT and
SET_PIN: serve_peer_tests.activate), each of which must end in a 303 with ResultMajor=ok. The
client's RSS is VmRSS of its /proc/PID/status, sampled idle (after start, the SDK client connected
and the card seen), after the first and after the last activation (1 s after each, nothing
running); its peak is VmHWM (the client is exec'd straight from here, so neither includes Python's
RSS). Times per activation: the browser's request sent -> the SDK client receiving ENTER_PIN (it
answers ACCESS_RIGHTS with ACCEPT on the way), and SET_PIN sent -> the 303's bytes received; the
table gives median and min-max, then the issue's targets as a note. Each activation is sent as soon
as the previous 303 is in; a client that answers it with 409 (the previous workflow still ending)
gets it again 50 ms later, and the count of those 409s is printed. A second table gives the CPU time
per activation, request -> ENTER_PIN and SET_PIN -> 303 apart, of the client (with its children),
eid-testserver, the test pcscd, eid-sim and this script (the SDK client and the browser): what of
the wall time is the client's own and what the shared setup's (CPUClock; schedstat counts
nanoseconds, so it holds at the load of parallel builds where the wall times do not).

The memory part (`bench.py BIN memory`, first in `make bench`; issue 19) gives, for `eid --version`,
`eid readers --json`, `eid change-pin --json` and `eid auth --json`, the peak RSS of the process itself
(GNU time %M) and RSS and PSS from /proc/PID/smaps_rollup where it stands: `--version` and `readers` at
their exit (under ptrace, the address space still whole: memory.at_exit), `change-pin` and `auth` at
ENTER_PIN (then cancelled); `eid serve` and AusweisApp2 (SDK) idle with an SDK client connected and at
ENTER_PIN of a RUN_CHANGE_PIN; then a table of where the memory is, part by part of the process (the
executable, heap, each library or family: memory.breakdown).

The soak runs 10,000 authentications (`bench.py BIN soak [COUNT]` another count) against one
eid-testserver with `eid-bench runs` (eid's library client with in-process cards, the whole
protocol over HTTPS, as in the throughput part), 1,000 at a time, and after each thousand prints
the server's RSS (VmRSS) and open file descriptors (/proc/PID/fd), sampled with no client
connected: both must stay flat (a leak of sessions, connections or TLS state shows as a rise).
"""
import asyncio
import http.client
import json
import os
import ssl
import shutil
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import memory  # noqa: E402
import serve_peer_tests as serve  # noqa: E402
from ausweisapp2 import AusweisApp2, PeerError, SDKClient, SoftwareCard  # noqa: E402

BIN = sys.argv[1]
TIME = "/usr/bin/time"
RSS_RUNS = 5
READER, PORT = os.environ["EID_E2E_READERS"].split(";")[0].split("=")


def wait_for_empty_reader():
    """After a card is stopped, until pcscd shows its reader empty: a card started before vpcd
    has seen the old one go can be listed while it cannot yet be opened."""
    for _ in range(50):
        out = subprocess.run([f"{BIN}/eid", "readers", "--json"], capture_output=True, text=True).stdout
        if f'"name":"{READER}","insertable":false,"attached":true,"keypad":false,"card":null' in out:
            return
        time.sleep(0.1)


def start_sim(*args):
    trace = open(f"/tmp/eid-bench-trace-{os.getpid()}", "w+")
    sim = subprocess.Popen([f"{BIN}/eid-sim", "--vpcd", f"127.0.0.1:{PORT}", "--trace", *args],
                           stdout=subprocess.DEVNULL, stderr=trace)
    for _ in range(150):
        out = subprocess.run([f"{BIN}/eid", "readers", "--json"], capture_output=True, text=True).stdout
        if f'"name":"{READER}","insertable":false,"attached":true,"keypad":false,"card":{{' in out:
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
    print(f"eid bench — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.uname().nodename}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, reader '{READER}'")
    # `bench.py BIN server auth` runs only those parts (eid-testserver throughput, eid auth against
    # AusweisApp2, serve: the clients on port 24727); `make bench` runs everything.
    parts = sys.argv[2:]
    if parts:
        if "server" in parts:
            server_load((1, 8, 32), 10)
        if "auth" in parts:
            compare_auth(10)
        if "serve" in parts:
            compare_serve(SERVE_RUNS)
        if "memory" in parts:
            memory_part()
        if "soak" in parts:
            counts = [int(p) for p in parts if p.isdigit()]
            soak(counts[0] if counts else SOAK_COUNT)
        return
    memory_part()
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
    server_load((1, 8, 32), 10)
    compare_auth(10)
    compare_serve(SERVE_RUNS)
    soak(SOAK_COUNT)


def eid_until(argv, marker, answers):
    """Runs eid with --json until it prints the message `marker` (it then waits for its answer):
    (rollup, breakdown) there; then it is cancelled. `answers` {message: command line} answers the
    messages before it."""
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    figures = None
    try:
        for line in proc.stdout:
            name = json.loads(line).get("msg")
            if name == marker:
                time.sleep(0.2)  # settled: eid waits for the answer
                figures = (memory.rollup(proc.pid), memory.breakdown(proc.pid))
                proc.stdin.write('{"cmd":"CANCEL"}\n')
                proc.stdin.flush()
                break
            if name in answers:
                proc.stdin.write(answers[name] + "\n")
                proc.stdin.flush()
        proc.stdin.close()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if figures is None:
        raise SystemExit(f"bench: {' '.join(argv)} ended without {marker}")
    return figures


async def sdk_client_idle_and_enter_pin(app):
    """A client on its SDK port (eid serve, AusweisApp2): VmRSS/PSS idle with an SDK client connected and the
    card seen, and at ENTER_PIN of RUN_CHANGE_PIN (then CANCEL): ((rollup, breakdown), (rollup, breakdown))."""
    client = await SDKClient.connect(app.url)
    try:
        await client.wait_for_reader(READER, has_card=True)
        await asyncio.sleep(1)
        pid = app.process.pid
        idle = (memory.rollup(pid), memory.breakdown(pid))
        await client.send("RUN_CHANGE_PIN")
        await client.expect("CHANGE_PIN")
        await client.expect("ENTER_PIN")
        await asyncio.sleep(0.2)
        enter_pin = (memory.rollup(pid), memory.breakdown(pid))
        await client.send("CANCEL")
        await client.expect("CHANGE_PIN")
        return idle, enter_pin
    finally:
        await client.close()


def memory_part():
    """Issue 19's figures: each command's peak RSS (GNU time %M, the process itself) and its PSS
    (/proc/PID/smaps_rollup) where it stands longest, `--version` and `readers` at their exit
    (memory.at_exit), `change-pin` and `auth` at ENTER_PIN, `serve` idle; AusweisApp2 beside them
    in the same run (idle, and at ENTER_PIN of its RUN_CHANGE_PIN); then where the memory is, part
    by part (memory.breakdown)."""
    eid = f"{BIN}/eid"
    card = SoftwareCard(BIN, PORT)
    server = None
    rows, columns = [], []
    try:
        server = TestServer()
        wait_for_card()
        version = memory.at_exit([eid, "--version"])
        rows.append(("`eid --version`", memory.peak_rss_kib([eid, "--version"]), version[0], "at exit", "-"))
        columns.append(("--version (exit)", version[1]))
        readers = memory.at_exit([eid, "readers", "--json"])
        rows.append(("`eid readers --json`", memory.peak_rss_kib([eid, "readers", "--json"]), readers[0],
                     "at exit", "12 MiB"))
        columns.append(("readers (exit)", readers[1]))
        change_pin = [eid, "change-pin", "--json", "--reader", READER, "--timeout", "10"]
        figures = eid_until(change_pin, "ENTER_PIN", {})
        peak = 0
        for old, new in (PINS, PINS[::-1]):  # an even number of changes leaves the PIN as it was
            answers = f'{{"cmd":"SET_PIN","value":"{old}"}}\n{{"cmd":"SET_NEW_PIN","value":"{new}"}}\n'
            peak = max(peak, memory.peak_rss_kib(change_pin, answers, runs=1))
        rows.append(("`eid change-pin --json`", peak, figures[0], "at ENTER_PIN", "12 MiB"))
        columns.append(("change-pin (ENTER_PIN)", figures[1]))
        auth = [eid, "auth", "--json", "--test-pki", "--reader", READER, "--timeout", "20", server.url]
        figures = eid_until(auth, "ENTER_PIN", {"ACCESS_RIGHTS": '{"cmd":"ACCEPT"}'})
        peaks = []
        for _ in range(RSS_RUNS):
            eid_auth(server.url, wrap=(TIME, "-f", "%M", "-o", f"/tmp/eid-bench-rss-{os.getpid()}"))
            with open(f"/tmp/eid-bench-rss-{os.getpid()}") as f:
                peaks.append(int(f.read().split()[-1]))
        rows.append(("`eid auth --json`", max(peaks), figures[0], "at ENTER_PIN", "16 MiB"))
        columns.append(("auth (ENTER_PIN)", figures[1]))
        clients = [("`eid serve`", BIN)] if has_serve() else []
        if shutil.which("AusweisApp2"):
            clients.append(("AusweisApp2 (SDK)", serve.AA2))
        for name, kind in clients:
            app = serve.start_client(kind)
            try:
                idle, enter_pin = asyncio.run(asyncio.wait_for(sdk_client_idle_and_enter_pin(app), 60))
                peak = status_kib(app.process.pid, "VmHWM")
            finally:
                app.stop()
            rows.append((f"{name} idle", None, idle[0], "idle, SDK client connected", "10 MiB" if "eid" in name else ""))
            rows.append((f"{name} RUN_CHANGE_PIN", peak, enter_pin[0], "at ENTER_PIN", ""))
            if "eid" in name:
                columns.append(("serve (idle)", idle[1]))
            else:
                columns.append(("AusweisApp2 (ENTER_PIN)", enter_pin[1]))
    finally:
        if server:
            server.stop()
        card.stop()
        wait_for_empty_reader()
    print("\nmemory (issue 19): peak RSS = GNU time %M of the command itself (serve, AusweisApp2: VmHWM); RSS and PSS "
          "from /proc/PID/smaps_rollup at the point named")
    print("| command | peak RSS | RSS there | PSS there | where | target (peak RSS) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, peak, figures, where, target in rows:
        shown = "-" if peak is None else f"{peak / 1024:.1f} MiB"
        print(f"| {name} | {shown} | {figures['Rss'] / 1024:.1f} MiB | {figures['Pss'] / 1024:.1f} MiB | {where} | "
              f"{target} |")
    print("\nwhere it is: RSS / PSS (private dirty) MiB per part of the process, from /proc/PID/smaps")
    print(memory.breakdown_table(columns))


SOAK_COUNT, SOAK_STEP, SOAK_CLIENTS = 10_000, 1_000, 8


def soak(count):
    """`count` authentications against one eid-testserver, SOAK_STEP at a time (eid-bench runs);
    after each step, with no client connected, the server's RSS and open descriptors."""
    server = TestServer()
    try:
        print(f"\nsoak: {count} authentications against one release eid-testserver (eid-bench runs, "
              f"{SOAK_CLIENTS} in-process clients, {SOAK_STEP} at a time; RSS = VmRSS, fds = /proc/PID/fd,")
        print("sampled 1 s after each step with no client connected)")
        print("| after | wall | auth/s | failed | server RSS | open fds | open connections |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        print(f"| start | | | | {server.rss_kib() / 1024:.1f} MiB | {server.open_fds()} | |")
        done, started = 0, time.monotonic()
        while done < count:
            step = min(SOAK_STEP, count - done)
            line = subprocess.run([f"{BIN}/eid-bench", "runs", server.url, str(SOAK_CLIENTS), str(step)],
                                  check=True, capture_output=True, text=True, timeout=3600).stdout.strip()
            done += step
            time.sleep(1)  # the last connections close
            rate = line.split("(")[1].split(" auth/s")[0]
            failed = line.rsplit(", ", 1)[1].split()[0]
            # /stats counts its own connection; a server from before 2026-11-25 has no openConnections.
            open_connections = server.stats().get("openConnections")
            print(f"| {done} | {time.monotonic() - started:.0f} s | {rate} | {failed} | "
                  f"{server.rss_kib() / 1024:.1f} MiB | {server.open_fds()} | "
                  f"{'-' if open_connections is None else open_connections - 1} |", flush=True)
        print(f"   (peak RSS {server.peak_rss_kib() / 1024:.1f} MiB)")
    finally:
        server.stop()


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


class TestServer:
    """The release eid-testserver (`serve --port 0`), stopped by its PID."""

    def __init__(self):
        self.process = subprocess.Popen([f"{BIN}/eid-testserver", "serve", "--port", "0"],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()  # "eid-testserver: listening on ... (port N)"
        if "(port " not in line:
            self.stop()
            raise SystemExit("bench: eid-testserver did not start")
        self.port = int(line.split("(port ")[1].split(")")[0])
        self.url = f"https://127.0.0.1:{self.port}/tctoken"
        self.tls = ssl.create_default_context()
        self.tls.check_hostname = False
        self.tls.verify_mode = ssl.CERT_NONE  # its certificate is a fresh self-signed one

    def peak_rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            return int(next(line for line in f if line.startswith("VmHWM:")).split()[1])

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            return int(next(line for line in f if line.startswith("VmRSS:")).split()[1])

    def open_fds(self):
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def stats(self):
        """GET /stats on a connection of its own (counted by the server, see the docstring)."""
        connection = http.client.HTTPSConnection("127.0.0.1", self.port, context=self.tls, timeout=10)
        try:
            connection.request("GET", "/stats")
            return json.loads(connection.getresponse().read())
        finally:
            connection.close()

    def result(self):
        connection = http.client.HTTPSConnection("127.0.0.1", self.port, context=self.tls, timeout=10)
        try:
            connection.request("GET", "/result")
            return json.loads(connection.getresponse().read())
        finally:
            connection.close()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def server_load(clients, seconds):
    """eid-testserver's throughput: eid-bench auth runs N client threads in one process, each eid's
    library eID client (TcToken over TLS-1, PAOS over resumed TLS-2, AuthWorkflow) with its own
    in-process software card (no pcscd), against the release eid-testserver spawned here."""
    server = TestServer()
    try:
        print(f"\neid-testserver throughput (eid-bench auth: N in-process eID clients, each with an in-process")
        print(f"software card, over HTTPS on loopback to a spawned release eid-testserver; {seconds} s each"
              f" after 2 s warm-up; {os.cpu_count()} cores shared by clients and server)")
        idle = server.peak_rss_kib()
        for n in clients:
            # CPU seconds of the server and of the clients over the counted window (sampled from
            # /proc after the warm-up and at its end, so approximately aligned with eid-bench's count).
            bench = subprocess.Popen([f"{BIN}/eid-bench", "auth", server.url, str(n), str(seconds)],
                                     stdout=subprocess.PIPE, text=True)
            time.sleep(2)
            server_before, clients_before = cpu_seconds(server.process.pid), cpu_seconds(bench.pid)
            time.sleep(seconds)
            server_cpu = cpu_seconds(server.process.pid) - server_before
            clients_cpu = cpu_seconds(bench.pid) - clients_before
            line = bench.communicate(timeout=120)[0].strip()
            done = int(line.split("(")[1].split(" in ")[0])
            per_auth = (f"; CPU per auth: server {server_cpu / done * 1000:.0f} ms, clients "
                        f"{clients_cpu / done * 1000:.0f} ms") if done else ""
            print(f"{line}{per_auth}; server peak RSS so far {server.peak_rss_kib() / 1024:.1f} MiB")
        print(f"   (eid-testserver's peak RSS after start, before any client: {idle / 1024:.1f} MiB)")
    finally:
        server.stop()


def cpu_seconds(pid):
    """User + system CPU seconds of a running process (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stats_delta(before, after):
    """What happened between two /stats snapshots, without the second snapshot's own request."""
    return {"requests": after["httpRequests"] - before["httpRequests"] - 1,
            "handshakes": after["tlsHandshakes"] - before["tlsHandshakes"] - 1,
            "resumed": after["tlsResumed"] - before["tlsResumed"],
            "connections": after["connections"] - before["connections"] - 1}


def eid_auth(url, wrap=()):
    """One `eid auth --json --test-pki --reader READER`, answering ACCEPT and SET_PIN when asked:
    (SET_PIN -> final AUTH seconds, process start -> exit seconds)."""
    spawn = time.monotonic()
    proc = subprocess.Popen([*wrap, f"{BIN}/eid", "auth", "--json", "--test-pki", "--reader", READER,
                             "--timeout", "20", url],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    marks = {}
    try:
        for line in proc.stdout:
            now = time.monotonic()
            if line.startswith('{"msg":"ACCESS_RIGHTS"'):
                proc.stdin.write('{"cmd":"ACCEPT"}\n')
                proc.stdin.flush()
            elif line.startswith('{"msg":"ENTER_PIN"'):
                proc.stdin.write('{"cmd":"SET_PIN","value":"123456"}\n')
                proc.stdin.flush()
                marks["set_pin"] = time.monotonic()
            elif line.startswith('{"msg":"AUTH","result"') and "resultmajor#ok" in line:
                marks["done"] = now
        proc.stdin.close()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if proc.returncode != 0 or "done" not in marks or "set_pin" not in marks:
        raise SystemExit(f"bench: eid auth failed (status {proc.returncode})")
    return marks["done"] - marks["set_pin"], time.monotonic() - spawn


class TestPKIAusweisApp2(AusweisApp2):
    """AusweisApp2 with pre-verification off (docs/peers.md, "AusweisApp2 (headless)": it
    pre-verifies terminal chains against its built-in CVCAs only), so that it authenticates against
    eid-testserver's test PKI; the card (eid-sim) still checks the chain in Terminal Authentication.
    The settings file must exist before it starts, so this repeats AusweisApp2's start with it
    written first."""

    def __init__(self):
        import tempfile
        self.dir = tempfile.mkdtemp(prefix="eid-aa2-")
        for sub in ("home", "tmp", "xdg"):
            os.makedirs(os.path.join(self.dir, sub), mode=0o700)
        for organisation in ("Unknown Organization", "AusweisApp2_CE"):
            conf = os.path.join(self.dir, "home", ".config", organisation)
            os.makedirs(conf, exist_ok=True)
            with open(os.path.join(conf, "AusweisApp2.conf"), "w") as f:
                f.write("[preverification]\nenabled=false\n")
        env = dict(os.environ, HOME=f"{self.dir}/home", TMPDIR=f"{self.dir}/tmp",
                   XDG_RUNTIME_DIR=f"{self.dir}/xdg", QT_QPA_PLATFORM="offscreen")
        self.output = open(os.path.join(self.dir, "stdout.log"), "w")
        self.process = subprocess.Popen(
            ["AusweisApp2", "--ui", "websocket", "--port", "0", "--keep"],
            env=env, stdin=subprocess.DEVNULL, stdout=self.output, stderr=subprocess.STDOUT)
        self.port = self._wait_for_port()


async def ausweisapp2_auth(client, url):
    """One RUN_AUTH: ACCEPT on ACCESS_RIGHTS, the PIN on ENTER_PIN or the CAN on ENTER_CAN (the
    test server's terminal is allowed the CAN, and AusweisApp2 then asks for it instead of the
    PIN); seconds from that SET_* to the final AUTH."""
    await client.send("RUN_AUTH", tcTokenURL=url)
    sent = None
    deadline = time.monotonic() + 60
    while True:
        message = await client.receive(max(0.1, deadline - time.monotonic()))
        name = message.get("msg")
        if name == "ACCESS_RIGHTS":
            await client.send("ACCEPT")
        elif name == "ENTER_PIN":
            await client.send("SET_PIN", value="123456")
            sent = client.last_sent["SET_PIN"]
        elif name == "ENTER_CAN":
            await client.send("SET_CAN", value="500540")
            sent = client.last_sent["SET_CAN"]
        elif name in ("ENTER_PUK", "INSERT_CARD", "BAD_STATE", "INVALID"):
            raise SystemExit(f"bench: AusweisApp2 asked {name} during RUN_AUTH")
        elif name == "AUTH" and "result" in message:
            if message["result"].get("major", "").endswith("#ok") and sent is not None:
                return message["_at"] - sent
            raise SystemExit(f"bench: AusweisApp2's authentication failed: {message['result']}")


def compare_auth(runs):
    """eid auth and AusweisApp2's RUN_AUTH on one eid-sim card in the test pcscd against one
    eid-testserver: AusweisApp2's runs first (it is a running service), then eid's."""
    if not shutil.which("AusweisApp2"):
        print("AusweisApp2 is not installed: no side-by-side authentication (make deps installs it)")
        return
    card = SoftwareCard(BIN, PORT)
    server = TestServer()
    app = None
    rows = []
    try:
        wait_for_card()
        app = TestPKIAusweisApp2()

        def counted(one):
            before_apdus, before = card.apdu_count(), server.stats()
            seconds = one()
            time.sleep(0.3)  # closing commands and connections after AUTH
            delta = stats_delta(before, server.stats())
            delta["apdus"] = card.apdu_count() - before_apdus
            if not server.result().get("ok"):
                raise SystemExit("bench: eid-testserver's /result is not ok after an authentication")
            return seconds, delta

        async def aa2_runs():
            client = await SDKClient.connect(app.url)
            try:
                await client.wait_for_reader(READER, has_card=True)
                results = []
                for _ in range(runs):
                    before_apdus, before = card.apdu_count(), server.stats()
                    seconds = await ausweisapp2_auth(client, server.url)
                    await asyncio.sleep(0.3)
                    delta = stats_delta(before, server.stats())
                    delta["apdus"] = card.apdu_count() - before_apdus
                    if not server.result().get("ok"):
                        raise SystemExit("bench: eid-testserver's /result is not ok after AusweisApp2's run")
                    results.append((seconds, delta))
                return results
            finally:
                await client.close()

        aa2 = asyncio.run(asyncio.wait_for(aa2_runs(), 300))
        eid_runs = [counted(lambda: eid_auth(server.url)) for _ in range(runs)]
        eid = [(s[0], d) for s, d in eid_runs]
        eid_walls = [s[1] for s, _ in eid_runs]
        rss = []
        rss_file = f"/tmp/eid-bench-rss-{os.getpid()}"
        for _ in range(RSS_RUNS):
            eid_auth(server.url, wrap=(TIME, "-f", "%M", "-o", rss_file))
            with open(rss_file) as f:
                rss.append(int(f.read().split()[-1]))
            os.remove(rss_file)
        rows = [(f"`eid auth --json --test-pki`", eid,
                 f"{statistics.median(eid_walls) * 1000:.0f} ms start to exit; peak RSS {max(rss) / 1024:.1f} MiB"),
                ("AusweisApp2 `RUN_AUTH`", aa2, "a running service")]
    finally:
        if app:
            app.stop()
        server.stop()
        card.stop()
        wait_for_empty_reader()
    print(f"\nonline authentication, eid-sim in the test pcscd + eid-testserver, {runs} runs each "
          "(SET_PIN, or AusweisApp2's SET_CAN, -> AUTH wall time;")
    print("APDUs by eid-sim --trace; HTTP requests, TLS handshakes (resumed) and connections counted by eid-testserver)")
    print("| client | SET_PIN -> AUTH median (min-max) | APDUs | HTTP requests | TLS handshakes (resumed) "
          "| connections | other |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, results, other in rows:
        times = [r[0] for r in results]
        deltas = [r[1] for r in results]

        def med(key):
            return statistics.median(d[key] for d in deltas)
        print(f"| {name} | {statistics.median(times) * 1000:.0f} ms ({min(times) * 1000:.0f}-"
              f"{max(times) * 1000:.0f}) | {med('apdus'):.0f} | {med('requests'):.0f} | "
              f"{med('handshakes'):.0f} ({med('resumed'):.0f}) | {med('connections'):.0f} | {other} |")


SERVE_RUNS = int(os.environ.get("SERVE_BENCH_RUNS", "100"))


def status_kib(pid, key):
    """A `kB` line of /proc/PID/status (VmRSS, VmHWM)."""
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith(key + ":")).split()[1])


def has_serve():
    """Whether BIN's eid has the `serve` command (issue 17): `eid serve --help` exits 0 and shows
    its usage (ArgumentParser answers an unknown subcommand's --help with eid's own help, also 0)."""
    shown = subprocess.run([f"{BIN}/eid", "serve", "--help"], capture_output=True, text=True, timeout=30)
    return shown.returncode == 0 and "USAGE: eid serve" in shown.stdout


class CPUClock:
    """CPU time of processes from /proc/PID/task/*/schedstat (nanoseconds on a CPU, per thread):
    `sample()` gives milliseconds per process, in the order of `pids`. A thread that has ended
    counts with its last value seen, so a thread that lived between two samples is missed (pcscd
    has one per client context: its figure is a lower bound)."""

    def __init__(self, pids):
        self.pids = pids
        self.seen = {}

    def sample(self):
        for pid in self.pids:
            try:
                tasks = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for tid in tasks:
                try:
                    with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                        self.seen[(pid, tid)] = int(f.read().split()[0])
                except OSError:
                    pass
        return [sum(ns for (p, _), ns in self.seen.items() if p == pid) / 1e6 for pid in self.pids]


def child_pids(pid):
    """`pid` and its descendants (AusweisApp2 may run under a wrapper)."""
    found = [pid]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if parent == pid:
                found += child_pids(int(entry))
    return found


# Whose CPU time the serve part adds up: the client under test, the shared test setup.
CPU_PARTS = ("client", "eid-testserver", "pcscd", "eid-sim", "bench (SDK client, browser)")


async def serve_runs(client_kind, server, card, runs):
    """One client on its port (serve.start_client), an idle SDK client connected to it, `runs`
    browser-style activations: {idle, after_first, after_last, peak (KiB); to_enter_pin,
    pin_to_303 (s lists); conflicts (409s tried again); cpu_to_enter_pin, cpu_pin_to_303 (ms per
    activation, by CPU_PARTS)}."""
    app = serve.start_client(client_kind)
    client = None
    try:
        pid = app.process.pid
        client = await SDKClient.connect(app.url)
        await client.wait_for_reader(READER, has_card=True)
        await asyncio.sleep(1)
        with open(os.path.join(os.environ["EID_E2E_DIR"], "pcscd.pid")) as f:
            pcscd = int(f.read())
        clock = CPUClock([*child_pids(pid), server.process.pid, pcscd, card.process.pid, os.getpid()])
        clients = len(clock.pids) - 4

        def parts():
            ms = clock.sample()
            return [sum(ms[:clients]), *ms[clients:]]
        at_set_pin = []
        send = client.send

        async def sampling_send(cmd, **fields):
            if cmd == "SET_PIN":  # right after ENTER_PIN came in
                at_set_pin.append(parts())
            return await send(cmd, **fields)
        client.send = sampling_send
        figures = {"idle": status_kib(pid, "VmRSS"), "to_enter_pin": [], "pin_to_303": [], "conflicts": 0,
                   "cpu_to_enter_pin": [0.0] * len(CPU_PARTS), "cpu_pin_to_303": [0.0] * len(CPU_PARTS)}
        for run in range(runs):
            while True:
                client.last_received.clear()
                client.last_sent.clear()
                started = parts()
                try:
                    done = await serve.activate(app.port, client, server.url)
                    ended = parts()
                    break
                except serve.Refused as refused:
                    # 409 right after the previous 303: its workflow still ending. Counted, tried again.
                    if refused.answer.status != 409 or figures["conflicts"] >= 10 * runs:
                        raise
                    figures["conflicts"] += 1
                    await asyncio.sleep(0.05)
            final = done.answers[-1]
            location = final.headers.get("location", "")
            if final.status != 303 or serve.result_location(location, server.origin)[1:] != ("ok", None):
                raise PeerError(f"activation {run + 1} answered {final.status} {final.reason} {location}")
            if "ENTER_PIN" not in client.last_received or "SET_PIN" not in client.last_sent:
                raise PeerError(f"activation {run + 1} asked {done.asked}, no ENTER_PIN")
            figures["to_enter_pin"].append(client.last_received["ENTER_PIN"] - done.sent)
            figures["pin_to_303"].append(final.at - client.last_sent["SET_PIN"])
            for i, (a, b, c) in enumerate(zip(started, at_set_pin[-1], ended)):
                figures["cpu_to_enter_pin"][i] += (b - a) / runs
                figures["cpu_pin_to_303"][i] += (c - b) / runs
            if run in (0, runs - 1):
                await client.expect_nothing(1.0, ignore=("READER", "STATUS", "AUTH"))
                rss = status_kib(pid, "VmRSS")
                if run == 0:
                    figures["after_first"] = rss
                if run == runs - 1:
                    figures["after_last"] = rss
        figures["peak"] = status_kib(pid, "VmHWM")
        return figures
    finally:
        if client:
            await client.close()
        app.stop()


def compare_serve(runs):
    """The local eID client on its port: AusweisApp2 and `eid serve`, `runs` activations each."""
    clients = []
    if shutil.which("AusweisApp2"):
        clients.append(("AusweisApp2", serve.AA2))
    else:
        print("AusweisApp2 is not installed: no AusweisApp2 column for serve (make deps installs it)")
    if has_serve():
        clients.insert(0, ("`eid serve`", BIN))
    else:
        print("eid serve: not in this build")
    if not clients:
        return
    started = time.monotonic()
    card = SoftwareCard(BIN, PORT)
    server = TestServer()
    server.origin = f"https://127.0.0.1:{server.port}"
    results = []
    try:
        wait_for_card()
        for name, kind in clients:
            try:
                results.append((name, asyncio.run(asyncio.wait_for(serve_runs(kind, server, card, runs), 60 + 30 * runs))))
            except (PeerError, asyncio.TimeoutError) as error:
                raise SystemExit(f"bench: {name}: {error or 'no end within the time allowed'}") from None
    finally:
        server.stop()
        card.stop()
        wait_for_empty_reader()
    print(f"\nthe local eID client on its port (issue 17): {runs} browser-style activations per client "
          "(GET /eID-Client?tcTokenURL=… as raw HTTP,")
    print("an idle SDK client answering AUTH, ACCEPT and SET_PIN, each ending in 303 ResultMajor=ok; eid-sim in the "
          "test pcscd, eid-testserver;")
    print("RSS = VmRSS 1 s after the SDK client saw the card (idle) / after the first / the last activation, "
          "peak = VmHWM; times: median (min-max))")
    print(f"| client | idle RSS | RSS after 1 | RSS after {runs} | peak RSS | request -> ENTER_PIN | SET_PIN -> 303 |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, f in results:
        def mib(key):
            return f"{f[key] / 1024:.1f} MiB"

        def spread(key):
            times = f[key]
            return f"{statistics.median(times) * 1000:.0f} ms ({min(times) * 1000:.0f}-{max(times) * 1000:.0f})"
        print(f"| {name} | {mib('idle')} | {mib('after_first')} | {mib('after_last')} | {mib('peak')} | "
              f"{spread('to_enter_pin')} | {spread('pin_to_303')} |")
    print(f"\nCPU time per activation (ms, the mean over the {runs}; /proc/PID/task/*/schedstat), load average "
          f"{os.getloadavg()[0]:.1f}: the client's own and the shared test setup's")
    print(f"| client | phase | {' | '.join(CPU_PARTS)} |")
    print("| --- | --- |" + " --- |" * len(CPU_PARTS))
    for name, f in results:
        for phase, key in (("request -> ENTER_PIN", "cpu_to_enter_pin"), ("SET_PIN -> 303", "cpu_pin_to_303")):
            print(f"| {name} | {phase} | " + " | ".join(f"{ms:.1f}" for ms in f[key]) + " |")
    for name, f in results:
        if f["conflicts"]:
            print(f"{name} answered 409 to {f['conflicts']} activation(s) sent right after the previous 303 "
                  "(tried again 50 ms later; those tries are not timed)")
    if len(results) == 2:
        eid, aa2 = results[0][1], results[1][1]
        ratios = [statistics.median(eid[key]) / statistics.median(aa2[key]) for key in ("to_enter_pin", "pin_to_303")]
        print(f"eid serve / AusweisApp2 (medians): request -> ENTER_PIN {ratios[0]:.0%}, "
              f"SET_PIN -> 303 {ratios[1]:.0%}")
    print(f"Targets (issue 17), measured here, not asserted: eid serve idle <= 10 MiB RSS, flat after {runs} "
          "(after the last as after the first), each time at most half of AusweisApp2's.")
    print(f"   (the serve part took {time.monotonic() - started:.0f} s)")


def wait_for_card():
    for _ in range(150):
        out = subprocess.run([f"{BIN}/eid", "readers", "--json"], capture_output=True, text=True).stdout
        if f'"name":"{READER}","insertable":false,"attached":true,"keypad":false,"card":{{' in out:
            return
        time.sleep(0.1)
    raise SystemExit("bench: the software card did not appear")


if __name__ == "__main__":
    main()
