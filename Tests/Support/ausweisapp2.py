"""AusweisApp2 as an independent terminal for eid-sim: started headless against the test pcscd
(`pcsc-env.sh run`), driven over its WebSocket SDK; and the case loop and `main` the peer scripts
share (`run_cases`, `run_cases_apart`, `run_main`). Used by ausweisapp2_peer_tests.py,
ausweisapp2_auth_peer_tests.py, vicc_auth_peer_test.py, vicc_default_setup_peer_test.py (make test)
and bench.py (make bench). Needs Debian's `ausweisapp2` and `python3-websockets` (run with
/usr/bin/python3). Facts about running it headless: docs/peers.md, "AusweisApp2 (headless)".

Every wait has a timeout; AusweisApp2 and eid-sim are stopped by PID. Secrets handed to
`SDKClient.send` are never printed: the transcript shows their values as ***.
"""
import asyncio
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import websockets

SECRET_COMMANDS = {"SET_PIN", "SET_NEW_PIN", "SET_CAN", "SET_PUK"}


class PeerError(Exception):
    """A peer test step that did not go as expected; the message names the step, never a secret."""


def env_readers():
    """(reader name, vpcd port) pairs of the test pcscd, from pcsc-env.sh's EID_E2E_READERS."""
    pairs = [entry.split("=") for entry in os.environ["EID_E2E_READERS"].split(";")]
    return [(name, int(port)) for name, port in pairs]


def terminate(process):
    """Stops a child by its PID: TERM, then KILL if it has not ended within 5 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def wait_for_port_file(process, path, name, timeout):
    """The port that `process` (`name` in errors) writes to the file `path`; PeerError when it ends
    first or writes none within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise PeerError(f"{name} ended at start with status {process.returncode}")
        try:
            with open(path) as f:
                text = f.read().strip()
            if text:
                return int(text)
        except (FileNotFoundError, ValueError):
            pass
        time.sleep(0.02)
    raise PeerError(f"{name} wrote no port file within {timeout:.0f} s")


