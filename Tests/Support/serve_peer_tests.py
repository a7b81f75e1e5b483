#!/usr/bin/python3
"""Peer tests of the local eID client on port 24727 (issue 17), the same cases against AusweisApp2
1.26.2 (the reference) and against `eid serve`:

    serve_peer_tests.py BIN_DIR [CLIENT [CASE...]]   (inside `Tests/Support/pcsc-env.sh run`)
    serve_peer_tests.py BIN_DIR CLIENT probe         the fault cases print what the client gives
                                                     (answers, Location, AUTH, /result), asserting nothing

CLIENT is `ausweisapp2` (default: headless, `--ui websocket --ui webservice --port 0`) or the
directory of an `eid` binary (`eid serve --port 0 --port-file FILE --test-pki`, see
`start_client`). BIN_DIR holds eid-sim (the card, in the test pcscd), eid-testserver (the
eService) and eid (which checks the card after a PIN change). CASE words keep only the cases whose
name contains one of them.

Cases, one line each: the HTTP answers of /eID-Client (Status, OPTIONS/HEAD, unknown paths, bad
Host, a tcTokenURL that 404s, is not https or is an openssl s_server TLS-1 refuses), the /eID-Kernel WebSocket (a second client: 429;
an Origin: 403), browser-style activations (`GET /eID-Client?tcTokenURL=…` read as raw HTTP, 102
then 303) with an idle SDK client that receives {"msg":"AUTH"} and answers, for success, CANCEL, a
second activation (409) and every eid-testserver fault of ausweisapp2_auth_peer_tests.py (its
expectations), then RUN_CHANGE_PIN with wrong PIN, CAN and PUK (ausweisapp2_peer_tests.py's
cases). Where AusweisApp2 1.26.2 differs from what eid must do, its case asserts what
AusweisApp2 does and says "expected difference". What AusweisApp2 answered: SERVE-PEER.md.
"""
import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.parse
from collections import namedtuple

import websockets

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ausweisapp2_auth_peer_tests as auth  # noqa: E402
import ausweisapp2_peer_tests as pin  # noqa: E402
from ausweisapp2 import (NO_PREVERIFICATION, AusweisApp2, PeerError, SDKClient, SoftwareCard,  # noqa: E402
                         run_cases, run_main, strip, terminate)
from eid_serve import EidServe  # noqa: E402
from live_comparison import differences, field_differences, sdk_view  # noqa: E402

CaseFailed = auth.CaseFailed
AA2 = "ausweisapp2"
CORS = {"access-control-allow-origin": "*"}
NO_CACHE = {"connection": "close", "cache-control": "no-cache, no-store", "pragma": "no-cache"}
VERSION_KEYS = ("Name", "Implementation-Title", "Implementation-Vendor", "Implementation-Version",
                "Specification-Title", "Specification-Vendor", "Specification-Version")
# Every HTTP answer `exchange` read, in the order the exchanges ended (LiveServe clears it before each side).
RECORDED = []
# `at`: the monotonic time the bytes that completed the final answer arrived (None on the others).
Answer = namedtuple("Answer", "status reason headers body at", defaults=(None,))
# A browser-style activation (`activate`): when its request was sent, the HTTP answers (interim
# ones first), the final SDK AUTH and the questions the SDK client answered.
Activation = namedtuple("Activation", "sent answers final asked")


def start_client(client):
    """The client under test, listening on a free port (`.port`, `.url` of its SDK WebSocket)."""
    if client != AA2 and not os.access(os.path.join(client, "eid"), os.X_OK):
        raise PeerError(f"no eid in {client}: CLIENT is ausweisapp2 or the directory of an eid binary")
    if client == AA2:
        return AusweisApp2(settings=NO_PREVERIFICATION, webservice=True)
    return EidServe(client)


def request(port, path, method="GET", host=None, headers=()):
    """An HTTP/1.1 request as a browser sends it (keep-alive); `host` replaces the Host header."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def upgrade(port, headers=()):
    return request(port, "/eID-Kernel", headers=("Upgrade: websocket", "Connection: Upgrade",
                                                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
                                                  "Sec-WebSocket-Version: 13", *headers))


def dechunk(data):
    """(body, what follows) of a chunked body at the start of `data`, or None while incomplete."""
    body = b""
    while (line_end := data.find(b"\r\n")) >= 0:
        size = int(data[:line_end].split(b";")[0], 16)
        data = data[line_end + 2:]
        if size == 0:
            if data.startswith(b"\r\n"):
                return body, data[2:]
            trailers_end = data.find(b"\r\n\r\n")
            return (body, data[trailers_end + 4:]) if trailers_end >= 0 else None
        if len(data) < size + 2:
            return None
        body, data = body + data[:size], data[size + 2:]
    return None


def parse(data, head_only):
    """The answers in `data` so far, and whether the last is final (not 1xx; 101 is final). Bodies
    by Content-Length or chunked; none after HEAD (`head_only`), 1xx, 204 and 304."""
    answers = []
    while b"\r\n\r\n" in data:
        head, data = data.split(b"\r\n\r\n", 1)
        status_line, *lines = head.decode("latin-1").split("\r\n")
        _, status, reason = (status_line.split(" ", 2) + [""])[:3]
        status, headers = int(status), {}
        for line in lines:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if head_only or status < 200 or status in (204, 304):
            body = b""
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            if (complete := dechunk(data)) is None:
                return answers, False
            body, data = complete
        else:
            length = int(headers.get("content-length", "0"))
            if len(data) < length:
                return answers, False
            body, data = data[:length], data[length:]
        answers.append(Answer(status, reason, headers, body.decode(errors="replace")))
        if status == 101 or status >= 200:
            return answers, True
    return answers, False


async def exchange(data, port, timeout=10.0, head_only=False):
    """Sends raw `data` to 127.0.0.1:`port` and reads the answers up to the final one (its `at`
    set); raises PeerError when the client closes the connection before it or none is final within
    `timeout` s."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    received, deadline, arrived = b"", time.monotonic() + timeout, None
    try:
        writer.write(data)
        while True:
            answers, final = parse(received, head_only)
            if final:
                answers[-1] = answers[-1]._replace(at=arrived)
                RECORDED.extend(answers)
                return answers
            left = deadline - time.monotonic()
            if left <= 0:
                raise asyncio.TimeoutError
            chunk = await asyncio.wait_for(reader.read(65536), left)
            if not chunk:
                got = ", ".join(f"{a.status} {a.reason}" for a in answers) or "no answer"
                raise PeerError(f"the client closed the connection after {got}")
            received, arrived = received + chunk, time.monotonic()
    except asyncio.TimeoutError:
        raise PeerError(f"no final answer within {timeout:.0f} s") from None
    finally:
        writer.close()


