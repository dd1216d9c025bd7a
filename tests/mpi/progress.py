#!/usr/bin/env python3
"""The progress line (smpi/progress): shown on stderr when it is a terminal (a pseudo-terminal
here), rewritten in place and erased at the end; absent when stderr is a pipe or with
smpi/progress:no. smpi/progress-interval:0 updates it every 256 MPI calls, so that a short
run shows it too.

Usage: progress.py SMPIRUN PROG
"""
import os
import pty
import subprocess
import sys
import threading

LINE = "smpi: simulated "


def on_tty(cmd):
    """runs cmd with stderr on a pseudo-terminal; returns (exit status, stdout, tty output)"""
    master, slave = pty.openpty()
    chunks = []

    def reader():
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO: the other side is closed
                break
            if not data:
                break
            chunks.append(data)

    t = threading.Thread(target=reader)
    t.start()
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=slave, text=True, timeout=60)
    os.close(slave)
    t.join(timeout=10)
    os.close(master)
    return res.returncode, res.stdout, b"".join(chunks).decode(errors="replace")


def main():
    smpirun, prog = sys.argv[1], sys.argv[2]
    fast = "--cfg=smpi/progress-interval:0"
    problems = []

    rc, out, tty = on_tty([smpirun, "-np", "4", fast, prog])
    if rc != 0 or "progress: OK" not in out:
        problems.append(f"tty run failed ({rc}): {out}")
    if LINE not in tty or "ranks finished" not in tty or "wall-clock" not in tty:
        problems.append("no progress line on the terminal: " + repr(tty[:300]))
    elif not tty.rstrip(" ").endswith("\r\x1b[K"):
        problems.append("the progress line is not erased at the end: " + repr(tty[-120:]))

    rc, out, tty = on_tty([smpirun, "-np", "4", fast, "--cfg=smpi/progress:no", prog])
    if LINE in tty:
        problems.append("smpi/progress:no still shows the line")

    res = subprocess.run([smpirun, "-np", "4", fast, prog], capture_output=True, text=True,
                         timeout=60)
    if res.returncode != 0 or LINE in res.stderr:
        problems.append("a piped stderr got the progress line: " + repr(res.stderr[:300]))

    res = subprocess.run([smpirun, "-np", "4", fast, "--cfg=smpi/progress:yes", prog],
                         capture_output=True, text=True, timeout=60)
    if LINE not in res.stderr:
        problems.append("smpi/progress:yes does not show the line on a pipe")

    for p in problems:
        print("FAILED:", p)
    if not problems:
        print("progress: OK")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
