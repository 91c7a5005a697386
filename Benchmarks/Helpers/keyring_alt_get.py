"""Times keyrings.alt's EncryptedKeyring.get_password, for RizqBench's vault-get: Python keyring's
own encrypted file, the peer of the vault on a machine with no desktop keyring.

Started by RizqBench with the virtualenv's python (keyring, keyrings.alt and pycryptodome
installed by scripts/bench).

    python keyring_alt_get.py SERVICE ACCOUNT FILE

Reads the token to store on its first line of standard input (never from the command line),
stores it in FILE with a passphrase set in code (EncryptedKeyring otherwise asks on the
terminal in every process), then answers each further line "N" with N per-call times of
get_password in nanoseconds, space-separated, on one line. "quit" ends.
"""
import sys
import time

from keyrings.alt.file import EncryptedKeyring


def main():
    service, account, path = sys.argv[1], sys.argv[2], sys.argv[3]
    backend = EncryptedKeyring()
    backend.file_path = path
    backend.keyring_key = "bench passphrase"
    token = sys.stdin.readline().rstrip("\n")
    backend.set_password(service, account, token)
    if backend.get_password(service, account) != token:
        sys.exit("keyring_alt_get: the stored token did not read back")
    print("ready", flush=True)
    for line in sys.stdin:
        command = line.strip()
        if command == "quit":
            break
        times = []
        for _ in range(int(command)):
            start = time.perf_counter_ns()
            value = backend.get_password(service, account)
            times.append(time.perf_counter_ns() - start)
            if value != token:
                sys.exit("keyring_alt_get: get_password returned another value")
        print(" ".join(str(t) for t in times), flush=True)


main()
