#!/usr/bin/python3
"""Two https servers on 127.0.0.1 for TLSTests (stdlib only): A with CERT_A, B with CERT_B, each on a free port.

    https_test_server.py CERT_A KEY_A CERT_B KEY_B     prints "PORTS <a> <b>" once both listen

GET  /start      302 -> https://127.0.0.1:B/middle        (on B: /middle 303 -> https://127.0.0.1:A/final)
GET  /final      200 "TcToken"                            GET /relative  302 -> final (relative)
GET  /loop       302 -> /loop                             GET /http      302 -> http://127.0.0.1:A/final
GET  /nolocation 302 without Location                     GET /big?n=N   200 with N bytes
GET  /slow       answers after 5 s
GET  /tctoken-start 302 -> https://127.0.0.1:B/tctoken    (a TcToken without PSK: ServerAddress https://127.0.0.1:A/paos)
GET  /tctoken-psk?server=N  a TcToken with PSK_KEY for SESSION_ID, ServerAddress https://127.0.0.1:N/ (an eID server
                            of the test's own, e.g. openssl s_server -psk), RefreshAddress https://127.0.0.1:A/refresh
POST /paos       200 {"length":N,"paos":<PAOS header>,"requestsOnConnection":K,"sessionReused":B} (HTTP/1.1
                 keep-alive; B: whether the connection's TLS handshake resumed an earlier session)
Runs until killed.
"""
import http.server
import json
import ssl
import sys
import threading
import time
import urllib.parse

# The TLS-2 key and session of /tctoken-psk (TEST ONLY: ConformanceETLS2Tests gives them to openssl s_server).
PSK_KEY = "4E1F0C3A5B6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F9011223344556677"
SESSION_ID = "0c3a5b6d-e2e-tls2-session"


def handler_for(ports):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self):
            super().setup()
            self.requests_on_connection = 0

        def log_message(self, *args):
            pass

        def reply(self, status, body=b"", headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            a, b = ports
            if url.path == "/start":
                self.reply(302, headers=[("Location", f"https://127.0.0.1:{b}/middle")])
            elif url.path == "/middle":
                self.reply(303, headers=[("Location", f"https://127.0.0.1:{a}/final")])
            elif url.path == "/final":
                self.reply(200, b"TcToken", [("Content-Type", "text/plain")])
            elif url.path == "/tctoken-start":
                self.reply(302, headers=[("Location", f"https://127.0.0.1:{b}/tctoken")])
            elif url.path == "/tctoken":
                token = (
                    "<TCTokenType>"
                    f"<ServerAddress>https://127.0.0.1:{a}/paos</ServerAddress>"
                    "<SessionIdentifier>6e6a761c-1224-46ed-9798-ac1972faf909</SessionIdentifier>"
                    f"<RefreshAddress>https://127.0.0.1:{a}/refresh</RefreshAddress>"
                    "<Binding>urn:liberty:paos:2006-08</Binding>"
                    "</TCTokenType>"
                )
                self.reply(200, token.encode(), [("Content-Type", "text/xml")])
            elif url.path == "/tctoken-psk":
                server = int(urllib.parse.parse_qs(url.query).get("server", ["0"])[0])
                token = (
                    "<TCTokenType>"
                    f"<ServerAddress>https://127.0.0.1:{server}/</ServerAddress>"
                    f"<SessionIdentifier>{SESSION_ID}</SessionIdentifier>"
                    f"<RefreshAddress>https://127.0.0.1:{a}/refresh</RefreshAddress>"
                    f"<CommunicationErrorAddress>https://127.0.0.1:{a}/error</CommunicationErrorAddress>"
                    "<Binding>urn:liberty:paos:2006-08</Binding>"
                    "<PathSecurity-Protocol>urn:ietf:rfc:4279</PathSecurity-Protocol>"
                    f"<PathSecurity-Parameters><PSK>{PSK_KEY}</PSK></PathSecurity-Parameters>"
                    "</TCTokenType>"
                )
                self.reply(200, token.encode(), [("Content-Type", "text/xml; charset=utf-8")])
            elif url.path == "/relative":
                self.reply(302, headers=[("Location", "final")])
            elif url.path == "/loop":
                self.reply(302, headers=[("Location", "/loop")])
            elif url.path == "/http":
                self.reply(302, headers=[("Location", f"http://127.0.0.1:{a}/final")])
            elif url.path == "/nolocation":
                self.reply(302)
            elif url.path == "/big":
                n = int(urllib.parse.parse_qs(url.query).get("n", ["0"])[0])
                self.reply(200, b"x" * n)
            elif url.path == "/slow":
                time.sleep(5)
                self.reply(200, b"late")
            else:
                self.reply(404)

        def do_POST(self):
            self.requests_on_connection += 1
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            answer = {
                "length": len(body),
                "paos": self.headers.get("PAOS"),
                "contentType": self.headers.get("Content-Type"),
                "accept": self.headers.get("Accept"),
                "requestsOnConnection": self.requests_on_connection,
                "sessionReused": self.connection.session_reused,
            }
            self.reply(200, json.dumps(answer).encode(), [("Content-Type", "application/json")])

    return Handler


def main():
    cert_a, key_a, cert_b, key_b = sys.argv[1:5]
    ports = [0, 0]
    servers = []
    for cert, key in ((cert_a, key_a), (cert_b, key_b)):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler_for(ports))
        server.daemon_threads = True
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        servers.append(server)
    ports[0], ports[1] = (s.server_address[1] for s in servers)
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"PORTS {ports[0]} {ports[1]}", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
