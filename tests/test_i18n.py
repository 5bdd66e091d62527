"""English through Django i18n: pages switch language, and the catalogue stays complete.

Source strings are Japanese (LANGUAGE_CODE 'ja'); English comes from
locale/en/LC_MESSAGES/django.po compiled to django.mo. These tests make a new untranslated
string fail the suite: the committed .po must hold every msgid the sources use, each with a
non-empty, non-fuzzy translation whose placeholders match, and the committed .mo must be
compiled from that .po. To fix a failure::

    python3 manage.py makemessages -l en --ignore "tests/*" --ignore "bench/*" \\
        --ignore "var/*" --no-obsolete
    python3 locale/tools/po_fill.py missing          # what needs translating
    python3 locale/tools/po_fill.py apply FILE.json  # {msgid: "English"}
    python3 manage.py compilemessages -l en
"""

from __future__ import annotations

import gettext
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from brackets.models import Tournament

ROOT = Path(settings.BASE_DIR)
PO = ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po"
MO = ROOT / "locale" / "en" / "LC_MESSAGES" / "django.mo"
MAKEMESSAGES_IGNORE = ["tests/*", "bench/*", "var/*"]
# Hiragana, katakana, CJK ideographs and full-width forms: text a reader of English cannot read.
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]+")


# --- a small .po reader (no extra packages) ------------------------------------------------


@dataclass
class PoEntry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    refs: list[str] = field(default_factory=list)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def _unquote(literal: str) -> str:
    body = literal.strip()[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


def parse_po(text: str) -> list[PoEntry]:
    """Entries of a .po file; obsolete ``#~`` entries are skipped (compilemessages does too)."""
    entries: list[PoEntry] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        entry = PoEntry()
        key: tuple[str, int] | None = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry.flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            elif line.startswith("#:"):
                entry.refs += line[2:].split()
            elif line.startswith("#"):
                continue
            else:
                m = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(\".*\")$", line)
                if m:
                    key = (m.group(1), int(m.group(2) or 0))
                    literal = m.group(3)
                else:
                    assert line.startswith('"') and key is not None, f"bad .po line {line!r}"
                    literal = line
                text_part = _unquote(literal)
                if key[0] == "msgid":
                    entry.msgid += text_part
                elif key[0] == "msgid_plural":
                    entry.msgid_plural = (entry.msgid_plural or "") + text_part
                elif key[0] == "msgctxt":
                    entry.msgctxt = (entry.msgctxt or "") + text_part
                else:
                    entry.msgstr[key[1]] = entry.msgstr.get(key[1], "") + text_part
        if key is not None:  # a block of only obsolete/comment lines has no entry
            entries.append(entry)
    return entries


def placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"%\(\w+\)[sdfi]|\{\w*\}", text))


@pytest.fixture(scope="module")
def catalogue() -> list[PoEntry]:
    return parse_po(PO.read_text(encoding="utf-8"))


def messages(entries: list[PoEntry]) -> list[PoEntry]:
    return [e for e in entries if e.msgid != ""]


# --- the catalogue --------------------------------------------------------------------------


def test_every_msgid_has_an_english_translation(catalogue: list[PoEntry]) -> None:
    untranslated = [
        e.msgid
        for e in messages(catalogue)
        if not e.msgstr or any(not v.strip() for v in e.msgstr.values()) or "fuzzy" in e.flags
    ]
    assert len(messages(catalogue)) > 100
    assert not untranslated, (
        f"{len(untranslated)} strings in {PO.relative_to(ROOT)} have no (or a fuzzy) English "
        f"translation: {untranslated[:20]}"
    )


def test_header_declares_english_and_plural_forms(catalogue: list[PoEntry]) -> None:
    header = next(e for e in catalogue if e.msgid == "")
    assert "fuzzy" not in header.flags
    assert "Language: en\n" in header.msgstr[0]
    assert "Plural-Forms: nplurals=2; plural=(n != 1);" in header.msgstr[0]


def test_plural_entries_have_both_english_forms(catalogue: list[PoEntry]) -> None:
    for e in messages(catalogue):
        if e.msgid_plural is not None:
            assert sorted(e.msgstr) == [0, 1], e.msgid


