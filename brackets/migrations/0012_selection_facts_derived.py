"""A selection stores what staff entered (the set, and that they accepted it as illegal);
its violations and penalty are derived by the engine on reading (H7), so the columns that
held them at save time go. Going back refills the penalty of every selection accepted as
illegal from its round's preset (the violations' wording is not rebuilt: it stays empty)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import migrations


def forwards(apps: Any, schema_editor: Any) -> None:
    """Nothing to convert: the facts kept are the facts staff entered."""


def backwards(apps: Any, schema_editor: Any) -> None:
    from brackets.adapters.rounds import rules_from_stored

    SelectionFact = apps.get_model("brackets", "SelectionFact")
    for fact in (SelectionFact.objects.filter(accepted_illegal=True)
                 .select_related("group__round").iterator()):
        rnd = fact.group.round
        fact.penalty = rules_from_stored(rnd.spec, rnd.number).penalty.quantize(Decimal("0.01"))
        fact.save(update_fields=["penalty"])


class Migration(migrations.Migration):
    dependencies = [("brackets", "0011_bounds")]

    operations = [
        # Listed first so that going back runs it last, once the columns are back.
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="selectionfact", name="violations"),
        migrations.RemoveField(model_name="selectionfact", name="penalty"),
    ]
