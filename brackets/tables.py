"""django-tables2 tables: what the screen shows is what the spreadsheet export writes.

The entrant table renders one-tap check-in and fee buttons on screen, and plain values
(済 / blank, numbers) through ``as_values()`` for the .xlsx export. Columns hidden on the
screen (the 修羅 declarations) are still exported, so an exported file imports back whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from brackets.engine import RuleRefusal, lots_owed
from brackets.models import Entrant
from brackets.services.entrants import shura_declaration

# At 768 px (a tablet upright) the list keeps what the desk needs at a glance; wider
# screens add the store, notes and the edit and print buttons (the name links to the edit
# page, which prints too).
WIDE_ONLY = {"th": {"class": "d-none d-xxl-table-cell"}, "td": {"class": "d-none d-xxl-table-cell notes"}}
LAPTOP_UP = {"th": {"class": "d-none d-xl-table-cell"}, "td": {"class": "d-none d-xl-table-cell"}}
NUMERIC = {"th": {"class": "text-end"}, "td": {"class": "num"}}
SEED_COLUMN = {"th": {"class": "d-none d-lg-table-cell"}, "td": {"class": "num d-none d-lg-table-cell"}}


def flag_button(*, entrant: Entrant, slug: str, csrf_token: str, field: str) -> SafeString:
    """A one-tap button setting ``checked_in`` or ``fee_paid``.

    It posts the state wanted (not "toggle"), so a double tap records once; undoing asks
    for confirmation, so a second tap landing on the swapped button cannot undo silently.
    Works without JavaScript as a plain form post.
    """
    on = bool(getattr(entrant, field))
    if field == "checked_in":
        url = reverse("desk_check_in", args=[slug, entrant.pk])
        label_on, label_off = _("✓ 受付済"), _("受付する")
        style_on, style_off = "btn-success", "btn-outline-success"
        confirm = _("%(name)s さんの受付を取り消しますか？") % {"name": entrant.name}
    else:
        url = reverse("desk_fee", args=[slug, entrant.pk])
        label_on, label_off = _("支払済"), _("未払い")
        style_on, style_off = "btn-primary", "btn-outline-secondary"
        confirm = _("%(name)s さんの参加費を未払いに戻しますか？") % {"name": entrant.name}
    return format_html(
        '<form method="post" action="{url}" hx-post="{url}" hx-swap="outerHTML" '
        'hx-disabled-elt="find button" class="m-0 flag-form"{confirm}>'
        '<input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">'
        '<input type="hidden" name="{field}" value="{want}">'
        '<button type="submit" class="btn {style} btn-flag" data-flag="{field}" '
        'data-state="{state}" aria-label="{aria}">{label}</button></form>',
        url=url,
        confirm=format_html(' hx-confirm="{}"', confirm) if on else "",
        csrf=csrf_token,
        field=field,
        want="0" if on else "1",
        style=style_on if on else style_off,
        state="on" if on else "off",
        aria=f"{entrant.name} {label_on if on else label_off}",
        label=label_on if on else label_off,
    )


def shura_summary(entrant: Entrant, duties: Any = None) -> str:
    """修羅 lots owed and プチ修羅 mode, as the desk reads them (blank when none): from the
    entrant's ``duties`` in force (typed and derived) when given, else what was typed."""
    parts = []
    try:
        declaration = (duties.declaration() if duties is not None
                       else shura_declaration(entrant.__dict__))
        owed = lots_owed(declaration)
        if owed.genre_lots:
            parts.append(_("修羅 くじ%(n)d本") % {"n": owed.genre_lots})
    except RuleRefusal:
        parts.append(_("くじ数が上限超過"))
    if entrant.opt_up:
        parts.append(_("プチ修羅: %(mode)s") % {"mode": entrant.get_opt_up_display()})
    return " / ".join(parts)


def _yes(value: bool) -> str:
    return _("はい") if value else ""


