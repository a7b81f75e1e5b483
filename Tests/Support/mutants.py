#!/usr/bin/env python3
"""make mutants: applies each named mutant of Tests/Support/mutants.json to the source, one at a
time, builds in a scratch path of its own, runs the tests that should catch it and reports KILLED
or SURVIVED; the source is restored after each mutant, also on a failure or ^C (docs/testing.md,
"Mutation testing").

    mutants.py [--list] [--no-baseline] [NAME...]

A mutant is an exact search and replace in one file: the search text must occur exactly once, so a
refactor that moves or changes the checked code breaks the mutant loudly (BROKEN) instead of
mutating nothing. mutants.json lists them from the highest target down (Workflows before Online, EAC,
SmartCard): each build then recompiles only the mutant's target and those above it. The tests first
run on the unmutated build (the baseline): a mutant counts as
killed only by tests that pass without it. Exit status 0 when every mutant is killed or named
equivalent (its "equivalent" field gives the reason), 1 otherwise.
"""

import json
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MUTANTS = os.path.join(ROOT, "Tests", "Support", "mutants.json")
SCRATCH = os.path.join(ROOT, ".build-mutants")
# The original text of the file a mutant is applied to, while it is: a run that was killed outright
# (SIGKILL, a power cut) is undone by the next run before anything else.
PENDING = os.path.join(SCRATCH, "pending-restore.json")
SWIFT = os.environ.get("SWIFT") or "swift"
ENV = os.path.join(ROOT, "Tests", "Support", "pcsc-env.sh")
# swift-testing's last line: "Test run with N tests passed/failed ..." (after a symbol).
RUN_LINE = re.compile(r"Test run with (\d+) tests? (?:in \d+ suites? )?(passed|failed)")


def say(text):
    print(text, flush=True)


def load():
    with open(MUTANTS, encoding="utf-8") as f:
        mutants = json.load(f)
    names = [m["name"] for m in mutants]
    if len(set(names)) != len(names):
        raise SystemExit("mutants.json: a name occurs twice")
    return mutants


def restore_pending():
    if not os.path.exists(PENDING):
        return
    with open(PENDING, encoding="utf-8") as f:
        pending = json.load(f)
    with open(os.path.join(ROOT, pending["file"]), "w", encoding="utf-8") as f:
        f.write(pending["text"])
    os.remove(PENDING)
    say(f"restored {pending['file']} from an earlier run that did not finish")


class Applied:
    """The mutant in the source for the duration of a `with` block; the original text afterwards."""

    def __init__(self, mutant):
        self.mutant = mutant
        self.path = os.path.join(ROOT, mutant["file"])

    def __enter__(self):
        with open(self.path, encoding="utf-8") as f:
            self.original = f.read()
        count = self.original.count(self.mutant["find"])
        if count != 1:
            raise Broken(f"the search text occurs {count} times in {self.mutant['file']}, not once")
        with open(PENDING, "w", encoding="utf-8") as f:
            json.dump({"file": self.mutant["file"], "text": self.original}, f)
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(self.original.replace(self.mutant["find"], self.mutant["replace"]))
        return self

    def __exit__(self, *exc):
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(self.original)
        os.remove(PENDING)
        return False


class Broken(Exception):
    pass


