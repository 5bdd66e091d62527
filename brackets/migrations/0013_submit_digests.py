from django.db import migrations, models


class Migration(migrations.Migration):
    """A digest of each submit's content beside its key (match writes and buzzer taps):
    the same key sent again with other content is refused as stale instead of being
    taken for a double tap."""

    dependencies = [
        ("brackets", "0012_selection_facts_derived"),
    ]

    operations = [
        migrations.AddField(
            model_name="submission",
            name="digest",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="buzzerevent",
            name="submit_digest",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
    ]