class EntrantTable(tables.Table):  # type: ignore[misc]
    checked_in = tables.Column(verbose_name=gettext_lazy("受付"), orderable=True)
    seed = tables.Column(verbose_name=gettext_lazy("シード"), attrs=SEED_COLUMN, default="")
    name = tables.Column(verbose_name=gettext_lazy("名前"), order_by=("name", "id"))
    reading = tables.Column(
        verbose_name=gettext_lazy("よみがな"), order_by=("search_key", "id"), default=""
    )
    card_name = tables.Column(verbose_name=gettext_lazy("カードネーム"))
    home_store = tables.Column(verbose_name=gettext_lazy("ホーム店舗"), attrs=WIDE_ONLY, default="")
    q_level = tables.Column(verbose_name=gettext_lazy("Qレベル"), attrs=NUMERIC)
    # Shown inside the Q level cell on screen; its own column in the export.
    rank = tables.Column(
        verbose_name=gettext_lazy("階級"), accessor="q_level", orderable=False, visible=False
    )
    fee_paid = tables.Column(verbose_name=gettext_lazy("参加費"))
    notes = tables.Column(
        verbose_name=gettext_lazy("メモ"), orderable=False, attrs=WIDE_ONLY, default=""
    )
    shura_titles = tables.Column(verbose_name=gettext_lazy("全国大会タイトル数"), visible=False)
    shura_local_wins = tables.Column(verbose_name=gettext_lazy("滋賀大会優勝数"), visible=False)
    shura_invited = tables.Column(verbose_name=gettext_lazy("シード・招待権保持"), visible=False)
    shura_voluntary = tables.Column(verbose_name=gettext_lazy("修羅の道（自主）"), visible=False)
    shura_extra_lots = tables.Column(verbose_name=gettext_lazy("追加くじ（自己申告）"), visible=False)
    past_win_lots = tables.Column(verbose_name=gettext_lazy("過去優勝時のくじ数"), visible=False)
    opt_up = tables.Column(verbose_name=gettext_lazy("プチ修羅の道"), visible=False, default="")
    edit = tables.Column(
        verbose_name="",
        accessor="pk",
        orderable=False,
        exclude_from_export=True,
        empty_values=(),
        attrs=LAPTOP_UP,
    )

    class Meta:
        model = Entrant
        fields: tuple[str, ...] = ()
        sequence = (
            "checked_in",
            "seed",
            "name",
            "reading",
            "card_name",
            "home_store",
            "q_level",
            "rank",
            "fee_paid",
            "notes",
            "...",
        )
        attrs = {"class": "table table-hover align-middle desk-table", "id": "entrant-list"}
        empty_text = gettext_lazy("該当する参加者はいません。")
        row_attrs = {"data-entrant": lambda record: record.pk}

    def __init__(
        self,
        data: Any,
        *,
        slug: str,
        rank_name: Callable[[int], str],
        csrf_token: str = "",
        duties: Mapping[int, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(data, **kwargs)
        self.slug = slug
        self.rank_name = rank_name
        self.csrf_token = csrf_token
        # Each entrant's 修羅 duties in force (brackets.selectors.duties), by id.
        self.duties = duties or {}

    def render_checked_in(self, record: Entrant) -> SafeString:
        return flag_button(entrant=record, slug=self.slug, csrf_token=self.csrf_token, field="checked_in")

    def value_checked_in(self, value: bool) -> str:
        return _("済") if value else ""

    def render_fee_paid(self, record: Entrant) -> SafeString:
        return flag_button(entrant=record, slug=self.slug, csrf_token=self.csrf_token, field="fee_paid")

    def value_fee_paid(self, value: bool) -> str:
        return _("済") if value else _("未")

    def render_seed(self, value: int) -> SafeString:
        return format_html('<span class="badge text-bg-warning fs-6">S{}</span>', value)

    def value_seed(self, value: int | None) -> int | str:
        return value if value is not None else ""

    def render_name(self, record: Entrant) -> SafeString:
        shura = shura_summary(record, self.duties.get(record.pk))
        return format_html(
            '{}<a class="entrant-name" href="{}">{}</a>{}',
            # The seed column is hidden on an upright tablet: the badge moves here.
            format_html('<span class="badge text-bg-warning me-1 d-lg-none">S{}</span>', record.seed)
            if record.seed
            else "",
            reverse("desk_entrant_edit", args=[self.slug, record.pk]),
            record.name,
            format_html(' <span class="badge text-bg-danger shura-badge">{}</span>', shura) if shura else "",
        )

    def value_name(self, value: str) -> str:
        return value

    def render_card_name(self, value: str) -> SafeString:
        return format_html('<span class="card-name">{}</span>', value)

    def value_card_name(self, value: str) -> str:
        return value

    def render_q_level(self, value: int) -> SafeString:
        return format_html('{} <small class="text-muted rank-name">{}</small>', value, self.rank_name(value))

    def value_q_level(self, value: int) -> int:
        return value

    def render_rank(self, value: int) -> str:
        return self.rank_name(value)

    def render_shura_invited(self, value: bool) -> str:
        return _yes(value)

    def render_shura_voluntary(self, value: bool) -> str:
        return _yes(value)

    def render_opt_up(self, record: Entrant) -> str:
        return str(record.get_opt_up_display()) if record.opt_up else ""

    def render_edit(self, record: Entrant) -> SafeString:
        return format_html(
            '<a class="btn btn-outline-secondary" href="{}">{}</a> '
            '<a class="btn btn-outline-secondary" href="{}" target="_blank" rel="noopener" '
            'data-print-entrant="{}" aria-label="{}">{}</a>',
            reverse("desk_entrant_edit", args=[self.slug, record.pk]),
            _("編集"),
            reverse("desk_entrant_print", args=[self.slug, record.pk]),
            record.pk,
            _("%(name)s さんの名札とエントリーシートを印刷") % {"name": record.name},
            _("印刷"),
        )
