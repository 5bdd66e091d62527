"""Random and hostile values posted to every form of the role matrix (issue 19).

Every URL of ``tests/test_role_matrix.MATRIX`` is posted to (and every page fetched with a
random query string) by a user allowed to use it, with the field names its page shows (and
the values the page offers, such as each ``action``) mixed with hostile values: numbers
out of every range, text that is not a number, markup, formulas, invisible characters,
long and deeply nested text, several values under one name, files that are not what they
claim. For each input:

- no answer is a server error (5xx);
- an input that is refused (4xx, or the form shown again) leaves the tournament's export
  (``tournament_file_data``, less its time stamp and checksum) exactly as it was.

The examples are derandomized (the same inputs on every run, so CI is never flaky) and
kept modest: ``FUZZ_EXAMPLES`` (per URL, default 4) scales the run; the whole file takes
about a minute per database. The figures (inputs tried, refused, accepted, 5xx) are
printed at the end of the run.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from html.parser import HTMLParser
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from brackets.exporters.tournament_file import tournament_file_data
from brackets.forms.match import CARD_SLOTS
from brackets.models import Tournament
from tests.conftest import client_for
from tests.test_role_matrix import DENY, MATRIX, OK

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "4"))
FIGURES: Counter[str] = Counter()

# The page whose forms post to a POST-only URL: its field names and offered values are
# what that URL is fuzzed with.
FORM_PAGE = {
    "staff_delete": "staff_list", "staff_unlock": "staff_list",
    "desk_check_in": "desk", "desk_fee": "desk",
    "buzzer_tap": "buzzer_console", "buzzer_written_entry": "buzzer_console",
    "buzzer_tiebreak_start": "buzzer_console", "buzzer_tiebreak_apply": "buzzer_console",
    "buzzer_questions_confirm": "buzzer_questions", "buzzer_questions_withdraw": "buzzer_questions",
    "rounds_configure": "rounds_index", "round_action": "round_detail",
    "match_selection": "match_page", "match_results": "match_page",
    "match_action": "match_page", "match_confirm": "match_page",
    "match_special": "match_page",
    "series_attach": "series_edit", "series_berth_grant": "series_edit",
    "series_berth_withdraw": "series_edit",
    "ruleset_start": "rulesets", "ruleset_import": "rulesets", "ruleset_clone": "rulesets",
    "ruleset_start_empty": "rulesets", "ruleset_apply": "ruleset_edit",
    "registry_achievement_withdraw": "registry_player",
    "registry_achievement_correct": "registry_player", "registry_player_rename": "registry_player",
    "registry_entrant_link": "registry_player", "registry_entrant_unlink": "registry_player",
}
# Fields a page does not always show (it shows a section only in some states), by URL.
EXTRA_FIELDS = {
    "match_action": ["action", "seat", "points", "reason", "penalty", "version", "key",
                     *(f"seat_order_{n}" for n in range(1, 5))],
    "match_special": ["action", "entrant", "genre",
                      *(f"card_{k}_{n}" for k in ("genre", "group")
                        for n in range(1, CARD_SLOTS + 1))],
    "match_selection": ["seat", "set", "difficulty", "confirm_illegal", "version", "key"],
    "match_results": ["version", "key", *(f"{k}_{n}" for k in ("score", "place")
                                          for n in range(1, 5))],
    "round_special": ["action", "entrant", "rule", "contender", "partner", "a", "b", "rolls",
                      "reason", "winner_decides", "first", "question_order"],
    "shura_desk": ["entrant", "method", "genre", "format"],
    "buzzer_tap": ["kind", "player", "expected_seq", "key", "order", "correct", "buzzer",
                   "buzzer_correct", "question", "points"],
    "buzzer_written_entry": ["expected_seq", "key", "question", "wrong"],
    "buzzer_questions": ["file"],
    "buzzer_questions_confirm": ["token"],
    "buzzer_questions_withdraw": ["file"],
    "buzzer_round_new": ["name", "group_name", "slots", "question_limit", "players"],
    "buzzer_presets": ["preset", "round_slug", "courses", "first_round", "paper", "groups"],
}
ACTIONS = {
    "match_action": ["penalty", "penalty_revoke", "dq", "dq_revoke", "rematch", "reseat"],
    "match_special": ["cards_app", "cards_physical", "ban", "reveal"],
    "round_special": ["rule", "partner", "dice", "withdraw", "setup"],
    "round_action": ["draw", "start", "finish", "undo"],
}

HOSTILE = [
    "", " ", "0", "-1", "1", "2", "4", "5", "99999", "100000", "2147483648",
    "9223372036854775808", "9" * 40, "-" + "9" * 40, "1e308", "-1e308", "NaN", "Infinity",
    "1.5", "0x10", "１２", "abc", "None", "null", "true", "[]", "{}",
    "<script>alert(1)</script>", '"><img src=x onerror=alert(1)>',
    '=HYPERLINK("http://example.invalid","x")', "+81", "@SUM(A1)", "\t=1",
    "\u200b", "a\u200bb", "\ufeff", "\u202e", "\x00", "\r\n", "'; DROP TABLE brackets_entrant; --",
    "../../etc/passwd", "%s%s%s", "{0}{1}", "k" * 65, "x" * 300, "あ" * 2000,
    "[" * 3000 + "]" * 3000, '{"a":' * 200 + "1" + "}" * 200,
    "芸能|連想", "スポーツ|四択", "HARD", "NORMAL", "physical", "app",
]

LONG_TEXT = "長" * 5000

FILES = [
    ("pre.csv", "名前,カードネーム\r\n=1+2,イチ\r\n\u200b,\u200b\r\n".encode()),
    ("pre.csv", b"\xff\xfe\x00garbage" * 10),
    ("pre.xlsx", b"PK\x03\x04 not really a zip"),
    ("pre.txt", "x".join(["a"] * 1000).encode()),
    # (Deeply nested and truncated tournament files are the file half of the fuzz, with the
    # importer's own tests.)
    ("file.json", b'{"format": "kyushu-tournament", "version": 99}'),
    ("file.json", b"\x00\x01\x02"),
    ("paper.csv", "名前,1,2\n甲,1,0\n乙,x,y\n".encode()),
]


class _Fields(HTMLParser):
    """The field names of a page's forms and the values it offers for each."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, set[str]] = {}
        self.files: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        name = a.get("name")
        if tag not in ("input", "select", "textarea", "button", "option") and not name:
            return
        if tag == "option":
            if self._select and a.get("value") is not None:
                self.values[self._select].add(a["value"] or "")
            return
        if not name or name == "csrfmiddlewaretoken":
            return
        self.values.setdefault(name, set())
        if tag == "select":
            self._select = name
        if a.get("type") == "file":
            self.files.add(name)
        elif a.get("value") is not None:
            self.values[name].add(a["value"] or "")

    _select = ""


