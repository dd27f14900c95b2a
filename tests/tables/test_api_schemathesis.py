"""The API against its own OpenAPI schema, by schemathesis, on a live server over PostgreSQL: for
each role of the demo floor (its API token), a bounded run over every operation of
`/api/schema/`, with data the schema allows and data it does not. It fails on any server error,
any status or content type the schema does not document for the operation, an answer whose body
is not the documented one, valid data refused with a 400 the schema does not explain, and
invalid data accepted. The counts per role are printed (`-s`, or in the failure report)."""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# One token per role: the demo floor's users (tables.management.commands.seed_demo).
ROLES = {
    "dealer": "dealer",
    "pit boss": "pitboss",
    "cage": "cage",
    "count team": "count",
    "host": "host",
    "auditor": "auditor",
    "security": "security",
}
# Cases per operation, per role and mode: 7 roles x ~46 operations x (positive + negative)
# stays within a few minutes on a small machine.
POSITIVE_EXAMPLES = 2
NEGATIVE_EXAMPLES = 1
# An object's route is also tried on an object that exists (a random id is mostly a 404).
KNOWN_OBJECT_EXAMPLES = 1
# A ceiling on the whole run, whatever the machine: past it no more cases are generated, and
# the summary names where each role's run stopped.
BUDGET_SECONDS = float(os.environ.get("CASINO_SCHEMATHESIS_SECONDS", "180"))


@dataclass
class Tally:
    operations: int = 0
    cases: int = 0
    failures: list[str] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    unfinished: str | None = None


def _checks() -> list[Any]:
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        negative_data_rejection,
        positive_data_acceptance,
        response_schema_conformance,
        status_code_conformance,
    )

    return [
        not_a_server_error,
        status_code_conformance,
        content_type_conformance,
        response_schema_conformance,
        positive_data_acceptance,
        negative_data_rejection,
    ]


def _config() -> Any:
    import schemathesis

    return schemathesis.Config.from_dict(
        {
            "checks": {
                # Valid data by the schema may still break a rule of the floor the schema cannot
                # state (a card dealt twice, a wager the game does not take, a round not in the
                # state the step needs): those are 400 and 409 answers naming the rule, as the
                # schema documents. Schema-valid data answered 400 is therefore not a failure
                # here; a 5xx still is (not_a_server_error), and so is an undocumented status.
                "positive_data_acceptance": {
                    "expected-statuses": ["2xx", "400", "401", "403", "404", "409"]
                },
            }
        }
    )


def _raise_throttles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The throttles read their rates once, when DRF's settings are first read (the class's
    THROTTLE_RATES): raise them in that dict, for the live server in this process."""
    from rest_framework.throttling import SimpleRateThrottle

    for scope in ("anon", "user", "sign_in"):
        monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, "1000000/min")


def _known_ids() -> dict[str, int]:
    """An object of each collection on the demo floor, by its route's first segment."""
    from accounting.models import Slip
    from players.models import Player
    from tables.models import Hand, PaytableVersion, ProgressiveMeter, Round, Table

    models: dict[str, Any] = {
        "tables": Table,
        "rounds": Round,
        "hands": Hand,
        "paytable-versions": PaytableVersion,
        "meters": ProgressiveMeter,
        "slips": Slip,
        "players": Player,
    }
    known = {}
    for segment, model in models.items():
        pk = model.objects.order_by("pk").values_list("pk", flat=True).first()
        if pk is not None:
            known[segment] = pk
    return known


