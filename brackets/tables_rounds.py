"""django-tables2 tables of a round: results per seat, the cross-group 惜敗率 table, and
the final ranking. The round screens render these table objects and the Excel exports
write their ``as_values()``, so a screen and its file cannot drift apart (style.md 6).

Rows are plain records built here from the round selectors' data (a
:class:`~brackets.selectors.rounds.RoundView`, the engine's cross-group order and
advancement outcomes): nothing is queried or derived in this module, the engine decides
every placement, 惜敗率 and advancer. None of these tables has a staff-only column (notes,
who entered what): a public page may render any of them; the staff pages add no columns.
Pages render them with ``{% render_table %}``: django-tables2's Bootstrap 5 template
(``templates/brackets/_round_table.html`` drops its wrapper: the page gives the scroll box).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

import django_tables2 as tables
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from brackets.engine import Ratio
from brackets.labels import ratio_text
from brackets.perf import fragments
from brackets.tables_rows import PlannedTable

NUMERIC = {"th": {"class": "num"}, "td": {"class": "num"}}
NOWRAP = {"td": {"class": "text-nowrap"}}
WIDE_NUMERIC = {"th": {"class": "num d-none d-lg-table-cell"},
                "td": {"class": "num d-none d-lg-table-cell"}}
#: Shown on screen only when wide (a tablet upright keeps the essentials).
WIDE = {"th": {"class": "d-none d-lg-table-cell"}, "td": {"class": "d-none d-lg-table-cell"}}

MARK_LABELS = {
    "group_top": gettext_lazy("勝ち抜け"),
    "wildcard": gettext_lazy("追加勝ち抜け"),
    "withdrawn": gettext_lazy("棄権"),
    "disqualified": gettext_lazy("失格"),
    "champion": gettext_lazy("優勝"),
    "third": gettext_lazy("3位"),
    "out": "",
    "": "",
}


@dataclass(frozen=True)
class Person:
    """Who sits behind an engine player key, as the tables print them."""

    name: str
    card_name: str = ""


def people_of(rv: Any) -> dict[str, Person]:
    """Player key → name and card name, from the round's seats (entrants already loaded
    with the seats: no query)."""
    out: dict[str, Person] = {}
    for gv in rv.groups:
        for seat in gv.seats:
            if seat.entrant_id is not None:
                out[str(seat.entrant_id)] = Person(seat.entrant.name, seat.entrant.card_name)
    return out


# ------------------------------------------------------------------ cross-group table


@dataclass(frozen=True)
class CrossRow:
    """One row of a cross-group table.

    ``order`` is the row's number (the wildcard rank in a wildcard table, ``None`` for a
    player not eligible); ``mark`` is the engine's verdict (``group_top``, ``wildcard``,
    ``out``, ``withdrawn``, ``disqualified`` or blank before the round is complete);
    ``cut`` marks the last row inside the cut line.
    """

    order: int | None
    player: str
    name: str
    card_name: str
    group: str
    place: int
    score: Decimal
    ratio: Ratio
    mark: str = ""
    cut: bool = False
    tied: bool = False


def cross_rows(standings: Sequence[Any], people: Mapping[str, Person],
               outcomes: Iterable[tuple[str, Any]] = ()) -> list[CrossRow]:
    """The whole round in the selector's cross-group order (winners by score, then each
    placement by 惜敗率), marked with the advancement outcome(s) when there are any."""
    marks: dict[str, str] = {}
    cut_players: set[str] = set()
    for _rule, outcome in outcomes:
        for row in outcome.table:
            marks[row.standing.player] = str(row.status)
            if outcome.cut and row.rank == outcome.cut:
                cut_players.add(row.standing.player)
        for adv in outcome.advancers:
            marks[adv.player] = str(adv.reason)
    return [_cross_row(order, st, people,
                       marks.get(st.player, "disqualified" if st.disqualified else ""),
                       st.player in cut_players)
            for order, st in enumerate(standings, start=1)]


def _cross_row(order: int | None, st: Any, people: Mapping[str, Person], mark: str,
               cut: bool, tied: bool = False) -> CrossRow:
    person = people.get(st.player, Person(st.player))
    return CrossRow(order, st.player, person.name, person.card_name, st.group, st.place,
                    st.score, st.ratio, mark, cut, tied)


def wildcard_rows(outcome: Any, people: Mapping[str, Person],
                  keep: Callable[[Any], bool] | None = None) -> list[CrossRow]:
    """The engine's wildcard table (K4) in its own order, the cut after rank ``cut``;
    ``keep`` filters rows (the public page shows the rows around the cut)."""
    return [_cross_row(row.rank, row.standing, people, str(row.status),
                       bool(outcome.cut) and row.rank == outcome.cut,
                       bool(row.tied_with_previous))
            for row in outcome.table if keep is None or keep(row)]


def _row_class(record: Any, table: Any) -> str:
    classes = [table.row_classes.get(record.mark, "")]
    if getattr(record, "cut", False):
        classes.append("cut-line")
    if getattr(record, "dummy", False):
        classes.append("dummy-row")
    return " ".join(c for c in classes if c)


class RoundTableBase(PlannedTable, tables.Table):  # type: ignore[misc]
    """Shared behaviour: names link to the player's public page when a link maker is
    given, row classes by the engine's mark, plain values for the spreadsheet; each
    column's render call is worked out once per table (brackets/tables_rows.py)."""

    #: Each row rendered once per record and kept (brackets/perf/fragments.py): only for
    #: a table whose records are plain values, whose repr names all a row shows.
    row_fragments: ClassVar[bool] = False
    #: Columns that number the rows: filled per row into a kept row (a rank moves for
    #: every row below a changed one, the rest of the row does not).
    rank_columns: ClassVar[tuple[str, ...]] = ()

    #: mark → row class; a screen passes its own palette (``row_classes=``).
    ROW_CLASSES: ClassVar[Mapping[str, str]] = {"group_top": "table-success",
                                                "wildcard": "table-warning"}

    def __init__(self, data: Any, *, player_url: Callable[[str], str] | None = None,
                 row_classes: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("orderable", False)
        kwargs.setdefault("template_name", "brackets/_round_table.html")
        super().__init__(data, **kwargs)
        self.player_url = player_url
        self.row_classes: Mapping[str, str] = (
            row_classes if row_classes is not None else self.ROW_CLASSES)

    @staticmethod
    def player_of(record: Any) -> str:
        """The player key a row's name links to (blank: no link)."""
        return str(getattr(record, "player", ""))

    def render_name(self, record: Any, value: str) -> SafeString:
        player = self.player_of(record)
        if self.player_url is not None and player:
            return format_html('<a href="{}">{}</a>', self.player_url(player), value)
        return conditional_escape(value)

    def value_name(self, value: str) -> str:
        return value

    def cached_rows(self) -> SafeString:
        """Every row's ``<tr>``, each from the cache while its record and place are
        unchanged (the template asks for this when ``row_fragments`` is set)."""
        return fragments.cached_rows(self, "brackets/_round_table_row.html",
                                     per_row=self.rank_columns)

    def render_score(self, value: Decimal | None) -> str:
        return "" if value is None else f"{value}"

    def value_score(self, value: Decimal | None) -> Decimal | str:
        return "" if value is None else value

    def render_ratio(self, value: Ratio | None) -> str:
        """A 惜敗率 as people read it: two decimals, 「失格」 (H8), "—" when undefined (K3),
        blank if none."""
        return ratio_text(value)

    def value_ratio(self, value: Ratio | None) -> Decimal | str:
        """A 惜敗率 for a spreadsheet: a number, or the words of :func:`ratio_text`."""
        shown = None if value is None else value.display()
        return ratio_text(value) if shown is None else shown


class CrossGroupTable(RoundTableBase):
    """The cross-group 惜敗率 table (K4/K6): whatever order the selector gives, the engine's
    verdict per row, the cut line under the last wildcard."""

    order = tables.Column(verbose_name="#", default="")
    name = tables.Column(verbose_name=gettext_lazy("選手"))
    card_name = tables.Column(verbose_name=gettext_lazy("カードネーム"), visible=False,
                              default="")
    group = tables.Column(verbose_name=gettext_lazy("組"))
    place = tables.Column(verbose_name=gettext_lazy("順位"))
    score = tables.Column(verbose_name=gettext_lazy("得点"), attrs=NUMERIC)
    ratio = tables.Column(verbose_name=gettext_lazy("惜敗率"), attrs=NUMERIC,
                          empty_values=())
    mark = tables.Column(verbose_name=gettext_lazy("判定"), empty_values=())

    # Its rows are CrossRow values; after one result most of a round's rows are as they
    # were, and rendering them all is half of a round page's rebuild.
    row_fragments = True
    rank_columns = ("order",)

    class Meta:
        attrs: ClassVar[dict[str, str]] = {"class": "table table-sm cross-table"}
        row_attrs: ClassVar[dict[str, Any]] = {"class": _row_class,
                                               "data-player": lambda record: record.player}
        empty_text = gettext_lazy("まだ結果のある組がありません。")

    def render_mark(self, record: CrossRow) -> SafeString:
        label = conditional_escape(MARK_LABELS.get(record.mark, ""))
        if record.tied:
            label = format_html('{} <span class="badge text-bg-warning">{}</span>', label,
                                _("同率"))
        return mark_safe(label)

    def value_mark(self, record: CrossRow) -> str:
        label = str(MARK_LABELS.get(record.mark, ""))
        return f"{label}（{_('同率')}）".lstrip() if record.tied else label


# ------------------------------------------------------------------ results per seat


@dataclass(frozen=True)
class ResultRow:
    """One seat of a round: who played where, what they chose and how they did."""

    group: str
    rule: str
    seat: int
    player: str
    name: str
    card_name: str
    genre: str = ""
    format: str = ""
    difficulty: str = ""
    screen_score: Decimal | None = None
    penalty: Decimal | None = None
    score: Decimal | None = None
    place: int | None = None
    ratio: Ratio | None = None
    mark: str = ""
    dummy: bool = False


def result_rows(rv: Any, *, advancers: Iterable[Any] = (), wildcards: Iterable[Any] = (),
                final_mark: str = "") -> list[ResultRow]:
    """Every seat of every group in seat order (dummies included), with the engine's
    derived score, placement and 惜敗率 and the confirmed advancement (``advancers`` and
    ``wildcards`` are the advance step's player keys; ``final_mark`` names an advancer
    of a last round: ``champion`` or ``third``)."""
    adv = {str(p) for p in advancers}
    wild = {str(p) for p in wildcards}
    rows = []
    for gv in rv.groups:
        if gv.status == "unused":
            continue
        for seat in gv.seats:
            chosen = gv.facts.selections.get(seat.number)
            picked = ((chosen.genre, chosen.format, chosen.difficulty)
                      if chosen is not None else ("", "", ""))
            if seat.entrant_id is None:
                screen = gv.facts.results.get(seat.number)
                rows.append(ResultRow(gv.label, gv.group.rule, seat.number, "",
                                      str(_("ダミー")), "", genre=picked[0],
                                      format=picked[1], difficulty=picked[2],
                                      screen_score=screen[0] if screen else None,
                                      score=screen[0] if screen else None, dummy=True))
                continue
            key = str(seat.entrant_id)
            placed = gv.row_of(key)
            if placed is not None and placed.disqualified:
                mark = "disqualified"
            else:
                mark = ("wildcard" if key in wild else (final_mark or "group_top")
                        if key in adv else "")
            rows.append(ResultRow(
                gv.label, gv.group.rule, seat.number, key, seat.entrant.name,
                seat.entrant.card_name, genre=picked[0], format=picked[1],
                difficulty=picked[2],
                screen_score=placed.screen_score if placed else None,
                penalty=placed.penalty if placed and placed.penalty else None,
                score=placed.score if placed else None,
                place=placed.place if placed else None,
                ratio=gv.ratios.get(key) if placed else None, mark=mark))
    return rows


class RoundResultsTable(RoundTableBase):
    """Each group's seats with selection, score, penalty, placement, 惜敗率 and whether
    the player advanced (勝ち抜け / 追加勝ち抜け)."""

    ROW_CLASSES: ClassVar[Mapping[str, str]] = {
        "group_top": "table-success", "wildcard": "table-warning", "champion": "table-success",
        "third": "table-success", "disqualified": "table-danger"}

    group = tables.Column(verbose_name=gettext_lazy("組"))
    rule = tables.Column(verbose_name=gettext_lazy("ルール"), default="", visible=False)
    seat = tables.Column(verbose_name=gettext_lazy("サテ"))
    name = tables.Column(verbose_name=gettext_lazy("選手"), attrs=NOWRAP)
    card_name = tables.Column(verbose_name=gettext_lazy("カードネーム"), visible=False,
                              default="")
    genre = tables.Column(verbose_name=gettext_lazy("ジャンル"), default="")
    format = tables.Column(verbose_name=gettext_lazy("出題形式"), default="")
    difficulty = tables.Column(verbose_name=gettext_lazy("難易度"), default="", attrs=WIDE)
    screen_score = tables.Column(verbose_name=gettext_lazy("画面の得点"), empty_values=(),
                                 attrs=WIDE_NUMERIC)
    penalty = tables.Column(verbose_name=gettext_lazy("減点"), empty_values=(), attrs=NUMERIC)
    score = tables.Column(verbose_name=gettext_lazy("得点"), empty_values=(), attrs=NUMERIC)
    place = tables.Column(verbose_name=gettext_lazy("順位"), default="")
    ratio = tables.Column(verbose_name=gettext_lazy("惜敗率"), empty_values=(), attrs=NUMERIC)
    mark = tables.Column(verbose_name=gettext_lazy("勝ち抜け"), empty_values=(), attrs=NOWRAP)

    class Meta:
        attrs: ClassVar[dict[str, str]] = {"class": "table table-sm results-table"}
        row_attrs: ClassVar[dict[str, Any]] = {"class": _row_class}
        empty_text = gettext_lazy("まだ組がありません。")

    render_screen_score = RoundTableBase.render_score
    value_screen_score = value_penalty = RoundTableBase.value_score

    def render_penalty(self, value: Decimal | None) -> str:
        return "" if value is None else f"−{value}"

    def render_mark(self, record: ResultRow) -> str:
        return str(MARK_LABELS.get(record.mark, ""))

    value_mark = render_mark


# ------------------------------------------------------------------ final ranking


class RankingTable(RoundTableBase):
    """Everyone who played, best first
    (:func:`brackets.selectors.round_documents.final_ranking`)."""

    place = tables.Column(verbose_name=gettext_lazy("順位"))
    name = tables.Column(verbose_name=gettext_lazy("選手"))
    card_name = tables.Column(verbose_name=gettext_lazy("カードネーム"), default="",
                              attrs=WIDE)
    round_name = tables.Column(verbose_name=gettext_lazy("回戦"))
    detail = tables.Column(verbose_name=gettext_lazy("成績"), default="")

    class Meta:
        attrs: ClassVar[dict[str, str]] = {"class": "table table-sm ranking-table"}
        row_attrs: ClassVar[dict[str, Any]] = {
            "class": lambda record: "table-warning" if record.place == 1 else ""}
        empty_text = gettext_lazy("まだ順位の決まった選手はいません。")

    @staticmethod
    def player_of(record: Any) -> str:
        return str(getattr(record, "entrant_id", ""))


# ------------------------------------------------------------------ from a round

#: Row colours of the staff advancement check and of the public pages.
STAFF_ROWS = {"group_top": "table-success", "wildcard": "table-success",
              "withdrawn": "table-secondary", "disqualified": "table-secondary"}
PUBLIC_ROWS = {"group_top": "table-success", "wildcard": "table-warning"}
#: What an advancer of a last round is called in the results table, by the engine's kind
#: (a last round: ``RoundSpec.is_last``; players of other rounds are compared across
#: groups, K4 and K6).
FINAL_MARKS = {"partner_series": "champion", "final_group": "champion",
               "partner_match": "third"}


def round_outcomes(rv: Any) -> list[tuple[str, Any]]:
    """The engine's advancement (per rule for K6) once every group has a result."""
    from brackets.selectors import rounds as sel

    if not rv.all_done or rv.rules.spec.is_last:
        return []
    return sel.advancement_preview(rv.round, rv)


def advance_marks(rnd: Any, outcomes: Iterable[tuple[str, Any]] = ()
                  ) -> tuple[list[str], list[str]]:
    """(advancers, wildcards) as player keys: the confirmed advance step when there is
    one, else what the engine would advance (the preview staff are checking)."""
    from brackets.models import RoundStep

    step = (RoundStep.objects.filter(round=rnd, action="advance", undone_by__isnull=True)
            .order_by("-id").first())
    if step is not None:
        return ([str(p) for p in step.data.get("advancers", [])],
                [str(p) for p in step.data.get("wildcards", [])])
    advancers: list[str] = []
    wildcards: list[str] = []
    for _rule, outcome in outcomes:
        for adv in outcome.advancers:
            advancers.append(str(adv.player))
            if adv.reason == "wildcard":
                wildcards.append(str(adv.player))
    return advancers, wildcards


def cross_table(rv: Any, outcomes: Iterable[tuple[str, Any]], *,
                row_classes: Mapping[str, str] = PUBLIC_ROWS,
                player_url: Callable[[str], str] | None = None,
                people: Mapping[str, Person] | None = None) -> CrossGroupTable | None:
    """The whole round in the selector's cross-group order (None for pair rounds)."""
    from brackets.selectors import rounds as sel

    if rv.rules.spec.is_last:
        return None
    rows = cross_rows(sel.round_table(rv), people if people is not None else people_of(rv),
                      outcomes)
    return CrossGroupTable(rows, row_classes=row_classes, player_url=player_url)


def wildcard_tables(rv: Any, outcomes: Iterable[tuple[str, Any]], *,
                    row_classes: Mapping[str, str] = STAFF_ROWS,
                    player_url: Callable[[str], str] | None = None,
                    near_cut: int | None = None,
                    people: Mapping[str, Person] | None = None,
                    **table_kwargs: Any) -> list[tuple[str, Any, CrossGroupTable]]:
    """(rule, outcome, table) per advancement outcome. ``near_cut``: only outcomes with
    wildcards, and only their rows ranked down to ``near_cut`` below the cut (public);
    ``table_kwargs`` (``attrs``, ``exclude``) fit a screen (the projector)."""
    people = people if people is not None else people_of(rv)
    out = []
    for rule, outcome in outcomes:
        keep = None
        if near_cut is not None:
            if not outcome.cut:
                continue
            limit = outcome.cut + near_cut
            keep = (lambda row, limit=limit: bool(row.rank) and row.rank <= limit)
        rows = wildcard_rows(outcome, people, keep)
        kwargs = {"attrs": {"class": "table table-sm ratio-table wildcard-table"},
                  **table_kwargs}
        out.append((rule, outcome, CrossGroupTable(
            rows, row_classes=row_classes, player_url=player_url, **kwargs)))
    return out


def results_table(rv: Any, *, advancers: Iterable[Any] = (), wildcards: Iterable[Any] = (),
                  player_url: Callable[[str], str] | None = None) -> RoundResultsTable:
    """Every seat of the round with its result and advancement mark."""
    rows = result_rows(rv, advancers=advancers, wildcards=wildcards,
                       final_mark=(FINAL_MARKS.get(rv.rules.spec.kind, "")
                                   if rv.rules.spec.is_last else ""))
    return RoundResultsTable(rows, player_url=player_url)


def ranking_table(rows: Sequence[Any], *,
                  player_url: Callable[[str], str] | None = None) -> RankingTable:
    """The final ranking (:func:`brackets.selectors.round_documents.final_ranking` rows)."""
    return RankingTable(list(rows), player_url=player_url)