def _page_fields(client: Client, url: str) -> _Fields:
    parsed = _Fields()
    response = client.get(url)
    if response.status_code == 200 and "html" in response.get("Content-Type", ""):
        parsed.feed(response.content.decode())
    return parsed


def _export(tournament: Tournament) -> str:
    data = tournament_file_data(tournament=Tournament.objects.get(pk=tournament.pk))
    data.pop("exported_at", None)
    data.pop("checksum", None)
    return json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)


def _user_for(expect: dict[str, str]) -> str:
    for user in ("organiser", "admin"):
        if expect[user] == OK:
            return user
    return "admin"


def _value(offered: list[str]) -> st.SearchStrategy[Any]:
    single = st.one_of(
        st.sampled_from(offered) if offered else st.nothing(),
        st.sampled_from(HOSTILE),
        st.text(max_size=30),
        st.integers(min_value=-(2**70), max_value=2**70).map(str),
    )
    return st.one_of(single, st.lists(single, min_size=2, max_size=3))


def _mutated(fields: dict[str, list[str]]) -> st.SearchStrategy[dict[str, Any]]:
    """A post as the page would send it (an offered value for every field that offers
    some) with one to three fields replaced by hostile values: what gets past the first
    check of a form to the service behind it."""
    names = sorted(fields)
    base = st.fixed_dictionaries({n: st.sampled_from(fields[n]) for n in names if fields[n]})
    hostile = st.dictionaries(st.sampled_from(names), _value([]), min_size=1, max_size=3)
    return st.tuples(base, hostile).map(lambda pair: {**pair[0], **pair[1]})


