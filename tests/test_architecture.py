"""The import rules of docs/architecture.md, enforced by walking every module's imports.

Layers, lowest first: `core` -> `tables.engine` (pure Python) -> `audit` (the trail) ->
`accounts` -> `tables` (models, games, selectors, services; then its pages, API and admin)
-> `accounting` (slips and the count) and `players` (rated play) -> `reports` -> `casino`
(settings, URLs). A module imports only from its own layer and those below. Imports inside
functions count too, for the layers and for cycles: no module reaches, by any chain of imports,
back to itself.

The games: the engine is game-neutral (it imports no game and names none); a game owns all of
itself in `tables/games/<game>/`, its rules pure like the engine; nothing outside a game's
folder imports it (the registry loads the installed games by name).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = (
    "core",
    "audit",
    "accounts",
    "tables",
    "accounting",
    "players",
    "compliance",
    "reports",
    "casino",
)

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
        "tables.display",
        "tables.services",
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
    # rated play, beside table accounting: above the floor, below the reports
    "players": ("core", "audit", "accounts", "tables"),
    # cash compliance, beside table accounting and rated play: it reads both, neither reads it
    # (accounting's buy-ins reach it through the check it registers, `accounting.cash`)
    "compliance": ("core", "audit", "accounts", "tables", "accounting", "players"),
    "reports": (
        "core",
        "audit",
        "accounts",
        "tables",
        "accounting",
        "players",
        "compliance",
        "casino.enqueue",
    ),
    "casino": (
        "core",
        "audit",
        "accounts",
        "tables",
        "accounting",
        "players",
        "compliance",
        "reports",
        "casino",
    ),
}
# A game's own rules, in its folder (`tables/games/<game>/`): pure Python like the engine (no
# Django, mypy strict), importing only the engine and the rules of the same game.
GAME_RULE_MODULES = ("game", "hands", "edge", "replay", "view", "paytables", "rules", "betting")
# Site modules allowed to import a game's own modules, each with the reason (none: the site asks
# the registry and the game's hooks).
GAME_IMPORT_EXCEPTIONS: dict[str, str] = {}
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


def _imported_from(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The module a `from ... import` names, relative imports resolved."""
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    base = package.split(".")
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(module: str, path: Path) -> Iterator[str]:
    """Every import of the module: at module level, inside functions and under `if
    TYPE_CHECKING:` alike."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            target = _imported_from(module, path, node)
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


def _module_of(name: str, modules: dict[str, Path]) -> str:
    """The project module an imported name is in (`from x import some_function`: module x)."""
    while name not in modules and "." in name:
        name = name.rpartition(".")[0]
    return name


def _installed_games() -> tuple[str, ...]:
    from tables import games

    return tuple(games.INSTALLED)


def _game_of(module: str, games: tuple[str, ...]) -> str | None:
    """The installed game whose folder holds `module`, if any."""
    return next((g for g in games if _within(module, f"tables.games.{g}")), None)


def test_the_engine_imports_no_game() -> None:
    """No engine module imports `tables.games` (or any game's module): the registry reaches
    the games only by loading `tables.games` by name, which registers the installed ones."""
    wrong = []
    for module, path in project_modules():
        if not _within(module, "tables.engine"):
            continue
        for name in set(imports_of(module, path)):
            if _within(name, "tables.games"):
                wrong.append(f"{module} imports {name}")
    assert not wrong, "\n".join(sorted(wrong))


def _game_words() -> list[str]:
    """How a game is named in code or words: each installed game's name (`second_chance`,
    also spelt with a space) and the floor's short names that differ from it."""
    words = [g.replace("_", "[_ ]") for g in _installed_games()]
    return [*words, "2nd chance"]


def test_no_engine_module_names_a_game() -> None:
    """The engine is game-neutral to the letter: no identifier, string, comment or docstring
    in `tables/engine/` names a game (a game's rules, words and paytables are its own)."""
    import re

    pattern = re.compile("|".join(_game_words()), re.IGNORECASE)
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "tables" / "engine").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, "\n".join(found)


def test_the_engine_branches_on_no_game() -> None:
    """No `Game.X` in the engine, and no module loaded by name except by the registry (the
    games' package, its `GAMES_PACKAGE`)."""
    wrong = []
    for module, path in project_modules():
        if not _within(module, "tables.engine"):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Attribute)
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