def test_translations_keep_the_placeholders(catalogue: list[PoEntry]) -> None:
    wrong: list[str] = []
    for e in messages(catalogue):
        if e.msgid_plural is None:
            if placeholders(e.msgstr.get(0, "")) != placeholders(e.msgid):
                wrong.append(f"{e.msgid!r} -> {e.msgstr.get(0)!r}")
        else:
            allowed = set(placeholders(e.msgid) + placeholders(e.msgid_plural))
            for form in e.msgstr.values():
                if not set(placeholders(form)) <= allowed:
                    wrong.append(f"{e.msgid!r} -> {form!r}")
    assert not wrong, "placeholders differ:\n" + "\n".join(wrong)


def test_committed_mo_is_compiled_from_the_po(catalogue: list[PoEntry]) -> None:
    """A .po edited without compilemessages would leave the UI showing old text."""
    with MO.open("rb") as fh:
        compiled: dict[Any, str] = gettext.GNUTranslations(fh)._catalog  # type: ignore[attr-defined]
    stale: list[str] = []
    for e in messages(catalogue):
        key = e.msgid if e.msgctxt is None else f"{e.msgctxt}\x04{e.msgid}"
        if e.msgid_plural is None:
            if compiled.get(key) != e.msgstr.get(0):
                stale.append(e.msgid)
        elif any(compiled.get((key, n)) != form for n, form in e.msgstr.items()):
            stale.append(e.msgid)
    assert not stale, (
        f"django.mo is out of date for {len(stale)} strings (run compilemessages -l en): "
        f"{stale[:10]}"
    )


def _copy_sources(dest: Path) -> None:
    """The parts of the project makemessages reads, so it can run without touching locale/."""
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "static", "*.ttf", "*.otf", "*.pdf")
    for name in ("brackets", "kyushu", "templates"):
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, dest / name, ignore=skip)
    shutil.copy2(ROOT / "manage.py", dest / "manage.py")


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_po_is_up_to_date_with_the_sources(tmp_path: Path, catalogue: list[PoEntry]) -> None:
    """Run makemessages on a copy of the sources and compare the msgid sets with the .po."""
    project = tmp_path / "project"
    project.mkdir()
    _copy_sources(project)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "kyushu.settings",
        "KYUSHU_VAR_DIR": str(tmp_path / "var"),
        "PYTHONPATH": str(project),
    }
    ignore = [arg for pattern in MAKEMESSAGES_IGNORE for arg in ("--ignore", pattern)]
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "en", "--no-obsolete", *ignore],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    fresh = parse_po((project / "locale/en/LC_MESSAGES/django.po").read_text(encoding="utf-8"))

    def ids(entries: list[PoEntry]) -> set[tuple[str | None, str, str | None]]:
        return {(e.msgctxt, e.msgid, e.msgid_plural) for e in messages(entries)}

    new = ids(fresh) - ids(catalogue)
    gone = ids(catalogue) - ids(fresh)
    refs = {(e.msgctxt, e.msgid, e.msgid_plural): e.refs for e in fresh}
    assert not new, "strings in the sources that the .po lacks (translate them):\n" + "\n".join(
        f"{m[1]!r} at {' '.join(refs[m][:3])}" for m in sorted(new, key=str)
    )
    assert not gone, "msgids in the .po no longer in the sources (re-run makemessages):\n" + (
        "\n".join(repr(m[1]) for m in sorted(gone, key=str))
    )


def test_translations_inside_javascript_quotes_have_no_quote(catalogue: list[PoEntry]) -> None:
    """``confirm('{% trans "…" %}')``: an apostrophe in the English text would end the JS string
    and the button would stop asking (or stop working)."""
    by_id = {e.msgid: e for e in messages(catalogue)}
    quoted = re.compile(r"""(['`])\{%\s*trans(?:late)?\s+"([^"]+)"[^%]*%\}\1""")
    bad: list[str] = []
    for template in (ROOT / "templates").rglob("*.html"):
        for quote, msgid in quoted.findall(template.read_text(encoding="utf-8")):
            entry = by_id.get(msgid)
            if entry is not None and any(quote in form for form in entry.msgstr.values()):
                bad.append(f"{template.relative_to(ROOT)}: {msgid!r} -> {entry.msgstr[0]!r}")
    assert not bad, "translations that break a JavaScript string:\n" + "\n".join(bad)


