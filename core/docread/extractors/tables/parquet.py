"""Parquet (pyarrow: only the row groups and columns of the window are decoded, the total comes
from the footer) and tabular JSON (an array of objects, loaded whole under the size limit)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

from ...errors import ExtractionError
from ...source import Source
from ..base import Context
from .model import Book, RowsTable, Table, Total, unique_names

if TYPE_CHECKING:
    from ..deadline import Deadline


class ParquetTable(Table):
    """One Parquet file: exact total and column types from the footer, projection on read."""

    counted = True

    def __init__(self, pf: Any, ctx: Context, deadline: Deadline) -> None:
        schema = pf.schema_arrow
        super().__init__(unique_names(schema.names))
        self.pf, self.deadline = pf, deadline
        self.names = list(schema.names)
        self.dtypes = {i: str(f.type) for i, f in enumerate(schema)}
        self.group_rows = [pf.metadata.row_group(g).num_rows for g in range(pf.num_row_groups)]
        self.chunk = max(1, ctx.settings.memory.chunk_size)

    def _count(self, exact: bool) -> Total:
        return Total(self.pf.metadata.num_rows)

    def _iter_from(self, start: int, cols: list[int], want: int | None) -> Iterator[list[Any]]:
        skip, g = start - 1, 0
        while g < len(self.group_rows) and skip >= self.group_rows[g]:
            skip, g = skip - self.group_rows[g], g + 1
        if g >= len(self.group_rows):
            return
        size = (
            self.chunk
            if want is None or skip >= self.chunk
            else max(1, min(self.chunk, skip + want))
        )
        batches = self.pf.iter_batches(
            batch_size=size, row_groups=range(g, len(self.group_rows)),
            columns=[self.names[c] for c in cols], use_threads=False,
        )  # fmt: skip
        for batch in batches:
            if skip >= batch.num_rows:
                skip -= batch.num_rows
                continue
            part = batch.slice(skip) if skip else batch
            skip = 0
            yield from (
                list(r)
                for r in zip(
                    *(_values(part.column(j)) for j in range(part.num_columns)), strict=True
                )
            )
            self.deadline.check("a Parquet batch")


def _values(array: Any) -> list[Any]:
    """Python values of an Arrow column: float32 without binary noise, UTF-8 bytes as text, and
    timestamps Python cannot hold (year 0, year 10000) as Arrow's own text."""
    import pyarrow as pa

    kind = array.type
    if pa.types.is_float32(kind):
        return [None if v is None else float(f"{v:.7g}") for v in array.to_pylist()]
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
        return [_text_or_bytes(v) for v in array.to_pylist()]
    try:
        return cast("list[Any]", array.to_pylist())  # pyarrow has no type information
    except (ValueError, OverflowError, ArithmeticError):
        try:
            return cast("list[Any]", array.cast(_timestamps_as_text(kind)).to_pylist())
        except (pa.ArrowException, ValueError, OverflowError, ArithmeticError):
            return ["<value out of range>"] * len(array)


def _timestamps_as_text(kind: Any) -> Any:
    """The same Arrow type with every timestamp/date inside it replaced by string."""
    import pyarrow as pa

    if pa.types.is_timestamp(kind) or pa.types.is_date(kind):
        return pa.string()
    if pa.types.is_struct(kind):
        return pa.struct([f.with_type(_timestamps_as_text(f.type)) for f in kind])
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        return pa.list_(kind.value_field.with_type(_timestamps_as_text(kind.value_type)))
    return kind


def _text_or_bytes(value: bytes | None) -> str | bytes | None:
    if value is None:
        return None
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return value


class ParquetBook(Book):
    def __init__(self, source: Source, ctx: Context, deadline: Deadline) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        self.handle = source.open()
        try:
            pf = pq.ParquetFile(self.handle, buffer_size=1 << 20, pre_buffer=False)
        except (pa.ArrowException, OSError) as exc:
            self.handle.close()
            raise ExtractionError(
                f"{ctx.info.source}: not a readable Parquet file (corrupt footer or truncated "
                f"file?): {exc}",
                path=ctx.info.source,
            ) from exc
        self._table = ParquetTable(pf, ctx, deadline)

    def table(self, index: int) -> Table:
        return self._table

    def close(self) -> None:
        self.handle.close()


def open_parquet(source: Source, ctx: Context, deadline: Deadline) -> Book:
    return ParquetBook(source, ctx, deadline)


class JsonTableBook(Book):
    """A JSON array of objects; non-object items go under a ``value`` column."""

    def __init__(self, source: Source, ctx: Context) -> None:
        encoding = ctx.info.encoding or "utf-8"  # detected once, with the format
        with io.TextIOWrapper(source.open(), encoding=encoding, errors="replace") as f:
            try:
                items = json.load(f)
            except json.JSONDecodeError as exc:
                raise ExtractionError(
                    f"{ctx.info.source}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
                    path=ctx.info.source,
                ) from exc
        if not isinstance(items, list):
            items = [items]
        keys: dict[str, None] = {}
        for item in items:
            keys.update(dict.fromkeys(item if isinstance(item, dict) else ["value"]))
        names = list(keys)
        rows = [
            [item.get(k) for k in names]
            if isinstance(item, dict)
            else [item if k == "value" else None for k in names]
            for item in items
        ]
        self._table = RowsTable(unique_names(names), len(rows), lambda n: rows[n - 1])

    def table(self, index: int) -> Table:
        return self._table


def open_json_table(source: Source, ctx: Context, deadline: Deadline) -> Book:
    return JsonTableBook(source, ctx)
