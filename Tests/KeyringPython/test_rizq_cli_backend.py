"""Python keyring's own backend tests, run against `rizq-prefs secret`.

keyring ships the tests it asks of every backend (keyring.testing.backend.BackendBasicTests).
The backend below stores through the CLI as a script would: the service as --service=NAME,
the account after --, the password on stdin with --raw. scripts/test-keyring-python runs it
inside scripts/with-keyring, with RIZQ_CLI naming the built binary.
"""

import os
import subprocess

from keyring import errors
from keyring.backend import KeyringBackend
from keyring.testing.backend import BackendBasicTests

CLI = os.environ["RIZQ_CLI"]


def secret(command, service, username, password=None):
    return subprocess.run(
        [CLI, "secret", command, "--service=" + service]
        + (["--raw"] if command == "set" else [])
        + ["--", username],
        input=None if password is None else password.encode(),
        capture_output=True,
    )


class RizqCLIKeyring(KeyringBackend):
    """A keyring backend that is nothing but the rizq-prefs command line."""

    priority = 1

    def set_password(self, service, username, password):
        done = secret("set", service, username, password)
        if done.returncode != 0:
            raise errors.PasswordSetError(done.stderr.decode())

    def get_password(self, service, username):
        done = secret("get", service, username)
        if done.returncode == 1:  # no such secret
            return None
        if done.returncode != 0:
            raise errors.KeyringError(done.stderr.decode())
        return done.stdout.decode()

    def delete_password(self, service, username):
        done = secret("delete", service, username)
        if done.returncode != 0:
            raise errors.PasswordDeleteError(done.stderr.decode())


class TestRizqCLIKeyring(BackendBasicTests):
    def init_keyring(self):
        return RizqCLIKeyring()
