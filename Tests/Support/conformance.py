#!/usr/bin/python3
"""TR-03124-2 conformance (issue 18): which test checks each test case of the catalogue
Tests/Conformance/TR-03124-2.tsv, and whether it passed.

    conformance.py tee LOG CMD [ARG...]   runs CMD, its output (stdout and stderr) both shown and
                                          written to LOG; exits with CMD's status (make test keeps
                                          the output of its test runs so)
    conformance.py report LOG...          one line per test case: ID, pass/fail/missing/n.a., the
                                          test(s); then `N passed, M failed`; exit status 1 when an
                                          applicable case has a failing test or none
    conformance.py swift-filter           the --filter regular expression of the Swift tests that
                                          carry a test case ID (found in Tests/**/*.swift)
    conformance.py table [README]         the catalogue as a Markdown table with the tests that
                                          carry each ID (found in the sources, nothing run); with
                                          README, written into it between the markers
                                          <!-- conformance-table --> and <!-- /conformance-table -->

A test checks case ID when its name carries `EID_CLIENT_<ID>`, by convention first:
`@Test("EID_CLIENT_A2_05: …")` in Swift, `EID_CLIENT_A1_05: …` in a peer script's case name; one
test may name several cases (`EID_CLIENT_A4_09, EID_CLIENT_D_14: …`). The results come from the
logs: swift-testing's console lines (`Test "NAME" passed|failed|skipped`) and the peer scripts'
case lines (`ok    NAME` / `FAIL  NAME: why`). A skipped test does not pass.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CATALOGUE = os.path.join(ROOT, "Tests", "Conformance", "TR-03124-2.tsv")
ID = re.compile(r"EID_CLIENT_([A-E][0-9]?_[0-9]{2}(?:_[a-k])?)\b")
SWIFT_RESULT = re.compile(r'Test "(.*?)" (?:with \d+ test cases? )?(passed|failed|skipped)\b')
PEER_RESULT = re.compile(r"^(ok|FAIL)  +(.*)$")
RANK = {"pass": 0, "skip": 1, "fail": 2}


def catalogue():
    """The catalogue's cases, in order: dicts with id, module, purpose, status, check, note."""
    cases = []
    with open(CATALOGUE, encoding="utf-8") as text:
        header = None
        for line in text:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if header is None:
                header = fields
                continue
            case = dict(zip(header, fields + [""] * (len(header) - len(fields))))
            if case["status"] not in ("applicable", "n.a."):
                sys.exit(f"conformance: {case['id']}: status {case['status']!r} is neither applicable nor n.a.")
            cases.append(case)
    return cases


def results(logs):
    """{test name: pass|fail|skip} from the logs; a name seen twice keeps its worst result."""
    found = {}

    def record(name, outcome):
        if name not in found or RANK[outcome] > RANK[found[name]]:
            found[name] = outcome

    for log in logs:
        with open(log, encoding="utf-8", errors="replace") as text:
            for line in text:
                line = line.rstrip("\n")
                swift = SWIFT_RESULT.search(line)
                if swift and ID.search(swift.group(1)):
                    record(swift.group(1), {"passed": "pass", "failed": "fail", "skipped": "skip"}[swift.group(2)])
                    continue
                peer = PEER_RESULT.match(line)
                if peer and ID.search(peer.group(2)):
                    # `ok    NAME (T s)`, `ok    NAME: note` or `FAIL  NAME: why`, kept whole (a
                    # name may hold ": " itself) but for the time.
                    name = re.sub(r" \(\d+(\.\d+)? s\)$", "", peer.group(2))
                    record(name, "pass" if peer.group(1) == "ok" else "fail")
    return found


def ids_of(name):
    return {match.group(1) for match in ID.finditer(name)}


def report(logs):
    cases = catalogue()
    known = {case["id"] for case in cases}
    found = results(logs)
    unknown = sorted({i for name in found for i in ids_of(name)} - known)
    passed = failed = missing = not_applicable = 0
    width = max(len(case["id"]) for case in cases)
    for case in cases:
        tests = sorted((name, outcome) for name, outcome in found.items() if case["id"] in ids_of(name))
        names = "; ".join(name if outcome == "pass" else f"{name} [{outcome}]" for name, outcome in tests)
        if case["status"] == "n.a.":
            not_applicable += 1
            state, what = "n.a.", case["note"] + (f" (tested: {names})" if names else "")
        elif not tests:
            failed += 1
            missing += 1
            state, what = "missing", case["purpose"]
        elif all(outcome == "pass" for _, outcome in tests):
            passed += 1
            state, what = "pass", names + (" (unit)" if case["check"] == "unit" else "")
        else:
            failed += 1
            state, what = "FAIL", names
        print(f"{case['id']:<{width}}  {state:<7}  {what}")
    for i in unknown:
        print(f"note: a test names EID_CLIENT_{i}, which is not in the catalogue")
    print(f"{passed} passed, {failed} failed ({missing} without a test; {not_applicable} n.a.)")
    return 1 if failed or unknown else 0


SWIFT_TEST = re.compile(r'@Test\(\s*(?:"""\n(.*?)\n\s*"""|"((?:[^"\\]|\\.)*)")(.*?)\bfunc\s+(\w+)\(', re.DOTALL)