def expect(answer, status, content_type=None, headers=None):
    """Raises CaseFailed unless `answer` has `status`, Server and Date, the content type and `headers`."""
    if answer.status != status:
        raise CaseFailed(f"answer {answer.status} {answer.reason}, expected {status}: {answer.body[:200]!r}")
    missing = [name for name in ("server", "date") if name not in answer.headers]
    wrong = {name: answer.headers.get(name) for name, value in (headers or {}).items()
             if answer.headers.get(name) != value}
    if content_type and not answer.headers.get("content-type", "").startswith(content_type):
        wrong["content-type"] = answer.headers.get("content-type")
    if missing or wrong:
        raise CaseFailed(f"{status}: headers {wrong} (wanted {headers}, {content_type}), missing {missing}")
    return answer


class Refused(PeerError):
    """The browser got its final answer (`answer`: 409, an error page) before the SDK client got AUTH."""

    def __init__(self, answer):
        super().__init__(f"the browser got {answer.status} {answer.reason} before the SDK client got AUTH")
        self.answer = answer


async def activate(port, client, tctoken_url, answer=True, timeout=auth.CASE_TIMEOUT, cancel_after_pin=False):
    """A browser's GET /eID-Client?tcTokenURL=… to the client on `port`, read as raw HTTP; with
    `answer`, the idle SDK `client` must first receive {"msg":"AUTH"} (Refused when the browser's
    final answer comes first), then answers the workflow (`auth.authenticate`: ACCEPT, the PIN).
    Returns the Activation. bench.py times it."""
    path = "/eID-Client?tcTokenURL=" + urllib.parse.quote(tctoken_url, safe="")
    sent = time.monotonic()
    browser = asyncio.create_task(exchange(request(port, path), port, timeout))
    final, asked = None, ()
    if answer:
        first = asyncio.create_task(client.expect("AUTH"))
        try:
            await asyncio.wait({first, browser}, return_when=asyncio.FIRST_COMPLETED)
            if not first.done():
                raise Refused(browser.result()[-1])
            started = first.result()
            if set(strip(started)) != {"msg"}:
                raise PeerError(f"the SDK client got {strip(started)}, expected {{'msg': 'AUTH'}} first")
            final, asked = await auth.authenticate(client, None, cancel_after_pin)
        except BaseException:
            first.cancel()
            browser.cancel()
            raise
    return Activation(sent, await browser, final, asked)


async def connect_when_free(url, timeout=30.0):
    """An SDK connection to `url`, tried again (every 50 ms, at most `timeout` seconds) until the
    client under test has seen the previous connection go and takes a new one."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return await SDKClient.connect(url)
        except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)


async def heard(client, name, since, timeout=30.0):
    """Waits (at most `timeout` seconds) until `client` has received a `name` message after `since`
    (time.monotonic())."""
    deadline = time.monotonic() + timeout
    while client.last_received.get(name, 0) < since:
        if time.monotonic() > deadline:
            raise CaseFailed(f"no {name} within {timeout:.0f} s")
        await asyncio.sleep(0.02)


def says_why(answer):
    """Raises CaseFailed unless the HTML error page `answer` says something in words (TR-03124-2
    EID_CLIENT_D_16: a human-readable error description in the body); what it must say, where a case
    knows: ERROR_PAGES."""
    words = page_words(answer)
    if len(words) < 20:
        raise CaseFailed(f"the error page says nothing in words: {answer.body[:300]!r}")
    return answer


def page_words(answer):
    """The words of the HTML page `answer` (its markup gone, entities as sent), one space between each."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", answer.body)).strip()


# What eid serve's error page must say, beyond saying something (`says_why`), for the fault cases whose
# browser gets a page, by fault: the words eid writes (HTML-escaped), `{origin}` the eid-testserver's
# origin with http for https. TR-03124-2 EID_CLIENT_D_16_d: a redirect to http on the way to the TcToken
# names that address and why it was not followed.
ERROR_PAGES = {
    "redirect_http": ("The authentication failed: the TcToken could not be fetched: {http_origin}/tctoken",
                      "is not an https address; only https is allowed."),
}


def result_location(location, origin):
    """(address kind of ausweisapp2_auth_peer_tests.url_kind, ResultMajor, ResultMinor) of a 303's Location."""
    address, _, query = location.partition("?")
    pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
    result = dict(pairs)
    rest = "&".join(f"{k}={v}" for k, v in pairs if k not in ("ResultMajor", "ResultMinor"))
    return auth.url_kind(address + ("?" + rest if rest else ""), origin), result.get("ResultMajor"), \
        result.get("ResultMinor")


