#!/usr/bin/python3
"""A real browser against the local eID client on port 24727 (issue 17): Debian's chromium,
headless through chromium-driver and python3-selenium, opens eid-testserver's start page and
clicks its "Log in with your ID card" link (while the start page has no link to the client under
test, it opens the activation URL itself), the client authenticates with eid-sim (in the test
pcscd), and the browser must land on the refresh page.

    serve_browser_tests.py BIN_DIR [CLIENT]   (inside `Tests/Support/pcsc-env.sh run`)

CLIENT as in serve_peer_tests.py (`ausweisapp2`, default, or the directory of `eid`). An SDK client,
connected and idle, answers the workflow the browser started (ACCEPT, SET_PIN, or CANCEL). Cases:
success (the refresh page with ResultMajor=ok shows the sample person), CANCEL (the error address,
ResultMajor=error), a TcToken that is not found (the 404 page) and a second activation while one
runs (the 409 page). With `eid` also two cases without an SDK client (PinentryBrowserRunner): eid
serve asks through scripted_pinentry.py, Proceed and the PIN (the sample person) or Cancel at the
confirmation (the error address, cancellationByUser). HTTP status codes are read from chromium's performance log. A screenshot of
each case is kept in the e2e directory (EID_E2E_DIR of pcsc-env.sh) and its path printed.
"""
import asyncio
import json
import os
import shutil
import sys
import tempfile
import time
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_peer_tests as serve  # noqa: E402
from ausweisapp2 import run_main  # noqa: E402

auth = serve.auth
PAGE_TIMEOUT = 60.0
SAMPLE_PERSON = ("ERIKA", "MUSTERMANN")


def start_browser():
    """Headless chromium (156 measured). --no-sandbox: as root, chromium does not start with its
    sandbox ("Chrome instance exited"; the tests run as root here);
    --ignore-certificate-errors: eid-testserver serves a fresh self-signed certificate, which the
    client under test checks against the TcToken's certificate description but the browser cannot
    (without it: chromium's "Privacy error" page); --disable-dev-shm-usage: not needed here (a
    24 GiB /dev/shm), but chromium's renderer is known to crash in Docker's default 64 MiB one.
    http://127.0.0.1:PORT (the activation URL; the 303 from there back to https) needs no flag:
    chromium neither upgrades nor blocks loopback to loopback navigations. --window-size: the
    screenshots' size."""
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--ignore-certificate-errors",
                 "--window-size=1000,800"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(PAGE_TIMEOUT)
    return driver


def document_statuses(driver):
    """(status, url) of every document response since the last call, from the performance log
    (redirects show as the 303 of the request they ended)."""
    statuses = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message["method"] == "Network.responseReceived" and params.get("type") == "Document":
            statuses.append((params["response"]["status"], params["response"]["url"]))
        elif message["method"] == "Network.requestWillBeSent" and params.get("redirectResponse"):
            statuses.append((params["redirectResponse"]["status"], params["redirectResponse"]["url"]))
    return statuses


