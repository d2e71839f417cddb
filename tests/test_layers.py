"""The layers of the code, checked on every module's imports (top-level and inside functions).

companion/app/ is the application: it alone wires the hardware (hw/) and the page (web/)
to the game. The rest of companion/ (rules, record, vision, tracker, session, table,
store) knows neither, so it runs and is tested without a camera, pins or a web server;
hw/ and web/ never reach up into the application. picamera2 and lgpio exist only on a Pi:
they are imported only inside hw/, only inside the functions that need them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "hw", "web")
PI_ONLY = ("picamera2", "lgpio", "gpiozero.pins.lgpio")


def _modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def _name(path: Path) -> str:
    """The dotted module name of a file (a package's `__init__.py` is the package)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


@cache
def _imports(path: Path) -> tuple[tuple[str, int, bool], ...]:
    """Every module `path` imports: (dotted name, line, whether inside a function). A
    `from package import name` counts as importing `package.name` too: it may be a
    module. Parsed once a run: every rule below walks every module."""
    return tuple(_walk_imports(path))


def _walk_imports(path: Path) -> Iterator[tuple[str, int, bool]]:
    tree = ast.parse(path.read_text(), str(path))
    package = _name(path) if path.name == "__init__.py" else _name(path).rpartition(".")[0]
    in_function: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            in_function.update(id(inner) for inner in ast.walk(node) if inner is not node)
    for node in ast.walk(tree):
        nested = id(node) in in_function
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno, nested
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base, node.lineno, nested
            for alias in node.names:
                yield f"{base}.{alias.name}", node.lineno, nested


def _breaches(rule) -> list[str]:
    """`file:line imports module` for every import that `rule(importer, imported,
    nested)` refuses."""
    return sorted(
        {
            f"{path.relative_to(ROOT)}:{line} imports {imported}"
            for path in _modules()
            for imported, line, nested in _imports(path)
            if rule(_name(path), imported, nested)
        }
    )


def test_the_modules_are_found() -> None:
    """A walk that found nothing would pass every rule below."""
    names = {_name(path) for path in _modules()}
    assert {"companion.app.cli", "companion.games.caboose.follow", "hw.frames", "web.app"} <= names


def test_only_the_application_imports_the_hardware_and_the_page() -> None:
    def refused(importer: str, imported: str, nested: bool) -> bool:
        outside_app = _within(importer, "companion") and not _within(importer, "companion.app")
        return outside_app and (_within(imported, "hw") or _within(imported, "web"))

    assert _breaches(refused) == []


def test_the_hardware_and_the_page_never_import_the_application() -> None:
    def refused(importer: str, imported: str, nested: bool) -> bool:
        below = _within(importer, "hw") or _within(importer, "web")
        return below and _within(imported, "companion.app")

    assert _breaches(refused) == []


def test_a_game_package_is_imported_only_by_itself_and_the_registry() -> None:
    """Outside a game's package (companion/games/<game>/), nothing imports it, at the top or
    inside a function, but the registry (companion/games/__init__.py): the shared parts
    (hw/, web/, the core, the application in companion/app/) and the other games know a
    game only as the protocol's `Game`, so a second game finds nothing shaped for the
    first."""
    games = (ROOT / "companion" / "games").iterdir()
    packages = {path.name for path in games if path.is_dir() and not path.name.startswith("_")}
    assert "caboose" in packages

    def refused(importer: str, imported: str, nested: bool) -> bool:
        parts = imported.split(".")
        if parts[:2] != ["companion", "games"] or len(parts) < 3 or parts[2] not in packages:
            return False
        return importer != "companion.games" and not _within(importer, ".".join(parts[:3]))

    assert _breaches(refused) == []


def test_the_synthetic_table_imports_no_hardware_no_page_and_no_game() -> None:
    """companion/synthetic/ draws any game's pieces for the tests and the demo: a game's
    package may use it only if it reaches into none of them."""
    assert any(_within(_name(path), "companion.synthetic") for path in _modules())

    def refused(importer: str, imported: str, nested: bool) -> bool:
        below = ("hw", "web", "companion.app", "companion.games")
        return _within(importer, "companion.synthetic") and any(
            _within(imported, package) for package in below
        )

    assert _breaches(refused) == []


@pytest.mark.parametrize("library", PI_ONLY)
def test_pi_only_libraries_are_imported_only_in_hw_and_only_when_used(library: str) -> None:
    """On any other machine they are not installed: importing them at the top of a module
    would break every command and test that imports it."""

    def refused(importer: str, imported: str, nested: bool) -> bool:
        return _within(imported, library) and not (_within(importer, "hw") and nested)

    assert _breaches(refused) == []


def test_the_application_hides_no_import_without_saying_why() -> None:
    """Inside companion/app/ an import inside a function is a surprise to the reader (what
    a module needs is listed at its top); those that must stay lazy say why in a comment on
    the line above them."""
    unexplained = []
    for path in _modules():
        if not _within(_name(path), "companion.app"):
            continue
        lines = [text.strip() for text in path.read_text().splitlines()]
        for _, line, nested in _imports(path):
            above = line - 2  # the index of the line above the import's
            while above >= 0 and lines[above].startswith(("from ", "import ")):
                above -= 1  # one comment says why for a block of imports
            if nested and not (above >= 0 and lines[above].startswith("#")):
                unexplained.append(f"{path.relative_to(ROOT)}:{line}")
    assert sorted(set(unexplained)) == []


def test_no_game_imports_the_application() -> None:
    """A game's package (companion/games/) is what the application (companion/app/) runs:
    what a game shares with the application's demo driver lives below both (the synthetic
    table's `Hands`), so a game is read, tested and replaced without the application."""

    def refused(importer: str, imported: str, nested: bool) -> bool:
        return _within(importer, "companion.games") and _within(imported, "companion.app")

    assert _breaches(refused) == []


def test_no_module_imports_itself_round_a_circle() -> None:
    """Modules that import one another round a circle (at the top, inside a function or
    for the type checker alone) can be read, tested and moved only together: a name two
    modules share lives where both import it."""
    paths = {_name(path): path for path in _modules()}
    links = {
        name: sorted({imported for imported, _, _ in _imports(path) if imported in paths} - {name})
        for name, path in paths.items()
    }
    circles = [sorted(group) for group in _strongly_connected(links) if len(group) > 1]
    assert sorted(circles) == []


def _strongly_connected(links: dict[str, list[str]]) -> list[set[str]]:
    """The groups of `links` whose every member reaches every other (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for after in links[node]:
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in on_stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            groups.append(group)

    for node in links:
        if node not in index:
            visit(node)
    return groups