# What eid gives where AusweisApp2 as measured here gives another result, not by choice but by its
# settings: AusweisApp2 runs with pre-verification off (the test CVCA is none of its built-in
# ones), so only the card finds the expired AT certificate (noPermission, after the PIN). With
# pre-verification on, AusweisApp's default and how eid always runs, StatePreVerification refuses
# it before the card (Workflow_Preverification_Error -> il/signature#invalidCertificatePath;
# AusweisApp 2.5 source), as eid does (EndToEndTests AuthFaultsTests).
PRE_VERIFIED = {fault: auth.refused_before_the_card(fault, "il/signature#invalidCertificatePath")
                for fault in ("expired_at", "dv_forged")}

def url_minor(case, eid=False):
    """The ResultMinor a client appends to the address for a fault case (TR-03124-1, as AusweisApp2
    1.26.2 gives it): communicationError at the CommunicationErrorAddress; trustedChannelEstablishmentFailed
    and cancellationByUser as the SDK gives them; clientError where the client could not read the
    server's PAOS messages (no StartPAOSResponse ended the session) or, with transmit_stop, the
    error is the client's own status (the card's refused read, Card_Unexpected_Transmit_Status),
    not the server's, which is ok; else serverError."""
    minor = (case["minor"] or "").removeprefix(auth.MINOR)
    if case["major"] == "ok":
        return None
    if case["url"] == auth.COMMUNICATION_ERROR:
        return "communicationError"
    if minor in ("dp#trustedChannelEstablishmentFailed", "sal#cancellationByUser"):
        return minor.split("#")[1]
    unread = ("broken_xml", "wrong_order", "transmit_stop", "eac1_no_certificate", "eac1_two_descriptions")
    if case["fault"] in REPORTED_TO_THE_SERVER:
        return "serverError" if eid else "clientError"
    return "clientError" if case["fault"] in unread else "serverError"


# An EAC2 message the client cannot read (TR-03124-2 B_14, B_15), while the server waits for its answer:
# AusweisApp2 1.26.2 ends without answering (clientError, measured); eid answers with an error
# DIDAuthenticateResponse (al/common#internalError), as it does for every failure while the server waits,
# so that the server learns why, and the server's StartPAOSResponse error makes it serverError. Same AUTH.
REPORTED_TO_THE_SERVER = ("eac2_no_ephemeral_key", "eac2_two_ephemeral_keys")


