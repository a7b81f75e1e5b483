#!/usr/bin/python3
"""TR-03124-2 conformance (issue 18; strict since issue 27): which tests check each test case of the
catalogue Tests/Conformance/TR-03124-2.tsv, and whether every one of them passed.

    conformance.py tee LOG CMD [ARG...]   runs CMD, its output (stdout and stderr) both shown and
                                          written to LOG; exits with CMD's status (make test keeps
                                          the output of its test runs so)
    conformance.py report [--root DIR] LOG...
                                          one line per test case: ID, pass/n.a./FAIL/missing, its
                                          tests (each not passed marked [fail], [skip] or
                                          [missing]); then the counts; exit status 1 when a case is
                                          red (the rules below) or a test names an unknown case
    conformance.py swift-filter           the --filter regular expression of the Swift tests that
                                          carry a test case ID (found in Tests/**/*.swift)
    conformance.py table [README]         the catalogue as a Markdown table with the tests that
                                          carry each ID (found in the sources, nothing run); with
                                          README, written into it between the markers
                                          <!-- conformance-table --> and <!-- /conformance-table -->

A test checks case ID when its name carries `EID_CLIENT_<ID>`, by convention first:
`@Test("EID_CLIENT_A2_05: …")` in Swift, `EID_CLIENT_A1_05: …` in a peer script's case name; one
test may name several cases (`EID_CLIENT_A4_09, EID_CLIENT_D_14: …`). The tests of a case are those
the sources name (Swift @Test display names, the peer scripts' docstring names and fault cases) and
any other the logs name. The results come from the logs: swift-testing's console lines (`Test
"NAME" passed|failed|skipped`) and the peer scripts' case lines (`ok    NAME` / `FAIL  NAME: why`).

The rules (docs/testing.md, "The conformance report"): a case is green when it has at least one
test and every one of its tests passed; it is red when one failed, was skipped, or is named in the
sources but did not run (missing), or when the case has no test at all. A test seen twice keeps its
worst result. A not-applicable case follows the same rules: its tests assert the reason it does not
apply (that the option or feature it needs is absent), so it is red when they fail or do not run.
--root DIR reads the catalogue and the sources under DIR instead of this repository (the rules'
own test, conformance_report_tests.py, gives it a made-up one).
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CATALOGUE = os.path.join("Tests", "Conformance", "TR-03124-2.tsv")
ID = re.compile(r"EID_CLIENT_([A-E][0-9]?_[0-9]{2}(?:_[a-k])?)\b")
SWIFT_RESULT = re.compile(r'Test "(.*?)" (?:with \d+ test cases? )?(passed|failed|skipped)\b')
PEER_RESULT = re.compile(r"^(ok|FAIL)  +(.*)$")
RANK = {"pass": 0, "skip": 1, "fail": 2, "missing": 3}
# The files that are no tests of their own: this script and the test of its rules (whose made-up
# names must not count for the real catalogue).
NOT_TESTS = ("conformance.py", "conformance_report_tests.py")


def catalogue(root=ROOT):
    """The catalogue's cases, in order: dicts with id, module, purpose, status, check, note."""
    cases = []
    with open(os.path.join(root, CATALOGUE), encoding="utf-8") as text:
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


def peer_name(line, known):
    """The test name of a peer case line's rest (`NAME (T s)`, `NAME: note` or `NAME: why`): the
    longest of the `known` names it starts with (a name may hold ": " itself), else the rest
    without its time."""
    for name in sorted(known, key=len, reverse=True):
        if line == name or line.startswith(name + ": ") or line.startswith(name + " ("):
            return name
    return re.sub(r" \(\d+(\.\d+)? s\)$", "", line)


def results(logs, known=()):
    """{test name: pass|fail|skip} from the logs; a name seen twice keeps its worst result. Peer
    case lines are read against the `known` names (the sources')."""
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
                    record(peer_name(peer.group(2), known), "pass" if peer.group(1) == "ok" else "fail")
    return found


def ids_of(name):
    return {match.group(1) for match in ID.finditer(name)}


def case_tests(case, sources, found):
    """[(name, outcome)] of the tests of `case`: those the sources name (missing when no log shows
    them) and those only the logs name."""
    names = {name for name in sources if case["id"] in ids_of(name)}
    names |= {name for name in found if case["id"] in ids_of(name)}
    return sorted((name, found.get(name, "missing")) for name in names)


def judge(tests):
    """Whether a case with `tests` is green: it has one, and every one passed."""
    return bool(tests) and all(outcome == "pass" for _, outcome in tests)


