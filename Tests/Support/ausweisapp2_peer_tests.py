#!/usr/bin/python3
"""Peer tests: AusweisApp2, the reference eID client, as an independent terminal for eid-sim.

    ausweisapp2_peer_tests.py BIN_DIR      (inside `Tests/Support/pcsc-env.sh run`; make test)

AusweisApp2 runs headless against the test pcscd; each case plugs an eid-sim card into the first
vpcd reader and drives RUN_CHANGE_PIN over the WebSocket SDK, asserting on the SDK messages
(ENTER_* retryCounter values, CHANGE_PIN success). eid (our own terminal) then checks that the
card opens with the new PIN. On a failure the SDK transcript and AusweisApp2's log (with every
APDU) are printed, secrets masked; AusweisApp2 is then restarted for the next case. Ends with
`N passed, N failed`; exit status 1 when a case failed.
"""
import asyncio
import json
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ausweisapp2 import (AusweisApp2, PeerError, SDKClient, SoftwareCard, env_readers, run_cases,  # noqa: E402
                         run_main)

PIN, NEW_PIN, WRONG_PIN, TRANSPORT_PIN = "123456", "654321", "111111", "12345"
CAN, PUK, WRONG_PUK = "500540", "9876543210", "1111111111"
SECRETS = (PIN, NEW_PIN, WRONG_PIN, TRANSPORT_PIN, CAN, PUK, WRONG_PUK)
CASE_TIMEOUT = 60.0


def step(expected, reply=None, value=None, **checks):
    """Wait for `expected` (with `checks`: retryCounter, inoperative, deactivated of the card,
    error, success of the message), then send `reply` (with `value` for a SET_* command).
    `expected` None: no message but READER arrives for `checks["quiet"]` seconds."""
    return (expected, checks, reply, value)


def change_pin(old, new):
    return [step("ENTER_PIN", "SET_PIN", old, retryCounter=3, error=None),
            step("ENTER_NEW_PIN", "SET_NEW_PIN", new),
            step("CHANGE_PIN", success=True)]


# (name, eid-sim options, what READER shows of the card before the run, steps, PIN that eid
# then opens the card with, or None)
CASES = [
    ("a: PIN change, then the card opens with the new PIN", [], {"retryCounter": 3},
     change_pin(PIN, NEW_PIN), NEW_PIN),
    ("b: wrong PIN first (retryCounter 3 -> 2), then the right one", [], {"retryCounter": 3},
     [step("ENTER_PIN", "SET_PIN", WRONG_PIN, retryCounter=3, error=None),
      step("ENTER_PIN", "SET_PIN", PIN, retryCounter=2, error=None),
      step("ENTER_NEW_PIN", "SET_NEW_PIN", NEW_PIN),
      step("CHANGE_PIN", success=True)], NEW_PIN),
    ("c: suspended PIN (--pin-retries 1): CAN, then PIN", ["--pin-retries", "1"], {"retryCounter": 1},
     [step("ENTER_CAN", "SET_CAN", CAN, retryCounter=1, error=None),
      step("ENTER_PIN", "SET_PIN", PIN, retryCounter=1, error=None),
      step("ENTER_NEW_PIN", "SET_NEW_PIN", NEW_PIN),
      step("CHANGE_PIN", success=True)], NEW_PIN),
    ("c2: two wrong PINs in one run, then CAN and PIN", [], {"retryCounter": 3},
     [step("ENTER_PIN", "SET_PIN", WRONG_PIN, retryCounter=3, error=None),
      step("ENTER_PIN", "SET_PIN", WRONG_PIN, retryCounter=2, error=None),
      step("ENTER_CAN", "SET_CAN", CAN, retryCounter=1, error=None),
      step("ENTER_PIN", "SET_PIN", PIN, retryCounter=1, error=None),
      step("ENTER_NEW_PIN", "SET_NEW_PIN", NEW_PIN),
      step("CHANGE_PIN", success=True)], NEW_PIN),
    ("d: blocked PIN (--pin-retries 0): PUK unblock, then PIN change", ["--pin-retries", "0"],
     {"retryCounter": 0, "inoperative": False},
     [step("ENTER_PUK", "SET_PUK", PUK, retryCounter=0, inoperative=False, error=None),
      step("ENTER_PIN", "SET_PIN", PIN, retryCounter=3, error=None),
      step("ENTER_NEW_PIN", "SET_NEW_PIN", NEW_PIN),
      step("CHANGE_PIN", success=True)], NEW_PIN),
    ("d2: blocked PIN: wrong PUK first, then the right one", ["--pin-retries", "0"], {"retryCounter": 0},
     [step("ENTER_PUK", "SET_PUK", WRONG_PUK, retryCounter=0, error=None),
      step("ENTER_PUK", "SET_PUK", PUK, retryCounter=0, error=None),
      step("ENTER_PIN", "SET_PIN", PIN, retryCounter=3, error=None),
      step("ENTER_NEW_PIN", "SET_NEW_PIN", NEW_PIN),
      step("CHANGE_PIN", success=True)], NEW_PIN),
    ("d3: PUK used up (--puk-uses-left 0): inoperative after the right PUK", ["--pin-retries", "0",
                                                                             "--puk-uses-left", "0"],
     {"retryCounter": 0, "inoperative": False},
     [step("ENTER_PUK", "SET_PUK", PUK, retryCounter=0, inoperative=False, error=None),
      step("READER", retryCounter=0, inoperative=True),
      step("CHANGE_PIN", success=False)], None),
    ("e: transport PIN (eid-sim --transport-pin) replaced", ["--pin", TRANSPORT_PIN, "--transport-pin"],
     {"retryCounter": 3}, change_pin(TRANSPORT_PIN, NEW_PIN), NEW_PIN),
    ("f: deactivated eID function: shown, nothing asked, CANCEL ends the run", ["--deactivated"],
     {"deactivated": True},
     [step(None, "CANCEL", quiet=0.5),
      step("CHANGE_PIN", success=False)], None),
]
CARD_FIELDS = ("retryCounter", "inoperative", "deactivated")