class ServeRunner(auth.Runner):
    """The HTTP and WebSocket cases (methods with a docstring name) and the fault cases of
    ausweisapp2_auth_peer_tests, one client under test, one eid-sim card and one eid-testserver."""

    def __init__(self, bin_dir, client, probe=False, live=False):
        super().__init__(bin_dir, probe)
        self.client_kind = client
        self.aa2 = client == AA2
        self.side = "AusweisApp2" if self.aa2 else "eid"
        self.live = live
        self.seen = None

    async def start_app(self):
        self.app = start_client(self.client_kind)
        self.client = await SDKClient.connect(self.app.url)
        await self.client.wait_for_reader(self.reader, has_card=True)

    async def get(self, path, **options):
        return (await exchange(request(self.app.port, path, **options), self.app.port))[-1]

    async def activation(self, tctoken_url, answer=True, timeout=auth.CASE_TIMEOUT, cancel_after_pin=False):
        """`activate` with the client under test: the HTTP answers (the interim ones first) and the
        final SDK AUTH (or None); the questions asked in `self.asked`."""
        done = await activate(self.app.port, self.client, tctoken_url, answer, timeout, cancel_after_pin)
        if answer:
            self.asked = done.asked
        return done.answers, done.final

    async def drain(self, seconds=auth.CASE_TIMEOUT):
        """Takes SDK messages until a final AUTH or `seconds` without one; returns that AUTH or None.
        After an activation that started a workflow the final AUTH comes, and ends the wait."""
        try:
            while True:
                message = await self.client.expect_any(seconds)
                if message.get("msg") == "AUTH" and "result" in message:
                    return message
        except PeerError:
            return None

    def private_network(self, answer):
        """Access-Control-Allow-Private-Network: true (AusweisApp 2.5; 1.26.2 sends none)."""
        got = answer.headers.get("access-control-allow-private-network")
        if self.aa2 and got is None:
            return "expected difference: no Access-Control-Allow-Private-Network (2.5 sends it)"
        if got != "true":
            raise CaseFailed(f"Access-Control-Allow-Private-Network {got!r}, expected 'true'")
        return "expected difference: Access-Control-Allow-Private-Network sent, as 2.5 does (1.26.2: none)"

    async def status_text(self):
        """EID_CLIENT_A1_05: http: GET /eID-Client?Status -> 200 text/plain, Key: Value lines, CORS"""
        answer = expect(await self.get("/eID-Client?Status"), 200, "text/plain", CORS)
        lines = answer.body.strip().splitlines()
        if set(VERSION_KEYS) - {line.partition(":")[0] for line in lines} or any(":" not in line for line in lines):
            raise CaseFailed(f"Status body is not the Key: Value lines of {VERSION_KEYS}: {answer.body[:300]!r}")
        return self.private_network(answer)

    async def status_json(self):
        """http: GET /eID-Client?Status=json -> 200 application/json, the version keys, CORS"""
        answer = expect(await self.get("/eID-Client?Status=json"), 200, "application/json", CORS)
        missing = set(VERSION_KEYS) - set(json.loads(answer.body))
        if missing:
            raise CaseFailed(f"Status=json lacks {sorted(missing)}: {answer.body[:300]!r}")
        return self.private_network(answer)

    async def status_upper_case(self):
        """http: GET /eID-Client?STATUS (query keys case-insensitive) -> 200 text/plain"""
        expect(await self.get("/eID-Client?STATUS"), 200, "text/plain", CORS)

    async def preflight(self):
        """http: OPTIONS and HEAD /eID-Client -> 204 with the CORS headers"""
        for method in ("OPTIONS", "HEAD"):
            answer = await exchange(request(self.app.port, "/eID-Client", method), self.app.port, head_only=True)
            if self.aa2:
                expect(answer[-1], 404, "text/html")
            else:
                self.private_network(expect(answer[-1], 204, headers=CORS))
        if self.aa2:
            return "expected difference: 404 to both (2.5: 204)"
        return "expected difference: 204 to both, as 2.5 answers (1.26.2: 404)"

    async def unknown_path(self):
        """http: GET /nothing%3Cb%3E -> 404 HTML, the path not reflected as markup"""
        answer = expect(await self.get("/nothing%3Cb%3E"), 404, "text/html")
        if "<b>" in answer.body:
            raise CaseFailed("the 404 page reflects the request path unescaped")

    async def no_query(self):
        """EID_CLIENT_A1_03, EID_CLIENT_D_16_a: http: GET /eID-Client without a query -> 404 HTML saying why"""
        says_why(expect(await self.get("/eID-Client"), 404, "text/html"))

    async def kernel_without_upgrade(self):
        """http: GET /eID-Kernel without Upgrade -> 404 HTML"""
        expect(await self.get("/eID-Kernel"), 404, "text/html")

    async def bad_host(self):
        """http: bad Host header (evil.example, DNS rebinding) -> refused (400, 403 or 421)"""
        answer = await self.get("/eID-Client?Status", host=f"evil.example:{self.app.port}")
        if self.aa2:
            expect(answer, 200, "text/plain")
            return "expected difference: AusweisApp2 answers 200 with its Status"
        if answer.status not in (400, 403, 421):
            raise CaseFailed(f"bad Host answered {answer.status} {answer.reason}, expected 400, 403 or 421")
        return f"expected difference: refused with {answer.status} (DNS rebinding; AusweisApp2 1.26.2: 200)"

    async def tctoken_not_found(self):
        """EID_CLIENT_A2_11, EID_CLIENT_D_16_e: activation: a tcTokenURL that 404s -> 102, then 404 HTML saying why, no-cache"""
        answers, _ = await self.activation(self.server.origin + "/nothing", answer=False)
        await self.drain()
        expect(answers[0], 102)
        says_why(expect(answers[-1], 404, "text/html", NO_CACHE))

    async def tls1_refused(self, options, evidence, words):
        """An activation whose tcTokenURL is an `openssl s_server` that TLS-1 must refuse (`options`, with
        tls-test-pki.sh's certificates; as ServeTLSRefusalTests): 102, then 404 HTML saying why, no-cache;
        s_server saw the ClientHello and shows one of `evidence`; eid's page names `words` (HTML-escaped)."""
        directory = self.tls_pki_dir()
        log = os.path.join(directory, "s_server-tls1.log")
        with open(log, "w") as out:
            s_server = subprocess.Popen(["openssl", "s_server", "-accept", "127.0.0.1:0", "-state", "-www", *options],
                                        cwd=directory, stdin=subprocess.PIPE, stdout=out, stderr=out)
        try:
            port = None
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                if "ACCEPT" in open(log).read():
                    port = self.listening_port(s_server.pid)
                    if port:
                        break
                time.sleep(0.05)
            if not port:
                raise CaseFailed(f"s_server did not start: {open(log).read()}")
            answers, _ = await self.activation(f"https://127.0.0.1:{port}/tctoken", answer=False)
            await self.drain()
            # A client that refuses after the handshake (the DH group's size is known only then) closes
            # with an alert that s_server may log after the page came: wait for it, at most 30 s.
            deadline = time.monotonic() + 30
            while True:
                seen = open(log).read()
                if any(word in seen for word in evidence) or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.05)
        finally:
            terminate(s_server)
            s_server.stdin.close()
        if "before SSL initialization" not in seen and "read client hello" not in seen:
            raise CaseFailed(f"s_server saw no ClientHello: {seen}")
        if not any(word in seen for word in evidence):
            raise CaseFailed(f"s_server shows none of {evidence}: {seen}")
        expect(answers[0], 102)
        page = says_why(expect(answers[-1], 404, "text/html", NO_CACHE))
        body = re.sub(r"<style.*?</style>", " ", page.body, flags=re.DOTALL)
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", body)).strip()
        if self.aa2:
            return "AusweisApp2's page says: " + text[text.find("Error message"):][:140]
        if words not in page.body or "'" in text:
            raise CaseFailed(f"the page does not name {words!r} (escaped): {page.body}")
        return None

    async def tls1_version(self):
        """EID_CLIENT_D_16_h: activation: a tcTokenURL of TLS 1.1 only (E_01) -> 102, then 404 HTML saying why"""
        return await self.tls1_refused(["-cert", "rsa3072.pem", "-key", "rsa3072.key", "-tls1_1", "-cipher",
                                        "ALL:@SECLEVEL=0"],
                                       # AusweisApp2 offers no suite of TLS 1.1: s_server finds no shared cipher.
                                       ["wrong version number", "protocol version", "unsupported protocol",
                                        "no protocols available", "no shared cipher"], "alert protocol version")

    async def tls1_suites(self):
        """EID_CLIENT_D_16_i: activation: a tcTokenURL without forward secrecy (E_03) -> 102, then 404 HTML saying why"""
        return await self.tls1_refused(["-cert", "rsa3072.pem", "-key", "rsa3072.key", "-tls1_2", "-cipher",
                                        "AES256-GCM-SHA384"], ["no shared cipher"], "the TLS handshake failed (")

    async def tls1_key(self):
        """EID_CLIENT_D_16_j: activation: a tcTokenURL with an RSA key of 2048 bits (E_04) -> 102, then 404 HTML saying why"""
        return await self.tls1_refused(["-cert", "rsa2048.pem", "-key", "rsa2048.key"], ["alert", "SSL_accept:error"],
                                       "the server&#39;s RSA key has 2048 bits")

    async def tls1_dh(self):
        """EID_CLIENT_D_16_k: activation: a tcTokenURL with a DH group of 2048 bits (E_08) -> 102, then 404 HTML saying why"""
        return await self.tls1_refused(["-cert", "rsa3072.pem", "-key", "rsa3072.key", "-tls1_2", "-cipher",
                                        "DHE-RSA-AES256-GCM-SHA384", "-dhparam", "ffdhe2048.pem"],
                                       ["alert", "SSL_accept:error"], "the server&#39;s ephemeral DH key has 2048 bits")

    async def tctoken_not_https(self):
        """EID_CLIENT_A1_04, EID_CLIENT_D_16_b: activation: a tcTokenURL that is not https -> 400 HTML saying why, no-cache"""
        answers, _ = await self.activation(self.server.origin.replace("https:", "http:") + "/tctoken", answer=False)
        # Refused before any workflow: eid sends no final AUTH. A quiet period takes one a client under
        # test might still send, so that it cannot reach the next case; nothing is asserted on it.
        await self.drain(seconds=3.0)
        says_why(expect(answers[-1], 400, "text/html", NO_CACHE))
        if [answer.status for answer in answers] != ([102, 400] if self.aa2 else [400]):
            raise CaseFailed(f"answers {[answer.status for answer in answers]}, expected "
                             f"{[102, 400] if self.aa2 else [400]} (DIFFERENT_ANSWERS)")

    async def show_ui(self, query):
        """GET /eID-Client?`query` (ShowUI, TR-03124-2 A1_06 to A1_09, profile ACTION_SHOWUI, not applicable
        to eid): eid has no graphical user interface to open, so there is nothing at that address: 404
        HTML saying so, as for any query without Status or tcTokenURL, and the connected SDK client is
        told nothing (no workflow starts). AusweisApp2 1.26.2 answers 200 (measured; it shows its window)."""
        answer = await self.get("/eID-Client?" + query)
        if self.aa2:
            expect(answer, 200)
            return "expected difference: AusweisApp2 answers 200 and shows its window (eid has none: 404)"
        says_why(expect(answer, 404, "text/html"))
        if "There is nothing at this address." not in page_words(answer):
            raise CaseFailed(f"the 404 page does not say there is nothing here: {page_words(answer)[:300]!r}")
        # GET_INFO answered with INFO and nothing before it (no AUTH, no CHANGE_PIN): no workflow started.
        await self.client.send("GET_INFO")
        await self.client.expect("INFO", timeout=10, ignore=("READER", "STATUS"))
        return None

    async def show_ui_pin_management(self):
        """EID_CLIENT_A1_06: n.a. (no user interface to open): http: GET /eID-Client?ShowUI=PINManagement -> 404 HTML, no workflow"""
        return await self.show_ui("ShowUI=PINManagement")

    async def show_ui_settings(self):
        """EID_CLIENT_A1_07: n.a. (no user interface to open): http: GET /eID-Client?ShowUI=Settings -> 404 HTML, no workflow"""
        return await self.show_ui("ShowUI=Settings")

    async def show_ui_no_module(self):
        """EID_CLIENT_A1_08: n.a. (no user interface to open): http: GET /eID-Client?ShowUI -> 404 HTML, no workflow"""
        return await self.show_ui("ShowUI")

    async def show_ui_unknown_module(self):
        """EID_CLIENT_A1_09: n.a. (no user interface to open): http: GET /eID-Client?ShowUI=NoSuchModule -> 404 HTML, no workflow"""
        return await self.show_ui("ShowUI=NoSuchModule")

    async def second_websocket(self):
        """websocket: a second client while one is connected -> 429"""
        answer = expect((await exchange(upgrade(self.app.port), self.app.port, head_only=True))[-1], 429)
        if (answer.headers.get("content-type", "").startswith("text/html")) == self.aa2:
            raise CaseFailed(f"429 with Content-Type {answer.headers.get('content-type')!r} (DIFFERENT_ANSWERS)")

    async def origin_websocket(self):
        """websocket: an upgrade with an Origin header (no other client) -> 403"""
        await self.client.close()
        try:
            answer = (await exchange(upgrade(self.app.port, ["Origin: https://evil.example"]), self.app.port,
                                     head_only=True))[-1]
        finally:
            self.client = await connect_when_free(self.app.url)
            await self.client.wait_for_reader(self.reader, has_card=True)
        if self.aa2 and answer.status == 101:
            return "expected difference: AusweisApp2 1.26.2 accepts it (101; 2.5: 403)"
        expect(answer, 403)
        return None if self.aa2 else "expected difference: 403, as 2.5 answers (1.26.2 accepts it: 101)"

    async def cancel(self):
        """EID_CLIENT_A4_10: activation: CANCEL at ACCESS_RIGHTS -> 303 to the refresh address, error, cancellationByUser"""
        path = "/eID-Client?tcTokenURL=" + urllib.parse.quote(self.server.tctoken_url(None), safe="")
        browser = asyncio.create_task(exchange(request(self.app.port, path), self.app.port, auth.CASE_TIMEOUT))
        await self.client.expect("ACCESS_RIGHTS", ignore=("READER", "STATUS", "AUTH"))
        await self.client.send("CANCEL")
        await self.drain()
        answer = expect((await browser)[-1], 303, headers=NO_CACHE)
        got = result_location(answer.headers.get("location", ""), self.server.origin)
        if got != (auth.REFRESH, "error", "cancellationByUser"):
            raise CaseFailed(f"Location {answer.headers.get('location')!r}")

    async def conflict(self):
        """activation: a second one while one runs -> 409 HTML, its URL not reflected as markup; the first: 303 ok"""
        started = time.monotonic()
        first = asyncio.create_task(self.activation(self.server.tctoken_url("slow")))
        # The first runs once the SDK client has heard its AUTH; the slow PAOS answers keep it running.
        await heard(self.client, "AUTH", started)
        second = (await exchange(request(self.app.port, "/eID-Client?tcTokenURL=" + urllib.parse.quote(
            self.server.tctoken_url(None) + '&x="><b>', safe="")), self.app.port))[-1]
        answers, _ = await first
        expect(second, 409, "text/html")
        if "<b>" in second.body:
            raise CaseFailed("the 409 page reflects the tcTokenURL unescaped")
        expect(answers[-1], 303)
        if result_location(answers[-1].headers["location"], self.server.origin)[1] != "ok":
            raise CaseFailed(f"the first activation ended at {answers[-1].headers['location']!r}")

    async def other_addresses(self):
        """EID_CLIENT_A1_02: http: the port at this host's addresses other than loopback -> no connection"""
        addresses = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=30).stdout.split()
        if not addresses:
            raise CaseFailed("this host has no address but loopback (hostname -I): nothing to try from")
        for address in addresses:
            with socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET, socket.SOCK_STREAM) as probe:
                probe.settimeout(10)
                try:
                    probe.connect((address, self.app.port))
                except OSError:  # refused (nothing listens there), or unreachable
                    continue
                raise CaseFailed(f"the client's port {self.app.port} takes connections at {address}")
        return f"refused at {', '.join(addresses)}"

    HTTP_CASES = [status_text, status_json, status_upper_case, preflight, unknown_path, no_query,
                  kernel_without_upgrade, bad_host, tctoken_not_found, tls1_version, tls1_suites, tls1_key, tls1_dh,
                  tctoken_not_https, show_ui_pin_management, show_ui_settings, show_ui_no_module,
                  show_ui_unknown_module, second_websocket,
                  origin_websocket, cancel, conflict, other_addresses]

    async def run_case(self, case):
        if callable(case):
            return await case(self)
        difference = None
        if not self.live and not self.aa2 and case["fault"] in PRE_VERIFIED and not case["tls"]:
            case = PRE_VERIFIED[case["fault"]]
            difference = ("expected difference: refused in the pre-verification, before the card (AusweisApp2 "
                          "with it on); AusweisApp2 here has it off: the card refuses (noPermission)")
        previous = self.server.result()
        answers, final = await self.activation(self.server.tctoken_url(case["fault"]),
                                               cancel_after_pin=case.get("cancel_after_pin", False))
        result = self.server.result()
        if self.probe:
            print(f"  {[f'{a.status} {a.reason}' for a in answers]} Location {answers[-1].headers.get('location')}")
            print("  " + auth.describe(case["fault"], final, self.asked, result))
            return None
        if self.judged:
            auth.check(case, final, self.asked, result, previous, self.server.origin, self.side)
            self.check_browser_answers(case, answers)
        self.seen = auth.observe(self.client.transcript, self.asked, self.session_result(final, result, previous), case)
        return difference

    def check_browser_answers(self, case, answers):
        """102 first; then 303 to the case's address with its ResultMajor/ResultMinor, or (no
        address) the error page: 404 when the TcToken could not be fetched, 400 when no address came
        of it (the case's `browser`), saying why in words (TR-03124-2 EID_CLIENT_D_16)."""
        expect(answers[0], 102)
        if case["url"] == auth.NONE:
            page = says_why(expect(answers[-1], case.get("browser", 404), "text/html", NO_CACHE))
            if not self.aa2:
                http_origin = self.server.origin.replace("https://", "http://", 1)
                words = page_words(page)
                for expected in ERROR_PAGES.get(case["fault"], ()):
                    if expected.format(http_origin=http_origin) not in words:
                        raise CaseFailed(f"the error page does not say {expected.format(http_origin=http_origin)!r}: "
                                         f"{words[:400]!r}")
            return
        answer = expect(answers[-1], 303, headers=NO_CACHE)
        want = (case["url"], case["major"], url_minor(case, eid=not self.aa2))
        got = result_location(answer.headers.get("location", ""), self.server.origin)
        if got != want:
            raise CaseFailed(f"Location {answer.headers.get('location')!r}: {got}, expected {want}")
        if case["major"] == "ok":
            session = re.search(r"session=([0-9a-f]+)", answer.headers["location"]).group(1)
            if not self.server.result(session).startswith('{"ok":true'):
                raise CaseFailed(f"/result?session={session} does not show ok:true")

    async def prepare(self, case):
        if not callable(case):
            return await super().prepare(case)
        if self.app is None:
            await self.start_app()
        self.log_offset = self.app.log_size()
        self.client.transcript.clear()

    @staticmethod
    def name(case):
        """A method case's docstring ("what -> expected"), or the fault case's name."""
        if callable(case):
            return case.__doc__
        return auth.tr_prefix(case) + "activation, " + auth.Runner.name(dict(case, tr=None))


