#!/usr/bin/python3
"""Runs a command on a new pseudo-terminal (its controlling terminal, so /dev/tty is the pty) and
answers every passphrase prompt it prints with the first line of this script's stdin, as a person
would type it: age -p, age -d and the vault's terminal source read the passphrase from the
terminal, never from stdin. Prints the command's terminal output (the answer is never echoed: the
prompts turn echo off, and the answer is sent only after the prompt appears and echo is off), then exits with the
command's exit status. A command that prints nothing for 60 s is killed (exit 124)."""
import os
import pty
import select
import signal
import sys
import termios
import time

if len(sys.argv) < 2:
    sys.exit("usage: pty-answer.py COMMAND [ARG...] < passphrase")
answer = sys.stdin.buffer.readline().rstrip(b"\n") + b"\n"
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
output = b""
answered_up_to = 0
while True:
    ready, _, _ = select.select([fd], [], [], 60)
    if not ready:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        sys.stdout.buffer.write(output)
        sys.exit(124)
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    output += chunk
    pending = output[answered_up_to:].lower()
    # A prompt: "passphrase" followed by a colon, on the output since the last answer.
    if b"passphrase" in pending and b":" in pending[pending.index(b"passphrase"):]:
        # A program may print its prompt before it turns echo off (age does): answer only once
        # the terminal no longer echoes, as a person typing after the prompt would be hidden.
        # The master's termios are the pair's; bounded: at most 2 s.
        for _ in range(400):
            try:
                if not termios.tcgetattr(fd)[3] & termios.ECHO:
                    break
            except termios.error:
                break
            time.sleep(0.005)
        os.write(fd, answer)
        answered_up_to = len(output)
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(output)
sys.exit(os.waitstatus_to_exitcode(status))