def report(logs, root=ROOT):
    cases = catalogue(root)
    known = {case["id"] for case in cases}
    sources = source_tests(root)
    found = results(logs, {name for name, path in sources.items() if path.endswith(".py")})
    unknown = sorted({i for name in list(found) + list(sources) for i in ids_of(name)} - known)
    passed = not_applicable = failed = without = 0
    width = max(len(case["id"]) for case in cases)
    for case in cases:
        tests = case_tests(case, sources, found)
        names = "; ".join(name if outcome == "pass" else f"{name} [{outcome}]" for name, outcome in tests)
        na = case["status"] == "n.a."
        if judge(tests):
            state = "n.a." if na else "pass"
            if na:
                not_applicable += 1
            else:
                passed += 1
            what = (f"{case['note']}; asserted by: {names}" if na
                    else names + (" (unit)" if case["check"] == "unit" else ""))
        else:
            failed += 1
            if not tests:
                without += 1
            state = "FAIL" if tests else "missing"
            what = (f"n.a. ({case['note']}); " if na else "") + (names or "no test names this case")
        print(f"{case['id']:<{width}}  {state:<7}  {what}")
    for i in unknown:
        print(f"note: a test names EID_CLIENT_{i}, which is not in the catalogue")
    print(f"{passed} passed, {not_applicable} n.a. (reason asserted), {failed} failed ({without} without a test)")
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


def test_sources(root=ROOT):
    """(path relative to the package, text) of every Swift and Python file under Tests/."""
    for folder, _, files in sorted(os.walk(os.path.join(root, "Tests"))):
        for file in sorted(files):
            if file.endswith((".swift", ".py")) and file not in NOT_TESTS:
                path = os.path.join(folder, file)
                with open(path, encoding="utf-8", errors="replace") as text:
                    yield os.path.relpath(path, root), text.read()


def source_tests(root=ROOT):
    """{test name: file} of every test in the sources whose name carries a case ID: Swift @Test
    display names; the peer scripts' method cases (their docstring is the name) and fault cases
    (`tr="A2_05,D_16_c"`, named as serve_peer_tests.py prints them: `EID_CLIENT_A2_05,
    EID_CLIENT_D_16_c: activation, auth, FAULT`)."""
    found = {}
    for path, source in test_sources(root):
        if path.endswith(".swift"):
            names = [name for name, _ in swift_tests(source)]
        else:
            names = re.findall(r'"""(EID_CLIENT_.*?)"""', source, re.DOTALL)
            # ausweisapp2_auth_peer_tests.py's fault cases, which serve_peer_tests.py runs against
            # eid serve as browser activations.
            names += [", ".join("EID_CLIENT_" + i.strip() for i in tr.split(",")) + ": activation, auth, "
                      + fault for fault, tr in re.findall(r'case\("([^"]*)"(?:(?!case\().)*?tr="([^"]*)"', source,
                                                          re.DOTALL)]
            path = path.replace("ausweisapp2_auth_peer_tests.py", "serve_peer_tests.py") if names else path
        for name in names:
            if ID.search(name):
                found[name] = path
    return found


def swift_filter(root=ROOT):
    """A regular expression for `swift test --filter` that matches the Swift tests carrying an ID
    (by their function names: swift-testing filters on identifiers, not display names)."""
    functions = sorted({function for path, source in test_sources(root) if path.endswith(".swift")
                        for name, function in swift_tests(source) if ID.search(name)})
    return "/(" + "|".join(functions) + r")\(" if functions else "^$"


def table(root=ROOT):
    """The Markdown lines of the table, with a count of the statuses first."""
    tests = source_tests(root)
    rows = []
    counts = {}
    for case in catalogue(root):
        named = sorted(f"`{os.path.basename(path)}`: {name.split(': ', 1)[-1]}"
                       for name, path in tests.items() if case["id"] in ids_of(name))
        if case["status"] == "n.a.":
            # Not applicable, and a test asserts why (the report counts it red without one).
            status = "n.a." if named else "missing"
            test = case["note"] + ("; asserted by " + "<br>".join(named) if named else "; no test asserts it")
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
    usage = ("usage: conformance.py tee LOG CMD [ARG...] | report [--root DIR] LOG... | swift-filter | "
             "table [README]")
    if len(sys.argv) < 2:
        sys.exit(usage)
    verb, arguments = sys.argv[1], sys.argv[2:]
    if verb == "tee" and len(arguments) >= 2:
        sys.exit(tee(arguments[0], arguments[1:]))
    if verb == "report":
        root = ROOT
        if arguments[:1] == ["--root"]:
            if len(arguments) < 2 or not os.path.isdir(arguments[1]):
                sys.exit("conformance: --root needs a directory")
            root, arguments = arguments[1], arguments[2:]
        sys.exit(report([log for log in arguments if os.path.exists(log)], root))
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
