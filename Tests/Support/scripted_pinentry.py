#!/usr/bin/python3
"""A scripted GnuPG pinentry for the browser tests (`eid serve --pinentry` this file): it speaks
Assuan on stdin/stdout as pinentry does (the greeting OK, OK to every setting: SETTITLE, SETDESC,
SETPROMPT, SETOK, SETCANCEL, SETTIMEOUT, OPTION, …) and answers the one question of its dialog as
a person would who was told what to do. eid starts it anew for each dialog.

SCRIPTED_PINENTRY (inherited through eid's environment) names a directory; its file `answer`
holds what the person does:

    pin DIGITS   "Proceed" at CONFIRM; DIGITS at the first GETPIN
    cancel       Cancel at CONFIRM (ERR 83886179, GPG_ERR_CANCELED)

Any later GETPIN (the PIN asked again after a wrong one, or the CAN) is cancelled, so a wrong PIN
ends the workflow instead of blocking the card. Each question is appended to the file `asked` as
`CONFIRM` or `GETPIN PROMPT` (no secret), for the test to check which dialogs eid opened.
"""
import os
import sys
import urllib.parse

CANCELLED = "ERR 83886179 Operation cancelled <Pinentry>"


def main():
    directory = os.environ.get("SCRIPTED_PINENTRY")
    if not directory:
        sys.exit("scripted_pinentry.py: SCRIPTED_PINENTRY (a directory with the file `answer`) is not set")
    with open(os.path.join(directory, "answer")) as f:
        verb, _, pin = f.read().strip().partition(" ")
    asked_path = os.path.join(directory, "asked")
    prompt = ""

    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def ask(question):
        with open(asked_path, "a") as log:
            log.write(question + "\n")
        with open(asked_path) as log:
            return sum(1 for line in log if line.startswith("GETPIN"))

    say("OK Pleased to meet you")
    for line in sys.stdin:
        command, _, argument = line.rstrip("\r\n").partition(" ")
        command = command.upper()
        if command == "SETPROMPT":
            prompt = urllib.parse.unquote(argument)
        if command == "CONFIRM":
            ask("CONFIRM")
            say("OK" if verb == "pin" else CANCELLED)
        elif command == "GETPIN":
            if ask(f"GETPIN {prompt}") == 1 and verb == "pin":
                say(f"D {pin}")
                say("OK")
            else:
                say(CANCELLED)
        elif command == "BYE":
            say("OK closing connection")
            return
        else:
            say("OK")


if __name__ == "__main__":
    main()
