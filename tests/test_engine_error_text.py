"""Every engine refusal staff can meet reads as a Japanese sentence that says what to fix.

The engine (brackets/engine) raises ``RuleRefusal(code, english_message, **params)`` for
what the rules refuse and ``EngineBug(...)`` for what no staff action can produce; the web
layer words each refusal code in ``brackets.messages.ERROR_TEXT`` and never words a bug.
These tests read the source of brackets/ (so a new ``raise`` cannot slip by without wording
or without a kind), check every template formats with the params its raise sites pass, and
drive a few real service calls.
"""

from __future__ import annotations

import ast
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from brackets import messages as msg
from brackets.engine.errors import EngineBug, EngineError, RuleRefusal
from brackets.models import Entrant, Group, Round, Seat
from brackets.services import rounds as svc
from tests.rounds.conftest import group, round_one  # noqa: F401 - the round tests' fixtures

APP = Path(__file__).resolve().parent.parent / "brackets"
MESSAGES = APP / "messages.py"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
KINDS = ("EngineError", "RuleRefusal", "EngineBug")

def _constant_returns(func: ast.FunctionDef) -> set[str]:
    return {n.value.value for n in ast.walk(func)
            if isinstance(n, ast.Return) and isinstance(n.value, ast.Constant)
            and isinstance(n.value.value, str)}