# --- pages ----------------------------------------------------------------------------------


def english(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def visible_text(html: str) -> str:
    """What a reader sees: tag contents plus the attributes browsers show."""
    html = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", html)
    shown = re.findall(r'\b(?:title|placeholder|aria-label|alt)="([^"]*)"', html)
    return re.sub(r"<[^>]+>", " ", html) + " " + " ".join(shown)


def leftover_japanese(html: str, *, data: set[str]) -> set[str]:
    """Japanese runs in an English page that are not user data (names) or the language menu."""
    text = visible_text(html)
    for value in sorted(data | {"日本語"}, key=len, reverse=True):
        if value:
            text = text.replace(value, " ")
    return set(JAPANESE.findall(text))


def tournament_data(tournament: Tournament) -> set[str]:
    return {tournament.name, tournament.venue or "", "別の大会"}


def test_home_page_english_by_cookie_or_accept_language_japanese_otherwise(
    clients: dict[str, Client], tournament: Tournament
) -> None:
    anonymous = clients["anonymous"]
    home = reverse("home")
    by_header = anonymous.get(home, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").content.decode()
    assert '<html lang="en">' in by_header
    assert "Tournaments" in by_header
    for headers in ({}, {"HTTP_ACCEPT_LANGUAGE": "fr"}):  # no English asked for: Japanese
        html = anonymous.get(home, **headers).content.decode()
        assert '<html lang="ja">' in html
        assert "大会一覧" in html
        assert "公開ページ" in html
        assert "Tournaments" not in html
    html = english(anonymous).get(home).content.decode()
    assert '<html lang="en">' in html
    # "Preparing" is the tournament's status: a model choice label, translated lazily.
    for text in ("Tournaments", "Public page", "Staff login", "Preparing"):
        assert text in html, text
    assert "大会一覧" not in html
    assert not leftover_japanese(html, data=tournament_data(tournament))


def test_language_switcher_sets_the_language(clients: dict[str, Client]) -> None:
    client = clients["organiser"]
    home = reverse("home")
    assert 'action="/i18n/setlang/"' in client.get(home).content.decode()
    response = client.post(reverse("set_language"), {"language": "en", "next": home})
    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert "Tournaments" in client.get(home).content.decode()
    client.post(reverse("set_language"), {"language": "ja", "next": home})
    assert "大会一覧" in client.get(home).content.decode()


def test_staff_dashboard_in_english_and_japanese(
    clients: dict[str, Client], tournament: Tournament
) -> None:
    url = reverse("tournament_dashboard", kwargs={"slug": tournament.slug})
    organiser = clients["organiser"]
    html_ja = organiser.get(url).content.decode()
    for text in ("主催", "大会設定", "スタッフ", "ログアウト", "受付"):
        assert text in html_ja, text
    assert "Tournament settings" not in html_ja
    html = english(organiser).get(url).content.decode()
    for text in ("Organiser", "Tournament settings", "Staff", "Public page", "Log out", "Desk"):
        assert text in html, text
    assert "大会設定" not in html
    assert not leftover_japanese(html, data=tournament_data(tournament))


def test_desk_page_in_english_and_japanese(
    clients: dict[str, Client], tournament: Tournament
) -> None:
    url = reverse("desk", kwargs={"slug": tournament.slug})
    desk = clients["desk"]
    html_ja = desk.get(url).content.decode()
    assert "名前・よみがな・カードネームで検索" in html_ja
    assert "Search by name" not in html_ja
    html = english(desk).get(url).content.decode()
    assert "Search by name, reading or card name" in html
    assert "Add a walk-in entrant" in html
    assert "Checked in" in html
    assert "名前・よみがな・カードネームで検索" not in html