def test_a_games_rules_are_pure_and_its_own() -> None:
    """Each installed game has its rules (`rules.py`); a game's rule modules import no Django
    and nothing of the project but the engine and the same game's rule modules."""
    modules = dict(project_modules())
    games = _installed_games()
    wrong = []
    for game in games:
        assert f"tables.games.{game}.rules" in modules, game
        for stem in GAME_RULE_MODULES:
            module = f"tables.games.{game}.{stem}"
            if module not in modules:
                continue
            own = {f"tables.games.{game}.{s}" for s in GAME_RULE_MODULES}
            for name in set(imports_of(module, modules[module])):
                target = _module_of(name, modules)
                if _within(name, "django") or (
                    is_project(target)
                    and not _within(target, "tables.engine")
                    and target not in own
                ):
                    wrong.append(f"{module} imports {name}")
    assert not wrong, "\n".join(sorted(wrong))


def test_nothing_outside_a_games_folder_imports_it() -> None:
    """A game's modules are reached through the registry and the game's hooks: no module
    outside `tables/games/<game>/` imports one, neither the rest of the site, nor the games'
    shared modules (`tables.games.base`, ...), nor another game (the games' package loads
    each by name). The exceptions are listed, with their reasons."""
    modules = dict(project_modules())
    games = _installed_games()
    wrong = []
    for module, path in modules.items():
        mine = _game_of(module, games)
        for name in set(imports_of(module, path)):
            theirs = _game_of(_module_of(name, modules), games)
            if theirs is None or theirs == mine:
                continue
            if module in GAME_IMPORT_EXCEPTIONS:
                continue
            wrong.append(f"{module} imports {name}")
    assert not wrong, "\n".join(sorted(wrong))
    for module in GAME_IMPORT_EXCEPTIONS:  # an exception no longer needed is taken off
        imported = {
            _game_of(_module_of(n, modules), games) for n in imports_of(module, modules[module])
        }
        assert imported - {None}, f"{module} imports no game: take it off the exceptions"


def test_the_registry_loads_the_installed_games() -> None:
    from tables import games
    from tables.engine import registry

    assert games.__name__ == registry.GAMES_PACKAGE
    installed = set(games.INSTALLED)
    assert set(registry.banked_names()) | set(registry.player_names()) == installed
    assert set(games.names()) >= installed


def import_graph() -> dict[str, set[str]]:
    """Each project module and the project modules it imports, at module level, inside a
    function or for the type checker only (`if TYPE_CHECKING:`), `from pkg import name` as the
    module `pkg.name` where there is one. A module importing its own package is no edge:
    Python runs the package first, and the package's code never waits on it."""
    modules = dict(project_modules())
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for name in imports_of(module, path):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module and not _within(module, name):
                targets.add(name)
        graph[module] = targets
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return groups


def test_imports_have_no_cycle() -> None:
    """No circle of imports, counting those inside functions and those only the type checker
    reads: a Celery task imports the service it calls, and the service sends it by name
    (`casino.enqueue`), never by importing it; the engine's registry names the types of what a
    game registers (cards, paytables, strategies, edge figures) from modules that never look a
    game up."""
    graph = import_graph()
    assert "reports.reporting" in graph["reports.tasks"]
    assert "tables.services.figures" in graph["tables.tasks"]
    cycles = import_cycles(graph)
    assert not cycles, "\n".join(
        " <-> ".join(f"{m} (imports {', '.join(sorted(graph[m] & set(c)))})" for m in c)
        for c in cycles
    )


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(module: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """Each private name (`_name`) the module takes from another project module: `from x
    import _name`, or `x._name` where `x` names a project module it imported."""
    tree = ast.parse(path.read_text(), str(path))
    module_names: dict[str, str] = {}  # a local name -> the project module it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _imported_from(module, path, node)
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if _private(alias.name) and is_project(source) and source != module:
                    yield f"{module}:{node.lineno} from {source} import {alias.name}"
                elif full in modules:
                    module_names[alias.asname or alias.name] = full
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in modules:
                    module_names[alias.asname] = alias.name
                elif alias.asname is None and is_project(alias.name):
                    module_names[alias.name.partition(".")[0]] = alias.name.partition(".")[0]
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _private(node.attr)):
            continue
        parts = []
        value: ast.expr = node.value
        while isinstance(value, ast.Attribute):
            parts.append(value.attr)
            value = value.value
        if not isinstance(value, ast.Name) or value.id not in module_names:
            continue
        owner = ".".join([module_names[value.id], *reversed(parts)])
        if owner in modules and owner != module:
            yield f"{module}:{node.lineno} {owner}.{node.attr}"


