#!/usr/bin/python3
"""The rules of the TR-03124-2 conformance report (conformance.py report; docs/testing.md, "The
conformance report"), tested on a made-up catalogue, made-up sources and made-up logs:

    conformance_report_tests.py [unittest options]    (make test runs it; no build, no card needed)

The made-up catalogue has A1_01 (checked by two tests: a Swift one and a peer case), A1_02 (one
Swift test) and A1_06 (not applicable, its reason asserted by one Swift test). Each test writes a
log as swift-testing and the peer scripts print their results, runs the report as `make
conformance` does, and checks the case's line and the exit status: one failed, skipped or missing
test of a case turns it red and the exit status 1, though its other test passed.
"""
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "conformance.py")

CATALOGUE = (
    "# made up for conformance_report_tests.py\n"
    "id\tmodule\tpurpose\tstatus\tcheck\tnote\n"
    "A1_01\tA1\tan activation starts an authentication\tapplicable\te2e\t\n"
    "A1_02\tA1\tthe port cannot be reached from other hosts\tapplicable\te2e\t\n"
    "A1_06\tA1\tShowUI opens the PIN management\tn.a.\t-\tno graphical user interface\n"
)
SWIFT = textwrap.dedent('''\
    import Testing

    @Suite struct MadeUpTests {
        @Test("EID_CLIENT_A1_01: an activation from the SDK ends at the refresh address")
        func fromTheSDK() {}

        @Test(
            """
            EID_CLIENT_A1_02: the port is closed \\
            at other addresses
            """
        )
        func otherAddresses() {}

        @Test("EID_CLIENT_A1_06: n.a.: ShowUI opens nothing (404)")
        func showUI() {}
    }
    ''')
PEER = textwrap.dedent('''\
    async def activation(self):
        """EID_CLIENT_A1_01: activation: a browser's -> 303 to the refresh address"""
    ''')
SDK = "EID_CLIENT_A1_01: an activation from the SDK ends at the refresh address"
BROWSER = "EID_CLIENT_A1_01: activation: a browser's -> 303 to the refresh address"
PORT = "EID_CLIENT_A1_02: the port is closed at other addresses"
SHOW_UI = "EID_CLIENT_A1_06: n.a.: ShowUI opens nothing (404)"


def swift_line(name, outcome):
    """A swift-testing console line for a test `name` that passed, failed or was skipped."""
    return {
        "passed": f'✔ Test "{name}" passed after 1.204 seconds.',
        "failed": f'✘ Test "{name}" failed after 0.912 seconds with 1 issue.',
        "skipped": f'➜ Test "{name}" skipped: "needs the built eid-testserver binary"',
    }[outcome]