def run(command, log, env=None):
    """Runs `command` niced, its output to `log`; its exit status and output. The command runs in a
    process group of its own, which ^C or SIGTERM ends as a whole (swift build's compilers included)
    before the source is restored."""
    with open(log, "w", encoding="utf-8") as out:
        process = subprocess.Popen(
            ["nice", *command], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        try:
            status = process.wait()
        except BaseException:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            raise
    with open(log, encoding="utf-8", errors="replace") as f:
        return status, f.read()


def build(log, mutated=None):
    """Whether the build succeeded and, given `mutated` (a source path), compiled that file: a
    survivor is only one when its mutant is in the binaries."""
    status, output = run([SWIFT, "build", "--build-tests", "--scratch-path", SCRATCH], log)
    if status != 0:
        return False
    name = os.path.basename(mutated) if mutated else None
    return name is None or any("Compiling" in line and name in line for line in output.splitlines())


def bin_path():
    return subprocess.run(
        [SWIFT, "build", "--scratch-path", SCRATCH, "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
        check=True).stdout.strip()


def test(filter_, e2e, log):
    """(status, tests run) of the tests matching `filter_`; under a private pcscd when `e2e`."""
    command = [SWIFT, "test", "--skip-build", "--disable-xctest", "--scratch-path", SCRATCH, "--filter", filter_]
    if e2e:
        command = [ENV, "run", os.path.join(SCRATCH, "e2e"), *command]
    env = dict(os.environ, EID_BIN_DIR=bin_path())
    status, output = run(command, log, env)
    counts = RUN_LINE.findall(output)
    return status, int(counts[-1][0]) if counts else 0


def main(argv):
    mutants = load()
    if "--list" in argv:
        for m in mutants:
            say(f"{m['name']:30} {m['file']}: {m['check']}")
        return 0
    chosen = [a for a in argv if not a.startswith("--")]
    unknown = set(chosen) - {m["name"] for m in mutants}
    if unknown:
        raise SystemExit(f"no such mutant: {', '.join(sorted(unknown))} (--list names them)")
    if chosen:
        mutants = [m for m in mutants if m["name"] in chosen]
    logs = os.path.join(SCRATCH, "logs")
    os.makedirs(logs, exist_ok=True)
    restore_pending()
    # ^C and SIGTERM unwind through `Applied.__exit__`, which puts the source back.
    signal.signal(signal.SIGTERM, signal.default_int_handler)

    if "--no-baseline" not in argv:
        started = time.monotonic()
        if not build(os.path.join(logs, "baseline.build.log")):
            say(f"the unmutated source does not build: {logs}/baseline.build.log")
            return 1
        for m in mutants:
            status, count = test(m["tests"], m.get("e2e", False), os.path.join(logs, f"baseline.{m['name']}.log"))
            if status != 0 or count == 0:
                say(f"baseline: the tests of {m['name']} fail or match nothing without the mutant "
                    f"({count} run, status {status}): {logs}/baseline.{m['name']}.log")
                return 1
        say(f"baseline: every mutant's tests pass unmutated ({time.monotonic() - started:.0f} s)")

    results = []
    begun = time.monotonic()
    for m in mutants:
        say(f"{m['name']}: {m['check']} ({m['file']})")
        build_seconds = test_seconds = 0.0
        count = 0
        try:
            with Applied(m):
                started = time.monotonic()
                built = build(os.path.join(logs, f"{m['name']}.build.log"), m["file"])
                build_seconds = time.monotonic() - started
                if not built:
                    result = "BROKEN (not built)"
                else:
                    started = time.monotonic()
                    status, count = test(m["tests"], m.get("e2e", False), os.path.join(logs, f"{m['name']}.test.log"))
                    test_seconds = time.monotonic() - started
                    result = "KILLED" if status != 0 else "SURVIVED"
        except Broken as e:
            result = f"BROKEN ({e})"
        if result == "SURVIVED" and m.get("equivalent"):
            result = "SURVIVED (equivalent)"
        results.append((m, result, count, build_seconds, test_seconds))
        say(f"  {result}: {count} tests, build {build_seconds:.0f} s, tests {test_seconds:.0f} s")

    say("")
    say(f"{'mutant':30} {'result':22} {'tests':>5} {'build':>7} {'run':>6}")
    for m, result, count, build_seconds, test_seconds in results:
        say(f"{m['name']:30} {result:22} {count:5} {build_seconds:6.0f}s {test_seconds:5.0f}s")
    for m, result, *_ in results:
        if result == "SURVIVED (equivalent)":
            say(f"{m['name']} is equivalent: {m['equivalent']}")
    bad = [m["name"] for m, result, *_ in results if result not in ("KILLED", "SURVIVED (equivalent)")]
    if bad:
        say(f"not killed: {', '.join(bad)} ({time.monotonic() - begun:.0f} s)")
        return 1
    say(f"{len(results)} mutants: every one killed or equivalent ({time.monotonic() - begun:.0f} s)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        say("interrupted; the source is restored")
        sys.exit(130)
