"""Issue 9's third acceptance line with AusweisApp2 as the client: vsmartcard's nPA emulator (an
independent card, Tests/Support/vicc/run-vicc.py) trusting DIR/cvca.cvcert of
`eid-testserver pki --out DIR` is authenticated by AusweisApp2 against
`eid-testserver serve --pki DIR`; `/result` shows the emulator's data and passive authentication
verified under DIR's CSCA.

    vicc_auth_peer_test.py BIN_DIR     (inside Tests/Support/pcsc-env.sh run; make test runs it)

AusweisApp2 runs with pre-verification off (docs/peers.md, "AusweisApp2 (headless)"), so that the
card, not AusweisApp2's built-in CVCAs, judges the private chain. Every process is stopped by its
PID; every wait has a timeout; the PIN is never printed (the SDK transcript masks it).
"""
import asyncio
import inspect
import json
import os
import re
import select
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ausweisapp2  # noqa: E402
from ausweisapp2 import (AusweisApp2, PeerError, SDKClient, env_readers, run_cases_apart, run_main,  # noqa: E402
                         terminate)

HERE = os.path.dirname(os.path.abspath(__file__))
PIN = "111111"  # vicc's nPA
GIVEN_NAMES = "GERTRUD"  # from the dataset file below: the emulator's data, not eid-sim's sample card
TIMEOUT = 60.0
SETTINGS = {"preverification": {"enabled": "false"}}
SETTINGS_FILES = (".config/Unknown Organization/AusweisApp2.conf", ".config/AusweisApp2_CE/AusweisApp2.conf")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_ausweisapp2():
    """AusweisApp2 with pre-verification off: through ausweisapp2.py's `settings` when it has
    them, else by writing the settings files into its scratch home before it starts."""
    if "settings" in inspect.signature(AusweisApp2.__init__).parameters:
        return AusweisApp2(settings=SETTINGS)
    original = ausweisapp2.tempfile.mkdtemp

    def mkdtemp(*args, **kwargs):
        directory = original(*args, **kwargs)
        text = "".join(f"[{section}]\n" + "".join(f"{k}={v}\n" for k, v in entries.items())
                       for section, entries in SETTINGS.items())
        for relative in SETTINGS_FILES:
            path = os.path.join(directory, "home", relative)
            os.makedirs(os.path.dirname(path), mode=0o700)
            with open(path, "w") as f:
                f.write(text)
        os.chmod(os.path.join(directory, "home"), 0o700)
        return directory

    # ausweisapp2.py makes home/ with os.makedirs (no exist_ok): let it exist already.
    original_makedirs = ausweisapp2.os.makedirs

    def makedirs(path, mode=0o777, exist_ok=False):
        original_makedirs(path, mode=mode, exist_ok=True)

    ausweisapp2.tempfile.mkdtemp, ausweisapp2.os.makedirs = mkdtemp, makedirs
    try:
        return AusweisApp2()
    finally:
        ausweisapp2.tempfile.mkdtemp, ausweisapp2.os.makedirs = original, original_makedirs


