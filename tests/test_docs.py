"""The project stands alone: its docs are complete, their links resolve, they agree with the
engine, and nothing outside the tests points at the working brief (`../shared`)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from tables.engine import registry
from tables.engine.errors import SETTLE_REFUSALS
from tables.engine.paytables import named

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
DATA = ROOT / "tests" / "data" / "contract"
# The working brief the project was written from; tests may compare with it when it is there.
BRIEF = ROOT.parent / "shared"

GAMES = ("second_chance", "lowball", "pyramid", "rhode_island", "mulligan")
WORKED_EXAMPLES = ("examples.jsonl", "replay_examples.jsonl")

# What a user who clones the project reads or runs (tests excluded: they may read the brief).
PRODUCT = ("README.md", "pyproject.toml", "manage.py", "docs", "casino", "tables", "audit")
PRODUCT += ("core", "accounts", "reports", "accounting", "players")
PRODUCT += ("templates", "bin", "benchmarks", ".ci")
TEXT_SUFFIXES = {".md", ".py", ".html", ".txt", ".toml", ".cfg", ".js", ".css", ".json", ""}
BRIEF_REFERENCE = re.compile(r"\.\./shared|/work/shared|\bshared/(?:rules|contract)\b")


def product_files() -> list[Path]:
    files: list[Path] = []
    for name in PRODUCT:
        path = ROOT / name
        candidates = [path] if path.is_file() else sorted(path.rglob("*"))
        for file in candidates:
            if not file.is_file() or file.suffix not in TEXT_SUFFIXES:
                continue
            if {"__pycache__", "vendor", "node_modules"} & set(file.relative_to(ROOT).parts):
                continue
            files.append(file)
    return files


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def test_the_rules_of_every_game_and_both_contracts_are_in_docs() -> None:
    for game in GAMES:
        assert (DOCS / "rules" / f"{game}.md").is_file(), game
    for page in ("README.md", "hand_rankings.md"):
        assert (DOCS / "rules" / page).is_file(), page
    for command in ("settle", "replay"):
        assert (DOCS / "contracts" / f"{command}.md").is_file(), command
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/rules/" in readme and "docs/contracts/settle.md" in readme
    assert "docs/contracts/replay.md" in readme


def test_nothing_a_user_gets_points_at_the_working_brief() -> None:
    files = product_files()
    assert len(files) > 50  # the scan really looked at the project
    offenders = [
        f"{file.relative_to(ROOT)}:{number}: {line.strip()}"
        for file in files
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1)
        if BRIEF_REFERENCE.search(line)
    ]
    assert not offenders, "\n".join(offenders)


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    return {github_anchor(m) for m in re.findall(r"^#{1,6} (.+)$", text, flags=re.MULTILINE)}


@pytest.mark.parametrize("page", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_in_the_docs_resolves(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # http(s), mailto: not checked here
        path_part, _, anchor = target.partition("#")
        linked = (page.parent / path_part).resolve() if path_part else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no heading #{anchor}")
    assert not broken, broken


def table_codes(page: Path, heading: str) -> set[str]:
    """The backticked codes in the first column of the table under `heading` (not its header)."""
    section = page.read_text(encoding="utf-8").split(heading, 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)) - {"code"}


def test_the_settle_contract_lists_exactly_the_engines_refusal_codes() -> None:
    codes = table_codes(DOCS / "contracts" / "settle.md", "## Refusals")
    assert codes == {code.value for code in SETTLE_REFUSALS}


def test_the_replay_contract_lists_its_refusal_codes() -> None:
    codes = table_codes(DOCS / "contracts" / "replay.md", "## Refusals")
    assert codes == {
        "bad_json",
        "unknown_game",
        "bad_card",
        "duplicate_card",
        "bad_setup",
        "illegal_action",
        "incomplete",
    }


def odds(text: str) -> Fraction | None:
    """`"3 to 2"` as 3/2; `"push"` or `"loses"` (the hand is not on the table) as None."""
    found = re.fullmatch(r"(\d+) to (\d+)", text.strip())
    return Fraction(int(found[1]), int(found[2])) if found else None


def rows(section: str) -> dict[str, list[str]]:
    """A Markdown table's rows: first cell -> the other cells."""
    out = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) > 1 and not set(cells[0]) <= {"-", " "}:
            out[cells[0]] = cells[1:]
    return out


def test_the_second_chance_paytables_in_the_docs_are_the_engines() -> None:
    text = (DOCS / "rules" / "second_chance.md").read_text(encoding="utf-8")
    ante = rows(text.split("Default Ante/Raise paytable:", 1)[1].split("\n## ", 1)[0])
    pair_plus = rows(text.split("Default Pair Plus paytable", 1)[1].split("\n## ", 1)[0])
    table = named("second_chance", "default")
    names = {"straight flush": "straight_flush", "three of a kind": "three_of_a_kind"}
    names |= {"straight": "straight"}
    for label, line in names.items():
        assert odds(ante[label][0]) == table.odds("ante", line), label
    for line in ("flush", "pair", "high_card"):
        assert odds(ante["anything else"][0]) == table.odds("ante", line), line
    for label, line in (names | {"flush": "flush", "pair": "pair"}).items():
        assert odds(pair_plus[label][0]) == table.odds("pair_plus", line), label
    assert pair_plus["anything else"] == ["loses"]
    assert table.odds("pair_plus", "high_card") is None


def test_the_lowball_bonus_paytables_in_the_docs_are_the_engines() -> None:
    text = (DOCS / "rules" / "lowball.md").read_text(encoding="utf-8")
    table = rows(text.split("Bonus paytables", 1)[1].split("\n## ", 1)[0])
    lines = {
        "4-2-A, one colour": "a24_one_colour",
        "4-2-A, two colours": "a24_two_colour",
        "4-3-A": "a34",
        "5 high": "five_high",
        "6 high": "six_high",
        "7 high": "seven_high",
    }
    for label, line in lines.items():
        for column, name in enumerate(("1", "2", "3")):
            expected = named("lowball", name).odds("bonus", line)
            assert odds(table[label][column]) == expected, (label, name)
    assert table["any other winning hand"] == ["push", "push", "push"]
    assert set(registry.banked_rules("lowball").named_paytables) == {"1", "2", "3"}


@pytest.mark.parametrize("name", WORKED_EXAMPLES)
def test_the_worked_examples_are_kept_in_the_repository(name: str) -> None:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 15


@pytest.mark.parametrize("name", WORKED_EXAMPLES)
def test_the_worked_examples_match_the_brief_when_it_is_present(name: str) -> None:
    brief = BRIEF / "contract" / name
    if not brief.is_file():
        pytest.skip(f"no working brief at {brief} (the repository's copy is what the tests use)")
    assert (DATA / name).read_bytes() == brief.read_bytes()
