#!/usr/bin/env python3.13
"""Records what PersoSim's remote IFD server says, as fixtures for eid's IFD client.

Usage: PERSOSIM_DIR=/path/to/build persosim_record.py OUTDIR [BASE_PORT]

PERSOSIM_DIR is a build of the headless PersoSim kit (its run-server.sh, with an Announcer that
takes ANNOUNCE_TO=host:port). Python 3.13 or newer: TLS-PSK (pairing) needs
SSLContext.set_psk_client_callback. This is a recording client for tests only: eid's own client
uses OpenSSL and SwiftNIO's WebSocket. Each case starts a fresh server on loopback. Writes one
JSON file per message kind into OUTDIR, each with a "source" field (PersoSim commits, how, when).
"""

import base64
import datetime
import hashlib
import json
import os
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import time

PIN = "123456"
WRONG_PIN = "111111"
NEW_PIN = "654321"
PAIRING_CODE = "1234"
TIMEOUT = 20


def persosim_commits(persosim_dir):
    path = os.path.join(persosim_dir, "upstream", "COMMITS")
    repos = {}
    with open(path, encoding="ascii") as f:
        for line in f:
            name, commit, _ = line.split(" ", 2)
            repos[name.replace("+", "/")] = commit
    return repos


class Server:
    """A fresh headless PersoSim server on loopback; its stdin is the phone's PIN pad."""

    def __init__(self, persosim_dir, workdir, announce_port, pairing_code=None, trust=None, pin_pad=True):
        self.log_path = os.path.join(workdir, "server-%d.log" % announce_port)
        self.log = open(self.log_path, "wb")
        paired = os.path.join(workdir, "paired-%d" % announce_port)
        args = [os.path.join(persosim_dir, "run-server.sh"), "--paired-dir", paired, "--log", "INFO"]
        if pairing_code:
            args += ["--pairing-code", pairing_code]
        if trust:
            args += ["--trust", trust]
        if not pin_pad:
            args += ["--pin-pad", "no"]
        env = dict(os.environ, REMOTE_IFD_BIND="127.0.0.1", NO_BROADCAST="1", ANNOUNCE_TO="127.0.0.1:%d" % announce_port)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", announce_port))
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=self.log, stderr=subprocess.STDOUT, env=env, start_new_session=True)

    def announcement(self, pairing):
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            self.udp.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                data, _ = self.udp.recvfrom(65535)
            except socket.timeout:
                break
            msg = json.loads(data)
            if msg.get("pairing") == pairing:
                return msg
        raise SystemExit("no announcement (pairing=%s) within %ds: see %s" % (pairing, TIMEOUT, self.log_path))

    def type_on_pinpad(self, *lines):
        for line in lines:
            self.proc.stdin.write((line + "\n").encode("ascii"))
        self.proc.stdin.flush()

    def stop(self):
        try:
            os.killpg(self.proc.pid, 15)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=10)
        self.udp.close()
        self.log.close()


