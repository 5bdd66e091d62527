"""Plain SQL for the few statements that every tablet request runs.

The ORM builds each statement again on every call, which costs 0.2–0.4 ms; the database
answers the same statement in 0.02–0.05 ms. A result save runs about nine of them (the
user, the role, the group, the lock, the submit key, the facts, the version, the
revision), so through the ORM most of a save goes into building SQL. These helpers build
each statement's text once per process from the models' metadata (a renamed column follows
the model), convert values both ways exactly as the ORM does (the fields' own prep and
converter functions), and return real model instances (``Model.from_db``), so callers keep
working with models. They send no signals, like ``bulk_create`` and ``update``.

Only the hot paths use them; everything else goes through the ORM.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from django.db import connections
from django.db.models import Model

M = TypeVar("M", bound=Model)

_TEXT: dict[tuple[Any, ...], Any] = {}
_TEXT_LOCK = threading.Lock()


def _built(key: tuple[Any, ...], build: Callable[[], Any]) -> Any:
    """The statement for ``key``, built once per process (per database vendor)."""
    found = _TEXT.get(key)
    if found is None:
        with _TEXT_LOCK:
            found = _TEXT.setdefault(key, build())
    return found


def _reader(model: type[Model], connection: Any) -> tuple[list[str], list[Any]]:
    """Column names and, per column, the converters the ORM applies to what it reads."""
    fields = model._meta.concrete_fields
    columns = [f.column for f in fields]
    converters = []
    for f in fields:
        col = f.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(col) + f.get_db_converters(connection)
        converters.append((tuple(found), col))
    return columns, converters


def _instance(model: type[M], values: Sequence[Any], converters: Sequence[Any],
              connection: Any, using: str) -> M:
    row = []
    for value, (funcs, col) in zip(values, converters):
        for func in funcs:
            value = func(value, col, connection)
        row.append(value)
    return model.from_db(using, [f.attname for f in model._meta.concrete_fields], row)


def fetch(model: type[M], *, where: Sequence[str], params: Sequence[Any],
          related: Sequence[str] = (), for_update: bool = False,
          using: str = "default") -> list[M]:
    """Rows of ``model`` with the non-null foreign keys named in ``related`` joined and
    attached (as ``select_related`` does). ``where`` names equality conditions as
    ``"field"`` or ``"relation__field"`` (a relation listed in ``related``), in the order
    of ``params``. ``for_update`` locks the rows where the database can (PostgreSQL)."""
    connection = connections[using]
    key = ("fetch", model, tuple(related), tuple(where), for_update, connection.vendor)

    def build() -> Any:
        q = connection.ops.quote_name
        parts = [(model, "t0", None)]
        joins = []
        for index, name in enumerate(related, start=1):
            fk = model._meta.get_field(name)
            parts.append((fk.related_model, f"t{index}", fk))
            joins.append(f" INNER JOIN {q(fk.related_model._meta.db_table)} t{index} ON "
                         f"t{index}.{q(fk.target_field.column)} = t0.{q(fk.column)}")
        select, readers = [], []
        for part, alias, _fk in parts:
            columns, converters = _reader(part, connection)
            select += [f"{alias}.{q(c)}" for c in columns]
            readers.append((part, len(columns), converters))
        conditions = []
        for condition in where:
            relation, _sep, field_name = condition.rpartition("__")
            alias = "t0" if not relation else f"t{list(related).index(relation) + 1}"
            owner = model if not relation else model._meta.get_field(relation).related_model
            column = owner._meta.get_field(field_name).column
            conditions.append(f"{alias}.{q(column)} = %s")
        sql = (f"SELECT {', '.join(select)} FROM {q(model._meta.db_table)} t0"
               + "".join(joins) + (" WHERE " + " AND ".join(conditions) if conditions else ""))
        if for_update and connection.features.has_select_for_update:
            sql += " FOR UPDATE"
        return sql, readers, [fk for _p, _a, fk in parts[1:]]

    sql, readers, fks = _built(key, build)
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        rows = cursor.fetchall()
    out = []
    for row in rows:
        start = 0
        objects = []
        for part, width, converters in readers:
            objects.append(_instance(part, row[start:start + width], converters, connection,
                                     using))
            start += width
        base = objects[0]
        for fk, obj in zip(fks, objects[1:]):
            fk.set_cached_value(base, obj)
        out.append(base)
    return out


def insert(objs: Iterable[M], *, using: str = "default") -> list[M]:
    """INSERT ``objs`` (one model, one statement) and set their primary keys, as
    ``bulk_create`` does: ``auto_now_add`` and defaults applied, values prepared by their
    fields, no signals."""
    items = list(objs)
    if not items:
        return items
    model = type(items[0])
    connection = connections[using]
    key = ("insert", model, len(items), connection.vendor)
    returning = connection.features.can_return_rows_from_bulk_insert

    def build() -> Any:
        q = connection.ops.quote_name
        fields = [f for f in model._meta.concrete_fields if f is not model._meta.auto_field]
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        sql = (f"INSERT INTO {q(model._meta.db_table)} "
               f"({', '.join(q(f.column) for f in fields)}) VALUES "
               + ", ".join([row] * len(items)))
        if returning:
            sql += f" RETURNING {q(model._meta.pk.column)}"
        return sql, fields

    if not returning and len(items) > 1:
        model._default_manager.using(using).bulk_create(items)
        return items
    sql, fields = _built(key, build)
    params: list[Any] = []
    for obj in items:
        params += [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = [r[0] for r in cursor.fetchall()] if returning else [cursor.lastrowid]
    for obj, pk in zip(items, ids):
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = using
    return items


def add(model: type[Model], pk: Any, field_name: str, amount: int = 1, *,
        using: str = "default") -> int:
    """``UPDATE … SET field = field + amount WHERE pk = …``; the number of rows changed."""
    connection = connections[using]
    key = ("add", model, field_name, connection.vendor)

    def build() -> str:
        q = connection.ops.quote_name
        column = q(model._meta.get_field(field_name).column)
        return (f"UPDATE {q(model._meta.db_table)} SET {column} = {column} + %s "
                f"WHERE {q(model._meta.pk.column)} = %s")

    with connection.cursor() as cursor:
        cursor.execute(_built(key, build), [amount, pk])
        return int(cursor.rowcount)
