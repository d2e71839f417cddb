"""What the table's setup check says (setup_check.py's findings, and the hardware tests of
`companion check`), in English and Spanish: what was found, and what to do about it.

Each finding's key has up to three templates: `<key>` what was found when it is as it
should be, `<key>.bad` what was found when it is not, `<key>.fix` what to do then. A
finding whose words depend on more than ok (the exposure's level, the button seen) names
the variant in its key: `exposure.dark.bad`. Places and sides are said in words
(`place.top_left`), never as the key's codes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

LANGS = ("en", "es")


class Said(Protocol):
    key: str
    ok: bool
    params: Mapping[str, Any]


WORDS: dict[str, dict[str, str]] = {
    "en": {
        "camera_none.bad": "No picture came from the camera.",
        "camera_none.fix": "Check the camera's cable and that nothing covers the lens, then "
        "run the check again.",
        "camera": "Camera found: {width} x {height} pixels.",
        "camera.bad": "Camera found, but its pictures are only {width} x {height} pixels.",
        "camera.fix": "Choose a larger picture size (at least {least} pixels wide) for the camera.",
        "frame_size": "The configuration expects pictures of this size.",
        "frame_size.bad": "The configuration expects pictures of {configured_width} x "
        "{configured_height} pixels, but the camera gives {width} x {height}.",
        "frame_size.fix": "Save what the camera gives: run the check again with --save.",
        "marker": "Marker {id} ({place}) found.",
        "marker.bad": "Marker {id} ({place}) is missing.",
        "marker.fix": "Move the camera so the marker at the {place} is in view, and check "
        "that nothing covers it.",
        "table_size": "The table measures {width} x {height} mm between its markers.",
        "table_size.bad": "The table measures {width} x {height} mm between its markers, "
        "but the configuration says {configured_width} x {configured_height} mm.",
        "table_size.fix": "Save what was measured: run the check again with --save.",
        "area": "The whole play area of {game} is in view.",
        "area.bad": "The play area of {game} is cut off at the {cut} of the picture.",
        "area.fix": "Raise the camera or move it towards the {cut} until the whole play area "
        "is in view.",
        "area_unplaced.bad": "The camera cannot see where {game} is played.",
        "area_unplaced.fix": "Lay the board on the table with its four corner markers in view.",
        "area_unplaced.table.fix": "Move the camera so at least two of the table's markers "
        "are in view.",
        "focus": "The picture is sharp (edges blurred over {blur_px} pixels).",
        "focus.bad": "The picture is blurred (edges blurred over {blur_px} pixels).",
        "focus.fix": "Turn the camera's focus ring until the markers' edges are sharp, and "
        "wipe the lens.",
        "exposure": "The light is good.",
        "exposure.dark.bad": "The picture is too dark.",
        "exposure.dark.fix": "Turn on a lamp over the table or open the curtains.",
        "exposure.bright.bad": "The picture is too bright: much of the table shows as plain white.",
        "exposure.bright.fix": "Dim the lamp or move it further from the table.",
        "glare": "No glare on the table.",
        "glare.bad": "Glare: {spots} bright reflection(s) on the table, the largest at the "
        "{place}.",
        "glare.fix": "Move the lamp or tilt the camera a little until the reflection is gone.",
        "density": "The camera sees the table finely: {per_cm} pixels a centimetre.",
        "density.coarse": "The camera sees the table at only {per_cm} pixels a centimetre: "
        "cards and trains read, but dice are asked about more often than at {fine} or more.",
        "density.too_coarse.bad": "The camera sees the table too coarsely to read it: "
        "{per_cm} pixels a centimetre, at least {least} are needed.",
        "density.too_coarse.fix": "Bring the camera nearer the table or choose a larger "
        "picture size: {fine} pixels a centimetre or more read best.",
        "pins": "The buttons, LED and buzzer were not tested: {why}.",
        "pins.none": "this computer has no GPIO pins",
        "pins.mock": 'the configuration sets gpio.pin_factory = "mock"',
        "button": "The {button} button works.",
        "button.none.bad": "The {button} button was not pressed within {seconds:g} seconds.",
        "button.none.fix": "Check the {button} button's wires to GPIO {pin} and ground.",
        "button.other.bad": "Asked for {button}, the companion saw {seen}.",
        "button.other.fix": "The wires of {button} and {seen} are swapped: swap them, or "
        "their pins in the configuration.",
        "led": "The LED blinked three times (GPIO {pin}): if you saw nothing, check its wires "
        "and which way round it is.",
        "buzzer": "The buzzer beeped twice (GPIO {pin}): if you heard nothing, check its wires.",
        "speaker": "The speaker said: {sentence}",
        "speaker.bad": "The speaker cannot talk: espeak-ng is missing.",
        "speaker.fix": "Install it: sudo apt-get install espeak-ng.",
        "speaker.failed.bad": "The speaker could not say its sentence ({problem}).",
        "speaker.failed.fix": "Check that the speaker is plugged in and turned up, and that "
        "speech.voice names a voice espeak-ng has (espeak-ng --voices lists them).",
        "sentence": "Hello, I am the table's companion.",
        "press": "Press {button} now.",
        "look_listen": "Now watch the LED, then listen to the buzzer and the speaker.",
        "ready": "The table is ready.",
        "not_ready": "First fix this:",
        "saved": "Saved to {path}.",
        "place.top_left": "top left",
        "place.top_right": "top right",
        "place.bottom_right": "bottom right",
        "place.bottom_left": "bottom left",
        "place.top": "top",
        "place.bottom": "bottom",
        "place.left": "left",
        "place.right": "right",
        "place.centre": "centre",
        "and": "and",
        "button.pass": "PASS",
        "button.confirm": "CONFIRM",
    },
    "es": {
        "camera_none.bad": "La cámara no dio ninguna imagen.",
        "camera_none.fix": "Revisa el cable de la cámara y que nada tape el objetivo, y "
        "vuelve a comprobar.",
        "camera": "Cámara encontrada: {width} x {height} píxeles.",
        "camera.bad": "Cámara encontrada, pero sus imágenes solo tienen {width} x {height} "
        "píxeles.",
        "camera.fix": "Elige un tamaño de imagen mayor (al menos {least} píxeles de ancho) "
        "para la cámara.",
        "frame_size": "La configuración espera imágenes de este tamaño.",
        "frame_size.bad": "La configuración espera imágenes de {configured_width} x "
        "{configured_height} píxeles, pero la cámara da {width} x {height}.",
        "frame_size.fix": "Guarda lo que da la cámara: vuelve a comprobar con --save.",
        "marker": "Marcador {id} ({place}) encontrado.",
        "marker.bad": "Falta el marcador {id} ({place}).",
        "marker.fix": "Mueve la cámara para que se vea el marcador de {place}, y comprueba "
        "que nada lo tapa.",
        "table_size": "La mesa mide {width} x {height} mm entre sus marcadores.",
        "table_size.bad": "La mesa mide {width} x {height} mm entre sus marcadores, pero la "
        "configuración dice {configured_width} x {configured_height} mm.",
        "table_size.fix": "Guarda lo medido: vuelve a comprobar con --save.",
        "area": "Se ve toda la zona de juego de {game}.",
        "area.bad": "La zona de juego de {game} queda cortada por {cut} de la imagen.",
        "area.fix": "Sube la cámara o muévela hacia {cut} hasta que se vea toda la zona de juego.",
        "area_unplaced.bad": "La cámara no ve dónde se juega a {game}.",
        "area_unplaced.fix": "Pon el tablero en la mesa con sus cuatro marcadores de las "
        "esquinas a la vista.",
        "area_unplaced.table.fix": "Mueve la cámara para que se vean al menos dos de los "
        "marcadores de la mesa.",
        "focus": "La imagen es nítida (bordes borrosos en {blur_px} píxeles).",
        "focus.bad": "La imagen está borrosa (bordes borrosos en {blur_px} píxeles).",
        "focus.fix": "Gira el anillo de enfoque de la cámara hasta que los bordes de los "
        "marcadores sean nítidos, y limpia el objetivo.",
        "exposure": "La luz es buena.",
        "exposure.dark.bad": "La imagen está demasiado oscura.",
        "exposure.dark.fix": "Enciende una lámpara sobre la mesa o abre las cortinas.",
        "exposure.bright.bad": "La imagen está demasiado clara: gran parte de la mesa se "
        "ve blanca.",
        "exposure.bright.fix": "Baja la lámpara o aléjala de la mesa.",
        "glare": "No hay reflejos en la mesa.",
        "glare.bad": "Reflejos: {spots} reflejo(s) brillante(s) en la mesa, el mayor {place}.",
        "glare.fix": "Mueve la lámpara o inclina un poco la cámara hasta que el reflejo "
        "desaparezca.",
        "density": "La cámara ve la mesa con detalle: {per_cm} píxeles por centímetro.",
        "density.coarse": "La cámara ve la mesa con solo {per_cm} píxeles por centímetro: "
        "las cartas y los trenes se leen, pero se pregunta por los dados más a menudo que con "
        "{fine} o más.",
        "density.too_coarse.bad": "La cámara ve la mesa con muy poco detalle para leerla: "
        "{per_cm} píxeles por centímetro, hacen falta al menos {least}.",
        "density.too_coarse.fix": "Acerca la cámara a la mesa o elige un tamaño de imagen "
        "mayor: con {fine} píxeles por centímetro o más se lee mejor.",
        "pins": "No se probaron los botones, el LED ni el zumbador: {why}.",
        "pins.none": "este ordenador no tiene pines GPIO",
        "pins.mock": 'la configuración pone gpio.pin_factory = "mock"',
        "button": "El botón {button} funciona.",
        "button.none.bad": "No se pulsó el botón {button} en {seconds:g} segundos.",
        "button.none.fix": "Revisa los cables del botón {button} al GPIO {pin} y a tierra.",
        "button.other.bad": "Se pidió {button} y el acompañante vio {seen}.",
        "button.other.fix": "Los cables de {button} y {seen} están cambiados: cámbialos, "
        "o sus pines en la configuración.",
        "led": "El LED parpadeó tres veces (GPIO {pin}): si no viste nada, revisa sus cables "
        "y su polaridad.",
        "buzzer": "El zumbador pitó dos veces (GPIO {pin}): si no oíste nada, revisa sus cables.",
        "speaker": "El altavoz dijo: {sentence}",
        "speaker.bad": "El altavoz no puede hablar: falta espeak-ng.",
        "speaker.fix": "Instálalo: sudo apt-get install espeak-ng.",
        "speaker.failed.bad": "El altavoz no pudo decir su frase ({problem}).",
        "speaker.failed.fix": "Comprueba que el altavoz está enchufado y con volumen, y que "
        "speech.voice nombra una voz que espeak-ng tiene (espeak-ng --voices las lista).",
        "sentence": "Hola, soy el acompañante de la mesa.",
        "press": "Pulsa {button} ahora.",
        "look_listen": "Ahora mira el LED, y luego escucha el zumbador y el altavoz.",
        "ready": "La mesa está lista.",
        "not_ready": "Primero arregla esto:",
        "saved": "Guardado en {path}.",
        "place.top_left": "arriba a la izquierda",
        "place.top_right": "arriba a la derecha",
        "place.bottom_right": "abajo a la derecha",
        "place.bottom_left": "abajo a la izquierda",
        "place.top": "arriba",
        "place.bottom": "abajo",
        "place.left": "la izquierda",
        "place.right": "la derecha",
        "place.centre": "en el centro",
        "and": "y",
        "button.pass": "PASS",
        "button.confirm": "CONFIRM",
    },
}


def word(key: str, lang: str = "en", **params: Any) -> str:
    """One phrase of the check in `lang` (English for a language it lacks)."""
    words = WORDS.get(lang, WORDS["en"])
    return words[key].format(**params)


def said(finding: Said, lang: str = "en") -> str:
    """What a finding says was found."""
    return word(_variant(finding) + ("" if finding.ok else ".bad"), lang, **_params(finding, lang))


def fix(finding: Said, lang: str = "en") -> str:
    """What to do about a finding that is not ok."""
    key = _variant(finding)
    if finding.key == "area_unplaced" and not finding.params.get("board"):
        key = "area_unplaced.table"
    return word(key + ".fix", lang, **_params(finding, lang))


def _variant(finding: Said) -> str:
    if finding.key == "density" and finding.params.get("level", "good") != "good":
        return f"density.{finding.params['level']}"
    if finding.key == "exposure" and not finding.ok:
        return f"exposure.{finding.params['level']}"
    if finding.key == "speaker" and not finding.ok and finding.params.get("problem"):
        return "speaker.failed"
    if finding.key == "button" and not finding.ok:
        return "button.other" if finding.params.get("seen") else "button.none"
    return finding.key


def _params(finding: Said, lang: str) -> dict[str, Any]:
    """The finding's parameters with its codes (places, sides, buttons) in words."""
    params = dict(finding.params)
    for name in ("place",):
        if params.get(name):
            params[name] = word(f"place.{params[name]}", lang)
    if "cut" in params:
        sides = [word(f"place.{side}", lang) for side in params["cut"]]
        params["cut"] = f" {word('and', lang)} ".join(sides)
    if "why" in params:
        params["why"] = word(f"pins.{params['why']}", lang)
    for name in ("button", "seen"):
        if params.get(name):
            params[name] = word(f"button.{params[name]}", lang)
    return params