class Connection:
    """TLS 1.2 + WebSocket (RFC 6455) client frames, for recording only."""

    def __init__(self, port, cert, key, pairing_code=None):
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        ctx.minimum_version = ctx.maximum_version = ssl.TLSVersion.TLSv1_2
        ctx.load_cert_chain(cert, key)
        if pairing_code is not None:
            ctx.set_ciphers("RSA-PSK-AES256-GCM-SHA384:RSA-PSK-AES128-GCM-SHA256:RSA-PSK-AES256-CBC-SHA")
            ctx.set_psk_client_callback(lambda hint: ("", pairing_code.encode("ascii")))
        else:
            ctx.set_ciphers("ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-GCM-SHA256")
        raw = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.sock = ctx.wrap_socket(raw)
        self.tls = {"version": self.sock.version(), "cipher": self.sock.cipher()[0]}
        self.server_cert_sha256 = hashlib.sha256(self.sock.getpeercert(binary_form=True)).hexdigest()
        key_b64 = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(("GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (port, key_b64)).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise SystemExit("closed during the WebSocket handshake")
            head += chunk
        self.upgrade_response = head.decode().strip().split("\r\n")
        self.pushed = []

    def send_text(self, text):
        data = text.encode()
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            header = bytes([0x81, 0x80 | n])
        elif n < 65536:
            header = bytes([0x81, 0x80 | 126]) + struct.pack(">H", n)
        else:
            header = bytes([0x81, 0x80 | 127]) + struct.pack(">Q", n)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n):
        out = b""
        while len(out) < n:
            chunk = self.sock.recv(n - len(out))
            if not chunk:
                raise EOFError
            out += chunk
        return out

    def receive(self, timeout=TIMEOUT):
        """The next text message as JSON; ('close', payload) for a close frame; None on timeout."""
        self.sock.settimeout(timeout)
        try:
            while True:
                h = self._read(2)
                op, n = h[0] & 0x0F, h[1] & 0x7F
                if n == 126:
                    n = struct.unpack(">H", self._read(2))[0]
                elif n == 127:
                    n = struct.unpack(">Q", self._read(8))[0]
                mask = self._read(4) if h[1] & 0x80 else None
                payload = self._read(n)
                if mask:
                    payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
                if op == 1:
                    return json.loads(payload)
                if op == 8:
                    return ("close", payload.hex())
        except (socket.timeout, TimeoutError):
            return None
        except EOFError:
            return ("eof", "")

    def request(self, message, expect, timeout=TIMEOUT):
        """Sends message (a dict, or raw text) and returns the first answer named expect (or an IFDError)."""
        self.send_text(message if isinstance(message, str) else json.dumps(message))
        while True:
            answer = self.receive(timeout)
            if isinstance(answer, dict) and answer.get("msg") == "IFDStatus" and expect != "IFDStatus":
                self.pushed.append(answer)
                continue
            return answer

    def close(self):
        try:
            self.sock.sendall(bytes([0x88, 0x82]) + b"\0\0\0\0" + b"\x03\xe8")
            self.receive(3)
        except OSError:
            pass
        self.sock.close()


# PC/SC Part 10 PIN_MODIFY structure as AusweisApp's IfdCard sends it (PinModify::createCcid, 60 s):
# timeouts, format 82 (ASCII bytes), no PIN in the APDU, 6..6 digits, confirm, two messages, German,
# then ulDataLength 4 and RESET RETRY COUNTER 002C0203.
PIN_MODIFY_STRUCTURE = "3C3C82000000000606010202070400010200000004000000002C0203"


def establish_pace_input(pin=None):
    """PC/SC Part 10 AMD1 EstablishPACEChannel input: PasswordID 03 (PIN), no CHAT, the PIN if any, no certificate description."""
    pin_field = ("%02X" % len(pin) + pin.encode("ascii").hex().upper()) if pin else "00"
    return "03" + "00" + pin_field + "0000"


class Recorder:
    def __init__(self, persosim_dir, outdir, base_port):
        self.dir = persosim_dir
        self.out = outdir
        self.port = base_port
        self.work = tempfile.mkdtemp(prefix="persosim-record-")
        self.cert = os.path.join(self.work, "client.pem")
        self.key = os.path.join(self.work, "client.key")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:3072", "-nodes", "-keyout", self.key, "-out", self.cert,
                        "-days", "3650", "-subj", "/CN=eid-persosim-record"], check=True, capture_output=True)
        commits = persosim_commits(persosim_dir)
        self.source = {
            "peer": "PersoSim remote IFD server, headless kit (shared/peers/persosim) with ANNOUNCE_TO=host:port and --pin-pad yes|no",
            "commits": commits,
            "recorded": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
            "how": "Tests/Support/persosim_record.py: Python 3.13 ssl (TLS 1.2, PSK in pairing) + WebSocket text frames, fresh server per case on 127.0.0.1",
        }

    def next_port(self):
        self.port += 1
        return self.port

    def save(self, name, **fields):
        doc = {"source": dict(self.source)}
        doc.update(fields)
        path = os.path.join(self.out, name + ".json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2, sort_keys=False)
            f.write("\n")
        print("wrote", path)

    def server(self, pairing_code=None, trust=None, pin_pad=True):
        return Server(self.dir, self.work, self.next_port(), pairing_code, trust, pin_pad)

    def connect_normal(self, server, context=True):
        ann = server.announcement(False)
        conn = Connection(ann["port"], self.cert, self.key)
        if context:
            conn.context = conn.request({"msg": "IFDEstablishContext", "Protocol": "IFDInterface_WebSocket_v2", "UDName": "eid recorder"}, "IFDEstablishContextResponse")
        return ann, conn

    def session(self, conn):
        handle = conn.context["ContextHandle"]
        status = conn.request({"msg": "IFDGetStatus", "ContextHandle": handle, "SlotName": ""}, "IFDStatus")
        connect = conn.request({"msg": "IFDConnect", "ContextHandle": handle, "SlotName": status["SlotName"], "exclusive": True}, "IFDConnectResponse")
        return handle, status, connect

    def pairing(self):
        srv = self.server(PAIRING_CODE)
        try:
            pairing_announcement = srv.announcement(True)
            conn = Connection(pairing_announcement["port"], self.cert, self.key, PAIRING_CODE)
            request = {"msg": "IFDEstablishContext", "Protocol": "IFDInterface_WebSocket_v2", "UDName": "eid recorder"}
            response = conn.request(request, "IFDEstablishContextResponse")
            after = conn.receive(2)
            conn.close()
            normal_announcement = srv.announcement(False)
            self.save("announcement", note="UDP datagrams sent once a second to ANNOUNCE_TO; no 'addresses' field: the client uses the sender's address. IFDID is the lowercase hex SHA-256 of the server certificate.",
                      pairing=pairing_announcement, normal=normal_announcement,
                      server_cert_sha256=conn.server_cert_sha256)
            self.save("pairing", note="Pairing connection: TLS-PSK with the ASCII bytes of the code, identity empty, client certificate required; one connection, then the server switches to normal mode on a new port.",
                      tls=conn.tls, websocket_upgrade_response=conn.upgrade_response,
                      request=request, response=response, next_message_within_2s=after)
            # the pairing server is gone: a second pairing attempt reaches no one (new port in normal mode)
            ann, normal = self.connect_normal(srv)
            self.save("IFDEstablishContextResponse", request={"msg": "IFDEstablishContext", "Protocol": "IFDInterface_WebSocket_v2", "UDName": "eid recorder"},
                      response=normal.context, tls=normal.tls)
            unsupported = normal.request({"msg": "IFDEstablishContext", "Protocol": "IFDInterface_WebSocket_v9", "UDName": "eid recorder"}, "IFDEstablishContextResponse")
            normal.close()
            self.save("IFDEstablishContextResponse-unsupported-protocol", request={"msg": "IFDEstablishContext", "Protocol": "IFDInterface_WebSocket_v9", "UDName": "eid recorder"},
                      response=unsupported)
        finally:
            srv.stop()

    def wrong_pairing_code(self):
        srv = self.server(PAIRING_CODE)
        try:
            ann = srv.announcement(True)
            try:
                Connection(ann["port"], self.cert, self.key, "9999")
                result = "handshake succeeded"
            except ssl.SSLError as e:
                result = "ssl.SSLError: %s" % e.reason
            except OSError as e:
                result = "%s: %s" % (type(e).__name__, e)
            time.sleep(1.5)
            try:
                after = srv.announcement(False)
            except SystemExit:
                after = None
            self.save("pairing-wrong-code", note="A wrong pairing code fails the TLS handshake; pairing mode ends all the same (the next announcement is normal mode).",
                      client_result=result, next_announcement=after)
        finally:
            srv.stop()

    def unpaired_certificate(self):
        srv = self.server()
        try:
            ann = srv.announcement(False)
            try:
                Connection(ann["port"], self.cert, self.key)
                result = "handshake succeeded"
            except ssl.SSLError as e:
                result = "ssl.SSLError: %s" % e.reason
            except OSError as e:
                result = "%s: %s" % (type(e).__name__, e)
            self.save("normal-unpaired-certificate", note="Normal mode with a client certificate the server has not paired.", client_result=result)
        finally:
            srv.stop()

    def normal_flow(self):
        srv = self.server(trust=self.cert)
        try:
            ann, conn = self.connect_normal(srv)
            handle, status, connect = self.session(conn)
            self.save("IFDStatus", request={"msg": "IFDGetStatus", "ContextHandle": handle, "SlotName": ""}, response=status,
                      pushed_before=conn.pushed)
            conn.pushed = []
            self.save("IFDConnectResponse", request={"msg": "IFDConnect", "ContextHandle": handle, "SlotName": status["SlotName"], "exclusive": True},
                      response=connect)
            slot = connect["SlotHandle"]
            transmit = {"msg": "IFDTransmit", "ContextHandle": handle, "SlotHandle": slot, "InputAPDU": "00A4020C02011C"}
            transmit_response = conn.request(transmit, "IFDTransmitResponse")
            read = {"msg": "IFDTransmit", "ContextHandle": handle, "SlotHandle": slot, "InputAPDU": "00B0000000"}
            read_response = conn.request(read, "IFDTransmitResponse")
            self.save("IFDTransmitResponse", note="SELECT EF.CardAccess (011C), then READ BINARY",
                      exchanges=[{"request": transmit, "response": transmit_response}, {"request": read, "response": read_response}])
            pace = {"msg": "IFDEstablishPACEChannel", "ContextHandle": handle, "SlotHandle": slot, "InputData": establish_pace_input(PIN)}
            pace_response = conn.request(pace, "IFDEstablishPACEChannelResponse")
            self.save("IFDEstablishPACEChannelResponse", note="PIN 123456 in InputData (PC/SC Part 10 AMD1 EstablishPACEChannel input)",
                      request=pace, response=pace_response)
            # ModifyPIN: PersoSim ignores InputData but for its length, and asks its PIN pad for the new PIN twice
            modify_input = PIN_MODIFY_STRUCTURE
            srv.type_on_pinpad(NEW_PIN, NEW_PIN)
            modify = {"msg": "IFDModifyPIN", "ContextHandle": handle, "SlotHandle": slot, "InputData": modify_input}
            modify_response = conn.request(modify, "IFDModifyPINResponse")
            self.save("IFDModifyPINResponse", note="After PACE with the PIN; InputData as AusweisApp sends it (PIN_MODIFY structure), which PersoSim ignores but for its length (>= 4 bytes); the new PIN typed twice on PersoSim's PIN pad (stdin)",
                      request=modify, response=modify_response)
            errors = []
            for bad in [{"msg": "IFDNoSuchMessage", "ContextHandle": handle},
                        {"msg": "IFDTransmit", "ContextHandle": handle, "SlotHandle": slot},
                        {"msg": "IFDTransmit", "ContextHandle": handle, "SlotHandle": slot, "InputAPDU": "zz"},
                        "this is not JSON",
                        {"msg": "IFDGetStatus", "ContextHandle": handle, "SlotName": "no such slot"},
                        {"msg": "IFDTransmit", "ContextHandle": "wrong", "SlotHandle": "wrong", "InputAPDU": "00A4000C023F00"}]:
                answer = conn.request(bad, "any", timeout=4)
                errors.append({"request": bad, "response": answer if answer is not None else "no answer within 4 s"})
            disconnect = {"msg": "IFDDisconnect", "ContextHandle": handle, "SlotHandle": slot}
            disconnect_response = conn.request(disconnect, "IFDDisconnectResponse")
            self.save("IFDError", note="Bad input in normal mode; 'no answer' means PersoSim's handler thread threw and sent nothing: the client's timeout must end the wait",
                      exchanges=errors)
            self.save("IFDDisconnectResponse", request=disconnect, response=disconnect_response, pushed=conn.pushed)
            # a second client while the first is connected: PersoSim serves one connection at a time
            try:
                raw = socket.create_connection(("127.0.0.1", ann["port"]), timeout=5)
                ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
                ctx.check_hostname = False
                ctx.verify_mode = ssl.CERT_NONE
                ctx.load_cert_chain(self.cert, self.key)
                ctx.wrap_socket(raw).close()
                second = "TLS handshake completed"
            except (socket.timeout, TimeoutError):
                second = "TCP connected (listen backlog), TLS handshake unanswered within 5 s"
            except OSError as e:
                second = "%s: %s" % (type(e).__name__, e)
            conn.close()
            self.save("second-client", note="A second client connects while the first one holds its connection; PersoSim accepts one connection at a time and announces nothing while a client is connected",
                      client_result=second)
            # a second connection on the same server: the simulated card keeps its state (new PIN)
            _, again = self.connect_normal(srv)
            handle2, _, connect2 = self.session(again)
            pace_new = {"msg": "IFDEstablishPACEChannel", "ContextHandle": handle2, "SlotHandle": connect2["SlotHandle"], "InputData": establish_pace_input(NEW_PIN)}
            new_pin_response = again.request(pace_new, "IFDEstablishPACEChannelResponse")
            again.close()
            self.save("IFDEstablishPACEChannelResponse-after-modify", note="PACE with the new PIN on a second connection to the same server", request=pace_new, response=new_pin_response)
        finally:
            srv.stop()

    def wrong_pin(self):
        srv = self.server(trust=self.cert)
        try:
            _, conn = self.connect_normal(srv)
            handle, _, connect = self.session(conn)
            pace = {"msg": "IFDEstablishPACEChannel", "ContextHandle": handle, "SlotHandle": connect["SlotHandle"], "InputData": establish_pace_input(WRONG_PIN)}
            first = conn.request(pace, "IFDEstablishPACEChannelResponse")
            conn.close()
            self.save("IFDEstablishPACEChannelResponse-wrong-pin", note="wrong PIN 111111, first try on a fresh card (retry counter 3 -> 2)", request=pace, response=first)
        finally:
            srv.stop()

    def basic_reader(self):
        srv = self.server(trust=self.cert, pin_pad=False)
        try:
            _, conn = self.connect_normal(srv)
            handle, status, connect = self.session(conn)
            pace = {"msg": "IFDEstablishPACEChannel", "ContextHandle": handle, "SlotHandle": connect["SlotHandle"], "InputData": establish_pace_input(PIN)}
            answer = conn.request(pace, "IFDEstablishPACEChannelResponse", timeout=4)
            conn.close()
            self.save("IFDStatus-basic", note="The kit's --pin-pad no (PersoSim without its PACE feature, as a phone with PIN pad mode off): PINPad false; IFDEstablishPACEChannel is then not answered at all",
                      response=status, establish_pace_channel={"request": pace, "response": answer if answer is not None else "no answer within 4 s"})
        finally:
            srv.stop()

    def pinpad_flow(self):
        srv = self.server(trust=self.cert)
        try:
            _, conn = self.connect_normal(srv)
            handle, _, connect = self.session(conn)
            slot = connect["SlotHandle"]
            srv.type_on_pinpad(PIN)
            pace = {"msg": "IFDEstablishPACEChannel", "ContextHandle": handle, "SlotHandle": slot, "InputData": establish_pace_input()}
            response = conn.request(pace, "IFDEstablishPACEChannelResponse")
            srv.type_on_pinpad("")
            cancelled = conn.request(pace, "IFDEstablishPACEChannelResponse")
            conn.close()
            self.save("IFDEstablishPACEChannelResponse-pinpad", note="No PIN in InputData: PersoSim asks its PIN pad (stdin), where 123456 was typed; then again, with an empty line typed (cancel)",
                      request=pace, response=response, cancelled=cancelled)
        finally:
            srv.stop()


def main():
    if len(sys.argv) < 2 or not os.environ.get("PERSOSIM_DIR"):
        raise SystemExit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    rec = Recorder(os.environ["PERSOSIM_DIR"], outdir, int(sys.argv[2]) if len(sys.argv) > 2 else 46550)
    for case in [rec.pairing, rec.wrong_pairing_code, rec.unpaired_certificate, rec.normal_flow, rec.wrong_pin, rec.basic_reader, rec.pinpad_flow]:
        print("case", case.__name__, flush=True)
        case()
    print("logs in", rec.work)


if __name__ == "__main__":
    main()
