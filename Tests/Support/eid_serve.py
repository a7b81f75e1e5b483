"""`eid serve` of a build as a peer-test client: started on a free port (`--port 0 --port-file`,
`--test-pki`), its SDK WebSocket at `.url`, its output kept in a scratch directory. Used beside
AusweisApp2 by ausweisapp2_auth_peer_tests.py and serve_peer_tests.py, and by serve_browser_tests.py
and bench.py. Stopped by its PID.
"""
import os
import shutil
import subprocess
import tempfile

from ausweisapp2 import PeerError, terminate, wait_for_port_file


class EidServe:
    """`eid serve` on a free port (the port from --port-file), its output in a scratch directory;
    `arguments` follow the others (--pinentry PROGRAM, --trust-cvca FILE); `test_pki`: with --test-pki
    (trusting the project's test CVCA)."""

    START_TIMEOUT = 15.0

    def __init__(self, eid_dir, arguments=(), test_pki=True):
        self.dir = tempfile.mkdtemp(prefix="eid-serve-")
        port_file = os.path.join(self.dir, "port")
        self.output = open(os.path.join(self.dir, "output.log"), "w")
        self.process = subprocess.Popen(
            [os.path.join(eid_dir, "eid"), "serve", "--port", "0", "--port-file", port_file,
             *(["--test-pki"] if test_pki else []), *arguments],
            stdin=subprocess.DEVNULL, stdout=self.output, stderr=subprocess.STDOUT)
        try:
            self.port = wait_for_port_file(self.process, port_file, "eid serve", self.START_TIMEOUT)
        except PeerError as error:
            said = self.log_since(0).strip().splitlines()[:1] or ["nothing"]
            self.stop()
            raise PeerError(f"{error}; it said: {said[0][:300]}") from None
        self.url = f"ws://127.0.0.1:{self.port}/eID-Kernel"

    def log_size(self):
        return os.path.getsize(self.output.name)

    def log_since(self, offset, secrets=()):
        with open(self.output.name, errors="replace") as f:
            f.seek(offset)
            text = f.read()
        for secret in secrets:
            text = text.replace(secret, "***")
        return text

    def stop(self):
        terminate(self.process)
        self.output.close()
        shutil.rmtree(self.dir, ignore_errors=True)