class ChangePINRunner(pin.Runner):
    """ausweisapp2_peer_tests' RUN_CHANGE_PIN cases over the client under test's WebSocket."""

    def __init__(self, bin_dir, client):
        super().__init__(bin_dir)
        self.client_kind = client

    async def start_app(self):
        self.app = start_client(self.client_kind)
        self.client = await SDKClient.connect(self.app.url)
        # The card of the cases before (ServeRunner's, or a failed case's, stopped without this
        # wait) must be gone before the next plugs into the same reader: a card started while
        # pcscd still sees the old one is read as an unknown card, or not seen at all.
        await self.client.wait_for_reader(self.reader, has_card=False)


def http_view(answer, origin):
    """An HTTP answer as compared live: its status, media type and, for a redirect, the Location's address kind,
    ResultMajor and ResultMinor (`result_location`)."""
    view = {"status": answer.status, "type": answer.headers.get("content-type", "").split(";")[0].strip() or None}
    if "location" in answer.headers:
        view["location"] = list(result_location(answer.headers["location"], origin))
    return view


# The HTTP cases where eid answers otherwise on purpose (each method asserts both sides' known behaviour), why.
DIFFERENT_ANSWERS = {
    "preflight": "OPTIONS and HEAD /eID-Client: eid 204 with the CORS headers, as 2.5 answers (1.26.2: 404)",
    "bad_host": "a bad Host: eid refuses it (DNS rebinding; AusweisApp2 1.26.2 answers 200)",
    "origin_websocket": "an Origin on the WebSocket: eid 403, as 2.5 answers (1.26.2 accepts it: 101)",
    "tctoken_not_https": "difference found live: a tcTokenURL that is not https: eid answers 400 at once, "
                         "AusweisApp2 1.26.2 102 Processing first, then 400",
    "second_websocket": "difference found live: the 429 to a second WebSocket client: eid's is an HTML page "
                        "(text/html), AusweisApp2 1.26.2's has no body and no Content-Type",
}
# ShowUI (TR-03124-2 A1_06 to A1_09): eid has no window to show, so 404 and no workflow; AusweisApp2 1.26.2 200.
DIFFERENT_ANSWERS.update({name: "ShowUI: eid has no user interface to open (404, no workflow); AusweisApp2 1.26.2 "
                                "answers 200 and shows its window"
                          for name in ("show_ui_pin_management", "show_ui_settings", "show_ui_no_module",
                                       "show_ui_unknown_module")})
