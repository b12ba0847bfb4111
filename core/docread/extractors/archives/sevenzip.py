"""7z archives through py7zr: the header lists entries; members are decompressed in batches
into in-memory buffers (py7zr never writes to disk here), capped by py7zr's own
``max_extract_size`` and re-counted by the guard as they are read."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import TYPE_CHECKING, BinaryIO, cast

from ...errors import EncryptedDocumentError, ExtractionError
from .backend import Backend, Want, corrupt, stamp
from .guard import Entry, Guard

if TYPE_CHECKING:
    from py7zr.io import WriterFactory

    from ...source import Source

BATCH_BYTES = 64 << 20  # 7z members decompressed per py7zr call (declared bytes held at once)


class SevenZipBackend(Backend):
    """py7zr: header listing; members decompressed in batches into counted memory buffers."""

    def __init__(self, source: Source, guard: Guard, variant: str) -> None:
        import py7zr

        super().__init__(source, guard, variant)
        self._raw = source.open()
        try:
            self.szf = py7zr.SevenZipFile(
                self._raw, mode="r", max_extract_size=guard.limits.max_total_size
            )
        except py7zr.exceptions.PasswordRequired as exc:
            self._raw.close()
            raise EncryptedDocumentError(
                f"{guard.archive}: the 7z archive is password-protected; docread does not take passwords",
                path=guard.archive,
            ) from exc
        except py7zr.exceptions.ArchiveError as exc:
            self._raw.close()
            raise corrupt(guard.archive, exc) from exc
        except BaseException:
            self._raw.close()
            raise
        self.encrypted = self.szf.needs_password()

    def entries(self) -> Iterator[Entry]:
        from py7zr.helpers import filetime_to_dt

        for index, f in enumerate(self.szf.files):
            kind = "dir" if f.is_directory else "symlink" if f.is_symlink else (
                "file" if f.is_file else "other"
            )  # fmt: skip
            when = filetime_to_dt(f.lastwritetime) if f.lastwritetime is not None else None
            yield Entry(f.filename, kind, f.uncompressed if kind == "file" else 0, f.compressed,
                        stamp(when), self.encrypted, handle=f, index=index)  # fmt: skip

    def payloads(self, want: Want) -> Iterator[tuple[Entry, BinaryIO]]:
        from py7zr.exceptions import ArchiveError, CrcError, DecompressionBombError

        selected = [e for e in self.entries() if want(e)]
        batch: list[Entry] = []
        held = 0
        for entry in [*selected, None]:
            if entry is not None and (not batch or held + (entry.size or 0) <= BATCH_BYTES):
                batch.append(entry)
                held += entry.size or 0
                continue
            if batch:
                try:
                    yield from self._batch(batch)
                except DecompressionBombError as exc:
                    raise self.guard.refuse(batch[0].name, f"refused by py7zr: {exc}") from exc
                except (ArchiveError, CrcError) as exc:
                    raise corrupt(self.guard.archive, exc) from exc
            batch, held = ([entry], entry.size or 0) if entry is not None else ([], 0)

    def _batch(self, batch: list[Entry]) -> Iterator[tuple[Entry, BinaryIO]]:
        factory = _MemoryFactory()
        self.szf.reset()
        # duck-typed: py7zr calls only create(), whose writers have every Py7zIO method
        self.szf.extract(targets=[e.name for e in batch], factory=cast("WriterFactory", factory))
        if len(factory.products) != len(batch):
            raise ExtractionError(
                f"{self.guard.archive}: py7zr returned {len(factory.products)} members for "
                f"{len(batch)} asked (duplicate names?)",
                path=self.guard.archive,
            )
        for entry, product in zip(batch, factory.products, strict=True):
            product.buffer.seek(0)
            yield entry, product.buffer

    def close(self) -> None:
        self.szf.close()
        self._raw.close()


class _MemoryFactory:
    """py7zr WriterFactory: one in-memory buffer per member, in extraction order."""

    def __init__(self) -> None:
        self.products: list[_MemoryWriter] = []

    def create(self, filename: str) -> _MemoryWriter:
        product = _MemoryWriter()
        self.products.append(product)
        return product


class _MemoryWriter:
    """py7zr Py7zIO: a BytesIO that py7zr fills (never past the declared size it was admitted at)."""

    def __init__(self) -> None:
        self.buffer = io.BytesIO()

    def write(self, s: bytes) -> int:
        return self.buffer.write(s)

    def read(self, size: int | None = None) -> bytes:
        return self.buffer.read(size)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.buffer.seek(offset, whence)

    def flush(self) -> None:
        pass

    def size(self) -> int:
        return self.buffer.getbuffer().nbytes

    def close(self) -> None:
        pass
