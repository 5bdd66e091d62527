import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def release_existing_draws(apps, schema_editor):
    """Rounds drawn before the release existed stay public: nothing a phone showed
    disappears. The release is dated at the round's draw, by nobody (the migration)."""
    Round = apps.get_model("brackets", "Round")
    RoundStep = apps.get_model("brackets", "RoundStep")
    for rnd in Round.objects.exclude(status="configured").filter(draw_released_at__isnull=True):
        step = (RoundStep.objects.filter(round=rnd, action="draw", undone_by__isnull=True)
                .order_by("-id").first())
        rnd.draw_released_at = step.at if step is not None else rnd.created_at
        rnd.save(update_fields=["draw_released_at"])


class Migration(migrations.Migration):
    """The organiser's release of a round's draw (issue 15 item 4), announcements and the
    timetable's planned times (item 6)."""

    dependencies = [
        ("brackets", "0014_floor"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="draw_released_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="抽選の公開日時"),
        ),
        migrations.AddField(
            model_name="round",
            name="draw_released_by",
            field=models.ForeignKey(blank=True, null=True,
                                    on_delete=django.db.models.deletion.SET_NULL,
                                    related_name="+", to=settings.AUTH_USER_MODEL),
        ),
        migrations.RunPython(release_existing_draws, migrations.RunPython.noop),
        migrations.CreateModel(
            name='Announcement',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('text', models.CharField(max_length=200, verbose_name='お知らせ')),
                ('posted_at', models.DateTimeField(auto_now_add=True, verbose_name='掲示日時')),
                ('withdrawn_at', models.DateTimeField(blank=True, null=True, verbose_name='取り下げ日時')),
                ('posted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='announcements', to='brackets.tournament', verbose_name='大会')),
                ('withdrawn_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'お知らせ',
                'verbose_name_plural': 'お知らせ',
                'ordering': ['tournament', '-id'],
            },
        ),
        migrations.CreateModel(
            name='TimetableEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('slot', models.CharField(max_length=20, verbose_name='項目')),
                ('planned', models.TimeField(blank=True, null=True, verbose_name='予定時刻')),
                ('at', models.DateTimeField(auto_now_add=True, verbose_name='日時')),
                ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='timetable_entries', to='brackets.tournament', verbose_name='大会')),
            ],
            options={
                'verbose_name': 'タイムテーブル',
                'verbose_name_plural': 'タイムテーブル',
                'ordering': ['tournament', 'slot', 'id'],
            },
        ),
    ]