def check(message, checks):
    card = (message.get("reader") or message).get("card") or {}
    for key, want in checks.items():
        got = card.get(key) if key in CARD_FIELDS else message.get(key)
        if got != want:
            raise PeerError(f"{message['msg']}: {key} is {got!r}, expected {want!r}")


async def run_workflow(client, reader, steps):
    """RUN_CHANGE_PIN through `steps`; returns the messages that answered them."""
    await client.send("RUN_CHANGE_PIN")
    started = await client.expect("CHANGE_PIN")
    if "success" in started:
        raise PeerError(f"the workflow ended at once: success={started['success']}")
    answered = []
    for expected, checks, reply, value in steps:
        if expected is None:
            await client.expect_nothing(checks["quiet"])
        else:
            message = await client.expect(expected, reader=reader)
            check(message, checks)
            answered.append(message)
        if reply:
            await client.send(reply, **({} if value is None else {"value": value}))
    return answered


def wait_until_card_is_free(bin_dir, reader, timeout=30.0):
    """Waits (at most `timeout` seconds) until `eid readers --json` reads the card in `reader`: its
    retry counter shows, not the {} of a card another program holds."""
    deadline = time.monotonic() + timeout
    while True:
        listing = subprocess.run([os.path.join(bin_dir, "eid"), "readers", "--json"], capture_output=True,
                                 text=True, timeout=30)
        try:
            message = json.loads(listing.stdout)
            readers = message.get("readers", message.get("reader", []))  # level 2 and up: readers
        except ValueError:
            readers = []
        card = next((r.get("card") for r in readers if r.get("name") == reader), None)
        if isinstance(card, dict) and "retryCounter" in card:
            return
        if time.monotonic() > deadline:
            raise PeerError(f"the card in {reader} is still held by another program after {timeout:.0f} s")
        time.sleep(0.05)


def eid_opens_card(bin_dir, reader, pin):
    """Our own terminal, eid, changes the PIN once more with `pin`: the card opens with it."""
    answers = (f'{{"cmd":"SET_PIN","value":"{pin}"}}\n' f'{{"cmd":"SET_NEW_PIN","value":"{PIN}"}}\n')
    try:
        result = subprocess.run([os.path.join(bin_dir, "eid"), "change-pin", "--json", "--reader", reader,
                                 "--timeout", "10"], input=answers, capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        raise PeerError("eid change-pin did not end within 30 s") from None
    last = result.stdout.strip().splitlines()[-1:] or [""]
    if result.returncode != 0 or last[0] != '{"msg":"CHANGE_PIN","success":true}':
        raise PeerError(f"eid could not open the card with the new PIN: status {result.returncode}, "
                        f"last message {last[0]!r}, stderr {result.stderr.strip()!r}")


class Runner:
    def __init__(self, bin_dir):
        self.bin_dir = bin_dir
        self.reader, self.port = env_readers()[0]
        self.app = None
        self.client = None
        self.log_offset = 0

    async def start_app(self):
        self.app = AusweisApp2()
        self.client = await SDKClient.connect(self.app.url)

    async def stop_app(self):
        if self.client:
            try:
                await asyncio.wait_for(self.client.close(), 5)
            except Exception:
                pass
        if self.app:
            self.app.stop()
        self.app = self.client = None

    async def run_case(self, args, card_checks, steps, new_pin):
        card = SoftwareCard(self.bin_dir, self.port, args)
        try:
            check(await self.client.wait_for_reader(self.reader, has_card=True), card_checks)
            await run_workflow(self.client, self.reader, steps)
            if new_pin:
                # AusweisApp2 lets go of the card when the workflow ends; eid takes it exclusively.
                wait_until_card_is_free(self.bin_dir, self.reader)
                eid_opens_card(self.bin_dir, self.reader, new_pin)
        finally:
            card.stop()
        await self.client.wait_for_reader(self.reader, has_card=False)

    async def prepare(self, case):
        if self.app is None:
            await self.start_app()
        self.log_offset = self.app.log_size()
        self.client.transcript.clear()

    async def run(self, case):
        _, args, card_checks, steps, new_pin = case
        await self.run_case(args, card_checks, steps, new_pin)

    async def report(self, case, error):
        if self.client:
            print("  SDK transcript:\n    " + "\n    ".join(self.client.transcript))
        if self.app:
            print("  AusweisApp2 log of this case:")
            print(self.app.log_since(self.log_offset, SECRETS))
        await self.stop_app()

    async def main(self):
        try:
            return await run_cases([(case[0], case) for case in CASES], self.run, CASE_TIMEOUT,
                                   prepare=self.prepare, report=self.report)
        finally:
            await self.stop_app()


def main():
    runner = None

    async def run(arguments):
        nonlocal runner
        runner = Runner(arguments[0])
        return await runner.main()

    def cleanup():
        if runner and runner.app:
            runner.app.stop()

    run_main("ausweisapp2_peer_tests.py BIN_DIR",
             "AusweisApp2 peer tests (RUN_CHANGE_PIN against eid-sim through pcscd)", run, cleanup)


if __name__ == "__main__":
    main()
