#!/usr/bin/python3
"""Runs a command on a new pseudo-terminal (its controlling terminal), waits until it prints a
prompt containing PROMPT (case-insensitive) with the terminal's echo turned off, then types
Ctrl-C (the terminal sends SIGINT to the command), as a person giving up at a passphrase prompt
would. Once the command has ended, prints one line: "echo on" or "echo off", what the terminal
was left with (the slave side is kept open here, so its settings outlive the command), then
"status N" or "signal N". A command that prints nothing for 60 s is killed (exit 124).

usage: pty-interrupt.py PROMPT COMMAND [ARG...]"""
import fcntl
import os
import select
import signal
import sys
import termios
import time

if len(sys.argv) < 3:
    sys.exit("usage: pty-interrupt.py PROMPT COMMAND [ARG...]")
prompt = sys.argv[1].lower().encode()
master, slave = os.openpty()
pid = os.fork()
if pid == 0:
    os.close(master)
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    if slave > 2:
        os.close(slave)
    os.execvp(sys.argv[2], sys.argv[2:])
output = b""
interrupted = False
done = 0
idle = 0.0
while True:
    # Short waits: the slave is held open here, so the master never reads end-of-file; the
    # command's end is seen by waitpid instead.
    ready, _, _ = select.select([master], [], [], 0.1)
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        break
    if not ready:
        idle += 0.1
        if idle >= 60:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            sys.stdout.buffer.write(output)
            sys.exit(124)
        continue
    idle = 0.0
    output += os.read(master, 4096)
    if not interrupted and prompt in output.lower():
        # Type Ctrl-C once echo is off (the prompt may show just before). The terminal's state
        # announces itself nowhere to wait on, so it is asked again until it is off; the bound
        # (60 s) only stops a hang, and running out of it is an error, never a Ctrl-C sent early.
        deadline = time.monotonic() + 60
        while termios.tcgetattr(slave)[3] & termios.ECHO:
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                sys.exit("echo was never turned off after the prompt")
            time.sleep(0.005)
        os.write(master, b"\x03")
        interrupted = True
if not interrupted:
    sys.stdout.buffer.write(output)
    sys.exit("the prompt never showed")
echo = termios.tcgetattr(slave)[3] & termios.ECHO
print("echo on" if echo else "echo off")
print("signal %d" % os.WTERMSIG(status) if os.WIFSIGNALED(status) else "status %d" % os.WEXITSTATUS(status))
