#!/usr/bin/env bash
# make demo: a software eID card (eid-sim) in the real pcscd, and eid working with it.
# Runs inside `pcsc-env.sh run`, which provides the private pcscd and its readers.
set -euo pipefail
bin=${1:?bin dir}
first=${EID_E2E_READERS%%;*}
reader=${first%=*}
port=${first##*=}

show() {
    local shown="$*"
    printf '\n\033[1m$ %s\033[0m\n' "${shown//$bin\//}"
    "$@"
}

wait_for_card() {
    for _ in $(seq 1 100); do
        "$bin/eid" readers --json | grep -q "\"name\":\"$reader\",\"insertable\":false,\"attached\":true,\"keypad\":false,\"card\":{\"" && return 0
        sleep 0.1
    done
    echo "demo: the software card did not show up in $reader" >&2
    return 1
}

sim_pid=
stop_sim() {
    if [ -n "$sim_pid" ]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; fi
    sim_pid=
    # Like a card taken out of a reader: wait until pcscd has seen it go.
    for _ in $(seq 1 100); do
        "$bin/eid" readers --json | grep -q "\"name\":\"$reader\",\"insertable\":false,\"attached\":true,\"keypad\":false,\"card\":null" && return 0
        sleep 0.1
    done
}
trap stop_sim EXIT

echo "A software eID card (eid-sim) goes into the vpcd reader '$reader' of the real pcscd."
"$bin/eid-sim" --vpcd "127.0.0.1:$port" 2>/dev/null &
sim_pid=$!
wait_for_card
show "$bin/eid" readers
show "$bin/eid" readers --json
stop_sim

echo
echo "A new card with the 5-digit transport PIN 12345. eid change-pin replaces it with 654321;"
echo "the demo answers in the JSON face (SET_PIN, SET_NEW_PIN on standard input)."
"$bin/eid-sim" --vpcd "127.0.0.1:$port" --transport-pin 2>/dev/null &
sim_pid=$!
wait_for_card
show "$bin/eid" readers
printf '\n\033[1m$ printf '"'"'%%s\\n'"'"' '"'"'{"cmd":"SET_PIN","value":"12345"}'"'"' '"'"'{"cmd":"SET_NEW_PIN","value":"654321"}'"'"' | eid change-pin --json --reader '"'"'%s'"'"'\033[0m\n' "$reader"
printf '%s\n' '{"cmd":"SET_PIN","value":"12345"}' '{"cmd":"SET_NEW_PIN","value":"654321"}' |
    "$bin/eid" change-pin --json --reader "$reader"
echo
echo "The card after the change: three attempts, and the new PIN 654321 opens it (the PIN goes back to 123456):"
show "$bin/eid" readers
printf '%s\n' '{"cmd":"SET_PIN","value":"654321"}' '{"cmd":"SET_NEW_PIN","value":"123456"}' |
    "$bin/eid" change-pin --json --reader "$reader" | tail -n 1
stop_sim