def swift_tests(source):
    """(display name, function name) of each @Test with a display name in Swift `source`; a
    multi-line literal's lines joined as Swift joins them (a trailing backslash continues the line)."""
    found = []
    for match in SWIFT_TEST.finditer(source):
        if match.group(1) is not None:
            lines = [line.strip() for line in match.group(1).split("\n")]
            name = ""
            for line in lines:
                name += line[:-1] if line.endswith("\\") else line + "\n"
            name = name.rstrip("\n")
        else:
            name = match.group(2)
        found.append((name, match.group(4)))
    return found


def test_sources():
    """(path relative to the package, text) of every Swift and Python file under Tests/."""
    for folder, _, files in os.walk(os.path.join(ROOT, "Tests")):
        for file in sorted(files):
            if file.endswith((".swift", ".py")) and file != os.path.basename(__file__):
                path = os.path.join(folder, file)
                with open(path, encoding="utf-8", errors="replace") as text:
                    yield os.path.relpath(path, ROOT), text.read()


def source_tests():
    """{test name: file} of every test in the sources whose name carries a case ID: Swift @Test
    display names; the peer scripts' method cases (their docstring is the name) and fault cases
    (`tr="A2_05,D_16_c"`, named `EID_CLIENT_A2_05, EID_CLIENT_D_16_c: …`)."""
    found = {}
    for path, source in test_sources():
        if path.endswith(".swift"):
            names = [name for name, _ in swift_tests(source)]
        else:
            names = re.findall(r'"""(EID_CLIENT_.*?)"""', source, re.DOTALL)
            # ausweisapp2_auth_peer_tests.py's fault cases, which serve_peer_tests.py runs against
            # eid serve as browser activations.
            names += [", ".join("EID_CLIENT_" + i.strip() for i in tr.split(",")) + ": activation with fault "
                      + fault for fault, tr in re.findall(r'case\("([^"]*)"(?:(?!case\().)*?tr="([^"]*)"', source,
                                                          re.DOTALL)]
            path = path.replace("ausweisapp2_auth_peer_tests.py", "serve_peer_tests.py") if names else path
        for name in names:
            if ID.search(name):
                found[name] = path
    return found


def swift_filter():
    """A regular expression for `swift test --filter` that matches the Swift tests carrying an ID
    (by their function names: swift-testing filters on identifiers, not display names)."""
    functions = sorted({function for path, source in test_sources() if path.endswith(".swift")
                        for name, function in swift_tests(source) if ID.search(name)})
    return "/(" + "|".join(functions) + r")\(" if functions else "^$"


def table():
    """The Markdown lines of the table, with a count of the statuses first."""
    tests = source_tests()
    rows = []
    counts = {}
    for case in catalogue():
        named = sorted(f"`{os.path.basename(path)}`: {name.split(': ', 1)[-1]}"
                       for name, path in tests.items() if case["id"] in ids_of(name))
        if case["status"] == "n.a.":
            status, test = "n.a.", case["note"]
        else:
            status = case["check"] if named else "missing"
            test = "<br>".join(named) if named else "—"
            if case["note"]:
                test += f" ({case['note']})"
        counts[status] = counts.get(status, 0) + 1
        rows.append(f"| {case['id']} | {case['module']} | {case['purpose']} | {status} | {test.replace('|', '/')} |")
    summary = "; ".join(f"{k}: {counts.get(k, 0)}" for k in ("e2e", "unit", "missing", "n.a."))
    return [f"{len(rows)} cases ({summary})", "", "| ID | module | what the case checks | status | test |",
            "| --- | --- | --- | --- | --- |"] + rows


def write_table(readme):
    start, end = "<!-- conformance-table -->", "<!-- /conformance-table -->"
    with open(readme, encoding="utf-8") as text:
        document = text.read()
    if start not in document or end not in document:
        sys.exit(f"conformance: {readme} has no {start} … {end} block")
    head, rest = document.split(start, 1)
    _, tail = rest.split(end, 1)
    with open(readme, "w", encoding="utf-8") as text:
        text.write(head + start + "\n" + "\n".join(table()) + "\n" + end + tail)


def tee(log, command):
    os.makedirs(os.path.dirname(os.path.abspath(log)), exist_ok=True)
    with open(log, "ab") as out:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for chunk in iter(lambda: process.stdout.read1(65536), b""):
            sys.stdout.buffer.write(chunk)
            sys.stdout.buffer.flush()
            out.write(chunk)
        return process.wait()


def main():
    usage = "usage: conformance.py tee LOG CMD [ARG...] | report LOG... | swift-filter | table [README]"
    if len(sys.argv) < 2:
        sys.exit(usage)
    verb, arguments = sys.argv[1], sys.argv[2:]
    if verb == "tee" and len(arguments) >= 2:
        sys.exit(tee(arguments[0], arguments[1:]))
    if verb == "report":
        sys.exit(report([log for log in arguments if os.path.exists(log)]))
    if verb == "swift-filter" and not arguments:
        print(swift_filter())
        return
    if verb == "table" and not arguments:
        print("\n".join(table()))
        return
    if verb == "table" and len(arguments) == 1:
        write_table(arguments[0])
        return
    sys.exit(usage)


if __name__ == "__main__":
    main()
