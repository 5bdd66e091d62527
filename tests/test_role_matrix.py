"""Every URL of the app, walked as every kind of user, against the allowed/denied matrix.

A URL that is not in ``MATRIX`` fails ``test_every_url_is_in_the_matrix``: whoever adds a
page must decide who may open it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from brackets.models import Membership, Tournament

# Expected outcome per user kind.
OK, LOGIN, DENY = "ok", "login", "deny"
USERS = ["anonymous", "desk", "bracket", "organiser", "outsider", "admin"]

PUBLIC = dict.fromkeys(USERS, OK)
STAFF = {"anonymous": LOGIN, "desk": OK, "bracket": OK, "organiser": OK, "outsider": DENY, "admin": OK}
DESK = {"anonymous": LOGIN, "desk": OK, "bracket": DENY, "organiser": OK, "outsider": DENY, "admin": OK}
BRACKET = {"anonymous": LOGIN, "desk": DENY, "bracket": OK, "organiser": OK, "outsider": DENY, "admin": OK}
ORGANISER = {"anonymous": LOGIN, "desk": DENY, "bracket": DENY, "organiser": OK, "outsider": DENY, "admin": OK}
SUPERUSER = {"anonymous": LOGIN, "desk": DENY, "bracket": DENY, "organiser": DENY, "outsider": DENY, "admin": OK}


def slug_only(world: dict[str, Any]) -> dict[str, Any]:
    return {"slug": world["tournament"].slug}


@dataclass
class Entry:
    expect: dict[str, str]
    method: str = "GET"
    kwargs: Callable[[dict[str, Any]], dict[str, Any]] = slug_only
    data: Callable[[dict[str, Any]], dict[str, Any]] = field(default=lambda world: {})


def no_kwargs(world: dict[str, Any]) -> dict[str, Any]:
    return {}


MATRIX: dict[str, Entry] = {
    "home": Entry(PUBLIC, kwargs=no_kwargs),
    "favicon": Entry(PUBLIC, kwargs=no_kwargs),
    "tournament_new": Entry(SUPERUSER, kwargs=no_kwargs),
    "tournament_dashboard": Entry(STAFF),
    "tournament_edit": Entry(ORGANISER),
    "staff_list": Entry(ORGANISER),
    "preset_settings": Entry(ORGANISER),
    # The rule page (public) and the rehearsal (organiser): issue 17 items 3, 4.
    "public_rules": Entry(PUBLIC),
    "rules_rehearsal": Entry(ORGANISER),
    "staff_delete": Entry(
        ORGANISER,
        method="POST",
        kwargs=lambda w: {"slug": w["tournament"].slug, "membership_id": w["spare_membership"].id},
    ),
    "staff_unlock": Entry(
        ORGANISER,
        method="POST",
        kwargs=lambda w: {"slug": w["tournament"].slug, "membership_id": w["spare_membership"].id},
    ),
    "public_tournament": Entry(PUBLIC),
    "document_list": Entry(STAFF),
    # One view serves every document; each document's own role is walked in
    # tests/printing/test_views.py. Here: a desk document.
    "document_download": Entry(
        DESK, kwargs=lambda w: {"slug": w["tournament"].slug, "doc_slug": "name-tags"}
    ),
    "tournament_import": Entry(SUPERUSER, kwargs=no_kwargs),
    # Exists only on a hosted public copy (tests/hosted/test_receiver.py); 404 on a venue.
    "public_copy_push": Entry(dict.fromkeys(USERS, "missing"), method="POST", kwargs=no_kwargs),
    # Entry desk (issue 2): desk staff and organisers.
    "desk": Entry(DESK),
    "desk_entrant_new": Entry(DESK),
    "desk_entrant_edit": Entry(DESK, kwargs=lambda w: _desk_entrant(w)),
    "desk_check_in": Entry(
        DESK, method="POST", kwargs=lambda w: _desk_entrant(w), data=lambda w: {"checked_in": "1"}
    ),
    "desk_fee": Entry(
        DESK, method="POST", kwargs=lambda w: _desk_entrant(w), data=lambda w: {"fee_paid": "1"}
    ),
    "desk_import": Entry(DESK),
    "desk_import_preview": Entry(
        DESK, kwargs=lambda w: {"slug": w["tournament"].slug, "token": w["entrant_import"].token}
    ),
    "desk_export": Entry(DESK),
    "desk_entrant_print": Entry(DESK, kwargs=lambda w: _desk_entrant(w)),
    # Live buzzer rounds (issue 6): console and writes for bracket staff, scoreboard public.
    "buzzer_index": Entry(BRACKET),
    "buzzer_round_new": Entry(ORGANISER),
    "buzzer_presets": Entry(ORGANISER),
    # A whole event from a preset: bracket staff see the layout and run the rounds made;
    # only the organiser previews and creates a round.
    "buzzer_event": Entry(BRACKET, kwargs=lambda w: _event(w)),
    "buzzer_event_round": Entry(ORGANISER, kwargs=lambda w: _event(w, "2r")),
    "buzzer_console": Entry(BRACKET, kwargs=lambda w: _buzzer(w)),
    "buzzer_console_state": Entry(BRACKET, kwargs=lambda w: _buzzer(w)),
    "buzzer_tap": Entry(
        BRACKET, method="POST", kwargs=lambda w: _buzzer(w), data=lambda w: {"kind": "thru"}
    ),
    "buzzer_written_entry": Entry(BRACKET, method="POST", kwargs=lambda w: _buzzer(w)),
    "buzzer_tiebreak_start": Entry(
        BRACKET, method="POST", kwargs=lambda w: _buzzer(w), data=lambda w: {"side": "win"}
    ),
    "buzzer_tiebreak_apply": Entry(
        BRACKET, method="POST", kwargs=lambda w: _buzzer(w, "buzzer_tiebreak")
    ),
    "paper_upload": Entry(BRACKET),
    "paper_detail": Entry(
        BRACKET,
        kwargs=lambda w: {"slug": w["tournament"].slug, "marking_id": w["paper_marking"].id},
    ),
    "public_buzzer_scoreboard": Entry(PUBLIC, kwargs=lambda w: _buzzer(w)),
    "public_buzzer_state": Entry(PUBLIC, kwargs=lambda w: _buzzer(w)),
    "public_buzzer_stream": Entry(PUBLIC, kwargs=lambda w: _buzzer(w)),
    # Protests (issue 16 item 3): bracket staff; the organiser-only part is the window,
    # decided by the engine and tested in tests/buzzer_web/test_protest_changes_judgement.py.
    "buzzer_protest": Entry(BRACKET, kwargs=lambda w: _buzzer(w)),
    # Editing a round's settings is the organiser's, as creating it is.
    "buzzer_round_settings": Entry(ORGANISER, kwargs=lambda w: _buzzer(w)),
    # Stream overlays (issue 16 item 6): public and read-only like the stage scoreboard.
    "public_buzzer_overlay_lower": Entry(PUBLIC, kwargs=lambda w: _buzzer(w)),
    "public_buzzer_overlay_side": Entry(PUBLIC, kwargs=lambda w: _buzzer(w)),
    # Question files (issue 16 item 4): bracket staff load them; the answers stay off the
    # public pages (tests/buzzer_web/test_question_files.py).
    "buzzer_questions": Entry(BRACKET, kwargs=lambda w: _buzzer(w)),
    "buzzer_questions_confirm": Entry(
        BRACKET, method="POST", kwargs=lambda w: _buzzer(w), data=lambda w: {"token": "x"}
    ),
    # Withdrawing the file in effect (the round then runs without questions).
    "buzzer_questions_withdraw": Entry(
        BRACKET, method="POST", kwargs=lambda w: _buzzer(w), data=lambda w: {"file": "1"}
    ),
}

# Rounds, matches and the public bracket (issue 4).
from tests.rounds.matrix import rounds_matrix  # noqa: E402

MATRIX.update(rounds_matrix())

# The floor (issue 15): cabinet sets and the call queue; the draw's release, check-in by QR,
# announcements and the timetable.
from tests.floor.matrix import floor_matrix
from tests.floor.notices_matrix import notices_matrix

MATRIX.update(notices_matrix())

MATRIX.update(floor_matrix())

# The player registry (issue 14): the desk's lookup, records, merges, 修羅 overrides.
from tests.players.matrix import players_matrix

MATRIX.update(players_matrix())

# Qualifier series (issue 14 item 3): the public series page and the organiser's pages.
from tests.series.matrix import series_matrix

MATRIX.update(series_matrix())

# Composed rule sets (issue 17): the organiser's composer, files in and out.
from tests.rulesets.matrix import rulesets_matrix

MATRIX.update(rulesets_matrix())


def _event(world: dict[str, Any], round_slug: str = "") -> dict[str, Any]:
    kwargs = {"slug": world["tournament"].slug, "preset": "abc-the25th-004"}
    return {**kwargs, "round_slug": round_slug} if round_slug else kwargs


def _buzzer(world: dict[str, Any], key: str = "buzzer_round") -> dict[str, Any]:
    return {"slug": world["tournament"].slug, "round_id": world[key].id}


def _desk_entrant(world: dict[str, Any]) -> dict[str, Any]:
    return {"slug": world["tournament"].slug, "entrant_id": world["entrant"].id}

# Framework URLs with their own permission model (Django admin, auth, i18n).
FRAMEWORK_PREFIXES = ("admin/", "i18n/", "accounts/", "static/")


def app_url_names() -> set[str]:
    names: set[str] = set()

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if route.startswith(FRAMEWORK_PREFIXES):
                continue
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern):
                assert pattern.name, f"URL {route!r} has no name"
                names.add(pattern.name)

    walk(get_resolver().url_patterns, "")
    return names


def test_every_url_is_in_the_matrix() -> None:
    missing = app_url_names() - set(MATRIX)
    assert not missing, f"place these URLs in the role matrix: {sorted(missing)}"
    stale = set(MATRIX) - app_url_names()
    assert not stale, f"the matrix names URLs that no longer exist: {sorted(stale)}"


@pytest.fixture
def world(tournament: Tournament, cast: dict[str, Any]) -> dict[str, Any]:
    """Objects the URLs need; extended as areas of the app are added."""
    from tests.matrix_world import build_world

    return build_world(tournament=tournament, cast=cast)


def outcome(response: Any) -> str:
    if response.status_code == 403:
        return DENY
    if response.status_code in (301, 302) and "/accounts/login/" in response.get("Location", ""):
        return LOGIN
    assert response.status_code < 500, response.status_code
    if response.status_code == 404:
        return "missing"
    return OK


# Views that read on a connection of their own (the scoreboard stream looks its round up in
# the change-watcher's thread) see only what the test has committed.
OWN_CONNECTION = {"public_buzzer_stream"}


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.django_db(transaction=True))
    if name in OWN_CONNECTION else name for name in sorted(MATRIX)])
def test_role_matrix(name: str, world: dict[str, Any], clients: dict[str, Any]) -> None:
    entry = MATRIX[name]
    for user in USERS:
        # Rebuild the objects a POST may consume (a deleted membership, a checked-in entrant).
        kwargs = entry.kwargs(world)
        url = reverse(name, kwargs=kwargs)
        client = clients[user]
        if entry.method == "POST":
            response = client.post(url, entry.data(world))
        else:
            response = client.get(url)
        assert outcome(response) == entry.expect[user], (
            f"{entry.method} {url} as {user}: got {outcome(response)} "
            f"(HTTP {response.status_code}), expected {entry.expect[user]}"
        )
        if entry.method == "POST":
            world.update(_refresh(world))


def _refresh(world: dict[str, Any]) -> dict[str, Any]:
    from tests.matrix_world import build_world

    return build_world(tournament=world["tournament"], cast=world["cast"])
