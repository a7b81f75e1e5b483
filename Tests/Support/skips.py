#!/usr/bin/python3
"""The tests a run skipped, read from its output (docs/testing.md "Skips").

    skips.py LOG...

LOG: what `make test` printed (.ci/run keeps it). Two kinds of line name a skip:
- swift-testing's: `➜ Test NAME skipped.` or `➜ Test NAME skipped: "REASON"`, and the same with
  `Suite` (a skipped suite's tests follow, each on a line of its own);
- a peer script's (Tests/Support/*.py): `skipped: REASON` when the whole script did not run, or
  `skip  CASE: REASON` for one case (as `ok    CASE` and `FAIL  CASE: REASON`).

Prints each skipped test with its reason and a count. The exit status is 1 when a test was skipped
and the run is CI's (CI=true, or EID_NO_SKIPS=1, which .ci/run sets); elsewhere a skip is shown
but passes (a developer without, say, root for the unshare tests still gets a green `make test`).
It is also 1 when a log holds no swift-testing summary (`Test run with N tests …`): a log that does
not show the tests ran cannot show that none was skipped.
"""

import os
import re
import sys

# swift-testing prints a symbol first (➜ for a skip; another on terminals with other fonts).
SWIFT_SKIP = re.compile(r'^\S*\s*(Test|Suite) (.+?) skipped(?:\.|: "(.*)")\s*$')
SWIFT_SUMMARY = re.compile(r"^\S*\s*Test run with \d+ tests?\b")
PEER_SCRIPT_SKIP = re.compile(r"^skipped: (.*)$")
PEER_CASE_SKIP = re.compile(r"^skip  (.+)$")
PEER_SCRIPT_NAME = re.compile(r"\bTests/Support/(\w+\.py)\b")


def skips(lines):
    """[(kind, name, reason)] in the order the lines name them, and whether a swift-testing
    summary was seen. kind: "test", "suite", "peer script" or "peer case"."""
    found, summary = [], False
    script = None
    for line in lines:
        line = line.rstrip("\n")
        # make echoes each command before it runs: the last peer script named is the one talking.
        if named := PEER_SCRIPT_NAME.search(line):
            script = named.group(1)
        if SWIFT_SUMMARY.match(line):
            summary = True
        if match := SWIFT_SKIP.match(line):
            found.append((match.group(1).lower(), match.group(2), match.group(3) or "(no reason given)"))
        elif match := PEER_SCRIPT_SKIP.match(line):
            found.append(("peer script", script or "a peer script", match.group(1)))
        elif match := PEER_CASE_SKIP.match(line):
            found.append(("peer case", match.group(1), None))  # a case's name may hold colons
    return found, summary


def in_ci(environment):
    return environment.get("CI") == "true" or environment.get("EID_NO_SKIPS") == "1"


def main(arguments, environment):
    if not arguments:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    found, summary = [], False
    for path in arguments:
        with open(path, encoding="utf-8", errors="replace") as log:
            log_found, log_summary = skips(log)
        found += log_found
        summary = summary or log_summary
    strict = in_ci(environment)
    for kind, name, reason in found:
        print(f"skipped {kind}: {name}" + (f": {reason}" if reason else ""))
    if not summary:
        print(f"skips: no swift-testing summary in {' '.join(arguments)}: the tests did not run to the end")
        return 1
    if not found:
        print("skips: no test was skipped")
        return 0
    print(f"skips: {len(found)} skipped" + (" (CI allows none)" if strict else " (allowed outside CI)"))
    return 1 if strict else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], os.environ))
