"""Where a phone of the table's network opens the page: this machine's addresses, asked of
the kernel, and its mDNS name. `companion serve` prints them (`web.serve.say_where`); the
page shows them as a QR code (`web.join`).
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from pathlib import Path

SIOCGIFADDR = 0x8915  # Linux's ioctl for a network interface's IPv4 address
# avahi-daemon (Raspberry Pi OS runs it) answers NAME.local for this machine on the network.
AVAHI = Path("/run/avahi-daemon/socket")


def machine_addresses() -> list[str]:
    """This machine's IPv4 addresses, one per network interface that has one (loopback
    included), asked of the kernel: no extra package, and the Pi has no other way to know
    which network the family's phones are on."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)
            except OSError:  # an interface without an IPv4 address
                continue
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def local_name() -> str | None:
    """NAME.local, the name a phone may open instead of an address that can change, when
    this machine answers it (avahi runs); else None."""
    return f"{socket.gethostname()}.local" if AVAHI.exists() else None


def page_url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host  # an IPv6 address
    return f"http://{shown}:{port}/"


def _only_here(host: str) -> bool:
    """Whether `host` is this machine's loopback, which no phone can reach."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name: it may be any machine's
        return False


def reaches_phones(host: str) -> bool:
    """Whether a page listening on `host` can be opened from another machine (IPv4: the
    phones' own)."""
    return host == "0.0.0.0" or not (host == "::" or _only_here(host))


def phone_urls(host: str, port: int, addresses: list[str], name: str | None) -> list[str]:
    """The addresses a phone of the table's network opens a page listening on `host:port`
    at: on every IPv4 network (0.0.0.0), this machine's non-loopback `addresses` and its mDNS
    `name` if it has one; on one address or name a phone can reach, that one; else none."""
    if host == "0.0.0.0":
        phones = [a for a in addresses if not ipaddress.ip_address(a).is_loopback]
        return [page_url(a, port) for a in phones] + (
            [page_url(name, port)] if name and phones else []
        )
    if host == "::" or _only_here(host):  # waitress on "::" listens on IPv6 alone
        return []
    return [page_url(host, port)]