def _run_role(
    role: str,
    base_url: str,
    token: str,
    deadline: float,
    checks: list[Any],
    known: dict[str, int],
) -> Tally:
    import schemathesis
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis.errors import Unsatisfiable
    from schemathesis.core.failures import FailureGroup

    headers = {"Authorization": f"Token {token}"}
    schema = schemathesis.openapi.from_url(
        f"{base_url}/api/schema/?format=json", headers=headers, config=_config()
    )
    tally = Tally()
    session = requests.Session()
    session.headers.update(headers)
    operations = [result.ok() for result in schema.get_all_operations()]
    # Revoking the token it is sent with (signing out of the API) goes last: after it the role's
    # requests are anonymous.
    operations.sort(key=lambda op: (op.method.upper(), op.path) == ("DELETE", "/api/auth-token/"))
    for operation in operations:
        tally.operations += 1
        segment = operation.path.split("/")[2]
        runs: list[tuple[Any, int, dict[str, Any] | None]] = [
            (schemathesis.GenerationMode.POSITIVE, POSITIVE_EXAMPLES, None),
            (schemathesis.GenerationMode.NEGATIVE, NEGATIVE_EXAMPLES, None),
        ]
        if "{id}" in operation.path and segment in known:
            runs.append(
                (
                    schemathesis.GenerationMode.POSITIVE,
                    KNOWN_OBJECT_EXAMPLES,
                    {"id": known[segment]},
                )
            )
        for mode, examples, path_parameters in runs:
            if time.monotonic() > deadline:
                # Bounded on a slow machine: said in the summary, not a failure of the API.
                tally.unfinished = operation.label
                return tally

            @settings(
                max_examples=examples,
                deadline=None,
                database=None,
                derandomize=True,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            @given(
                case=operation.as_strategy(generation_mode=mode, path_parameters=path_parameters)
            )
            def run(case: Any) -> None:
                tally.cases += 1
                try:
                    response = case.call(base_url=base_url, session=session)
                    tally.statuses[response.status_code] += 1
                    case.validate_response(response, checks=checks)
                except FailureGroup as exc:
                    label = f"{case.meta.generation.mode.value} {case.operation.label}"
                    tally.failures.append(f"{role} {label}: {exc}")

            try:
                run()
            except Unsatisfiable:
                # nothing of the operation can be made invalid (no parameters, no body)
                assert mode == schemathesis.GenerationMode.NEGATIVE, operation.label
    return tally


def test_every_operation_for_every_role_answers_as_the_schema_says(
    live_server: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("runs against a live server on PostgreSQL (set DATABASE_URL)")
    pytest.importorskip("schemathesis")
    with override_settings(DEBUG=True), open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)
    _raise_throttles(monkeypatch)

    from django.contrib.auth import get_user_model

    from tables.models import Table
    from tables.services.sessions import dealer_sign_in

    # the dealer at a table, so that the play operations reach their rules
    dealer_sign_in(
        dealer=get_user_model().objects.get(username="dealer"),
        table=Table.objects.get(name="SC-1"),
    )
    base_url = live_server.url
    tokens = {}
    for role, username in ROLES.items():
        answer = requests.post(
            f"{base_url}/api/auth-token/",
            json={"username": username, "password": "demo"},
            timeout=10,
        )
        assert answer.status_code == 200, (role, answer.status_code, answer.text)
        tokens[role] = answer.json()["token"]

    checks = _checks()
    known = _known_ids()
    started = time.monotonic()
    tallies = {
        # each role its share of the budget
        role: _run_role(
            role, base_url, token, time.monotonic() + BUDGET_SECONDS / len(tokens), checks, known
        )
        for role, token in tokens.items()
    }
    lines = [f"schemathesis against {base_url} in {time.monotonic() - started:.0f} s:"]
    for role, tally in tallies.items():
        statuses = ", ".join(f"{s}: {n}" for s, n in sorted(tally.statuses.items()))
        lines.append(
            f"  {role:<10} operations {tally.operations:>3}  cases {tally.cases:>5}  "
            f"failures {len(tally.failures):>3}  ({statuses})"
        )
        if tally.unfinished:
            lines.append(f"  {role:<10} stopped by the time budget at {tally.unfinished}")
    summary = "\n".join(lines)
    with capsys.disabled():  # the counts in the run's own output, passed or failed
        print("\n" + summary)
    failures = [failure for tally in tallies.values() for failure in tally.failures]
    assert not failures, summary + "\n\n" + "\n\n".join(failures[:20])