def _posts(fields: dict[str, list[str]], files: set[str]) -> st.SearchStrategy[dict[str, Any]]:
    names = sorted(fields)
    if not names:
        return st.just({})
    plain = st.one_of(
        _mutated(fields),
        st.fixed_dictionaries({}, optional={n: _value(fields[n]) for n in names}))
    if not files:
        return plain
    upload = st.sampled_from(FILES).map(lambda f: SimpleUploadedFile(f[0], f[1]))
    return st.tuples(plain, st.fixed_dictionaries({}, optional={n: upload for n in files})).map(
        lambda pair: {**pair[0], **pair[1]})


def _count(response: Any) -> None:
    FIGURES["inputs"] += 1
    if response.status_code >= 500:
        FIGURES["server errors"] += 1


def _refused(name: str, response: Any) -> bool:
    if 400 <= response.status_code < 500:
        return True
    # A form shown again (200 to a POST) is a refusal, except where a POST answers 200
    # with the new state (the buzzer console's JSON).
    return response.status_code == 200 and not name.startswith("buzzer_t")


def _fuzz_url(name: str, world: dict[str, Any], clients: dict[str, Client]) -> None:
    from tests.rounds.matrix import rounds_world

    entry = MATRIX[name]
    rounds_world(world)
    user = _user_for(entry.expect)
    client = clients[user]
    url = reverse(name, kwargs=entry.kwargs(world))
    page_name = FORM_PAGE.get(name)
    page_url = url
    if page_name is not None:
        page_url = reverse(page_name, kwargs=MATRIX[page_name].kwargs(world))
    parsed = _page_fields(client, page_url)
    fields = {n: sorted(v) for n, v in parsed.values.items()}
    for extra in EXTRA_FIELDS.get(name, []):
        fields.setdefault(extra, [])
    if "key" in fields:
        fields["key"] = []  # a fresh key per post (the page's key, reused, is refused)
    if name in ACTIONS:
        fields["action"] = sorted({*fields.get("action", []), *ACTIONS[name]})
    tournament = world["tournament"]
    exported: dict[str, str] = {}  # the export after the last input

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(post=_posts(fields, parsed.files),
           query=st.dictionaries(st.sampled_from(["q", "from", "template", "page", "round",
                                                  "token", "format"]),
                                 st.sampled_from(HOSTILE), max_size=2))
    def run(post: dict[str, Any], query: dict[str, str]) -> None:
        note(f"{user} {url} {post!r}")
        for upload in post.values():
            if isinstance(upload, SimpleUploadedFile):
                upload.seek(0)
        before = exported.get("now") or _export(tournament)
        if entry.method == "GET":
            got = client.get(url, query)
            _count(got)
            assert got.status_code < 500, (url, query, got.status_code)
        response = client.post(url, post)
        _count(response)
        assert response.status_code < 500, (url, post, response.status_code)
        exported["now"] = _export(tournament)
        if _refused(name, response):
            FIGURES["refused"] += 1
            assert exported["now"] == before, f"refused POST {url} changed the tournament"
        else:
            FIGURES["accepted"] += 1

    run()
    _sweep_long_text(name, url, client, fields, tournament)


def _sweep_long_text(name: str, url: str, client: Client, fields: dict[str, list[str]],
                     tournament: Tournament) -> None:
    """Each field in turn given a very long text, the rest as the page sends them: a
    length only the database checks (PostgreSQL refuses what SQLite stores) is found
    whatever the random examples drew."""
    before = _export(tournament)
    actions = sorted(set(fields.get("action") or [""]))
    base = {n: v[0] for n, v in fields.items() if v}
    for i, field in enumerate(f for f in sorted(fields) if f != "action"):
        # The actions take turns, so each field is tried once (the forms behind one URL
        # share their fields: a reason is a reason for every action).
        action = actions[i % len(actions)]
        post = {**base, field: LONG_TEXT, **({"action": action} if action else {})}
        response = client.post(url, post)
        _count(response)
        assert response.status_code < 500, (url, field, action, response.status_code)
        after = _export(tournament)
        if _refused(name, response):
            FIGURES["refused"] += 1
            assert after == before, f"refused POST {url} ({field}) changed the tournament"
        else:
            FIGURES["accepted"] += 1
        before = after