# Fault cases where the Location's ResultMinor differs on purpose (REPORTED_TO_THE_SERVER), why.
DIFFERENT_LOCATIONS = {fault: "eid answers the server's unreadable EAC2 message with an error DIDAuthenticateResponse, "
                              "so the session ends with the server's error (serverError; AusweisApp2 1.26.2 sends "
                              "nothing: clientError); the same AUTH" for fault in REPORTED_TO_THE_SERVER}


class LiveServe(auth.LiveRunner):
    """AusweisApp2 (`--ui websocket --ui webservice`) and `eid serve` through the HTTP, WebSocket and fault
    cases in one pass, as auth.LiveRunner runs the SDK cases: each case on AusweisApp2, then on eid; eid's HTTP
    answers (status, media type, the Location's address and result), SDK messages, questions and /result of
    its session must equal AusweisApp2's (live_comparison), but where DIFFERENT_ANSWERS, DIFFERENT_LOCATIONS or
    auth.EID_DIFFERENCES say why not, and each side's own assertions hold (the methods assert both sides'
    known behaviour)."""

    name = staticmethod(ServeRunner.name)
    print_summary = False  # main prints it after the change-PIN cases

    def __init__(self, bin_dir):
        super().__init__(bin_dir, ServeRunner(bin_dir, AA2, live=True), ServeRunner(bin_dir, bin_dir, live=True))
        self.eid.tls_pki_dir = self.aa2.tls_pki_dir  # one tls-test-pki.sh directory

    async def prepare(self, case):
        if not callable(case):
            return await super().prepare(case)
        for side in self.sides:
            await side.prepare(case)

    async def run(self, case):
        fault_case = not callable(case)
        fresh = self.fresh_card(case) if fault_case else None
        own, why = auth.eid_expectation(case) if fault_case else (None, None)
        if fault_case and case["fault"] in DIFFERENT_LOCATIONS and not case["tls"]:
            own, why = case, DIFFERENT_LOCATIONS[case["fault"]]
        if not fault_case and case.__name__ in DIFFERENT_ANSWERS:
            why = DIFFERENT_ANSWERS[case.__name__]
        seen, notes = [], []
        for side in self.sides:
            if fresh is not None:
                await self.replace_card(fresh)
            RECORDED.clear()
            side.client.transcript.clear()
            side.judged = side is self.aa2 or own is not None
            note = await side.run_case(own if side is self.eid and own else case)
            if note:
                notes.append(f"{side.side}: {note}")
            view = dict(http=[http_view(answer, side.server.origin) for answer in RECORDED])
            view.update(side.seen if fault_case else dict(sdk=sdk_view(side.client.transcript)))
            seen.append(view)
        if why:
            self.tally.different.append(case)
            return "expected difference: " + why
        notes_found, found = field_differences(seen[0]["sdk"], seen[1]["sdk"])
        self.tally.fields.update(notes_found)
        chat = auth.chat_difference(case, *seen) if fault_case else None
        found += differences(*seen)
        if found:
            raise CaseFailed("eid differs from AusweisApp2: " + "; ".join(found[:6]))
        if chat:
            self.tally.different.append(case)
            return "compared live but the chat; expected difference: " + chat
        self.tally.live.append(case)
        return "compared live" + (f" ({'; '.join(notes)})" if notes else "")


