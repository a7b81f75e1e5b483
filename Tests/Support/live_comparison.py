"""AusweisApp2 and eid compared live: both clients run the same case in the same run (the same
eid-testserver, the same eid-sim card state), one after the other, and what an integrator branches
on must be the same in both transcripts: the order and types of the SDK messages, their fields and
values, the result major and minor, the refresh URL, the HTTP status codes and the Location's
ResultMajor/ResultMinor. Used by ausweisapp2_auth_peer_tests.py and serve_peer_tests.py.

What legitimately differs is normalised, and nothing else: NORMALISATIONS is the whole list, printed
at the start of each live run. Where eid differs from AusweisApp2 1.26.2 on purpose, or a difference
was found live, the peer scripts name the case and why, and assert both sides' known behaviour;
FIELD_DIFFERENCES below are the fields so found.
"""
import json
import re

NORMALISATIONS = (
    "session ids: session=ID (the server gives each authentication a new one)",
    "HTTP answers: status, media type and the Location's address, ResultMajor and ResultMinor; not the Date "
    "(timestamps), the Server or the ?Status body (versions), nor pages' wording (each side asserts its own)",
    "the AUTH result's description, message and language: present or not, not their text (eid has words of "
    "its own; integrators branch on major and minor)",
    "READER and STATUS messages: left out of the order (they follow card events and progress, not the "
    "workflow's steps)",
    "ACCESS_RIGHTS' chat lists: compared as sets (their order carries no meaning)",
)

# Fields one client sends and the other does not, found live, each with why: (message, field, the side that
# sends it, the type of its value). Asserted on both sides (the one without it never sends it, the other
# only with a value of its type), then left out of the comparison.
FIELD_DIFFERENCES = {
    ("AUTH", "reason", "eid", str): "AUTH result.reason: eid names the failure's reason, as AusweisApp 2.x's SDK "
                                    "does (1.26.2 names none)",
}

UNORDERED = ("READER", "STATUS")
PEOPLE_TEXT = ("description", "message", "language")
SESSION = re.compile(r"session=[0-9A-Za-z-]+")


def normalise(value):
    """`value` (a decoded JSON message) with session ids normalised, `_at` dropped."""
    if isinstance(value, dict):
        return {key: normalise(item) for key, item in value.items() if not key.startswith("_")}
    if isinstance(value, list):
        return [normalise(item) for item in value]
    if isinstance(value, str):
        return SESSION.sub("session=ID", value)
    return value


def sdk_view(transcript):
    """The messages an SDK client received, in order, as an integrator branches on them: READER and
    STATUS left out, session ids normalised, the AUTH result's texts for people only
    marked present."""
    view = []
    for line in transcript:
        if not line.startswith("< "):
            continue
        message = normalise(json.loads(line[2:]))
        if message.get("msg") in UNORDERED:
            continue
        result = message.get("result")
        if isinstance(result, dict):
            message["result"] = {key: ("(text)" if key in PEOPLE_TEXT and item else item)
                                 for key, item in result.items()}
        if message.get("msg") == "ACCESS_RIGHTS" and isinstance(message.get("chat"), dict):
            message["chat"] = {key: sorted(item) if isinstance(item, list) else item
                               for key, item in message["chat"].items()}
        view.append(message)
    return view


def field_differences(reference, candidate):
    """Asserts FIELD_DIFFERENCES on both sides' SDK views (`reference` AusweisApp2's, `candidate` eid's)
    and takes those fields out of both; returns (the notes of the ones eid sent, problems)."""
    notes, problems = set(), []
    holders = {"AUTH": lambda m: m.get("result"), "ENTER_*": lambda m: m.get("reader")}
    for side, view in (("AusweisApp2", reference), ("eid", candidate)):
        for message in view:
            for (name, field, sender, kind), note in FIELD_DIFFERENCES.items():
                holder = holders.get(name, lambda m: m)(message)
                named = message.get("msg", "").startswith("ENTER_") if name == "ENTER_*" else message.get("msg") == name
                if not named or not isinstance(holder, dict) or field not in holder:
                    continue
                value = holder.pop(field)
                if side != sender:
                    problems.append(f"{side} now sends {name} {field} ({short(value)}): {note}")
                elif not isinstance(value, kind):
                    problems.append(f"{side}'s {name} {field} is {short(value)}, not a {kind.__name__}")
                else:
                    notes.add(note)
    return sorted(notes), problems


def differences(reference, candidate, path=""):
    """Where `candidate` (eid's observation) differs from `reference` (AusweisApp2's), one string
    each, naming the path (`sdk[2].result.minor`) and both values."""
    found = []
    if isinstance(reference, dict) and isinstance(candidate, dict):
        for key in sorted(set(reference) | set(candidate), key=str):
            where = f"{path}.{key}" if path else str(key)
            if key not in candidate:
                found.append(f"{where}: eid has none, AusweisApp2 {short(reference[key])}")
            elif key not in reference:
                found.append(f"{where}: eid {short(candidate[key])}, AusweisApp2 has none")
            else:
                found += differences(reference[key], candidate[key], where)
    elif isinstance(reference, list) and isinstance(candidate, list):
        if len(reference) != len(candidate) and all(isinstance(m, dict) and "msg" in m for m in reference + candidate):
            found.append(f"{path}: eid {[m['msg'] for m in candidate]}, AusweisApp2 {[m['msg'] for m in reference]}")
        else:
            for index, (left, right) in enumerate(zip(reference, candidate)):
                found += differences(left, right, f"{path}[{index}]")
            if len(reference) != len(candidate):
                found.append(f"{path}: eid {len(candidate)} items, AusweisApp2 {len(reference)}")
    elif reference != candidate:
        found.append(f"{path}: eid {short(candidate)}, AusweisApp2 {short(reference)}")
    return found


def short(value, limit=160):
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


class Tally:
    """How the cases of a run were judged: compared live (eid's observation equal to AusweisApp2's),
    an expected difference (both run live, each side asserting its own known behaviour), or recorded
    (AusweisApp2 cannot run the case: eid against what was written down, with the reason)."""

    def __init__(self):
        self.live = []
        self.different = []
        self.recorded = []
        self.fields = set()

    def summary(self, total):
        return (f"compared live with AusweisApp2: {len(self.live) + len(self.different)} of {total} "
                f"({len(self.live)} equal, {len(self.different)} expected differences asserted on both sides; "
                f"{len(self.recorded)} recorded: AusweisApp2 cannot run them)"
                + "".join(f"\n  field difference found live, asserted on both sides: {note}"
                          for note in sorted(self.fields)))


def print_normalisations():
    print("live comparison, normalised: " + "; ".join(NORMALISATIONS), flush=True)