AREAS = {
    "organiser": ["tournament_new", "tournament_edit", "staff_list", "staff_delete",
                  "staff_unlock", "preset_settings", "tournament_import", "document_download",
                  "document_list", "tournament_dashboard", "home", "public_copy_push",
                  "rules_rehearsal"],
    "desk": ["desk", "desk_entrant_new", "desk_entrant_edit", "desk_check_in", "desk_fee",
             "desk_import", "desk_import_preview", "desk_export", "shura_desk",
             "desk_entrant_print", "desk_entrant_qr", "desk_scan"],
    "rounds": ["rounds_index", "round_detail", "round_special", "round_advance_preview",
               "match_page", "match_selection", "match_results", "match_action",
               "match_confirm", "match_special", "match_history", "round_action",
               "rounds_configure", "round_release"],
    "floor": ["floor_page", "floor_set_add", "floor_set_service", "floor_call",
              "floor_call_next", "floor_repeat", "floor_release", "floor_no_show",
              "floor_planned_start", "floor_tablet", "floor_tablet_state", "announcements",
              "announcement_withdraw", "timetable"],
    "buzzer": ["buzzer_index", "buzzer_round_new", "buzzer_presets", "buzzer_event",
               "buzzer_event_round", "buzzer_console",
               "buzzer_console_state", "buzzer_tap", "buzzer_written_entry",
               "buzzer_tiebreak_start", "buzzer_tiebreak_apply", "paper_upload",
               "paper_detail", "buzzer_protest", "buzzer_questions",
               "buzzer_questions_confirm", "buzzer_questions_withdraw",
               "buzzer_round_settings"],
    "players": ["desk_player_lookup", "registry_list", "registry_player",
                "registry_achievement_add", "registry_card_record", "registry_merge",
                "shura_override", "player_links_review",
                "player_link_decide", "registry_achievement_withdraw",
                "registry_achievement_correct", "registry_player_rename",
                "registry_entrant_link", "registry_entrant_unlink"],
    "series": ["public_series", "series_index", "series_edit", "series_attach",
               "series_berth_grant", "series_berth_withdraw"],
    "rulesets": ["rulesets", "ruleset_start", "ruleset_start_empty", "ruleset_import",
                 "ruleset_clone", "ruleset_edit", "ruleset_export", "ruleset_apply",
                 "ruleset_rehearsal", "ruleset_rule_page"],
    "public": ["public_tournament", "public_bracket", "public_round", "public_round_live",
               "public_projector", "public_player", "public_buzzer_scoreboard",
               "public_buzzer_state", "public_floor_call", "public_timetable", "public_rules",
               "public_checkin_code", "favicon", "public_buzzer_overlay_lower",
               "public_buzzer_overlay_side"],
}


def test_every_form_of_the_role_matrix_is_fuzzed() -> None:
    """A URL added to the role matrix is added here too (the stream never ends: skipped)."""
    fuzzed = {n for names in AREAS.values() for n in names} | {"public_buzzer_stream"}
    assert set(MATRIX) - fuzzed == set(), "place these URLs in AREAS"
    assert fuzzed - set(MATRIX) == set(), "AREAS names URLs that are not in the matrix"


@pytest.mark.django_db
@pytest.mark.parametrize("area", sorted(AREAS))
def test_hostile_form_values_never_break_the_tournament(
        area: str, tournament: Tournament, cast: dict[str, Any]) -> None:
    from tests.matrix_world import build_world

    world = build_world(tournament=tournament, cast=cast)
    clients = {name: client_for(user) for name, user in cast.items()}
    for name in AREAS[area]:
        if DENY == MATRIX[name].expect.get(_user_for(MATRIX[name].expect)):
            continue
        _fuzz_url(name, world, clients)
