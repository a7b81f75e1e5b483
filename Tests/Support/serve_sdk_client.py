#!/usr/bin/python3
"""A scripted SDK client of `eid serve` (issue 17) for EndToEndTests/ServeTests:

    serve_sdk_client.py WS_URL MODE [TCTOKEN_URL]

Connects to WS_URL (ws://127.0.0.1:PORT/eID-Kernel), prints {"connected": true}, then every
message it receives, one JSON object per line on standard output, and answers as MODE says:

  auth         answers a workflow started elsewhere (a browser activation: {"msg":"AUTH"}):
               ACCESS_RIGHTS -> ACCEPT, ENTER_PIN -> SET_PIN 123456 (SET_PIN without a value
               when the reader has a keypad: the PIN is typed there); ends at the final AUTH.
  auth-list    as `auth`, sending GET_READER_LIST at ENTER_PIN before SET_PIN (a look at the
               readers while the workflow holds the card).
  run-auth     sends RUN_AUTH {tcTokenURL: TCTOKEN_URL}, then as `auth`.
  change-pin   sends RUN_CHANGE_PIN, answers ENTER_PIN and ENTER_NEW_PIN with 123456 (the PIN
               stays), ends at CHANGE_PIN with success; then, with TCTOKEN_URL, as `run-auth` in
               the same connection.
  auth-each    as `auth` for every workflow started elsewhere, one after another, until
               standard input ends.
  readers      sends GET_READER_LIST, ends at its answer.
  hold         stays connected until standard input ends.

Exits 0 at the end of its MODE, 1 on a timeout (60 s) or a closed connection. The PIN is the
software card's test PIN; it is never printed (only what the server sends is).
"""
import asyncio
import json
import sys

import websockets

PIN = "123456"
TIMEOUT = 60.0


def emit(value):
    print(json.dumps(value), flush=True)


async def answer_until_final(ws, final, list_at_pin=False):
    """Answers the questions of a workflow until its final message (`final(message)` true)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        emit(message)
        kind = message.get("msg")
        if kind == "ENTER_PIN" and list_at_pin:
            await ws.send(json.dumps({"cmd": "GET_READER_LIST"}))
        if kind == "ACCESS_RIGHTS":
            await ws.send(json.dumps({"cmd": "ACCEPT"}))
        elif kind == "ENTER_PIN" and message.get("reader", {}).get("keypad"):
            await ws.send(json.dumps({"cmd": "SET_PIN"}))
        elif kind == "ENTER_PIN":
            await ws.send(json.dumps({"cmd": "SET_PIN", "value": PIN}))
        elif kind == "ENTER_NEW_PIN":
            await ws.send(json.dumps({"cmd": "SET_NEW_PIN", "value": PIN}))
        if final(message):
            return message


def auth_final(message):
    return message.get("msg") == "AUTH" and "result" in message


def change_pin_final(message):
    return message.get("msg") == "CHANGE_PIN" and "success" in message


async def answer_each(ws):
    """Answers workflows until standard input ends (0), or 1 when the connection ends first."""
    async def forever():
        while True:
            await answer_until_final(ws, lambda message: False)

    answering = asyncio.ensure_future(forever())
    stdin = asyncio.ensure_future(asyncio.get_running_loop().run_in_executor(None, sys.stdin.read))
    await asyncio.wait({answering, stdin}, return_when=asyncio.FIRST_COMPLETED)
    if not stdin.done():
        answering.result()  # raises why the connection ended
        return 1
    answering.cancel()
    return 0


async def main(url, mode, tctoken_url):
    async with websockets.connect(url, open_timeout=TIMEOUT) as ws:
        emit({"connected": True})
        if mode == "hold":
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
            return 0
        if mode == "readers":
            await ws.send(json.dumps({"cmd": "GET_READER_LIST"}))
            await answer_until_final(ws, lambda message: message.get("msg") == "READER_LIST")
            return 0
        if mode == "auth-each":
            return await answer_each(ws)
        if mode == "change-pin":
            await ws.send(json.dumps({"cmd": "RUN_CHANGE_PIN"}))
            await answer_until_final(ws, change_pin_final)
            if not tctoken_url:
                return 0
            mode = "run-auth"
        if mode == "run-auth":
            await ws.send(json.dumps({"cmd": "RUN_AUTH", "tcTokenURL": tctoken_url}))
        await answer_until_final(ws, auth_final, list_at_pin=mode == "auth-list")
        return 0


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)))
    except (asyncio.TimeoutError, websockets.ConnectionClosed) as error:
        emit({"error": type(error).__name__})
        sys.exit(1)
