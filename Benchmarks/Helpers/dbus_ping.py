"""The floor under secret-get on this machine: the median time of a bare D-Bus round trip to the
bus itself and to the Secret Service (org.freedesktop.DBus.Peer.Ping), in microseconds.

A read of a secret is at least one round trip to the Secret Service, so when secret-get is slow,
this tells whether the machine's D-Bus is. Run it in the private session scripts/bench uses, with
the virtualenv scripts/bench makes (jeepney comes with secretstorage):

    scripts/with-keyring Benchmarks/.build/keyring-venv/bin/python Benchmarks/Helpers/dbus_ping.py
"""
import statistics
import time

from jeepney import DBusAddress, new_method_call
from jeepney.io.blocking import open_dbus_connection


def median_ping(connection, bus_name, path, calls=300, warmup=20):
    address = DBusAddress(path, bus_name=bus_name, interface="org.freedesktop.DBus.Peer")
    times = []
    for _ in range(warmup + calls):
        start = time.perf_counter()
        connection.send_and_get_reply(new_method_call(address, "Ping"))
        times.append((time.perf_counter() - start) * 1e6)
    return statistics.median(times[warmup:])


def main():
    connection = open_dbus_connection(bus="SESSION")
    print("bus ping: %.0f µs" % median_ping(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus"))
    print("secret service ping: %.0f µs" % median_ping(connection, "org.freedesktop.secrets", "/org/freedesktop/secrets"))


if __name__ == "__main__":
    main()
