"""Times Python keyring's get_password against the Secret Service, for RizqBench's secret-get.

Started by RizqBench with the virtualenv's python (keyring and secretstorage installed by
scripts/bench) inside the private Secret Service session of scripts/with-keyring.

    python keyring_get.py SERVICE ACCOUNT

Reads the token to store on its first line of standard input (never from the command line),
stores it with keyring.set_password, then answers each further line "N" with N per-call times
of get_password in nanoseconds, space-separated, on one line. "quit" deletes the item and ends.
"""
import sys
import time

import keyring
from keyring.backends import SecretService


def main():
    service, account = sys.argv[1], sys.argv[2]
    backend = SecretService.Keyring()  # the Secret Service backend, never a fallback
    keyring.set_keyring(backend)
    token = sys.stdin.readline().rstrip("\n")
    keyring.set_password(service, account, token)
    if keyring.get_password(service, account) != token:
        sys.exit("keyring_get: the stored token did not read back")
    print("ready", flush=True)
    for line in sys.stdin:
        command = line.strip()
        if command == "quit":
            break
        times = []
        for _ in range(int(command)):
            start = time.perf_counter_ns()
            value = keyring.get_password(service, account)
            times.append(time.perf_counter_ns() - start)
            if value != token:
                sys.exit("keyring_get: get_password returned another value")
        print(" ".join(str(t) for t in times), flush=True)
    keyring.delete_password(service, account)


main()
