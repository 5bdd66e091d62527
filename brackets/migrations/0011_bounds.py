"""Bounds from ``brackets.engine.bounds`` on the model fields, and the repair of penalties
stored above the bound.

Before the bound, SQLite stored a penalty of 100000 or more (PostgreSQL refused the save).
Such a row does not fit its column: reading it raises, so its match, its round, the public
pages, every round document and the tournament-file export failed. The repair keeps the
penalty in force at the highest penalty the app accepts (any penalty above the highest
score already sends the player below every unpenalised score, so standings keep their
meaning) and writes the typed value into the reason, so nothing typed is lost and the
tournament can be exported and imported again.
"""

from decimal import Decimal

import django.core.validators
from django.db import migrations, models

PENALTY_HIGH = Decimal("9999.99")  # brackets.engine.bounds.PENALTY.high when this was written
REASON_MAX = 200


def repair_penalties_above_bound(apps, schema_editor):
    """Clamp every stored penalty above the bound, noting the typed value in its reason.

    Raw SQL: the ORM cannot read these rows back (the decimal does not fit the column).
    """
    table = apps.get_model("brackets", "PenaltyFact")._meta.db_table
    quote = schema_editor.quote_name
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"SELECT id, CAST(points AS TEXT), reason FROM {quote(table)} "
                       f"WHERE points > %s", [str(PENALTY_HIGH)])
        rows = cursor.fetchall()
        for pk, typed, reason in rows:
            note = f"（入力値 {typed} は上限 {PENALTY_HIGH} を超えるため上限で記録）"
            kept = (reason or "")[: max(0, REASON_MAX - len(note))]
            cursor.execute(f"UPDATE {quote(table)} SET points = %s, reason = %s WHERE id = %s",
                           [str(PENALTY_HIGH), kept + note, pk])


class Migration(migrations.Migration):

    dependencies = [
        ('brackets', '0010_public_copy'),
    ]

    operations = [
        migrations.RunPython(repair_penalties_above_bound, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='entrant',
            name='notes',
            field=models.TextField(blank=True, validators=[django.core.validators.MaxLengthValidator(10000)], verbose_name='メモ'),
        ),
        migrations.AlterField(
            model_name='entrant',
            name='past_win_lots',
            field=models.PositiveIntegerField(default=0, help_text='本大会の過去優勝者のみ（形式くじ）', validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(9)], verbose_name='過去優勝時のくじ数'),
        ),
        migrations.AlterField(
            model_name='entrant',
            name='q_level',
            field=models.PositiveIntegerField(default=0, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(999)], verbose_name='最高Qレベル'),
        ),
        migrations.AlterField(
            model_name='entrant',
            name='seed',
            field=models.PositiveIntegerField(blank=True, help_text='シード選手のみ。1から', null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(999)], verbose_name='シード番号'),
        ),
        migrations.AlterField(
            model_name='entrant',
            name='shura_extra_lots',
            field=models.PositiveIntegerField(default=0, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(4)], verbose_name='追加くじ（自己申告）'),
        ),
        migrations.AlterField(
            model_name='entrant',
            name='shura_local_wins',
            field=models.PositiveIntegerField(default=0, help_text='修羅くじ(ii)', validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(99)], verbose_name='滋賀大会優勝数'),
        ),
        migrations.AlterField(
            model_name='entrant',
            name='shura_titles',
            field=models.PositiveIntegerField(default=0, help_text='修羅くじ(i)', validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(99)], verbose_name='全国大会タイトル数'),
        ),
        migrations.AlterField(
            model_name='penaltyfact',
            name='points',
            field=models.DecimalField(decimal_places=2, max_digits=7, validators=[django.core.validators.MinValueValidator(Decimal('0.01')), django.core.validators.MaxValueValidator(Decimal('9999.99'))], verbose_name='減点'),
        ),
        migrations.AlterField(
            model_name='resultfact',
            name='placement',
            field=models.PositiveSmallIntegerField(null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(4)], verbose_name='順位'),
        ),
        migrations.AlterField(
            model_name='resultfact',
            name='score',
            field=models.DecimalField(decimal_places=2, max_digits=7, null=True, validators=[django.core.validators.MinValueValidator(Decimal('0.00')), django.core.validators.MaxValueValidator(Decimal('1000.00'))], verbose_name='得点'),
        ),
        migrations.AlterField(
            model_name='seat',
            name='number',
            field=models.PositiveSmallIntegerField(validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(4)], verbose_name='サテ'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='capacity',
            field=models.PositiveIntegerField(default=64, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100000)], verbose_name='定員'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='fee',
            field=models.PositiveIntegerField(default=0, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(1000000)], verbose_name='参加費（円）'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='seed_slots',
            field=models.PositiveIntegerField(default=8, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(999)], verbose_name='シード枠'),
        ),
    ]