class LiveChangePIN:
    """ausweisapp2_peer_tests' RUN_CHANGE_PIN cases on AusweisApp2, then on `eid serve`, each with a fresh card
    of the case's options; eid's SDK messages must equal AusweisApp2's (live_comparison). `eid serve` runs only
    for its side, started once AusweisApp2 has read the card (both read a card that comes) and stopped before
    eid's terminal opens the card with the new PIN."""

    def __init__(self, bin_dir, tally):
        self.bin_dir = bin_dir
        self.aa2 = ChangePINRunner(bin_dir, AA2)
        self.tally = tally
        self.serve = self.client = None

    async def stop_serve(self):
        if self.client:
            try:
                await asyncio.wait_for(self.client.close(), 5)
            except Exception:
                pass
        if self.serve:
            self.serve.stop()
        self.serve = self.client = None

    async def run(self, case):
        _, args, card_checks, steps, new_pin = case
        await self.aa2.run(case)
        reference = sdk_view(self.aa2.client.transcript)
        reader, port = self.aa2.reader, self.aa2.port
        card = SoftwareCard(self.bin_dir, port, args)
        try:
            await self.aa2.client.wait_for_reader(reader, has_card=True)
            self.serve = start_client(self.bin_dir)
            self.client = await SDKClient.connect(self.serve.url)
            pin.check(await self.client.wait_for_reader(reader, has_card=True), card_checks)
            self.client.transcript.clear()
            await pin.run_workflow(self.client, reader, steps)
            candidate = sdk_view(self.client.transcript)
            await self.stop_serve()  # eid serve ended: the card is free for eid's terminal
            if new_pin:
                pin.eid_opens_card(self.bin_dir, reader, new_pin)
        finally:
            card.stop()
        await self.aa2.client.wait_for_reader(reader, has_card=False)
        notes, found = field_differences(reference, candidate)
        self.tally.fields.update(notes)
        found += differences(reference, candidate)
        if found:
            raise CaseFailed("eid differs from AusweisApp2: " + "; ".join(found[:6]))
        self.tally.live.append(case)
        return "compared live"

    async def report(self, case, error):
        if self.client:
            print("  eid's SDK transcript:\n    " + "\n    ".join(self.client.transcript))
        await self.aa2.report(case, error)
        await self.stop_serve()

    async def main(self, cases):
        try:
            return await run_cases(cases, self.run, 2 * pin.CASE_TIMEOUT, prepare=self.aa2.prepare,
                                   report=self.report)
        finally:
            await self.stop_serve()
            await self.aa2.stop_app()


