"""選手登録簿（Excel）: the registry's players, their cards (current and the rows they
superseded) and their achievements, one sheet each (#14 item 6).

Every sheet is a registry table's ``as_values()`` (brackets/tables_players.py; the
players table is the one the registry page renders), read through one selector, so the
file and the page cannot disagree. Served by the one download view under any tournament
the user staffs: the registry is shared by every tournament of the server.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from brackets.exporters.xlsx import CONTENT_TYPE as XLSX
from brackets.exporters.xlsx import Sheet, table_sheet, workbook_bytes
from brackets.models import Role, Tournament
from brackets.printing.registry import Document, DocumentError, register
from brackets.selectors.registry_sheets import registry_rows
from brackets.tables_players import (
    RegistryAchievementTable,
    RegistryCardTable,
    RegistryPlayerTable,
)


def registry_sheets() -> list[Sheet]:
    rows = registry_rows()
    if not rows.players:
        raise DocumentError(gettext("登録簿にまだ選手がいません。受付で登録すると加わります。"))
    return [table_sheet("選手", RegistryPlayerTable(rows.players)),
            table_sheet("カード", RegistryCardTable(rows.cards)),
            table_sheet("実績", RegistryAchievementTable(rows.achievements))]


@register
class RegistryWorkbook(Document):
    """選手登録簿（Excel）."""

    slug = "registry-xlsx"
    order = 55
    title = gettext_noop("選手登録簿（Excel）")
    role = Role.DESK
    category = gettext_noop("受付")
    content_type = XLSX
    extension = "xlsx"
    description = gettext_noop("選手・カード（以前の記録も）・実績の3シート、誰がいつ入力したか")

    def render(self, tournament: Tournament, **options: Any) -> tuple[str, str, bytes]:
        stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
        return (f"{tournament.slug}-registry-{stamp}.xlsx", XLSX, workbook_bytes(registry_sheets()))