class ReportRules(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory(prefix="eid-conformance-rules-")
        root = self.root = self.directory.name
        for path, text in (("Tests/Conformance/TR-03124-2.tsv", CATALOGUE),
                           ("Tests/MadeUpTests/MadeUpTests.swift", SWIFT),
                           ("Tests/Support/made_up_peer_tests.py", PEER)):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as out:
                out.write(text)

    def tearDown(self):
        self.directory.cleanup()

    def report(self, swift, peer):
        """Runs the report over a swift-testing log of `swift` lines and a peer log of `peer`
        lines; (exit status, {case ID: its line}, the whole output)."""
        logs = []
        for name, lines in (("swift-test.log", swift), ("serve-peer-eid.log", peer)):
            logs.append(os.path.join(self.root, name))
            with open(logs[-1], "w", encoding="utf-8") as out:
                out.write("\n".join(["some other output"] + lines) + "\n")
        run = subprocess.run([sys.executable, "-B", SCRIPT, "report", "--root", self.root] + logs,
                             capture_output=True, text=True, timeout=60)
        cases = {line.split()[0]: line for line in run.stdout.splitlines() if re.match(r"A1_0\d ", line)}
        self.assertEqual(set(cases), {"A1_01", "A1_02", "A1_06"}, run.stdout + run.stderr)
        return run.returncode, cases, run.stdout

    def all_passed(self, **changed):
        """Swift lines and peer lines with every test passed but `changed` (test name: outcome,
        None: not in the log)."""
        outcomes = {SDK: "passed", PORT: "passed", SHOW_UI: "passed", BROWSER: "ok"}
        outcomes.update({{"sdk": SDK, "port": PORT, "show_ui": SHOW_UI, "browser": BROWSER}[k]: v
                         for k, v in changed.items()})
        swift = [swift_line(name, outcomes[name]) for name in (SDK, PORT, SHOW_UI) if outcomes[name]]
        peer = []
        if outcomes[BROWSER] == "ok":
            peer.append(f"ok    {BROWSER} (3.1 s)")
        elif outcomes[BROWSER] == "FAIL":
            peer.append(f"FAIL  {BROWSER}: expected 303, got 500")
        return swift, peer

    def assertState(self, line, state):
        self.assertEqual(line.split()[1], state, line)

    def test_every_test_passed_every_case_is_green(self):
        status, cases, output = self.report(*self.all_passed())
        self.assertEqual(status, 0, output)
        self.assertState(cases["A1_01"], "pass")
        self.assertIn(SDK, cases["A1_01"])
        self.assertIn(BROWSER, cases["A1_01"])
        self.assertState(cases["A1_02"], "pass")
        self.assertState(cases["A1_06"], "n.a.")
        self.assertIn("2 passed, 1 n.a. (reason asserted), 0 failed (0 without a test)", output)

    def test_one_of_two_tests_failed_turns_the_case_red(self):
        status, cases, output = self.report(*self.all_passed(sdk="failed"))
        self.assertEqual(status, 1, output)
        self.assertState(cases["A1_01"], "FAIL")
        self.assertIn(f"{SDK} [fail]", cases["A1_01"])
        self.assertIn(BROWSER, cases["A1_01"], "the test that passed is still named")
        self.assertState(cases["A1_02"], "pass")
        self.assertIn("1 passed, 1 n.a. (reason asserted), 1 failed", output)

    def test_a_failed_peer_case_turns_the_case_red(self):
        status, cases, output = self.report(*self.all_passed(browser="FAIL"))
        self.assertEqual(status, 1, output)
        self.assertState(cases["A1_01"], "FAIL")
        self.assertIn(f"{BROWSER} [fail]", cases["A1_01"])

    def test_a_skipped_test_turns_the_case_red(self):
        status, cases, output = self.report(*self.all_passed(sdk="skipped"))
        self.assertEqual(status, 1, output)
        self.assertState(cases["A1_01"], "FAIL")
        self.assertIn(f"{SDK} [skip]", cases["A1_01"])

    def test_a_test_the_sources_name_that_did_not_run_turns_the_case_red(self):
        status, cases, output = self.report(*self.all_passed(sdk=None))
        self.assertEqual(status, 1, output)
        self.assertState(cases["A1_01"], "FAIL")
        self.assertIn(f"{SDK} [missing]", cases["A1_01"])

    def test_a_missing_peer_case_turns_the_case_red(self):
        status, cases, output = self.report(*self.all_passed(browser=None))
        self.assertEqual(status, 1, output)
        self.assertIn(f"{BROWSER} [missing]", cases["A1_01"])

    def test_a_multi_line_name_is_matched_as_swift_joins_it(self):
        status, cases, output = self.report(*self.all_passed(port=None))
        self.assertEqual(status, 1, output)
        self.assertIn(f"{PORT} [missing]", cases["A1_02"])

    def test_a_not_applicable_case_whose_assertion_failed_is_red(self):
        status, cases, output = self.report(*self.all_passed(show_ui="failed"))
        self.assertEqual(status, 1, output)
        self.assertState(cases["A1_06"], "FAIL")
        self.assertIn(f"{SHOW_UI} [fail]", cases["A1_06"])

    def test_a_not_applicable_case_whose_assertion_did_not_run_is_red(self):
        status, cases, output = self.report(*self.all_passed(show_ui=None))
        self.assertEqual(status, 1, output)
        self.assertState(cases["A1_06"], "FAIL")
        self.assertIn(f"{SHOW_UI} [missing]", cases["A1_06"])

    def test_a_case_without_any_test_is_red(self):
        with open(os.path.join(self.root, "Tests/MadeUpTests/MadeUpTests.swift"), "w", encoding="utf-8") as out:
            out.write(SWIFT.replace("EID_CLIENT_A1_02: ", ""))
        swift, peer = self.all_passed()
        status, cases, output = self.report([line for line in swift if "A1_02" not in line], peer)
        self.assertEqual(status, 1, output)
        self.assertState(cases["A1_02"], "missing")
        self.assertIn("(1 without a test)", output)

    def test_a_test_seen_failed_and_passed_counts_as_failed(self):
        swift, peer = self.all_passed()
        status, cases, output = self.report(swift + [swift_line(SDK, "failed")], peer)
        self.assertEqual(status, 1, output)
        self.assertIn(f"{SDK} [fail]", cases["A1_01"])

    def test_a_peer_case_with_a_note_is_matched_by_its_name(self):
        swift, _ = self.all_passed()
        status, cases, output = self.report(swift, [f"ok    {BROWSER}: expected difference: a note"])
        self.assertEqual(status, 0, output)
        self.assertState(cases["A1_01"], "pass")


if __name__ == "__main__":
    unittest.main()