def _codes_of(expr: ast.expr, scope: ast.AST | None, functions: dict[str, ast.FunctionDef],
              where: str) -> set[str]:
    """The string codes an EngineError's first argument can take: a literal, a conditional
    of literals, or a local name assigned from those or from a helper returning literals."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return {expr.value}
    if isinstance(expr, ast.IfExp):
        return (_codes_of(expr.body, scope, functions, where)
                | _codes_of(expr.orelse, scope, functions, where))
    if isinstance(expr, ast.Name) and scope is not None:
        found: set[str] = set()
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == expr.id for t in node.targets):
                value = node.value
                if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
                        and value.func.id in functions:
                    found |= _constant_returns(functions[value.func.id])
                else:
                    found |= _codes_of(value, None, functions, where)
        if found:
            return found
    raise AssertionError(f"{where}: cannot tell which code EngineError raises; use a literal")


def raise_sites() -> list[tuple[str, str, str, frozenset[str]]]:
    """(kind, code, file:line, param names) of every ``EngineError(...)``,
    ``RuleRefusal(...)`` and ``EngineBug(...)`` call in brackets/."""
    sites = []
    for path in sorted(APP.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                parents[child] = node
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name not in KINDS:
                continue
            where = f"{path.relative_to(APP.parent)}:{node.lineno}"
            first = node.args[0] if node.args else next(
                (k.value for k in node.keywords if k.arg == "code"), None)
            assert first is not None, f"{where}: {name} without a code"
            scope: ast.AST | None = node
            while scope is not None and not isinstance(scope, ast.FunctionDef):
                scope = parents.get(scope)
            params = frozenset(k.arg for k in node.keywords if k.arg and k.arg != "code")
            for code in _codes_of(first, scope, functions, where):
                sites.append((str(name), code, where, params))
    return sites


SITES = raise_sites()
CODES = {code for _kind, code, _where, _params in SITES}
REFUSALS = {code for kind, code, _where, _params in SITES if kind == "RuleRefusal"}
BUGS = {code for kind, code, _where, _params in SITES if kind == "EngineBug"}
BARE = [(code, where) for kind, code, where, _params in SITES if kind == "EngineError"]
WORDED_SITES = sorted(((c, w, p) for k, c, w, p in SITES if k != "EngineBug"),
                      key=lambda s: (s[0], s[1]))


def test_the_source_scan_finds_the_engine_codes() -> None:
    """The scan sees literals, conditionals and codes picked by a helper (buzzer core)."""
    assert len(CODES) > 90
    assert {"dice_never_differ", "ban_missing", "lots_not_drawn", "missing_question",
            "unknown_question", "player_resting", "already_answered", "player_won"} <= CODES


def test_every_refusal_is_worded_and_every_bug_is_not() -> None:
    missing = sorted(REFUSALS - set(msg.ERROR_TEXT))
    assert missing == [], f"refusal codes without staff wording: {missing}"
    assert sorted(BUGS & set(msg.ERROR_TEXT)) == []
    # A bug code appears nowhere in the messages module, not even as a string.
    constants = {n.value for n in ast.walk(ast.parse(MESSAGES.read_text(encoding="utf-8")))
                 if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert sorted(BUGS & constants) == []
    # One code is one kind: a code raised as a bug somewhere is never a refusal elsewhere.
    assert sorted(BUGS & REFUSALS) == []


def test_only_the_two_kinds_are_raised() -> None:
    """The base class is for ``except`` clauses; every raise says which kind it is."""
    stray = [where for _code, where in BARE]
    assert stray == [], f"raise RuleRefusal or EngineBug, not EngineError: {stray}"


def test_messages_keep_no_code_the_engine_no_longer_raises() -> None:
    assert sorted(set(msg.ERROR_TEXT) - CODES) == []


@pytest.mark.parametrize("code,where,params",
                         [(c, w, p) for c, w, p in WORDED_SITES if c in msg.ERROR_TEXT])
def test_each_raise_site_gets_its_own_japanese_sentence(code: str, where: str,
                                                        params: frozenset[str]) -> None:
    """With exactly the params this raise site passes, the wording formats completely: no
    fallback, no placeholder left, Japanese."""
    exc = RuleRefusal(code, "english developer message", **{p: "値" for p in params})
    with translation.override("ja"):
        text = msg.error_text(exc)
    assert "english developer message" not in text, where
    assert code not in text, where
    assert "{" not in text and "}" not in text, where
    assert JAPANESE.search(text), where


def test_an_unworded_code_falls_back_to_a_japanese_sentence_with_code_and_detail() -> None:
    code = "code_without_wording"
    with translation.override("ja"):
        text = msg.error_text(EngineError(code, "duplicate genre names", names=["芸能"]))
    assert text == f"入力を処理できませんでした（{code}）：duplicate genre names"


def test_an_engine_bug_is_logged_and_never_worded_as_a_rule(
        caplog: pytest.LogCaptureFixture) -> None:
    """Staff see only the generic sentence naming the code; the detail goes to the log."""
    code = min(BUGS)
    with translation.override("ja"), caplog.at_level(logging.ERROR, logger="brackets.messages"):
        text = msg.error_text(EngineBug(code, "duplicate genre names", names=["芸能"]))
    assert text == f"入力を処理できませんでした（{code}）。"
    assert "duplicate genre names" not in text
    record = next(r for r in caplog.records if r.name == "brackets.messages")
    assert record.exc_info is not None and isinstance(record.exc_info[1], EngineBug)
    assert "duplicate genre names" in record.getMessage()


def test_the_buzzer_console_uses_the_same_wording() -> None:
    from brackets.selectors.buzzer import engine_message

    with translation.override("ja"):
        assert engine_message("clock_running") == str(msg.ERROR_TEXT["clock_running"])
        assert engine_message("too_few_players", {"left": 2}) == "コースを埋める人数が足りません。"
        assert engine_message("no_such_code") == "入力を処理できませんでした（no_such_code）。"


def test_players_are_named_not_numbered() -> None:
    exc = RuleRefusal("partner_absent", "'12' is not present", player="12")
    assert msg.player_ids(exc.params) == {12}
    with translation.override("ja"):
        assert "山田さん" in msg.error_text(exc, {"12": "山田"})


def test_english_is_available() -> None:
    exc = RuleRefusal("dice_undecided", "the last roll is a tie: roll again")
    with translation.override("en"):
        text = msg.error_text(exc)
    assert not JAPANESE.search(text)
    assert text != str(exc)


# ------------------------------------------------------------- real service calls


def _two_entrants(round_one: Round) -> tuple[Entrant, Entrant]:
    seats = list(Seat.objects.filter(group__round=round_one, entrant__isnull=False)
                 .select_related("entrant").order_by("id")[:2])
    return seats[0].entrant, seats[1].entrant


@pytest.mark.django_db
def test_dice_that_never_differ_are_refused_in_japanese(round_one: Round,
                                                        cast: dict[str, Any]) -> None:
    a, b = _two_entrants(round_one)
    with translation.override("ja"), pytest.raises(svc.RoundError) as info:
        svc.dice_record(round=round_one, players=(a.id, b.id), by=cast["bracket"],
                        rolls=[(3, 3), (5, 5)])
    assert "最後のダイスが同じ目です" in info.value.message
    assert "tie" not in info.value.message


@pytest.mark.django_db
def test_a_die_face_outside_one_to_six_names_the_roll(round_one: Round,
                                                      cast: dict[str, Any]) -> None:
    a, b = _two_entrants(round_one)
    with translation.override("ja"), pytest.raises(svc.RoundError) as info:
        svc.dice_record(round=round_one, players=(a.id, b.id), by=cast["bracket"],
                        rolls=[(2, 2), (7, 1)])
    assert "2回目のダイスの目（7・1）が1〜6ではありません" in info.value.message


@pytest.mark.django_db
def test_ban_reveal_before_every_ban_names_who_is_missing(group: Group,
                                                          cast: dict[str, Any]) -> None:
    seats = list(Seat.objects.filter(group=group, entrant__isnull=False)
                 .select_related("entrant").order_by("number"))
    svc.ban_record(group=group, entrant=seats[0].entrant, genre="芸能", by=cast["bracket"])
    with translation.override("ja"), pytest.raises(svc.RoundError) as info:
        svc.ban_reveal(group=group, by=cast["bracket"])
    message = info.value.message
    assert message.startswith("禁止ジャンルがまだ揃っていません")
    for seat in seats[1:]:
        assert seat.entrant.name in message
    assert seats[0].entrant.name not in message


def test_a_shura_player_without_lots_reads_japanese() -> None:
    """The adapter treats undrawn lots as BOMBER before the draw, so no service reaches this
    refusal today; the engine's own refusal still has wording should one do."""
    from brackets.engine.shura import ShuraDeclaration, lots_owed, shura_player_rules

    owed = lots_owed(ShuraDeclaration(national_title=True))
    with pytest.raises(RuleRefusal) as info:
        shura_player_rules(85, owed, None)
    with translation.override("ja"):
        text = msg.error_text(info.value)
    assert text == "修羅の道の選手です。先に修羅くじを引いて記録してください"


