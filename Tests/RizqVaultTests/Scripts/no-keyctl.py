#!/usr/bin/python3
"""Runs a command under a seccomp filter that refuses add_key, keyctl and request_key with
EPERM, as Docker's default seccomp profile does. Uses Debian's python3-seccomp (libseccomp)."""
import errno
import os
import sys

import seccomp

if len(sys.argv) < 2:
    sys.exit("usage: no-keyctl.py COMMAND [ARG...]")
rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
for name in ("add_key", "keyctl", "request_key"):
    rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
rules.load()
os.execvp(sys.argv[1], sys.argv[1:])
