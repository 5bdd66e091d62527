"""Random, truncated and hostile tournament files and replay files (issue 19).

Whatever the file holds, ``manage.py tournament_import`` and ``manage.py replay`` either
accept it or refuse it as ``FILE: key: message`` with exit status 2: no traceback
escapes, and the tournament the file came from exports exactly as before. Files are the
app's own exports, cut short or with one value replaced (by any JSON value, a huge
number, a long text, deep nesting) or removed, and wholly random JSON.

Example counts are modest and derandomised, so a run is quick and repeatable on either
database (``DATABASE_URL``); ``KYUSHU_FUZZ_EXAMPLES=500`` hunts longer with fresh
examples.
"""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brackets.exporters.tournament_file import tournament_file_data
from brackets.models import Group, Tournament
from brackets.services import rounds as svc
from brackets.services.replay import tournament_play_export

pytestmark = pytest.mark.django_db

#: ``KYUSHU_FUZZ_EXAMPLES`` raises the count (and draws fresh examples) for a longer hunt.
EXAMPLES = int(os.environ.get("KYUSHU_FUZZ_EXAMPLES", "0"))
FUZZ = settings(max_examples=EXAMPLES or 40, deadline=None, derandomize=not EXAMPLES,
                database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.data_too_large])
REPLAY_FUZZ = settings(FUZZ, max_examples=EXAMPLES or 15)

#: Any JSON value, scalars weighted towards the edges a desk never types.
SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 5, 9, 100_000, 3_000_000_000, 2**31, 2**63]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(["", "5000.00", "100000", "-400", "NaN", "1e999", "0.001", "ア" * 20,
                     "x" * 300, "\x00", "2019-13-45", "=HYPERLINK(\"x\")", "cage_match",
                     "dummy", "app"]),
)
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


VALUES = st.one_of(JSON, st.integers(min_value=60, max_value=300).map(_nested))


def _without_stamp(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "exported_at"}


class _Null:
    def write(self, text: str) -> None:
        pass

    def flush(self) -> None:
        pass


def _run(command: str, path: Path) -> None:
    """Run the command on ``path``: it succeeds, or refuses with status 2 naming the file."""
    try:
        with transaction.atomic():
            call_command(command, str(path), stdout=_Null())
            transaction.set_rollback(True)  # an accepted file must not change the next one
    except CommandError as refused:
        assert refused.returncode == 2, str(refused)
        assert str(refused).startswith(f"{path}: "), str(refused)


def _mutate(draw: st.DrawFn, data: Any) -> Any:
    """``data`` with one value somewhere inside replaced, removed, or the text cut."""
    out = copy.deepcopy(data)
    parent: Any = None
    key: Any = None
    node = out
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        if isinstance(node, dict) and node:
            k = draw(st.sampled_from(sorted(node, key=str)))
        elif isinstance(node, list) and node:
            k = draw(st.integers(min_value=0, max_value=len(node) - 1))
        else:
            break
        parent, key, node = node, k, node[k]
    if parent is None:
        return draw(VALUES)
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[key]
    else:
        parent[key] = draw(VALUES)
    return out


def _file_text(draw: st.DrawFn, data: dict[str, Any]) -> str:
    """A file made from ``data``: mutated, cut short, or wholly random."""
    kind = draw(st.sampled_from(["mutated", "mutated", "mutated", "truncated", "random"]))
    if kind == "random":
        return json.dumps(draw(VALUES))
    text = json.dumps(_mutate(draw, data) if kind == "mutated" else data, ensure_ascii=False)
    if kind == "truncated":
        return text[: draw(st.integers(min_value=0, max_value=len(text)))]
    return text


@pytest.fixture
def running(tournament: Tournament, cast: dict[str, Any]) -> Tournament:
    """九州杯IX round 1 running, one group played with a penalty (every kind of record)."""
    from tests.rounds.conftest import running_round_one
    from tests.rounds.helpers import play_group

    first = running_round_one(tournament, 16, cast["organiser"])
    group = Group.objects.filter(round=first).order_by("number").first()
    assert group is not None
    play_group(group, cast["bracket"], random.Random(19))
    svc.penalty_add(group=group, by=cast["bracket"], seat_number=1, points="400",
                    reason="バグ技")
    tournament.refresh_from_db()
    return tournament


def test_tournament_import_never_escapes_a_traceback(running: Tournament,
                                                     tmp_path_factory: Any) -> None:
    original = _without_stamp(tournament_file_data(tournament=running))
    base = dict(original)
    base.pop("checksum")  # a hand-edited file: reach the checks behind the checksum
    base["tournament"] = {**base["tournament"], "slug": "fuzzed"}
    folder = tmp_path_factory.mktemp("tournament-files")

    @FUZZ
    @given(st.data())
    def one_file(draw: st.DataObject) -> None:
        path = folder / "fuzzed.json"
        path.write_text(_file_text(draw.draw, base), encoding="utf-8")
        _run("tournament_import", path)
        assert _without_stamp(tournament_file_data(tournament=running)) == original

    one_file()


def test_replay_never_escapes_a_traceback(tournament: Tournament, cast: dict[str, Any],
                                          tmp_path_factory: Any) -> None:
    from tests.rounds.test_full_events import run_katata

    run_katata(tournament, cast["organiser"], random.Random(3))
    original = _without_stamp(tournament_file_data(tournament=tournament))
    base = tournament_play_export(tournament)
    base["play"] = base["play"][:1]  # one round keeps every example quick
    base["tournament"]["slug"] = "fuzzed"
    folder = tmp_path_factory.mktemp("replay-files")

    @REPLAY_FUZZ
    @given(st.data())
    def one_file(draw: st.DataObject) -> None:
        path = folder / "fuzzed.json"
        path.write_text(_file_text(draw.draw, base), encoding="utf-8")
        _run("replay", path)
        assert _without_stamp(tournament_file_data(tournament=tournament)) == original

    one_file()