def main():
    runners = []

    async def run(arguments):
        bin_dir, client, words = arguments[0], (arguments[1:2] or [AA2])[0], arguments[2:]
        if client == "live":
            return await run_live(bin_dir, words)
        probe = words == ["probe"]
        print(f"client under test: {'AusweisApp2 (headless)' if client == AA2 else 'eid serve from ' + client}",
              flush=True)
        wanted = (lambda name: True) if not words or probe else (lambda name: any(w in name for w in words))
        start_client(client).stop()  # a client that does not start fails the run, not each case
        serve = ServeRunner(bin_dir, client, probe)
        runners.append(serve)
        # The C3 and TLS-2 cases need a card or a server of their own per case, which the auth script's runner
        # sets up for AusweisApp2 alone; eid runs them in ConformanceC3Tests and ConformanceETLS2Tests.
        fault_cases = [case for case in auth.CASES if not case["c3"] and not case["tls2"]]
        cases = [case for case in ServeRunner.HTTP_CASES + fault_cases if wanted(serve.name(case))]
        passed, failed = await serve.main(cases) if cases else (0, 0)
        changes = ChangePINRunner(bin_dir, client)
        runners.append(changes)
        pin_cases = [("change-pin " + case[0], case) for case in pin.CASES if wanted("change-pin " + case[0])]
        if pin_cases:
            try:
                more = await run_cases(pin_cases, changes.run, pin.CASE_TIMEOUT, prepare=changes.prepare,
                                       report=changes.report)
            finally:
                await changes.stop_app()
            passed, failed = passed + more[0], failed + more[1]
        return passed, failed

    async def run_live(bin_dir, words):
        print(f"clients: AusweisApp2 (headless) and eid serve from {bin_dir}, each case on both, compared live",
              flush=True)
        wanted = (lambda name: True) if not words else (lambda name: any(w in name for w in words))
        for client in (AA2, bin_dir):
            start_client(client).stop()  # a client that does not start fails the run, not each case
        live = LiveServe(bin_dir)
        runners.extend(live.sides)
        # The C3 and TLS-2 cases need a card or a server of their own per case: ausweisapp2_auth_peer_tests.py
        # compares them live over the SDK.
        fault_cases = [case for case in auth.CASES if not case["c3"] and not case["tls2"]]
        cases = [case for case in ServeRunner.HTTP_CASES + fault_cases if wanted(live.name(case))]
        passed, failed = await live.main(cases) if cases else (0, 0)
        changes = LiveChangePIN(bin_dir, live.tally)
        runners.append(changes.aa2)
        pin_cases = [("change-pin " + case[0], case) for case in pin.CASES if wanted("change-pin " + case[0])]
        if pin_cases:
            more = await changes.main(pin_cases)
            passed, failed = passed + more[0], failed + more[1]
        print(live.tally.summary(len(cases) + len(pin_cases)))
        return passed, failed

    def cleanup():
        for runner in runners:
            if runner.app:
                runner.app.stop()

    run_main("serve_peer_tests.py BIN_DIR [ausweisapp2|EID_DIR [CASE...|probe] | live [CASE...]]",
             "Peer tests of the eID client on port 24727 (HTTP, WebSocket SDK, activations, change PIN)", run, cleanup,
             more_arguments=True)


if __name__ == "__main__":
    main()