class SoftwareCard:
    """eid-sim plugged into a vpcd port, with --trace (one line per APDU, no data) to a file."""

    def __init__(self, bin_dir, port, args=()):
        self.trace = tempfile.NamedTemporaryFile("w+", prefix="eid-sim-trace-", delete=True)
        self.process = subprocess.Popen(
            [os.path.join(bin_dir, "eid-sim"), "--vpcd", f"127.0.0.1:{port}", "--trace", *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.trace)

    def apdu_count(self):
        self.trace.flush()
        self.trace.seek(0)
        return sum(1 for line in self.trace if line.startswith("eid-sim: apdu"))

    def stop(self):
        terminate(self.process)
        self.trace.close()


# Where AusweisApp2 reads its settings below $HOME: Debian's build has no organisation name.
SETTINGS_FILES = (".config/Unknown Organization/AusweisApp2.conf", ".config/AusweisApp2_CE/AusweisApp2.conf")
# Pre-verification off: AusweisApp2 then hands the terminal certificate chain of a private test
# PKI to the card (which checks it in Terminal Authentication) instead of refusing every chain
# that does not end at one of its built-in CVCAs (docs/peers.md, "AusweisApp2 (headless)").
NO_PREVERIFICATION = {"preverification": {"enabled": "false"}}
# What AusweisApp2 logs when its PC/SC reader plug-in enters the plug-in list of its ReaderManager
# (ReaderManager::doUpdatePluginCache, on the main thread that also answers the WebSocket upgrade).
PCSC_PLUGIN_REGISTERED = "Update cache entry: PCSC"


class AusweisApp2:
    """One headless AusweisApp2 (`--ui websocket --port 0`; with `webservice`, also `--ui webservice`:
    the HTTP endpoints of port 24727 beside the SDK) in a scratch directory, with `settings`
    ({section: {key: value}}) written into its settings files before it starts."""

    START_TIMEOUT = 15.0

    def __init__(self, settings=None, webservice=False):
        self.dir = tempfile.mkdtemp(prefix="eid-aa2-")
        for sub in ("home", "tmp", "xdg"):
            os.makedirs(os.path.join(self.dir, sub), mode=0o700)
        if settings:
            text = "".join(f"[{section}]\n" + "".join(f"{key}={value}\n" for key, value in entries.items())
                           for section, entries in settings.items())
            for relative in SETTINGS_FILES:
                path = os.path.join(self.dir, "home", relative)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
        env = dict(os.environ, HOME=f"{self.dir}/home", TMPDIR=f"{self.dir}/tmp",
                   XDG_RUNTIME_DIR=f"{self.dir}/xdg", QT_QPA_PLATFORM="offscreen")
        if "PCSCLITE_CSOCK_NAME" not in env:
            raise PeerError("PCSCLITE_CSOCK_NAME is not set: run inside Tests/Support/pcsc-env.sh run")
        self.output = open(os.path.join(self.dir, "stdout.log"), "w")
        self.process = subprocess.Popen(
            ["AusweisApp2", "--ui", "websocket", *(["--ui", "webservice"] if webservice else []), "--port", "0",
             "--keep"],
            env=env, stdin=subprocess.DEVNULL, stdout=self.output, stderr=subprocess.STDOUT)
        try:
            self.port = self._wait_for_port()
        except PeerError:
            self.stop()
            raise

    def _wait_for_port(self):
        """The port from `$TMPDIR/AusweisApp2.<pid>.port`, once a client may connect (bench.py's
        TestPKIAusweisApp2 calls it too). AusweisApp2 writes the port before its ReaderManager thread
        has registered the reader plug-ins, and a client's connection starts the reader scan only on
        the plug-ins registered by then (UIPlugInWebSocket::onUiDomination, ReaderManager::startScanAll):
        a client that comes sooner, as on a loaded machine, gets no PC/SC reader for as long as it
        stays connected (GET_READER: attached false). So this also waits for the PC/SC plug-in."""
        deadline = time.monotonic() + self.START_TIMEOUT
        path = os.path.join(self.dir, "tmp", f"AusweisApp2.{self.process.pid}.port")
        port = wait_for_port_file(self.process, path, "AusweisApp2", self.START_TIMEOUT)
        while PCSC_PLUGIN_REGISTERED not in self.log_since(0):
            if self.process.poll() is not None:
                raise PeerError(f"AusweisApp2 ended at start with status {self.process.returncode}")
            if time.monotonic() > deadline:
                raise PeerError(f"AusweisApp2 logged no '{PCSC_PLUGIN_REGISTERED}' within {self.START_TIMEOUT:.0f} s: "
                                "its PC/SC reader plug-in is not registered")
            time.sleep(0.02)
        return port

    @property
    def url(self):
        return f"ws://127.0.0.1:{self.port}/eID-Kernel"

    def log_path(self):
        logs = glob.glob(os.path.join(self.dir, "tmp", "AusweisApp2.*.log"))
        return logs[0] if logs else None

    def log_size(self):
        path = self.log_path()
        return os.path.getsize(path) if path else 0

    def log_since(self, offset, secrets=()):
        """Its log (with every APDU) from `offset` on, each of `secrets` replaced by ***, in ASCII
        and in hex (as digits would stand in a command APDU)."""
        path = self.log_path()
        if not path:
            return "(no AusweisApp2 log)"
        with open(path, errors="replace") as f:
            f.seek(offset)
            text = f.read()
        for secret in sorted(secrets, key=len, reverse=True):
            text = text.replace(secret, "***").replace(secret.encode().hex(), "***")
        return text

    def stop(self):
        """Stops it by its PID (TERM, then KILL) and removes the scratch directory."""
        terminate(self.process)
        self.output.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def is_api_level_line(line):
    """Whether a transcript line is SET_API_LEVEL or its API_LEVEL answer."""
    try:
        message = json.loads(line[2:])
    except ValueError:
        return False
    return isinstance(message, dict) and (message.get("cmd") == "SET_API_LEVEL" or message.get("msg") == "API_LEVEL")


class SDKClient:
    """The WebSocket SDK connection: send commands, take messages, each with a timeout.
    Keeps a transcript (secrets masked) and the monotonic time of every message and command
    (`_at` of a message; `last_sent` and `last_received` by command and message name)."""

    def __init__(self, ws):
        self.ws = ws
        self.transcript = []
        self.last_sent = {}
        self.last_received = {}

    @classmethod
    async def connect(cls, url, timeout=10.0, api_level=2):
        """Connects and sends SET_API_LEVEL `api_level` first (None: nothing): the peer scripts
        compare AusweisApp2 1.26.2, whose level is 2, with eid serve, which starts at 3."""
        ws = await asyncio.wait_for(websockets.connect(url, open_timeout=timeout), timeout)
        client = cls(ws)
        if api_level is not None:
            await client.send("SET_API_LEVEL", level=api_level)
            answer = await client.expect("API_LEVEL", timeout=timeout)
            if answer.get("current") != api_level:
                raise PeerError(f"SET_API_LEVEL {api_level} answered {strip(answer)}")
            # The handshake is the harness's, not a case's: its two lines leave the transcript, so a case that
            # connects again compares as one that did not.
            client.transcript = [line for line in client.transcript if not is_api_level_line(line)]
        return client

    async def send(self, cmd, **fields):
        message = {"cmd": cmd, **fields}
        shown = {k: ("***" if cmd in SECRET_COMMANDS and k == "value" else v) for k, v in message.items()}
        self.transcript.append("> " + json.dumps(shown))
        self.last_sent[cmd] = time.monotonic()
        await self.ws.send(json.dumps(message))

    async def receive(self, timeout):
        try:
            text = await asyncio.wait_for(self.ws.recv(), timeout)
        except asyncio.TimeoutError:
            raise PeerError(f"no SDK message within {timeout:.0f} s") from None
        message = json.loads(text)
        message["_at"] = time.monotonic()
        self.last_received[message.get("msg")] = message["_at"]
        self.transcript.append("< " + text)
        return message

    async def expect(self, name, timeout=15.0, ignore=("READER", "STATUS"), reader=None):
        """The next message that is not in `ignore` (nor a READER about another reader than
        `reader`); it must be `name`."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise PeerError(f"no {name} within {timeout:.0f} s")
            message = await self.receive(left)
            if message.get("msg") in ignore and message.get("msg") != name:
                continue
            if message.get("msg") == "READER" and reader and message.get("name") != reader:
                continue
            if message.get("msg") != name:
                raise PeerError(f"expected {name}, got {message.get('msg')}: {strip(message)}")
            return message

    async def expect_any(self, timeout, ignore=("READER", "STATUS", "INSERT_CARD")):
        """The next message that is not in `ignore`."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise PeerError(f"no SDK message within {timeout:.0f} s")
            message = await self.receive(left)
            if message.get("msg") not in ignore:
                return message

    async def expect_nothing(self, seconds, ignore=("READER", "STATUS")):
        """No message but those in `ignore` for `seconds`."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = await self.receive(left)
            except PeerError:
                return
            if message.get("msg") not in ignore:
                raise PeerError(f"expected no message for {seconds} s, got {strip(message)}")

    async def wait_for_reader(self, reader, has_card, timeout=15.0):
        """Polls GET_READER until `reader`'s card is present (an eID card) or absent. The error says
        when the client does not list the reader at all (attached false), not merely no card."""
        deadline = time.monotonic() + timeout
        attached = None
        while time.monotonic() < deadline:
            await self.send("GET_READER", name=reader)
            poll_end = min(deadline, time.monotonic() + 0.25)
            while time.monotonic() < poll_end:
                try:
                    message = await self.receive(max(0.01, poll_end - time.monotonic()))
                except PeerError:
                    break
                if message.get("msg") == "READER" and message.get("name") == reader:
                    attached = message.get("attached")
                    if (message.get("card") is not None) == has_card:
                        return message
            await asyncio.sleep(max(0.0, poll_end - time.monotonic()))
        unlisted = " (attached false: the client lists no such reader)" if attached is False else ""
        seen = "not seen" if has_card else "still seen"
        raise PeerError(f"reader {reader}: card {seen} within {timeout:.0f} s{unlisted}")

    async def close(self):
        await self.ws.close()


def strip(message):
    return {k: v for k, v in message.items() if not k.startswith("_")}


def failure_reason(error, timeout=None):
    """Why a case failed, in one line: a PeerError's message (which names the step, never a
    secret), the case's timeout, or the exception's type and text."""
    if isinstance(error, asyncio.TimeoutError) and timeout is not None:
        return f"no result within {timeout:.0f} s"
    return str(error) if isinstance(error, PeerError) else f"{type(error).__name__}: {error}"


async def run_cases(cases, run, timeout=None, prepare=None, report=None, finish=None):
    """The case loop of the peer scripts. `cases` are (name, case) pairs; for each, `prepare(case)`,
    then `run(case)` within `timeout` seconds (None: the case's own waits bound it). A case passes
    when `run` returns: `ok    NAME (T s)`, or `ok    NAME: NOTE` when it returns a note. Any
    exception fails that case only: `FAIL  NAME: REASON`, then `report(case, error)` prints what
    tells why (transcripts, logs). `finish(case)` runs after either. Returns (passed, failed)."""
    passed = failed = 0
    for name, case in cases:
        try:
            if prepare:
                await prepare(case)
            start = time.monotonic()
            note = await (asyncio.wait_for(run(case), timeout) if timeout is not None else run(case))
            print(f"ok    {name}: {note}" if note else f"ok    {name} ({time.monotonic() - start:.1f} s)", flush=True)
            passed += 1
        except Exception as error:  # a failed expectation, a timeout, a peer gone: one failed case
            failed += 1
            print(f"FAIL  {name}: {failure_reason(error, timeout)}", flush=True)
            if report:
                await report(case, error)
        finally:
            if finish:
                await finish(case)
    return passed, failed


def run_cases_apart(cases, run, report=None, finish=None):
    """`run_cases`, each case in an event loop of its own (`asyncio.run`), ended before the next case
    starts; the vicc scripts run their cases so (with one loop for all, AusweisApp2 of a later case
    was seen to miss a fresh vicc). Returns (passed, failed)."""
    passed = failed = 0
    for case in cases:
        case_passed, case_failed = asyncio.run(run_cases([case], run, report=report, finish=finish))
        passed, failed = passed + case_passed, failed + case_failed
    return passed, failed


def run_main(usage, title, run, cleanup=None, more_arguments=False):
    """`main` of a peer script: `SCRIPT BIN_DIR` (with `more_arguments`, more may follow), the title,
    `run(arguments)` ((passed, failed), or a coroutine returning them), then `N passed, N failed` and exit
    status 1 when a case failed. SIGTERM unwinds through every `finally` (every peer stops, by its
    PID); `cleanup()` runs last in any case."""
    if len(sys.argv) < 2 or (len(sys.argv) > 2 and not more_arguments):
        sys.exit(f"usage: {usage}   (inside Tests/Support/pcsc-env.sh run)")
    print(title, flush=True)

    def interrupted(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    try:
        result = run(sys.argv[1:])
        passed, failed = asyncio.run(result) if asyncio.iscoroutine(result) else result
    except KeyboardInterrupt:
        print("interrupted")
        sys.exit(130)
    except PeerError as error:  # a peer (eid-testserver, eid-sim) did not start
        print(f"FAIL  {error}")
        sys.exit(1)
    finally:
        if cleanup:
            cleanup()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