class OwnPKIServer:
    """`eid-testserver pki --out DIR --origin https://127.0.0.1:PORT`, then `serve --pki DIR`."""

    def __init__(self, bin_dir):
        self.origin = f"https://127.0.0.1:{free_port()}"
        self.dir = self.make_directory(bin_dir, self.origin)
        binary = os.path.join(bin_dir, "eid-testserver")
        self.dataset = os.path.join(self.dir, "vicc-dataset.txt")
        with open(self.dataset, "w") as f:
            f.write(f"GivenNames={GIVEN_NAMES}\nDateOfExpiry=20351031\n")
        self.errors = tempfile.TemporaryFile("w+")
        self.process = subprocess.Popen([binary, "serve", "--pki", self.dir], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=self.errors)
        deadline, text = time.monotonic() + 20, b""
        while b"listening on" not in text:
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.errors.seek(0)
                raise PeerError(f"eid-testserver serve --pki did not start: {text!r} {self.errors.read()}")
            ready, _, _ = select.select([self.process.stdout], [], [], 0.1)
            if ready:
                text += os.read(self.process.stdout.fileno(), 4096)
        self.tls = ssl.create_default_context(cafile=os.path.join(self.dir, "tls-cert.pem"))

    @staticmethod
    def make_directory(bin_dir, origin):
        directory = tempfile.mkdtemp(prefix="eid-testserver-pki-")
        subprocess.run([os.path.join(bin_dir, "eid-testserver"), "pki", "--out", directory, "--origin", origin],
                       check=True, stdout=subprocess.DEVNULL, timeout=60)
        return directory

    def result(self, session=None):
        """GET /result: the last finished session's, or with `session` that session's."""
        query = f"?session={session}" if session else ""
        with urllib.request.urlopen(self.origin + "/result" + query, context=self.tls, timeout=10) as answer:
            return answer.read().decode()

    def stop(self):
        terminate(self.process)
        self.process.stdout.close()
        self.errors.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class EmulatedCard:
    """vicc --type nPA as the vpcd client of `port`, with DIR's CVCA, card files and CA key; with
    `default_setup` only DIR's CVCA (for Terminal Authentication): vicc's own EF.CardAccess and
    EF.CardSecurity and no CA key file, so that it makes a fresh Chip Authentication key and
    writes it into EF.CardSecurity, whose signature then no longer verifies."""

    def __init__(self, pki, port, cvca=None, default_setup=False):
        d = pki.dir
        files = [] if default_setup else [
            "--ef-cardaccess", f"{d}/card-ef-cardaccess.bin", "--ef-cardsecurity", f"{d}/card-ef-cardsecurity.bin",
            "--ca-key", f"{d}/card-ca.key"]
        self.log = tempfile.NamedTemporaryFile("w+", prefix="vicc-", delete=True)
        self.process = subprocess.Popen(
            ["/usr/bin/python3", os.path.join(HERE, "vicc", "run-vicc.py"), "--type", "nPA",
             "--hostname", "127.0.0.1", "--port", str(port), "--cvca", cvca or f"{d}/cvca.cvcert", *files,
             "--datasetfile", pki.dataset],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log)

    @staticmethod
    def wait_for_card(bin_dir, reader, present, timeout=45.0):
        """Polls `eid readers --json` until pcscd shows a card in `reader` (or none). A new vicc
        must not plug in before pcscd has seen the last one leave: pcscd may then never report
        a change, and AusweisApp2 keeps the card it could not read as absent."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            listing = subprocess.run([os.path.join(bin_dir, "eid"), "readers", "--json"], capture_output=True,
                                     text=True, timeout=30)
            try:
                readers = json.loads(listing.stdout).get("readers", [])
            except ValueError:
                readers = []
            entry = next((r for r in readers if r.get("name") == reader), None)
            if entry is not None and (entry.get("card") is not None) == present:
                return
            time.sleep(0.2)
        raise PeerError(f"the card in {reader} did not {'appear' if present else 'disappear'} within {timeout:.0f} s")

    def errors(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()[-3000:]

    def stop(self):
        terminate(self.process)
        self.log.close()


async def authenticate(client, url):
    """RUN_AUTH: ACCEPT, then the PIN; the final AUTH. DIR's AT may grant CAN allowed, which
    AusweisApp2 offers as an optional right and, when kept, answers with PACE by CAN
    (ENTER_CAN): it is deselected first (SET_ACCESS_RIGHTS), so that the card's PIN is used."""
    await client.send("RUN_AUTH", tcTokenURL=url)
    deadline = time.monotonic() + TIMEOUT
    while True:
        message = await client.receive(max(0.1, deadline - time.monotonic()))
        name = message.get("msg")
        if name == "AUTH" and ("result" in message or "error" in message):
            return message
        if name == "ACCESS_RIGHTS":
            if "CanAllowed" in message.get("chat", {}).get("effective", []):
                optional = [right for right in message["chat"].get("optional", []) if right != "CanAllowed"]
                await client.send("SET_ACCESS_RIGHTS", chat=optional)
            else:
                await client.send("ACCEPT")
        elif name == "ENTER_PIN":
            await client.send("SET_PIN", value=PIN)
        elif name in ("ENTER_CAN", "ENTER_PUK", "ENTER_NEW_PIN", "BAD_STATE", "INVALID", "UNKNOWN_COMMAND"):
            raise PeerError(f"unexpected {name}: {ausweisapp2.strip(message)}")


