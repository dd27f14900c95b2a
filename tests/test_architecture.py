"""The import rules of docs/architecture.md, enforced by walking every module's imports.

Layers, lowest first: `core` -> `tables.engine` (pure Python) -> `audit` (the trail) ->
`accounts` -> `tables` (models, games, selectors, services; then its pages, API and admin)
-> `accounting` (slips and the count) -> `reports` -> `casino` (settings, URLs). A module
imports only from its own layer and those below. Imports inside functions count too (they are
how a Celery task reaches its service), but the graph of module-level imports must have no cycle.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("core", "audit", "accounts", "tables", "accounting", "reports", "casino")

# importer prefix -> the project prefixes it may import (besides itself); most specific wins.
ALLOWED: dict[str, tuple[str, ...]] = {
    "core": (),
    "tables.engine": (),
    "audit": ("core",),
    "accounts": ("core", "audit"),
    "tables": ("core", "audit", "accounts", "tables"),
    # the floor's lower half never reaches up to its pages, API or admin
    "tables.models": ("core", "tables.engine", "tables.games"),
    "tables.games": ("core", "tables.engine", "tables.games", "tables.display"),
    "tables.display": ("core", "tables.engine"),
    "tables.gaming_day": (),
    "tables.selectors": ("core", "tables.engine", "tables.games", "tables.models"),
    "tables.services": (
        "core",
        "audit",
        "accounts",
        "tables.engine",
        "tables.games",
        "tables.models",
        "tables.selectors",
        "tables.signals",
        "tables.gaming_day",
        "tables.services",
        "tables.tasks",
        "casino.enqueue",
    ),
    # `simulate_rounds --slips` drives table accounting beside the rounds it plays (a command is
    # an entry point; nothing below the commands reaches up)
    "tables.management.commands.simulate_rounds": (
        "core",
        "audit",
        "accounts",
        "tables",
        "accounting",
    ),
    "accounting": ("core", "audit", "accounts", "tables"),
    # the accounting's models and rules never reach up to its pages, API or admin
    "accounting.models": ("core", "accounting.rules"),
    "accounting.rules": ("core",),
    "reports": ("core", "audit", "accounts", "tables", "accounting", "casino.enqueue"),
    "casino": ("core", "audit", "accounts", "tables", "accounting", "reports", "casino"),
}
# The engine's per-game modules: each game's own rules, still kept in the engine's folder and
# reached from its package (tables/games/<game>/rules.py). Every other engine module knows no
# game: it imports none of these nor `tables.games`, and reaches a game only through the
# registry (`tables.engine.registry`, whose loader imports the games' package by name).
ENGINE_GAME_MODULES = (
    "tables.engine.lowball",
    "tables.engine.pyramid",
    "tables.engine.second_chance",
    "tables.engine.edge_lowball",
    "tables.engine.edge_pyramid",
    "tables.engine.edge_second_chance",
    "tables.engine.mulligan_game",
    "tables.engine.mulligan_hands",
    "tables.engine.mulligan_replay",
    "tables.engine.mulligan_view",
    "tables.engine.rhode_island",
    "tables.engine.rhode_island_replay",
)
# Migrations are history (they call what they called when written) and are not layered.
SKIP_PARTS = {"migrations"}


def project_modules() -> Iterator[tuple[str, Path]]:
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            if SKIP_PARTS & set(rel.parts):
                continue
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


def imports_of(module: str, path: Path, *, top_level_only: bool = False) -> Iterator[str]:
    tree = ast.parse(path.read_text(), str(path))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:  # `from tables import games` imports tables.games
                yield f"{target}.{alias.name}"


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def rule_for(module: str) -> tuple[str, tuple[str, ...]]:
    prefix = max((p for p in ALLOWED if _within(module, p)), key=len)
    return prefix, ALLOWED[prefix]


def is_project(name: str) -> bool:
    return any(_within(name, app) for app in APPS)


def test_every_import_points_down() -> None:
    modules = dict(project_modules())
    assert "tables.engine.contract" in modules and "reports.reporting" in modules
    wrong = []
    for module, path in modules.items():
        own, allowed = rule_for(module)
        for name in set(imports_of(module, path)):
            while name not in modules and "." in name:
                name = name.rpartition(".")[0]  # `from x import some_function`: module x
            if not is_project(name) or _within(name, own):
                continue
            if not any(_within(name, a) for a in allowed):
                wrong.append(f"{module} imports {name} (allowed: {', '.join(allowed) or '-'})")
    assert not wrong, "\n".join(sorted(wrong))


def test_the_engine_imports_no_django() -> None:
    for module, path in project_modules():
        if _within(module, "tables.engine"):
            found = {n for n in imports_of(module, path) if _within(n, "django")}
            assert not found, f"{module} imports {found}"


def _neutral_engine_modules() -> Iterator[tuple[str, Path]]:
    for module, path in project_modules():
        if _within(module, "tables.engine") and not any(
            _within(module, g) for g in ENGINE_GAME_MODULES
        ):
            yield module, path


def test_the_engine_imports_no_game() -> None:
    modules = dict(project_modules())
    assert all(g in modules for g in ENGINE_GAME_MODULES)
    wrong = []
    for module, path in _neutral_engine_modules():
        for name in set(imports_of(module, path)):
            if _within(name, "tables.games") or any(_within(name, g) for g in ENGINE_GAME_MODULES):
                wrong.append(f"{module} imports {name}")
    assert not wrong, "\n".join(sorted(wrong))


# The engine's drivers: they dispatch through the registry and name no game. (`paytables`
# still holds each game's named paytables as data.)
ENGINE_DRIVERS = (
    "contract",
    "entry",
    "simulate",
    "strategies",
    "house_edge",
    "edge_rake",
    "replay",
)


def test_the_engine_branches_on_no_game() -> None:
    """No `Game.X` in the drivers, and no module loaded by name except by the registry."""
    wrong = []
    for module, path in _neutral_engine_modules():
        driver = module.rpartition(".")[2] in ENGINE_DRIVERS
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if (
                driver
                and isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "Game"
                and node.attr.isupper()
            ):
                wrong.append(f"{module}:{node.lineno} Game.{node.attr}")
            if module != "tables.engine.registry" and (
                (isinstance(node, ast.Name) and node.id in {"importlib", "__import__"})
                or (isinstance(node, ast.Attribute) and node.attr == "import_module")
            ):
                wrong.append(f"{module}:{node.lineno} loads a module by name")
    assert not wrong, "\n".join(wrong)


def test_the_registry_loads_the_installed_games() -> None:
    from tables import games
    from tables.engine import registry

    assert games.__name__ == registry.GAMES_PACKAGE
    installed = set(games.INSTALLED)
    assert set(registry.banked_names()) | set(registry.player_names()) == installed
    assert set(games.names()) >= installed


def test_module_level_imports_have_no_cycle() -> None:
    modules = dict(project_modules())
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for name in imports_of(module, path, top_level_only=True):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    # a package's __init__ imported by its own submodules is not a cycle of code
    seen: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, stack: list[str]) -> None:
        seen[node] = 1
        stack.append(node)
        for nxt in graph.get(node, ()):
            if _within(node, nxt):  # a module importing its own package
                continue
            if seen.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in seen:
                visit(nxt, stack)
        stack.pop()
        seen[node] = 2

    for module in sorted(graph):
        if module not in seen:
            visit(module, [])
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize(
    ("module", "name", "allowed"),
    [
        ("audit.services", "tables.services", False),
        ("reports.tasks", "reports.reporting", True),
        ("tables.services.rounds", "reports.reporting", False),
        ("tables.games.lowball", "tables.views.tablet", False),
        ("tables.views.tablet", "tables.services.rounds", True),
    ],
)
def test_the_rules_say_what_they_mean(module: str, name: str, allowed: bool) -> None:
    own, rule = rule_for(module)
    assert (_within(name, own) or any(_within(name, a) for a in rule)) is allowed


def _game_packages() -> set[str]:
    return {
        p.parent.name
        for p in (ROOT / "tables" / "games").glob("*/__init__.py")
        if p.parent.name != "__pycache__"
    }


def test_nothing_outside_the_games_imports_a_game() -> None:
    """The rest of the site asks a game through the registry's hooks (`tables.games`), never
    imports a game's own package."""
    packages = {f"tables.games.{name}" for name in _game_packages()}
    assert packages, "no game packages found"
    wrong = []
    for module, path in project_modules():
        if _within(module, "tables.games") or _within(module, "tables.engine"):
            continue
        for name in set(imports_of(module, path)):
            if any(_within(name, p) for p in packages):
                wrong.append(f"{module} imports {name}")
    assert not wrong, "\n".join(sorted(wrong))


# The site's own code and pages (the games' folders and the engine aside, which the tests
# above keep apart, and the migrations, which are history).
SITE_SOURCES = ("*.py", "*.html", "*.js", "*.css")
SITE_DIRS = (*APPS, "templates", "static")


def test_nothing_outside_the_games_names_a_game() -> None:
    """No module, template, script or stylesheet outside `tables/games` names an installed game
    (its name, in any spelling: "rhode_island", "Rhode Island"): what differs between games is
    the games' own to say."""
    from tables import games

    words = sorted(name.replace("_", "[ _-]?") for name in games.INSTALLED)
    pattern = re.compile("|".join(words), re.IGNORECASE)
    wrong = []
    for top in SITE_DIRS:
        for glob in SITE_SOURCES:
            for path in sorted((ROOT / top).rglob(glob)):
                rel = path.relative_to(ROOT)
                if rel.parts[:2] in (("tables", "games"), ("tables", "engine")):
                    continue
                if SKIP_PARTS & set(rel.parts) or "vendor" in rel.parts:
                    continue
                found = pattern.search(path.read_text(encoding="utf-8"))
                if found:
                    wrong.append(f"{rel}: {found.group(0)!r}")
    assert not wrong, "\n".join(wrong)
