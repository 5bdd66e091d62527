"""Judging the rows of a pre-entry file: each cell read as a field value, each row checked
against the tournament and the rows above it, before anything is written.

A seed cell may hold a number or a yes-word (シード, あり, ○, はい, yes): the latter is a seed
whose number the import assigns, in file order after every numbered seed (of the file and
of the entrants registered), so the preview can show it and the confirmation writes it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from brackets.adapters.entrant_files import IGNORE, NOTES_APPEND, field_label
from brackets.adapters.entrants import Owner, Roster, entrant_validate, kana_fold
from brackets.adapters.series import player_key
from brackets.engine import RuleRefusal, check_main_event_entry
from brackets.messages import error_text
from brackets.models import EntrantImport, Series, Tournament
from brackets.selectors.series import (
    main_event_holders,
    main_event_series,
    registry_player_certain,
)
from brackets.text import looks_like_formula

_TRUE = {"1", "true", "yes", "y", "はい", "済", "済み", "支払済", "支払い済み", "支払済み", "入金済",
         "受付済", "あり", "有", "○", "◯", "〇", "✓", "✔", "x", "参加", "する", "paid", "on"}
_FALSE = {"", "0", "false", "no", "n", "いいえ", "未", "未払い", "未払", "未入金", "なし", "無", "×",
          "-", "—", "しない", "off"}
_Q_RE = re.compile(r"^(?:q|lv|level|qlv|qレベル)?\.?\s*(\d{1,6})$")
_INT_RE = re.compile(r"^(?:s|seed|シード|第)?\s*(\d{1,6})\s*(?:本|回|個|番)?$")
#: A seed cell saying "a seed" without a number: the import numbers it (:func:`preview_rows`).
ASSIGN_SEED = "assign"
_SEED_YES = {"yes", "y", "はい", "あり", "有", "有り", "○", "◯", "〇", "✓", "✔", "true", "on", "する",
             "シード", "seed", "s", "シード選手", "シード権", "シード権あり", "対象"}
_OPT_UP = {
    "": "",
    "なし": "",
    "no": "",
    "none": "",
    "ぴんぽいんと": "pinpoint",
    "pinpoint": "pinpoint",
    "ぼんばーまん": "bomber",
    "bomber": "bomber",
}


def _parse_value(name: str, raw: str) -> Any:
    """Turn a cell into a field value; ``ValueError`` carries the Japanese reason."""
    text = unicodedata.normalize("NFKC", raw).strip()
    folded = text.casefold().replace(" ", "")
    if name in ("fee_paid", "checked_in", "shura_invited", "shura_voluntary"):
        if folded in _TRUE:
            return True
        if name == "fee_paid" and re.fullmatch(r"[¥￥]?\d{1,6}円?", folded):
            return int(folded.strip("¥￥円")) > 0  # an amount paid
        if folded in _FALSE:
            return False
        raise ValueError(_("「%(v)s」は はい／いいえ として読めません。") % {"v": raw})
    if name == "q_level":
        if not folded:
            return 0
        match = _Q_RE.match(folded)
        if not match:
            raise ValueError(_("「%(v)s」はQレベル（0〜999の数字）として読めません。") % {"v": raw})
        return int(match.group(1))
    if name == "seed":
        if folded in _FALSE:
            return None
        match = _INT_RE.match(folded)
        if match:
            return int(match.group(1))
        if folded in _SEED_YES:
            return ASSIGN_SEED
        raise ValueError(_("「%(v)s」はシード番号（数字）としても、シードあり（シード・あり・○）"
                           "としても読めません。") % {"v": raw})
    if name in ("shura_titles", "shura_local_wins", "shura_extra_lots", "past_win_lots"):
        if folded in _FALSE:
            return 0
        match = _INT_RE.match(folded)
        if not match:
            raise ValueError(_("「%(v)s」は数として読めません。") % {"v": raw})
        return int(match.group(1))
    if name == "opt_up":
        key = kana_fold(text)
        if key not in _OPT_UP:
            raise ValueError(_("「%(v)s」は ピンポイント／ボンバーマン／なし のどれかにしてください。") % {"v": raw})
        return _OPT_UP[key]
    return text


@dataclass
class PreviewRow:
    """One data row of the file: what it would register, and why it cannot."""

    number: int
    cells: list[str]
    data: dict[str, Any] = field(default_factory=dict)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (column, reason)
    already: bool = False
    # (column, value) cells a spreadsheet would run as a formula (text.looks_like_formula):
    # imported as typed, shown to staff before they confirm.
    formula_cells: list[tuple[str, str]] = field(default_factory=list)
    #: The seed number the import gives a yes-word seed cell (None: not such a row).
    assigned_seed: int | None = None
    seed_column: int | None = None
    #: At a series' main event: the registry player the row is with certainty (linked on
    #: confirmation), whether the berth check refused the row, and the organiser's reason
    #: for admitting it without a berth.
    player_id: int | None = None
    berth_refused: bool = False
    override: str = ""

    @property
    def status(self) -> str:
        if self.errors:
            return "error"
        return "already" if self.already else "new"

    @property
    def shown_cells(self) -> list[tuple[str, str]]:
        """Each cell with what the import makes of it, where that is not the cell itself."""
        return [(cell, _("→ シード%(n)d") % {"n": self.assigned_seed}
                 if i == self.seed_column and self.assigned_seed is not None else "")
                for i, cell in enumerate(self.cells)]

    @property
    def who(self) -> str:
        """The row as staff recognise it: its name and card name as the file has them."""
        name = str(self.data.get("name") or "").strip()
        card = str(self.data.get("card_name") or "").strip()
        if name and card:
            return _("%(name)s（%(card)s）") % {"name": name, "card": card}
        return name or card or _("（名前なし）")


@dataclass
class Preview:
    headers: list[str]
    mapping: list[str]
    rows: list[PreviewRow]
    mapping_errors: list[str] = field(default_factory=list)

    @property
    def error_count(self) -> int:
        return sum(1 for row in self.rows if row.errors)

    @property
    def new_count(self) -> int:
        return sum(1 for row in self.rows if row.status == "new")

    @property
    def already_count(self) -> int:
        return sum(1 for row in self.rows if row.already)

    @property
    def error_rows(self) -> list[PreviewRow]:
        """The rows "skip the errors" leaves out, listed before staff confirm it."""
        return [row for row in self.rows if row.errors]

    @property
    def berth_refused_count(self) -> int:
        return sum(1 for row in self.rows if row.berth_refused)

    @property
    def assigned_seed_rows(self) -> list[PreviewRow]:
        return [row for row in self.rows if row.assigned_seed is not None and not row.errors]

    @property
    def formula_rows(self) -> list[PreviewRow]:
        return [row for row in self.rows if row.formula_cells]

    @property
    def unknown_columns(self) -> list[str]:
        return [h for h, m in zip(self.headers, self.mapping) if m == "?"]


def check_mapping(headers: Sequence[str], mapping: Sequence[str]) -> list[str]:
    """Problems with a column mapping (a field used twice, no name column)."""
    problems = []
    seen: dict[str, str] = {}
    for header, target in zip(headers, mapping):
        if target in (IGNORE, NOTES_APPEND, "?"):
            continue
        if target in seen:
            problems.append(
                _("「%(a)s」と「%(b)s」の両方が %(field)s になっています。どちらかを変えてください。")
                % {"a": seen[target], "b": header, "field": field_label(target)}
            )
        seen[target] = header
    if "name" not in seen:
        problems.append(_("名前にする列を選んでください。"))
    if "card_name" not in seen:
        problems.append(_("カードネームにする列を選んでください。"))
    return problems


def preview_rows(*, tournament: Tournament, batch: EntrantImport,
                 overrides: Mapping[int, str] | None = None) -> Preview:
    """Judge every row against the tournament as it is now and against earlier rows.

    A row whose card name (folded) and name are already registered is "already" (skipped,
    not an error), which makes importing the same file twice add nothing. Yes-word seeds
    are numbered here, so the preview and the confirmation agree on the numbers. At a
    series' main event a row whose player holds no berth is refused with the reason, as
    at the desk, unless ``overrides`` (row number → the organiser's reason) admits it.
    """
    overrides = overrides or {}
    berths = _BerthCheck.of(tournament)
    headers: list[str] = list(batch.headers)
    mapping: list[str] = list(batch.mapping)
    preview = Preview(headers=headers, mapping=mapping, rows=[])
    preview.mapping_errors = check_mapping(headers, mapping)
    roster = Roster.load(tournament)
    registered = {key: kana_fold(owner.name) for key, owner in roster.cards.items()}
    column_of = {target: headers[i] for i, target in enumerate(mapping)}
    preview.rows = [_read_row(raw, headers, mapping) for raw in batch.rows]
    seeds = _SeedNumbers(tournament.seed_slots, taken={*roster.seeds, *(
        row.data["seed"] for row in preview.rows if isinstance(row.data.get("seed"), int))})
    for row in preview.rows:
        if preview.mapping_errors:
            continue
        card_key = kana_fold(str(row.data.get("card_name", "")))
        if card_key and registered.get(card_key) == kana_fold(str(row.data.get("name", ""))):
            row.already = True
            row.errors = []
            continue
        if row.errors:
            continue
        if row.data.get("seed") == ASSIGN_SEED:
            row.seed_column = mapping.index("seed")
            row.assigned_seed = seeds.next()
            if row.assigned_seed is None:
                row.errors.append((column_of["seed"], _(
                    "シード枠（%(slots)d）に空きがないため、シード番号を割り当てられません。")
                    % {"slots": tournament.seed_slots}))
                continue
        data = {**row.data, "seed": row.assigned_seed} if row.seed_column is not None else row.data
        try:
            clean = entrant_validate(tournament=tournament, data=data, roster=roster)
        except ValidationError as exc:
            for name, messages in exc.message_dict.items():
                column = column_of.get(name, _("行全体") if name == "__all__" else field_label(name))
                row.errors.extend((column, message) for message in messages)
            continue
        if berths is not None and not berths.admits(row, clean, overrides.get(row.number, "")):
            continue
        row.data = data
        seeds.use(row.assigned_seed)
        roster.add(clean, Owner(None, clean["name"], clean["card_name"], row=row.number))
    return preview


@dataclass
class _BerthCheck:
    """0-a at a series' main event, row by row: the engine's ``check_main_event_entry``
    on the registry player the row is with certainty ("" for one the registry does not
    know, who holds no berth)."""

    series: Series
    holders: frozenset[str]

    @classmethod
    def of(cls, tournament: Tournament) -> _BerthCheck | None:
        series = main_event_series(tournament=tournament)
        if series is None:
            return None
        return cls(series, main_event_holders(series=series, tournament=tournament))

    def admits(self, row: PreviewRow, clean: Mapping[str, Any], override: str) -> bool:
        player = registry_player_certain(name=str(clean.get("name") or ""),
                                         reading=str(clean.get("reading") or ""),
                                         card_name=str(clean.get("card_name") or ""))
        key = player_key(player) if player is not None else ""
        try:
            check_main_event_entry(key, holders=self.holders, series=self.series.name,
                                   overridden=bool(override))
        except RuleRefusal as exc:
            row.errors.append((_("本戦出場権"), error_text(exc)))
            row.berth_refused = True
            return False
        row.player_id = player.pk if player is not None else None
        row.override = override if key not in self.holders else ""
        return True


def _read_row(raw: Sequence[Any], headers: Sequence[str], mapping: Sequence[str]) -> PreviewRow:
    """One stored row read cell by cell into field values (errors per column)."""
    row = PreviewRow(number=int(raw[0]), cells=[str(c) for c in raw[1:]])
    notes_extra = []
    for i, target in enumerate(mapping):
        value = row.cells[i] if i < len(row.cells) else ""
        if target in (IGNORE, "?"):
            continue
        if looks_like_formula(value):
            row.formula_cells.append((headers[i], value))
        if target == NOTES_APPEND:
            if value:
                notes_extra.append(f"{headers[i]}: {value}")
            continue
        try:
            row.data[target] = _parse_value(target, value)
        except ValueError as exc:
            row.errors.append((headers[i], str(exc)))
    if notes_extra:
        row.data["notes"] = "\n".join(filter(None, [row.data.get("notes", ""), *notes_extra]))
    return row


@dataclass
class _SeedNumbers:
    """The numbers yes-word seeds get: after the highest numbered seed, in file order; once
    those pass the tournament's seed slots, the lowest numbers still free below them."""

    slots: int
    taken: set[int]

    def next(self) -> int | None:
        after = max(self.taken, default=0) + 1
        if after <= self.slots:
            return after
        return next((n for n in range(1, self.slots + 1) if n not in self.taken), None)

    def use(self, number: int | None) -> None:
        if number is not None:
            self.taken.add(number)