class BrowserRunner(serve.ServeRunner):
    """One client under test, one eid-sim card, one eid-testserver, one chromium for all cases."""

    def __init__(self, bin_dir, client):
        super().__init__(bin_dir, client)
        self.driver = None
        self.shots = os.environ.get("EID_E2E_DIR") or tempfile.mkdtemp(prefix="eid-browser-")

    def activation_url(self, tctoken_url):
        return (f"http://127.0.0.1:{self.app.port}/eID-Client?tcTokenURL="
                + urllib.parse.quote(tctoken_url, safe=""))

    def open_login(self):
        """The start page's login link (to /eID-Client?tcTokenURL=…) when it leads to the client
        under test, else the activation URL of the server's TcToken; returns once the browser has
        landed."""
        self.driver.get(self.server.origin + "/")
        links = self.driver.find_elements(By.CSS_SELECTOR, "a[href*='/eID-Client?tcTokenURL=']")
        ours = [link for link in links if f"//127.0.0.1:{self.app.port}/" in (link.get_attribute("href") or "")]
        if not ours:
            return self.driver.get(self.activation_url(self.server.tctoken_url(None)))
        ours[0].click()
        WebDriverWait(self.driver, PAGE_TIMEOUT).until(lambda d: "/refresh?" in d.current_url)

    async def browse(self, action, sdk):
        """`action` (a blocking browser step) in a thread while `sdk` (a coroutine: what the SDK
        client does) runs here; returns the document statuses and the page's text."""
        document_statuses(self.driver)
        browser = asyncio.create_task(asyncio.to_thread(action))
        try:
            await sdk
        finally:
            await browser
        return document_statuses(self.driver), self.driver.find_element(By.TAG_NAME, "body").text

    def landed(self, major, minor=None):
        """The browser is on the session's refresh page with ResultMajor `major` (and ResultMinor `minor`)."""
        url = self.driver.current_url
        if serve.result_location(url, self.server.origin) != (auth.REFRESH, major, minor):
            raise serve.CaseFailed(f"the browser is at {url}, not the refresh address with ResultMajor={major}")

    def shoot(self, name):
        path = os.path.join(self.shots, f"serve-browser-{name}.png")
        self.driver.save_screenshot(path)
        return f"screenshot {path}"

    async def success(self):
        """browser: login -> 102, 303 to the refresh page with ResultMajor=ok, the sample person shown"""
        statuses, text = await self.browse(self.open_login, auth.authenticate(self.client, None))
        self.landed("ok")
        if not all(name in text for name in SAMPLE_PERSON):
            raise serve.CaseFailed(f"the refresh page does not show {SAMPLE_PERSON}: {text[:300]!r}")
        if [status for status, _ in statuses][-2:] != [303, 200]:
            raise serve.CaseFailed(f"document answers {statuses}, expected a 303 then the refresh page")
        return self.shoot("success")

    async def cancel(self):
        """browser: CANCEL in the SDK -> the error address, ResultMajor=error, cancellationByUser"""
        async def refuse():
            await self.client.expect("ACCESS_RIGHTS", ignore=("READER", "STATUS", "AUTH"))
            await self.client.send("CANCEL")
            await self.drain()

        _, text = await self.browse(self.open_login, refuse())
        self.landed("error", "cancellationByUser")
        if "error" not in text:
            raise serve.CaseFailed(f"the refresh page does not show the error: {text[:300]!r}")
        return self.shoot("cancel")

    async def tctoken_not_found(self):
        """browser: a TcToken that is not found -> the 404 page"""
        url = self.activation_url(self.server.origin + "/nothing")
        statuses, _ = await self.browse(lambda: self.driver.get(url), self.drain())
        if statuses[-1:] != [(404, url)]:
            raise serve.CaseFailed(f"document answers {statuses}, expected 404 for {url}")
        return self.shoot("not-found")

    async def conflict(self):
        """browser: a second activation while one runs -> the 409 page, the first goes on"""
        started = time.monotonic()
        first = asyncio.create_task(self.activation(self.server.tctoken_url("slow")))
        # The first runs once the SDK client has heard its AUTH; the slow PAOS answers keep it running.
        await serve.heard(self.client, "AUTH", started)
        url = self.activation_url(self.server.tctoken_url(None))
        statuses, _ = await self.browse(lambda: self.driver.get(url), asyncio.sleep(0))
        answers, _ = await first
        if statuses[-1:] != [(409, url)]:
            raise serve.CaseFailed(f"document answers {statuses}, expected 409 for {url}")
        serve.expect(answers[-1], 303)
        return self.shoot("conflict")

    BROWSER_CASES = [success, cancel, tctoken_not_found, conflict]

    async def start_app(self):
        await super().start_app()
        if self.driver is None:
            self.driver = await asyncio.to_thread(start_browser)

    async def stop_app(self):
        await super().stop_app()
        if self.driver:
            self.driver.quit()
            self.driver = None

    async def report(self, case, error):
        if self.driver:
            print(f"  browser at {self.driver.current_url}; {self.shoot('failed')}")
        await super().report(case, error)


