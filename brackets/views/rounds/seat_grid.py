"""A seat's set picker on the tablet match page: the native option list (the page's
fallback without JavaScript) and the two-tap grid over it (a genre, then a format of that
genre), both built from the seat's engine ``Choices``.

The grid posts nothing itself: a tap sets the list's value (match.js), so the form and its
one post stay the list's. Whether a cell is legal, and why not, is the engine's verdict
carried in the markup; the script only shows it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from brackets.labels import listed
from brackets.messages import violation_text
from brackets.selectors import rounds as sel

_OPTION_TEXT: dict[tuple[str, str], tuple[str, str]] = {}
# A seat's option lists and grid, keyed by everything they are computed from (the engine's
# inputs, the names shown in reasons, the preselected value, the language of the reasons). The value keeps the catalog
# it was built from, so an id() in the key can never be reused by a newer catalog.
_SEAT_OPTIONS: dict[tuple[Any, ...], tuple[Any, str, str, str]] = {}


def seat_picker_html(catalog: Any, sc: sel.SeatChoices, names: dict[str, str],
                     chosen: str) -> tuple[SafeString, SafeString, SafeString]:
    """The legal options, the illegal options and the grid of one seat, reused while their
    inputs stay the same (a tablet reloads its match page after every save; the ~130-cell
    picker changes only with the history)."""
    # The illegal options carry the engine's reasons in the reader's language: a Japanese
    # list cached first must not be served to an English reader (and back).
    key = (sc.key, tuple(sorted(names.items())), chosen, get_language())
    hit = _SEAT_OPTIONS.get(key) if sc.key else None
    if hit is not None and hit[0] is catalog:
        return mark_safe(hit[1]), mark_safe(hit[2]), mark_safe(hit[3])
    legal, illegal, grid = picker_html(sc.choices.options(), names, chosen)
    if sc.key:
        if len(_SEAT_OPTIONS) >= 4096:
            _SEAT_OPTIONS.clear()
        _SEAT_OPTIONS[key] = (catalog, str(legal), str(illegal), str(grid))
    return legal, illegal, grid


def picker_html(options: list[Any], names: dict[str, str],
                chosen: str) -> tuple[SafeString, SafeString, SafeString]:
    """The <option> lists of one seat (legal first, illegal greyed with the engine's
    reason) and its grid, built in Python: ~130 options per seat is the heaviest part of
    the page."""
    legal: list[str] = []
    illegal: list[str] = []
    # Most illegal options share their reasons (every format of a used genre says the same
    # thing): each distinct violation is worded and escaped once per seat, not per option.
    texts: dict[tuple[str, str], str] = {}

    def text(v: Any) -> str:
        k = (v.code, repr(v.params))
        if k not in texts:
            texts[k] = violation_text(v, names)
        return texts[k]

    # genre → format group → cells, in the order of the selection screen.
    by_genre: dict[str, dict[str, list[tuple[Any, str]]]] = {}
    for opt in options:
        pair = (opt.genre, opt.format)
        shown = _OPTION_TEXT.get(pair)
        if shown is None:  # catalog names never change meaning: escape each pair once
            shown = _OPTION_TEXT[pair] = (escape(f"{opt.genre}|{opt.format}"),
                                          escape(f"{opt.genre} / {opt.format}"))
        value, label = shown
        selected = " selected" if f"{opt.genre}|{opt.format}" == chosen else ""
        reason = "" if opt.legal else escape(listed(text(v) for v in opt.reasons))
        if opt.legal:
            legal.append(f'<option value="{value}"{selected}>{label}</option>')
        else:
            illegal.append(f'<option class="illegal" value="{value}" '
                           f'data-reason="{reason}"{selected}>✕ {label} — {reason}</option>')
        by_genre.setdefault(opt.genre, {}).setdefault(opt.group, []).append((opt, reason))
    return (mark_safe("".join(legal)), mark_safe("".join(illegal)),
            _grid_html(by_genre, chosen, text))


def _genre_reason(cells: list[tuple[Any, str]], text: Callable[[Any], str]) -> str:
    """Why a genre with no legal cell is closed: the reasons all its cells share (a used
    genre closes every format the same way), else the first cell's."""
    common = [v for v in cells[0][0].reasons
              if all(v in opt.reasons for opt, _why in cells[1:])]
    return escape(listed(text(v) for v in common)) if common else cells[0][1]


def _cell(css: str, data: str, name: str, why: str, pressed: bool) -> str:
    """One grid cell; ``why`` (escaped) greys it and is shown under its name."""
    if len(name) > 5:  # 「スポーツその他」 fits a third of a 768 px seat card in smaller type
        css += " is-long"
    if why:
        css += " is-illegal"
        name = f"✕ {name}"
    title = f' title="{why}"' if why else ""
    note = f'<small class="cell-reason">{why}</small>' if why else ""
    return (f'<button type="button" class="set-cell {css}" {data} '
            f'aria-pressed="{"true" if pressed else "false"}"{title}>'
            f'<span class="cell-name">{name}</span>{note}</button>')


def _grid_html(by_genre: dict[str, dict[str, list[tuple[Any, str]]]], chosen: str,
               text: Callable[[Any], str]) -> SafeString:
    """Step 1: one cell per genre; step 2: that genre's formats by column of the selection
    screen. Greyed cells show the engine's reason; they stay tappable, because an event that
    penalises an illegal set records the one the player actually played."""
    chosen_genre = chosen.partition("|")[0]
    genres: list[str] = []
    panels: list[str] = []
    for genre, groups in by_genre.items():
        cells = [c for group in groups.values() for c in group]
        g = escape(genre)
        closed = "" if any(opt.legal for opt, _why in cells) else _genre_reason(cells, text)
        genres.append(_cell("set-genre", f'data-genre="{g}"', g, closed,
                            genre == chosen_genre))
        columns = "".join(
            f'<div class="set-column"><div class="set-column-name">{escape(group)}</div>'
            f'<div class="set-cells">'
            + "".join(_cell("set-format", f'data-value="{escape(f"{opt.genre}|{opt.format}")}"',
                            escape(opt.format), why, f"{opt.genre}|{opt.format}" == chosen)
                      for opt, why in group_cells)
            + "</div></div>"
            for group, group_cells in groups.items())
        panels.append(
            f'<div class="set-formats" data-genre="{g}" hidden>'
            f'<div class="set-step-head"><button type="button" class="btn btn-outline-secondary '
            f'set-back">← {escape(_("ジャンル"))}</button> <strong>{g}</strong> '
            f'<span class="text-muted small">{escape(_("形式を選んでください"))}</span></div>'
            f'{columns}</div>')
    return mark_safe(
        f'<div class="set-grid" hidden>'
        f'<div class="set-chosen" hidden><span><small class="text-muted fw-normal">'
        f'{escape(_("選択中"))}</small> <span class="set-chosen-text"></span></span>'
        f'<button type="button" class="btn btn-outline-secondary set-change">'
        f'{escape(_("出題を変える"))}</button></div>'
        f'<div class="set-genres"><div class="set-step-head text-muted small">'
        f'{escape(_("ジャンルを選んでください"))}</div><div class="set-cells">{"".join(genres)}'
        f'</div></div>{"".join(panels)}</div>')
