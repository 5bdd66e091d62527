"""Round.spec holds the engine's RoundSpec (versioned) plus the plan context; Round.kind
uses the engine's kinds. Existing rows are converted by the round adapter's pure
converters (both ways)."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def forwards(apps: Any, schema_editor: Any) -> None:
    from brackets.adapters.rounds import stored_from_legacy

    Round = apps.get_model("brackets", "Round")
    for rnd in Round.objects.all().iterator():
        if isinstance(rnd.spec, dict) and "version" not in rnd.spec:
            rnd.spec, rnd.kind = stored_from_legacy(rnd.spec, rnd.kind, rnd.number)
            rnd.save(update_fields=["spec", "kind"])


def backwards(apps: Any, schema_editor: Any) -> None:
    from brackets.adapters.rounds import stored_to_legacy

    Round = apps.get_model("brackets", "Round")
    for rnd in Round.objects.all().iterator():
        if isinstance(rnd.spec, dict) and "version" in rnd.spec:
            rnd.spec, rnd.kind = stored_to_legacy(rnd.spec, rnd.number)
            rnd.save(update_fields=["spec", "kind"])


class Migration(migrations.Migration):
    dependencies = [("brackets", "0008_tournament_revision")]

    operations = [migrations.RunPython(forwards, backwards)]
