#!/usr/bin/python3
"""A scripted IFD client (TR-03112-6, IFDInterface_WebSocket_v2) of the simulated phone, for
SimulatedPhoneTests/PhoneServerTests; written from the protocol, independent of eid's RemoteIFD:

    ifd_phone_client.py announcement          binds UDP 127.0.0.1:0, prints "PORT n", then the first
                                              datagram it receives (an announcement) as one line
    ifd_phone_client.py session PORT CERT KEY  TLS 1.2 with the client certificate CERT/KEY (the
                                              phone's certificate is printed, not verified: the test
                                              compares it with the IFDID), WebSocket at wss://127.0.0.1:PORT;
                                              IFDEstablishContext, IFDGetStatus, IFDConnect, IFDTransmit
                                              (READ BINARY of EF.CardAccess), a second client (its close
                                              code), IFDDisconnect
    ifd_phone_client.py refused PORT CERT KEY  whether the TLS handshake with CERT/KEY is refused

Prints one JSON object per line: each message the phone sends, then {"second": CODE} and
{"peer": SHA256_HEX}. Every wait is bounded (10 s); exits 1 on a timeout.
"""
import asyncio
import hashlib
import json
import socket
import ssl
import sys

import websockets

TIMEOUT = 10.0
READ_CARD_ACCESS = "00b09c0000"


def emit(value):
    print(json.dumps(value), flush=True)


def tls_context(cert, key):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.maximum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context


async def exchange(ws, message):
    await ws.send(json.dumps(message))
    reply = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    emit(reply)
    return reply


async def session(port, cert, key):
    url = f"wss://127.0.0.1:{port}"
    context = tls_context(cert, key)
    async with websockets.connect(url, ssl=context, open_timeout=TIMEOUT) as ws:
        der = ws.transport.get_extra_info("ssl_object").getpeercert(binary_form=True)
        established = await exchange(
            ws, {"msg": "IFDEstablishContext", "Protocol": "IFDInterface_WebSocket_v2", "UDName": "python"})
        handle = established["ContextHandle"]
        status = await exchange(ws, {"msg": "IFDGetStatus", "ContextHandle": handle, "SlotName": ""})
        connected = await exchange(
            ws, {"msg": "IFDConnect", "ContextHandle": handle, "SlotName": status["SlotName"], "exclusive": True})
        slot = connected["SlotHandle"]
        await exchange(
            ws, {"msg": "IFDTransmit", "ContextHandle": handle, "SlotHandle": slot, "InputAPDU": READ_CARD_ACCESS})
        async with websockets.connect(url, ssl=context, open_timeout=TIMEOUT) as second:
            try:
                await asyncio.wait_for(second.recv(), TIMEOUT)
                emit({"second": None})
            except websockets.ConnectionClosed as closed:
                emit({"second": closed.code})
        await exchange(ws, {"msg": "IFDDisconnect", "ContextHandle": handle, "SlotHandle": slot})
        emit({"peer": hashlib.sha256(der).hexdigest()})


async def refused(port, cert, key):
    try:
        async with websockets.connect(f"wss://127.0.0.1:{port}", ssl=tls_context(cert, key), open_timeout=TIMEOUT):
            emit({"refused": False})
    except (ssl.SSLError, ConnectionError, websockets.InvalidHandshake, EOFError) as error:
        emit({"refused": type(error).__name__})


def announcement():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.bind(("127.0.0.1", 0))
        udp.settimeout(TIMEOUT)
        print(f"PORT {udp.getsockname()[1]}", flush=True)
        data, _ = udp.recvfrom(65536)
        emit(json.loads(data))


def main():
    mode = sys.argv[1]
    try:
        if mode == "announcement":
            announcement()
        elif mode == "session":
            asyncio.run(session(int(sys.argv[2]), sys.argv[3], sys.argv[4]))
        elif mode == "refused":
            asyncio.run(refused(int(sys.argv[2]), sys.argv[3], sys.argv[4]))
    except (asyncio.TimeoutError, socket.timeout):
        emit({"timeout": True})
        sys.exit(1)


main()