# ------------------------------------------------------------- the two kinds at catch sites


def test_a_refusal_caught_for_its_own_wording_keeps_it_and_a_bug_passes_through(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A catch that words a refusal itself (the desk's lot column) never words a bug."""
    from brackets import tables
    from brackets.models import Entrant as EntrantRow

    entrant = EntrantRow(name="山田", q_level=80, shura_extra_lots=9)
    with translation.override("ja"):
        assert tables.shura_summary(entrant) == "くじ数が上限超過"

    def bug(*_args: Any, **_kwargs: Any) -> Any:
        raise EngineBug("deck_duplicate", "a card appears twice in the deck")

    monkeypatch.setattr(tables, "lots_owed", bug)
    with pytest.raises(EngineBug):
        tables.shura_summary(entrant)


@pytest.mark.django_db
def test_a_bug_under_a_service_is_logged_and_refused_generically(
        round_one: Round, cast: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    a, b = _two_entrants(round_one)

    def bug(*_args: Any, **_kwargs: Any) -> Any:
        raise EngineBug("lottery_missing", "this draw needs the tournament's lottery")

    monkeypatch.setattr(svc.specials, "record_dice", bug)
    with translation.override("ja"), caplog.at_level(logging.ERROR, logger="brackets.messages"), \
            pytest.raises(svc.RoundError) as info:
        svc.dice_record(round=round_one, players=(a.id, b.id), by=cast["bracket"],
                        rolls=[(3, 4)])
    assert "入力を処理できませんでした（lottery_missing）。" in info.value.message
    assert "needs the tournament" not in info.value.message
    assert any(r.name == "brackets.messages" and r.exc_info for r in caplog.records)