class PinentryBrowserRunner(BrowserRunner):
    """`eid serve --pinentry scripted_pinentry.py`, stdin not a terminal and no SDK client: eid asks
    through the scripted pinentry (SCRIPTED_PINENTRY: a scratch directory, its `answer` written
    per case). The start page's link leads to this eid serve (eid-testserver --client-port)."""

    PINENTRY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scripted_pinentry.py")
    CARD_PIN = "123456"  # eid-sim's default card

    def __init__(self, bin_dir, client):
        super().__init__(bin_dir, client)
        self.pinentry_dir = tempfile.mkdtemp(prefix="eid-pinentry-")
        os.environ["SCRIPTED_PINENTRY"] = self.pinentry_dir  # eid serve passes its environment on

    async def start_app(self):
        self.app = serve.EidServe(self.client_kind, ["--pinentry", self.PINENTRY])
        if self.driver is None:
            self.driver = await asyncio.to_thread(start_browser)

    async def prepare(self, case):
        if self.app is None:
            await self.start_app()
        self.log_offset = self.app.log_size()
        self.server = auth.TestServer(self.bin_dir, ["--client-port", str(self.app.port)])

    def script(self, answer):
        """What the pinentry's person does in this case; the questions asked so far forgotten."""
        with open(os.path.join(self.pinentry_dir, "answer"), "w") as f:
            f.write(answer + "\n")
        with open(os.path.join(self.pinentry_dir, "asked"), "w"):
            pass

    def asked(self, expected):
        with open(os.path.join(self.pinentry_dir, "asked")) as f:
            got = f.read().splitlines()
        if got != expected:
            raise serve.CaseFailed(f"the pinentry was asked {got}, expected {expected}")

    def clicked(self):
        """The start page's link, clicked (not the activation URL opened by the test)."""
        self.driver.get(self.server.origin + "/")
        links = [link for link in self.driver.find_elements(By.CSS_SELECTOR, "a[href*='/eID-Client?tcTokenURL=']")
                 if f"//127.0.0.1:{self.app.port}/" in (link.get_attribute("href") or "")]
        if not links:
            raise serve.CaseFailed(f"the start page has no login link to 127.0.0.1:{self.app.port}")
        links[0].click()
        WebDriverWait(self.driver, PAGE_TIMEOUT).until(lambda d: "/refresh?" in d.current_url)

    async def pinentry_success(self):
        """browser, pinentry: Proceed and the PIN in the pinentry -> the refresh page shows the sample person"""
        self.script(f"pin {self.CARD_PIN}")
        statuses, text = await self.browse(self.clicked, asyncio.sleep(0))
        self.landed("ok")
        if not all(name in text for name in SAMPLE_PERSON):
            raise serve.CaseFailed(f"the refresh page does not show {SAMPLE_PERSON}: {text[:300]!r}")
        if [status for status, _ in statuses][-2:] != [303, 200]:
            raise serve.CaseFailed(f"document answers {statuses}, expected a 303 then the refresh page")
        self.asked(["CONFIRM", "GETPIN PIN:"])
        return self.shoot("pinentry-success")

    async def pinentry_cancel(self):
        """browser, pinentry: Cancel at the pinentry's CONFIRM -> the error address, ResultMajor=error, cancellationByUser"""
        self.script("cancel")
        _, text = await self.browse(self.clicked, asyncio.sleep(0))
        self.landed("error", "cancellationByUser")
        if "error" not in text:
            raise serve.CaseFailed(f"the refresh page does not show the error: {text[:300]!r}")
        self.asked(["CONFIRM"])
        return self.shoot("pinentry-cancel")

    PINENTRY_CASES = [pinentry_success, pinentry_cancel]

    async def report(self, case, error):
        path = os.path.join(self.pinentry_dir, "asked")
        if os.path.exists(path):
            with open(path) as f:
                print(f"  the pinentry was asked {f.read().splitlines()}")
        await super().report(case, error)

    async def main(self, cases):
        try:
            return await super().main(cases)
        finally:
            shutil.rmtree(self.pinentry_dir, ignore_errors=True)


def main():
    runner = None

    async def run(arguments):
        nonlocal runner
        client = (arguments[1:2] or [serve.AA2])[0]
        print(f"client under test: {'AusweisApp2' if client == serve.AA2 else 'eid serve from ' + client}", flush=True)
        serve.start_client(client).stop()  # a client that does not start fails the run, not each case
        runner = BrowserRunner(arguments[0], client)
        passed, failed = await runner.main(BrowserRunner.BROWSER_CASES)
        if client != serve.AA2:  # the pinentry is eid's way to ask without an SDK client
            runner = PinentryBrowserRunner(arguments[0], client)
            more = await runner.main(PinentryBrowserRunner.PINENTRY_CASES)
            passed, failed = passed + more[0], failed + more[1]
        return passed, failed

    def cleanup():
        if runner and runner.driver:
            runner.driver.quit()
        if runner and runner.app:
            runner.app.stop()

    run_main("serve_browser_tests.py BIN_DIR [ausweisapp2|EID_DIR]",
             "A real browser (headless chromium) logs in through the eID client on port 24727", run, cleanup,
             more_arguments=True)


if __name__ == "__main__":
    main()