class Attempt:
    """One RUN_AUTH's peers. With `foreign_cvca` the emulator trusts another directory's CVCA: then
    the card must refuse Terminal Authentication (AusweisApp2's pre-verification is off, so the card
    decides), AusweisApp2 must end with an error and /result say "ok":false (refusal_problems)."""

    def __init__(self, bin_dir, foreign_cvca=False):
        self.bin_dir, self.foreign_cvca = bin_dir, foreign_cvca
        self.reader, self.port = env_readers()[0]
        self.server = self.other = self.card = self.app = self.client = None

    async def run(self):
        self.server = server = OwnPKIServer(self.bin_dir)
        if self.foreign_cvca:
            self.other = OwnPKIServer.make_directory(self.bin_dir, server.origin)
        self.card = EmulatedCard(server, self.port,
                                 cvca=os.path.join(self.other, "cvca.cvcert") if self.other else None)
        EmulatedCard.wait_for_card(self.bin_dir, self.reader, present=True)
        self.app = start_ausweisapp2()
        self.client = client = await SDKClient.connect(self.app.url)
        # vicc's start (Python, libeac) can take more than 15 s on a loaded machine.
        await client.wait_for_reader(self.reader, has_card=True, timeout=45.0)
        final = await asyncio.wait_for(authenticate(client, server.origin + "/tctoken"), TIMEOUT + 10)
        result = server.result()
        major = final.get("result", {}).get("major", "")
        problems = []
        if self.foreign_cvca:
            problems += self.refusal_problems(final, result)
        elif not major.endswith("#ok"):
            problems.append(f"AUTH result {final.get('result')}")
        else:
            if not result.startswith('{"ok":true'):
                problems.append("/result is not ok")
            if f'"GivenNames":"{GIVEN_NAMES}"' not in result:
                problems.append("/result lacks the emulator's given names")
            if '"passiveAuthentication":"verified"' not in result:
                problems.append("passive authentication did not verify under DIR's CSCA")
        if problems:
            raise PeerError("; ".join(problems) + f"\n  /result: {result[:600]}")

    # AusweisApp2 knows no 6900 from PSO:Verify Certificate: it ends the secure messaging and
    # reports the card as lost (Workflow_Card_Removed), the minor ifdl#cancellationByUser, and
    # tells the server so. (eid names the refusal: al/common#noPermission, EmulatedNPAAuthTests.)
    REFUSED_MINOR = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl#cancellationByUser"

    def refusal_problems(self, final, result):
        """What is wrong with a refused run: the card must have answered AusweisApp2's first
        PSO:Verify Certificate (0C 2A 00 BE) with 6900 after libeac did not verify the server's
        certificate, AUTH and /result must carry REFUSED_MINOR."""
        problems = []
        got = final.get("result", {})
        if not got.get("major", "").endswith("#error") or got.get("minor") != self.REFUSED_MINOR:
            problems.append(f"AUTH result {got}, not an error with {self.REFUSED_MINOR}")
        if not result.startswith('{"ok":false') or f'"resultMinor":"{self.REFUSED_MINOR}"' not in result:
            problems.append("/result is not ok:false with the client's minor")
        if "Could not verify current signature" not in self.card.errors():
            problems.append("vicc's libeac did not refuse a certificate")
        answer = verify_certificate_answer(self.app.log_since(0, (PIN,)))
        if answer is None or not answer.endswith("6900"):
            problems.append(f"PSO:Verify Certificate was answered {answer}, not 6900")
        return problems

    async def report(self, error):
        """The logs that tell why it failed."""
        if self.client:
            print("  SDK transcript:\n    " + "\n    ".join(self.client.transcript))
        if self.app:
            print("  AusweisApp2 log:\n" + self.app.log_since(0, (PIN,))[-6000:])
        if self.card:
            print("  vicc (standard error):\n" + self.card.errors())

    async def finish(self):
        if self.client:
            try:
                await asyncio.wait_for(self.client.close(), 5)
            except Exception:
                pass
        if self.app:
            self.app.stop()
        release(self.bin_dir, self.reader, self.card, self.server, self.other)


def verify_certificate_answer(log):
    """The card's answer (hex) to the first PSO:Verify Certificate in AusweisApp2's APDU log, or
    None when there was none."""
    command = re.search(r'SCardTransmit cmdBuffer: "0c2a00be', log)
    answer = command and re.compile(r'SCardTransmit resBuffer: "([0-9a-f]*)"').search(log, command.end())
    return answer.group(1) if answer else None


def release(bin_dir, reader, card, server, other):
    """After a case: vicc stopped and seen gone by pcscd (so that the next may plug in), the server
    stopped, the other directory removed; each where there is one."""
    if card:
        card.stop()
        try:
            EmulatedCard.wait_for_card(bin_dir, reader, present=False)
        except PeerError as error:
            print(f"  {error}", flush=True)
    if server:
        server.stop()
    if other:
        shutil.rmtree(other, ignore_errors=True)


def main():
    def run(arguments):
        cases = [("auth, vicc nPA trusting DIR/cvca.cvcert, AusweisApp2 against serve --pki DIR",
                  Attempt(arguments[0])),
                 ("auth, vicc nPA trusting another CVCA is refused, AusweisApp2 against serve --pki DIR",
                  Attempt(arguments[0], foreign_cvca=True))]
        return run_cases_apart(cases, Attempt.run, report=Attempt.report, finish=Attempt.finish)

    run_main("vicc_auth_peer_test.py BIN_DIR",
             "AusweisApp2 peer test (RUN_AUTH with vsmartcard's nPA emulator against eid-testserver serve --pki)", run)


if __name__ == "__main__":
    main()
