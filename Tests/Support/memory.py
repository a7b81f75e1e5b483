"""Where a process's memory is, for `make bench` (bench.py) and README's Memory section.

- rollup(pid): /proc/PID/smaps_rollup in KiB (Rss, Pss, Pss_Anon, Pss_File, Private_Dirty, ...).
- breakdown(pid): /proc/PID/smaps summed per part of the process (the executable, each library or
  family of libraries, heap and other anonymous memory, stack): RSS, PSS and private dirty KiB.
  Private dirty in a file mapping is what the loader wrote there (relocations) or the program did.
- at_exit(argv): runs argv under ptrace (PTRACE_O_TRACEEXIT) and reads both at its exit, while its
  address space is still whole: for commands that end by themselves (`--version`, `readers`).
- peak_rss_kib(argv): GNU time's %M of the command itself (Linux keeps a process's peak RSS across
  execve, so a child of Python would report at least Python's RSS; GNU time forks it fresh).
"""
import ctypes
import os
import signal
import subprocess

TIME = "/usr/bin/time"

# Parts of the process, by the file a mapping comes from (first match wins).
PARTS = [
    ("libcurl + its libraries", ("libcurl", "libnghttp2", "libidn2", "librtmp", "libssh2", "libpsl", "libgssapi",
                                 "libldap", "liblber", "libzstd", "libbrotli", "libz.so", "libunistring",
                                 "libgnutls", "libhogweed", "libnettle", "libgmp", "libkrb5", "libk5crypto",
                                 "libcom_err", "libsasl2", "libp11-kit", "libtasn1", "libkeyutils", "libresolv",
                                 "libffi")),
    ("libxml2 + ICU", ("libxml2", "libicu", "liblzma")),
    ("libssl", ("libssl",)),
    ("libcrypto", ("libcrypto", "ossl-modules")),
    ("libpcsclite", ("libpcsclite",)),
    ("libc, libm, libstdc++, libgcc_s, ld.so", ("libc.so", "libm.so", "libstdc++", "libgcc_s", "ld-linux",
                                                 "libpthread", "libdl", "librt")),
]


def rollup(pid):
    """/proc/PID/smaps_rollup as {field: KiB}."""
    figures = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[2] == "kB":
                figures[parts[0].rstrip(":")] = int(parts[1])
    return figures


def part_of(path, executable):
    if path == executable:
        return "the executable (Swift runtime + eid)"
    if path == "[heap]" or path == "":
        return "heap and anonymous"
    if path == "[stack]":
        return "stack"
    if path.startswith("["):
        return "kernel ([vdso], [vvar])"
    name = os.path.basename(path)
    for part, prefixes in PARTS:
        if any(name.startswith(p) or p in path for p in prefixes):
            return part
    return "other files (for AusweisApp2: Qt, X11, GL, locales, ...)"


def breakdown(pid):
    """{part: {"rss", "pss", "dirty"}} in KiB, from /proc/PID/smaps."""
    executable = os.readlink(f"/proc/{pid}/exe")
    parts = {}
    current = None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            fields = line.split()
            if "-" in fields[0] and len(fields) >= 5 and ":" in fields[3]:
                path = " ".join(fields[5:]) if len(fields) > 5 else ""
                current = parts.setdefault(part_of(path, executable), {"rss": 0, "pss": 0, "dirty": 0})
            elif fields[0] == "Rss:":
                current["rss"] += int(fields[1])
            elif fields[0] == "Pss:":
                current["pss"] += int(fields[1])
            elif fields[0] == "Private_Dirty:":
                current["dirty"] += int(fields[1])
    return parts


_PTRACE_TRACEME, _PTRACE_CONT, _PTRACE_SETOPTIONS = 0, 7, 0x4200
_PTRACE_O_TRACEEXIT, _PTRACE_EVENT_EXIT = 0x40, 6


def at_exit(argv, stdin_text=""):
    """Runs argv to its end; at its exit (still whole): (rollup, breakdown, exit status)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=lambda: libc.ptrace(_PTRACE_TRACEME, 0, None, None))
    figures = None
    _, status = os.waitpid(proc.pid, 0)  # stopped at execve
    libc.ptrace(_PTRACE_SETOPTIONS, proc.pid, None, _PTRACE_O_TRACEEXIT)
    libc.ptrace(_PTRACE_CONT, proc.pid, None, None)
    if stdin_text:
        proc.stdin.write(stdin_text.encode())
    proc.stdin.close()
    while True:
        _, status = os.waitpid(proc.pid, 0)
        if os.WIFEXITED(status) or os.WIFSIGNALED(status):
            proc.returncode = os.waitstatus_to_exitcode(status)
            return figures[0], figures[1], proc.returncode
        if status >> 8 == (signal.SIGTRAP | (_PTRACE_EVENT_EXIT << 8)):
            figures = (rollup(proc.pid), breakdown(proc.pid))
            libc.ptrace(_PTRACE_CONT, proc.pid, None, None)
        else:  # a signal for the program: passed on
            libc.ptrace(_PTRACE_CONT, proc.pid, None, os.WSTOPSIG(status))


def peak_rss_kib(argv, stdin_text="", runs=3):
    """The largest of `runs` GNU time %M figures of argv (KiB)."""
    peaks = []
    rss_file = f"/tmp/eid-bench-rss-{os.getpid()}"
    for _ in range(runs):
        proc = subprocess.run([TIME, "-f", "%M", "-o", rss_file, *argv], input=stdin_text.encode(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        with open(rss_file) as f:
            peaks.append(int(f.read().split()[-1]))
        os.remove(rss_file)
        if proc.returncode != 0:
            raise SystemExit(f"bench: {' '.join(argv)} exited with status {proc.returncode}")
    return max(peaks)


def breakdown_table(columns):
    """A markdown table, one column per (title, breakdown), rows by part: RSS / PSS (private dirty) MiB."""
    order = [name for name in ("the executable (Swift runtime + eid)", "heap and anonymous", "stack")]
    order += [part for part, _ in PARTS]
    seen = set().union(*(b.keys() for _, b in columns))
    order = [p for p in order if p in seen] + sorted(seen - set(order))
    lines = ["| part | " + " | ".join(title for title, _ in columns) + " |",
             "| --- |" + " --- |" * len(columns)]
    for part in order:
        cells = []
        for _, parts in columns:
            f = parts.get(part)
            cells.append("-" if not f else f"{f['rss'] / 1024:.1f} / {f['pss'] / 1024:.1f} ({f['dirty'] / 1024:.1f})")
        lines.append(f"| {part} | " + " | ".join(cells) + " |")
    totals = [f"{sum(f['rss'] for f in b.values()) / 1024:.1f} / {sum(f['pss'] for f in b.values()) / 1024:.1f}"
              for _, b in columns]
    lines.append("| total | " + " | ".join(totals) + " |")
    return "\n".join(lines)
