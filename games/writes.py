"""A move's own writes, without building their SQL again every time: :func:`insert`
and :func:`update`.

Every move writes the same three statements: the table's row (its new version, turn
and deadline, only where the version is still the one the move was tried on), the
action's row and the family's record of it (a vote). Django builds each
statement anew from the queryset or the model for every call (lookups, the where
tree, the compiler, quoting): for the row's update about six times the statement
itself on SQLite (measured in-process, ~270 against ~45 µs), and the three together a
third of the move's own time in ``python -m bench.live`` (1.2 → 0.8 ms).

Here each statement's SQL is made by Django's own compiler the first time a shape
is written (a model, a set of columns, which values are NULL), and kept; every write
after only prepares its values as Django's compiler does (each field's ``pre_save``
and ``get_db_prep_save``, and for the where clause the exact lookup's preparation)
and executes the kept SQL through the connection's own cursor, so transactions,
``on_commit``, execute wrappers and query counting all see an ordinary query. The
first write of each shape also compares the values prepared here with the ones
Django's compiler made, and keeps the SQL only if they are the same.

Only for models these can write exactly as the ORM would: no save signal receivers
(a receiver connected later makes the ORM write again), no parent model, no field
with its own placeholder or a database default; anything else goes to the ORM.
"""

from __future__ import annotations

import threading
from typing import Any

from django.db import connections, router
from django.db.models import Model, signals
from django.db.models.sql import InsertQuery, UpdateQuery

_statements: dict[tuple[Any, ...], tuple[str, tuple[Any, ...]]] = {}
_lock = threading.Lock()
_REFUSED = ("", ())


def _same(mine: list[Any], theirs: Any) -> bool:
    """Whether two preparations of the same values are the same: equal, or the same
    adapter of equal values (psycopg's JSON wrappers do not compare their
    contents)."""
    theirs = list(theirs)
    if len(mine) != len(theirs):
        return False
    for one, other in zip(mine, theirs, strict=True):
        if type(one) is type(other) and hasattr(one, "obj") and hasattr(one, "dumps"):
            if one.obj != other.obj or one.dumps is not other.dumps:
                return False
        elif one != other:
            return False
    return True


def _plain(model: type[Model]) -> bool:
    meta = model._meta
    return (
        not meta.parents
        and not signals.pre_save.has_listeners(model)
        and not signals.post_save.has_listeners(model)
        and not any(
            hasattr(field, "get_placeholder")
            or field.has_db_default()
            or getattr(field, "generated", False)
            for field in meta.concrete_fields
        )
    )


def insert(obj: Model) -> None:
    """``obj.save(force_insert=True)`` for a new row of a plain model, with its
    primary key read back where the database returns it (PostgreSQL and SQLite)."""
    model = type(obj)
    using = router.db_for_write(model, instance=obj)
    connection = connections[using]
    meta = model._meta
    if not _plain(model) or obj.pk is not None:
        obj.save(force_insert=True, using=using)
        return
    fields = [field for field in meta.local_concrete_fields if field is not meta.pk]
    values = [
        field.get_db_prep_save(field.pre_save(obj, add=True), connection)
        for field in fields
    ]
    returning = connection.features.can_return_columns_from_insert
    key = ("insert", using, model, returning)
    kept = _statements.get(key)
    if kept is None:
        query = InsertQuery(model)
        # Raw: the compiler takes the values pre_save set above, not new ones (an
        # auto_now_add field's time), so the two preparations can be compared.
        query.insert_values(fields, [obj], raw=True)
        compiler = query.get_compiler(using=using)
        compiler.returning_fields = [meta.pk] if returning else None
        [(sql, params)] = compiler.as_sql()
        kept = (sql, ()) if _same(values, params) else _REFUSED
        with _lock:
            _statements[key] = kept
    sql = kept[0]
    if not sql:
        obj.save(force_insert=True, using=using)
        return
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        if returning:
            row = connection.ops.fetch_returned_insert_columns(cursor, ())
            obj.pk = meta.pk.to_python(row[0])
        else:
            table, column = meta.db_table, meta.pk.column
            obj.pk = connection.ops.last_insert_id(cursor, table, column)
    obj._state.adding = False
    obj._state.db = using


def update(model: type[Model], where: dict[str, Any], values: dict[str, Any]) -> int:
    """``model.objects.filter(**where).update(**values)`` for a plain model, where
    every condition is a field's exact value (or None: IS NULL), or a tuple of values
    (``__in``: one statement kept per number of values). Returns the number of rows
    written."""
    using = router.db_for_write(model)
    connection = connections[using]
    meta = model._meta
    if not _plain(model):
        return _orm_update(model, using, where, values)
    set_fields = [meta.get_field(name) for name in values]
    # The conditions in the order the compiler writes them (filter() sorts them).
    where = {name: where[name] for name in sorted(where)}
    where_fields = [meta.pk if name == "pk" else meta.get_field(name) for name in where]
    prepared: list[Any] = []
    for field, value in zip(set_fields, values.values(), strict=True):
        if value is not None:
            prepared.append(field.get_db_prep_save(value, connection))
    for field, value in zip(where_fields, where.values(), strict=True):
        if value is not None:
            target = field.target_field if field.is_relation else field
            for one in value if type(value) is tuple else (value,):
                prepared.append(
                    target.get_db_prep_value(
                        target.get_prep_value(one), connection, prepared=True
                    )
                )
    key = (
        "update",
        using,
        model,
        tuple((name, value is None) for name, value in values.items()),
        # ("in", n) for n keys, kept apart from a condition's True (IS NULL).
        tuple(
            (name, ("in", len(value)) if type(value) is tuple else value is None)
            for name, value in where.items()
        ),
    )
    kept = _statements.get(key)
    if kept is None:
        query = (
            model._base_manager.using(using)
            .filter(**_lookups(where))
            .query.chain(UpdateQuery)
        )
        query.add_update_values(values)
        sql, params = query.get_compiler(using=using).as_sql()
        kept = (sql, ()) if _same(prepared, params) else _REFUSED
        with _lock:
            _statements[key] = kept
    sql = kept[0]
    if not sql:
        return _orm_update(model, using, where, values)
    with connection.cursor() as cursor:
        cursor.execute(sql, prepared)
        return int(cursor.rowcount)


def _orm_update(
    model: type[Model], using: str, where: dict[str, Any], values: dict[str, Any]
) -> int:
    return int(
        model._base_manager.using(using).filter(**_lookups(where)).update(**values)
    )


def _lookups(where: dict[str, Any]) -> dict[str, Any]:
    """``update``'s conditions as ``filter`` takes them (a tuple: ``__in``)."""
    return {
        f"{name}__in" if type(value) is tuple else name: value
        for name, value in where.items()
    }


def forget_all() -> None:
    """Tests that change a model's fields or the database call this."""
    with _lock:
        _statements.clear()
