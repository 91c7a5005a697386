#!/usr/bin/python3
"""A fake of the Secret portal as its specification has it (org.freedesktop.portal.Secret 1 and
org.freedesktop.portal.Request), for the client's error paths that the real xdg-desktop-portal
cannot produce on demand. Tests that use it are labelled as tests against the specified interface.

    fake_secret_portal.py MODE        (run by scripts/with-portal when RIZQ_FAKE_PORTAL=MODE)

Owns org.freedesktop.portal.Desktop on the session bus. RetrieveSecret(h fd, a{sv} options)
answers with the Request path /org/freedesktop/portal/desktop/request/SENDER/TOKEN (SENDER: the
caller's unique name without ':' and with '.' -> '_'; TOKEN: options["handle_token"], else "t"),
then writes to the fd, closes it, and sends Response(u, a{sv}) to the caller, as xdg-desktop-portal
1.16 does. Each call is logged on stdout ("RetrieveSecret SENDER TOKEN", "Close PATH").

MODE: ok       64 bytes, SHA-512("fake-portal:" + FAKE_PORTAL_APP_ID), Response 0
      long     128 bytes (those 64 twice), Response 0: a client uses the first 64
      short    16 bytes, Response 0
      empty    nothing, Response 0
      cancel   Response 1, nothing written
      fail     Response 2, nothing written (what the real portal does when the keyring is locked)
      error    the call fails with org.freedesktop.DBus.Error.AccessDenied
      never    the handle, and no Response ever (the fd stays open)
      version0 the version property is 0 (a portal without a usable Secret interface)
"""
import hashlib
import os
import sys

from gi.repository import Gio, GLib

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
SECRET = hashlib.sha512(b"fake-portal:" + os.environ.get("FAKE_PORTAL_APP_ID", "").encode()).digest()
NODE = Gio.DBusNodeInfo.new_for_xml("""<node>
 <interface name="org.freedesktop.portal.Secret">
  <method name="RetrieveSecret"><arg type="h" name="fd" direction="in"/>
   <arg type="a{sv}" name="options" direction="in"/><arg type="o" name="handle" direction="out"/></method>
  <property name="version" type="u" access="read"/>
 </interface>
 <interface name="org.freedesktop.portal.Request">
  <method name="Close"/>
  <signal name="Response"><arg type="u" name="response"/><arg type="a{sv}" name="results"/></signal>
 </interface>
</node>""")
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
held = []  # the fds of "never": kept open


def log(line):
    print(line, flush=True)


def on_request(connection, sender, path, interface, method, parameters, invocation):
    log(f"Close {path}")
    invocation.return_value(None)


def on_secret(connection, sender, path, interface, method, parameters, invocation):
    index, options = parameters.unpack()
    token = options.get("handle_token", "t")
    log(f"RetrieveSecret {sender} {token}")
    if MODE == "error":
        invocation.return_dbus_error("org.freedesktop.DBus.Error.AccessDenied", "fake portal: access denied")
        return
    fd = invocation.get_message().get_unix_fd_list().get(index)
    handle = f"/org/freedesktop/portal/desktop/request/{sender[1:].replace('.', '_')}/{token}"
    registration = bus.register_object(handle, NODE.interfaces[1], on_request, None, None)
    invocation.return_value(GLib.Variant("(o)", (handle,)))
    if MODE == "never":
        held.append(fd)
        return
    data = {"ok": SECRET, "long": SECRET + SECRET, "short": SECRET[:16]}.get(MODE, b"")
    if data:
        os.write(fd, data)
    os.close(fd)
    code = {"cancel": 1, "fail": 2}.get(MODE, 0)

    def respond():
        bus.emit_signal(sender, handle, "org.freedesktop.portal.Request", "Response", GLib.Variant("(ua{sv})", (code, {})))
        bus.unregister_object(registration)
        return False

    # After the method's reply, as the real portal answers once its backend has.
    GLib.idle_add(respond)


def on_property(connection, sender, path, interface, name):
    return GLib.Variant("u", 0 if MODE == "version0" else 1)


bus.register_object("/org/freedesktop/portal/desktop", NODE.interfaces[0], on_secret, on_property, None)
Gio.bus_own_name_on_connection(bus, "org.freedesktop.portal.Desktop", Gio.BusNameOwnerFlags.NONE, None, None)
GLib.MainLoop().run()