def test_no_private_name_is_imported_across_modules() -> None:
    """A name with a leading underscore is its module's own: no other module of the project
    imports it or reads it off the module (make it public, or move it where it is used)."""
    modules = dict(project_modules())
    found = [
        line for module, path in modules.items() for line in private_imports(module, path, modules)
    ]
    assert not found, "\n".join(sorted(found))


def test_the_private_name_check_finds_both_forms(tmp_path: Path) -> None:
    modules = {"tables.a": tmp_path / "a.py", "tables.b": tmp_path / "b.py"}
    modules["tables.a"].write_text("_x = 1\n\n\ndef _own() -> int:\n    return _x\n")
    modules["tables.b"].write_text(
        "from tables import a\nfrom tables.a import _x\nfrom .a import _own\n\ny = a._x\n"
    )
    assert list(private_imports("tables.a", modules["tables.a"], modules)) == []
    assert list(private_imports("tables.b", modules["tables.b"], modules)) == [
        "tables.b:2 from tables.a import _x",
        "tables.b:3 from tables.a import _own",
        "tables.b:5 tables.a._x",
    ]


def _tasks_sent_by_name() -> Iterator[tuple[str, str]]:
    """(module, task name) of each `enqueue("<name>", ...)`, the name written there or in a
    module-level constant."""
    for module, path in project_modules():
        tree = ast.parse(path.read_text(), str(path))
        constants = {
            target.id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
            for target in node.targets
            if isinstance(target, ast.Name) and isinstance(node.value.value, str)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "enqueue"
                and node.args
            ):
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    yield module, first.value
                elif isinstance(first, ast.Name) and first.id in constants:
                    yield module, constants[first.id]


def test_every_task_sent_by_name_is_registered() -> None:
    """The apps' `ready()` registers the tasks their services send by name, in this process as
    in a worker: a name no task has would fail only when it is sent."""
    from casino.enqueue import registered

    sent = list(_tasks_sent_by_name())
    assert {"reports.reporting", "tables.services.figures"} <= {module for module, _ in sent}
    for module, name in sent:
        assert registered(name).name == name, module


def test_the_cycle_check_finds_a_function_level_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize(
    ("module", "name", "allowed"),
    [
        ("audit.services", "tables.services", False),
        ("reports.tasks", "reports.reporting", True),
        ("tables.tasks", "tables.services.figures", True),
        ("tables.services.figures", "tables.tasks", False),
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


def test_nothing_outside_the_games_names_a_games_award() -> None:
    """No module, template, script or stylesheet outside `tables/games` (the engine included)
    names a game's progressive award (the keys the games declare, `progressive_awards`, the
    engine's neutral jackpot aside): a meter holds its game's awards as data."""
    from tables import games
    from tables.engine.progressive import JACKPOT

    keys = sorted(
        {a.key for g in games.all_games() for a in g.progressive_awards if a.key != JACKPOT}
    )
    assert keys, "no game declares a progressive award"
    pattern = re.compile(r"\b(" + "|".join(re.escape(k) for k in keys) + r")\b")
    wrong = []
    for top in SITE_DIRS:
        for glob in SITE_SOURCES:
            for path in sorted((ROOT / top).rglob(glob)):
                rel = path.relative_to(ROOT)
                if rel.parts[:2] == ("tables", "games"):
                    continue
                if SKIP_PARTS & set(rel.parts) or "vendor" in rel.parts:
                    continue
                found = pattern.search(path.read_text(encoding="utf-8"))
                if found:
                    wrong.append(f"{rel}: {found.group(0)!r}")
    assert not wrong, "\n".join(wrong)


def test_a_game_that_takes_a_progressive_declares_its_awards() -> None:
    """A game that takes a progressive declares its awards (one of them the jackpot); the
    registry refuses one that does not."""
    from tables import games
    from tables.games.base import GameDefinition

    for game in games.all_games():
        if game.takes_progressive:
            assert [a for a in game.progressive_awards if a.is_jackpot], game.name
            assert game.fixed_awards(), game.name

    class Silent(GameDefinition):
        name = "silent_progressive"
        label = "Silent"
        tablet_flow = "banked"
        takes_progressive = True

    with pytest.raises(ValueError, match="declares its awards"):
        games.register(Silent())
    assert "silent_progressive" not in games.GAMES
