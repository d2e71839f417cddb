"""Where a phone opens the table's page, as a QR code the kiosk and the page show
(`GET /api/join`, `GET /api/join.svg`), drawn by segno.

The address is the one a phone of the table's network can open: the address the page was
reached at, unless that is this machine itself (localhost, 127.0.0.1, ::1: the kiosk's
browser on the Pi opens it so), which on a phone would name the phone; then this machine's
first network address (`web.network.phone_urls`) at the same port. With no network address
there is no code, and the page says so rather than show one no phone can open.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, current_app, jsonify, request

from web import network
from web.api import language
from web.words import join_words

join = Blueprint("join", __name__, url_prefix="/api")


def phone_base(host: str) -> str | None:
    """The page's address for a phone (`http://HOST:PORT/`), given the `Host` this request
    came to; None when no phone can reach this page (`no_phone`: why)."""
    if only_here():
        return None
    split = urlsplit(f"http://{host}")
    port = split.port or 80
    if network.phone_urls(split.hostname or "", port, [], None):  # none for this machine
        return f"http://{split.netloc}/"
    urls = network.phone_urls("0.0.0.0", port, network.machine_addresses(), network.local_name())
    return urls[0] if urls else None


def only_here() -> bool:
    """Whether the page listens on this machine alone (`companion demo` without --host
    0.0.0.0; web.serve.listen notes where it listens): a code of any address would open
    nothing on a phone."""
    listening = current_app.config.get("LISTENING_ON")
    return listening is not None and not network.reaches_phones(listening)


def no_phone() -> str:
    """The key of the words saying why no phone can reach the page."""
    return "join_only_here" if only_here() else "join_no_network"


# The QR code's SVG: dark modules on white with the quiet zone a phone's camera needs,
# scaled by the page (no fixed size).
SVG = {"scale": 1, "omitsize": True, "dark": "#000", "light": "#fff"}


def qr_svg(url: str) -> str:
    """`url` as an SVG QR code."""
    return segno.make(url, error="m").svg_inline(**SVG)


def qr_data(url: str) -> str:
    """`url`'s QR code as a data: URI an <img> shows (the page's CSP allows data: images)."""
    return segno.make(url, error="m").svg_data_uri(**SVG)


@join.get("/join")
def join_address() -> Response:
    """The page's address for a phone, its QR code, and the sentence under it in the
    request's language; `url` None (and a sentence saying why) when no phone can reach it."""
    words = join_words(language())
    url = phone_base(request.host)
    if url is None:
        return jsonify({"url": None, "qr": None, "said": words[no_phone()]})
    return jsonify({"url": url, "qr": qr_data(url), "said": words["join_scan"]})


@join.get("/join.svg")
def join_image() -> Response:
    """The QR code of the page's address for a phone, alone (404 when there is none)."""
    url = phone_base(request.host)
    if url is None:
        return Response(join_words(language())["join_no_network"], 404, mimetype="text/plain")
    return Response(qr_svg(url), mimetype="image/svg+xml")
