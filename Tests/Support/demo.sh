#!/usr/bin/env bash
# make demo: a software eID card (eid-sim) in the real pcscd, and eid working with it.
# Runs inside `pcsc-env.sh run`, which provides the private pcscd and its readers.
set -euo pipefail
bin=${1:?bin dir}
first=${EID_E2E_READERS%%;*}
reader=${first%=*}
port=${first##*=}

show() {
    printf '\n\033[1m$ %s\033[0m\n' "$*"
    "$@"
}

wait_for_card() {
    for _ in $(seq 1 100); do
        "$bin/eid" readers --json | grep -q "\"name\":\"$reader\",\"attached\":true,\"keypad\":false,\"card\":{" && return 0
        sleep 0.1
    done
    echo "demo: the software card did not show up in $reader" >&2
    return 1
}

sim_pid=
stop_sim() {
    if [ -n "$sim_pid" ]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; fi
    sim_pid=
}
trap stop_sim EXIT

echo "A software eID card (eid-sim) goes into the vpcd reader '$reader' of the real pcscd."
"$bin/eid-sim" --vpcd "127.0.0.1:$port" 2>/dev/null &
sim_pid=$!
wait_for_card
show "$bin/eid" readers
show "$bin/eid" readers --json
stop_sim
