"""docread.integrations.ray_data on a real local Ray cluster (2 CPUs, one per module): the Dataset holds the
loader's units (ids, texts, metadata) for a folder, a file through a pyarrow filesystem, the
``documents_from`` transform, per-file errors, the workspace (links, file:// URIs, local pyarrow
filesystems, a remote prefix) and the missing-Ray message. The README's blocks that start Ray run
here too, joining this module's cluster (RAY_ADDRESS) instead of starting their own: its Ray Data
example, and the Ray example (examples/ray_ingest.py, its one run in the suite: its Parquet is
checked)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import docread
import pytest
from factories import image_bytes, pdf
from readme_blocks import Block, home, layout, params, run_block, samples, workdir

if TYPE_CHECKING:
    import pyarrow.fs as pafs


# the [ray] extra (installed in the dev environment); Ray itself is imported by the tests that
# use it, not at collection (2 s of CPU in every pytest process)
if importlib.util.find_spec("ray") is None:
    pytest.skip("Ray is not installed: pip install 'docread[ray]'", allow_module_level=True)


__all__ = ["home", "layout", "samples", "workdir"]  # the README blocks' fixtures, used here
CONFIG: dict[str, Any] = {"cache": {"enabled": False}}
Units = dict[str, tuple[str | None, dict[str, Any]]]


@pytest.fixture(scope="module")
def cluster(home: Path) -> Iterator[str]:
    """One local Ray cluster for the module (starting one costs seconds), this process its
    driver; its address. Its nodes' processes (so the Ray workers, and their docread cache) have
    the README blocks' private HOME, where Ray also leaves the auth token a joining block reads
    (ray.init sets RAY_AUTH_MODE=token here, which the blocks inherit)."""
    import ray

    with pytest.MonkeyPatch.context() as env:
        env.setenv("HOME", str(home))
        info = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield str(info.address_info["gcs_address"])
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-page PDF, a markdown file, a CSV and a PNG, one of them in a sub-folder."""
    folder = tmp_path_factory.mktemp("docs")
    pdf(folder / "report.pdf", ["First page: revenue grew", "Second page: costs fell"])
    (folder / "notes.md").write_text("# Notes\n\nRay reads these.\n", encoding="utf-8")
    (folder / "sub").mkdir()
    (folder / "sub" / "table.csv").write_text("city,people\nOslo,700\nLima,9000\n")
    (folder / "logo.png").write_bytes(image_bytes((32, 16), "blue"))
    return folder


@pytest.fixture(scope="module")
def loaded(docs: Path) -> Units:
    """What the loader reads from ``docs`` (the folder's Ray reads are compared with it): read
    once for the module, its PNG's OCR included (~1.5 s of CPU a read)."""
    return from_units(docread.iter_units(docs, config=CONFIG))


def from_rows(rows: Iterable[dict[str, Any]]) -> Units:
    """id -> (text, metadata) of Dataset rows (metadata is a JSON string column)."""
    return {r["id"]: (r["text"], json.loads(r["metadata"])) for r in rows}


def from_units(units: Iterable[docread.Unit], media: bool = False) -> Units:
    return {
        u.id: (u.text if isinstance(u, docread.Document) else None, dict(u.metadata))
        for u in units
        if media or isinstance(u, docread.Document)
    }


def test_folder_equals_the_loader(cluster: str, docs: Path, loaded: Units) -> None:
    from docread.integrations.ray_data import read_documents

    rows = read_documents(docs, config=CONFIG).take_all()
    assert set(rows[0]) == {"id", "text", "metadata"}
    got = from_rows(rows)
    assert got == loaded
    pages = sorted(m["page_number"] for _, m in got.values() if m["format"] == "pdf")
    assert pages == [1, 2]
    assert any("Oslo" in (t or "") for t, _ in got.values())
    assert {m["source"] for _, m in got.values()} >= {
        str(docs / "report.pdf"), str(docs / "notes.md"), str(docs / "sub" / "table.csv")
    }  # fmt: skip


def test_relative_paths_keep_the_loaders_source(
    cluster: str, docs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docread.integrations.ray_data import read_documents

    monkeypatch.chdir(docs.parent)
    ds = read_documents([f"{docs.name}/sub", f"{docs.name}/notes.md"], config=CONFIG)
    got = from_rows(ds.take_all())
    want = from_units(
        docread.iter_units([f"{docs.name}/sub", f"{docs.name}/notes.md"], config=CONFIG)
    )
    assert got == want
    assert {m["source"] for _, m in got.values()} == {
        f"{docs.name}/sub/table.csv", f"{docs.name}/notes.md"
    }  # fmt: skip


def test_one_docread_worker_per_cpu_of_the_task(cluster: str, docs: Path, loaded: Units) -> None:
    """A task given 2 CPUs reads 2 files at a time with a pool of 2; a default task has 1."""
    import ray
    from docread.integrations.ray_data import _reader, read_documents

    def workers() -> int:
        return _reader(None, docread.Settings.load(CONFIG)).settings.isolation.workers

    assert ray.get(ray.remote(workers).remote()) == 1
    assert ray.get(ray.remote(num_cpus=2)(workers).remote()) == 2
    assert from_rows(read_documents(docs, num_cpus=2, config=CONFIG).take_all()) == loaded


def test_media_rows_and_pattern(cluster: str, docs: Path) -> None:
    from docread.integrations.ray_data import read_documents

    rows = read_documents(docs, pattern="*.png", include_media=True, config=CONFIG).take_all()
    want = from_units(docread.iter_units(docs, pattern="*.png", config=CONFIG), media=True)
    assert from_rows(rows) == want
    media = [r for r in rows if r["mime_type"] is not None]
    assert media and media[0]["data"].startswith(b"\x89PNG") and media[0]["text"] is None
    assert all(json.loads(r["metadata"])["file_name"] == "logo.png" for r in rows)


def test_a_file_through_a_local_pyarrow_filesystem(cluster: str, docs: Path) -> None:
    """A local pyarrow filesystem is read as plain paths are: by the Reader, in the workspace
    (a SubTreeFileSystem's folder by default), with the loader's units."""
    import pyarrow.fs as pafs
    from docread.integrations.ray_data import read_documents

    subtree = pafs.SubTreeFileSystem(str(docs), pafs.LocalFileSystem())
    got = from_rows(read_documents("sub/table.csv", filesystem=subtree, config=CONFIG).take_all())
    with docread.Reader(docs, CONFIG) as reader:
        want = from_units(reader.iter_units("sub/table.csv"))
    assert got == want
    assert [m["source"] for _, m in got.values()] == ["sub/table.csv"]
    assert "Lima" in next(iter(got.values()))[0]
    local = pafs.LocalFileSystem()
    folder = from_rows(
        read_documents(str(docs / "sub"), filesystem=local, config=CONFIG).take_all()
    )
    assert [m["source"] for _, m in folder.values()] == [str(docs / "sub" / "table.csv")]


def remote_filesystem(folder: Path, zip_path: Path) -> pafs.FileSystem:
    """A filesystem docread cannot classify (fsspec's zip, behind pyarrow's PyFileSystem) holding
    ``folder``'s files under their relative paths: named remote (``remote_filesystem=True``), it
    stands in for S3 here, its files listed by Ray and their bytes read through pyarrow."""
    import zipfile

    import pyarrow.fs as pafs
    from fsspec.implementations.zip import ZipFileSystem

    with zipfile.ZipFile(zip_path, "w") as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            archive.write(path, path.relative_to(folder).as_posix())
    return pafs.PyFileSystem(pafs.FSSpecHandler(ZipFileSystem(fo=str(zip_path))))


def test_a_remote_file_over_the_limits_is_refused_before_it_is_read(
    cluster: str, docs: Path, tmp_path: Path
) -> None:
    """Bytes of a remote file are capped at the largest size limit: in a folder it is logged
    and skipped, named it fails with FileTooLargeError naming the file."""
    from docread.integrations.ray_data import read_documents

    limits = {f.name: 28 for f in dataclasses.fields(docread.Settings().limits)}
    small = {**CONFIG, "limits": limits}  # notes.md has 26 bytes, sub/table.csv 31
    remote = {
        "filesystem": remote_filesystem(docs, tmp_path / "docs.zip"),
        "remote_filesystem": True,
    }
    rows = read_documents(["sub", "notes.md"], config=small, **remote).take_all()
    assert [json.loads(r["metadata"])["source"] for r in rows] == ["notes.md"]
    with pytest.raises(docread.FileTooLargeError, match=r"sub/table\.csv: over 28 bytes"):
        read_documents("sub/table.csv", config=small, **remote).materialize()


def test_documents_from_binary_files_and_paths(cluster: str, docs: Path) -> None:
    import ray
    from docread.integrations.ray_data import documents_from

    binary = ray.data.read_binary_files(str(docs), include_paths=True)
    got = from_rows(documents_from(binary, include_media=True, config=CONFIG).take_all())
    want: Units = {}
    with docread.Reader(docs, CONFIG) as reader:
        for path in sorted(p for p in docs.rglob("*") if p.is_file()):
            want.update(from_units(reader.iter_bytes(path.read_bytes(), str(path)), media=True))
    assert got == want
    assert any(text is None for text, _ in got.values())  # the PNG's Media row
    paths = ray.data.from_items([str(docs / "report.pdf"), str(docs / "notes.md")])
    got = from_rows(documents_from(paths, config=CONFIG).take_all())
    assert got == from_units(
        docread.iter_units([docs / "report.pdf", docs / "notes.md"], config=CONFIG)
    )


def test_a_bad_file_is_skipped_the_others_kept(cluster: str, tmp_path: Path, docs: Path) -> None:
    import ray
    from docread.integrations.ray_data import documents_from, read_documents

    (tmp_path / "good.md").write_text("# Good\nkept\n", encoding="utf-8")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj <<\ntruncated")
    failed: list[str] = []
    want = from_units(
        docread.iter_units(tmp_path, config=CONFIG, on_error=lambda p, e: failed.append(p))
    )
    assert failed == [str(tmp_path / "broken.pdf")]
    got = from_rows(read_documents(tmp_path, config=CONFIG).take_all())
    assert got == want and len(got) == 1  # broken.pdf logged on the worker, skipped
    said = f"docread: 1 file(s) failed and were skipped: {tmp_path / 'broken.pdf'}: "
    assert said in workers_stderr()  # the task's stderr, which Ray shows on the driver
    rows = ray.data.from_items([str(tmp_path / "broken.pdf"), str(tmp_path / "good.md")])
    assert from_rows(documents_from(rows, config=CONFIG).take_all()) == want
    assert workers_stderr().count(said) == 2  # a row said alone
    with pytest.raises(docread.ExtractionError, match="broken.pdf"):  # named: fails, as loaders
        read_documents(tmp_path / "broken.pdf", config=CONFIG).materialize()


def workers_stderr() -> str:
    """What this cluster's worker processes wrote on stderr (Ray forwards it to the driver
    with ``log_to_driver``, which this module turns off to keep its output quiet)."""
    import ray

    logs = Path(ray._private.worker._global_node.get_logs_dir_path())
    return "".join(p.read_text(errors="replace") for p in sorted(logs.glob("worker-*.err")))


def test_an_empty_folder_is_an_empty_dataset_a_missing_path_an_error(
    cluster: str, tmp_path: Path
) -> None:
    from docread.integrations.ray_data import read_documents

    (tmp_path / "empty").mkdir()
    ds = read_documents(tmp_path / "empty", config=CONFIG)
    assert ds.take_all() == [] and ds.columns() == ["id", "text", "metadata"]
    with pytest.raises(docread.DocumentNotFoundError, match="nothing.pdf"):
        read_documents(tmp_path / "nothing.pdf", config=CONFIG)  # on the driver, no task


def test_options_are_checked_before_any_task(cluster: str, docs: Path) -> None:
    from docread.integrations.ray_data import read_documents

    with pytest.raises(docread.InvalidOptionError, match="pagez"):
        read_documents(docs, pagez="1", config=CONFIG)


def test_missing_ray_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "import docread\n"
        "try:\n"
        "    import docread.integrations.ray_data\n"
        "except docread.DependencyMissingError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip
    assert "pip install 'docread[ray]'" in out.stdout


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace with one file of its own and four ways out: absolute symlinks (one in a
    sub-folder), a linked folder and a hard link, each to a secret outside it."""
    root = tmp_path_factory.mktemp("linked")
    outside, ws = root / "elsewhere", root / "ws"
    outside.mkdir()
    ws.mkdir()
    (outside / "secret.txt").write_text("top secret\n", encoding="utf-8")
    (outside / "hard.txt").write_text("hard secret\n", encoding="utf-8")
    (ws / "own.txt").write_text("our own words\n", encoding="utf-8")
    (ws / "abs_link.txt").symlink_to(outside / "secret.txt")
    (ws / "sub").mkdir()
    (ws / "sub" / "pw.txt").symlink_to(outside / "secret.txt")  # in a folder, named directly too
    (ws / "linked_dir").symlink_to(outside, target_is_directory=True)
    os.link(outside / "hard.txt", ws / "hard.txt")
    return ws


def test_a_file_uri_outside_the_workspace_is_refused(cluster: str, linked: Path) -> None:
    from docread.integrations.ray_data import read_documents

    secret = (linked.parent / "elsewhere" / "secret.txt").as_uri()
    with pytest.raises(docread.PathSecurityError, match="outside the workspace"):
        read_documents(secret, workspace=linked, config=CONFIG).take_all()
    inside = from_rows(
        read_documents((linked / "own.txt").as_uri(), workspace=linked, config=CONFIG).take_all()
    )
    assert [m["source"] for _, m in inside.values()] == ["own.txt"]


@pytest.mark.parametrize("how", ["local", "subtree"])
def test_a_walk_in_a_local_pyarrow_filesystem_keeps_to_the_workspace(
    cluster: str, linked: Path, how: str
) -> None:
    """Local pyarrow filesystems go through the workspace like plain paths: no symlink, linked
    folder or hard link leads out (a SubTreeFileSystem's folder is the default workspace)."""
    import pyarrow.fs as pafs
    from docread.integrations.ray_data import read_documents

    if how == "local":
        dataset = read_documents(
            str(linked), filesystem=pafs.LocalFileSystem(), workspace=linked, config=CONFIG
        )
    else:
        subtree = pafs.SubTreeFileSystem(str(linked), pafs.LocalFileSystem())
        dataset = read_documents("/", filesystem=subtree, config=CONFIG)
    rows = from_rows(dataset.take_all())
    assert [m["source"] for _, m in rows.values()] == ["own.txt"]
    assert all("secret" not in (text or "") for text, _ in rows.values())


def test_remote_paths_keep_to_a_workspace_prefix_and_do_not_mix_with_local_ones(
    linked: Path, tmp_path: Path
) -> None:
    """Checked on the driver, before any listing: nothing is fetched."""
    from docread.integrations.ray_data import read_documents

    with pytest.raises(docread.PathSecurityError, match="outside the workspace s3://bucket/docs"):
        read_documents("s3://bucket/other/a.pdf", workspace="s3://bucket/docs")
    with pytest.raises(docread.PathSecurityError):
        read_documents("s3://bucket/docs/../other/a.pdf", workspace="s3://bucket/docs")
    with pytest.raises(docread.InvalidOptionError, match="cannot be mixed"):
        read_documents(["s3://bucket/docs/a.pdf", str(linked / "own.txt")])
    remote = remote_filesystem(linked.parent / "elsewhere", tmp_path / "remote.zip")
    with pytest.raises(docread.PathSecurityError, match="outside the workspace"):
        read_documents("other", filesystem=remote, remote_filesystem=True, workspace="docs")


def local_filesystem(how: str, root: Path) -> Any:
    """A filesystem whose files are this machine's, in one of the forms docread looks through
    (the subtree and dir forms confined to ``root``)."""
    import fsspec
    import pyarrow.fs as pafs
    from fsspec.implementations.dirfs import DirFileSystem

    local = fsspec.filesystem("file")
    wrapped = pafs.PyFileSystem(pafs.FSSpecHandler(local))
    return {
        "fsspec": local,  # Ray wraps it in a PyFileSystem itself
        "pyarrow over fsspec": wrapped,
        "subtree over fsspec": pafs.SubTreeFileSystem(str(root), wrapped),
        "fsspec dir over fsspec": DirFileSystem(path=str(root), fs=local),
        "subtree over dir": pafs.SubTreeFileSystem(
            "/", pafs.PyFileSystem(pafs.FSSpecHandler(DirFileSystem(str(root), local)))
        ),
    }[how]


@pytest.mark.parametrize(
    "how",
    ["fsspec", "pyarrow over fsspec", "subtree over fsspec", "fsspec dir over fsspec",
     "subtree over dir"],
)  # fmt: skip
def test_a_local_disk_behind_any_filesystem_keeps_to_the_workspace(
    cluster: str, linked: Path, how: str
) -> None:
    """Local files in any filesystem docread can see through (fsspec's own, behind pyarrow's
    PyFileSystem, in a subtree or fsspec dir, nested) get the local rules: opened inside the
    workspace (a subtree's folder by default) by the Reader, so no link leads out, in a walk or
    named."""
    from docread.integrations.ray_data import read_documents

    fs = local_filesystem(how, linked)
    confined = "subtree" in how or "dir" in how  # paths are relative to the workspace
    options: dict[str, Any] = {"filesystem": fs, "config": CONFIG}
    if not confined:
        options["workspace"] = linked
    folder, link = ("/", "sub/pw.txt") if confined else (str(linked), str(linked / "sub/pw.txt"))
    rows = from_rows(read_documents(folder, **options).take_all())
    assert [m["source"] for _, m in rows.values()] == ["own.txt"]
    assert all("secret" not in (text or "") for text, _ in rows.values())
    with pytest.raises(docread.PathSecurityError, match="outside the workspace"):
        read_documents(link, **options).materialize()


def test_a_filesystem_of_unknown_kind_is_refused_unless_named_remote(
    cluster: str, docs: Path, tmp_path: Path
) -> None:
    """docread cannot tell where an fsspec memory or zip filesystem keeps its files: refused on
    the driver, with what to do; named remote, read by its bytes. A known remote one (S3) is
    remote without being named (its workspace a prefix)."""
    import fsspec
    import pyarrow.fs as pafs
    from docread.integrations.ray_data import read_documents

    for unknown in (fsspec.filesystem("memory"), remote_filesystem(docs, tmp_path / "d.zip")):
        with pytest.raises(docread.InvalidOptionError, match="remote_filesystem=True"):
            read_documents("notes.md", filesystem=unknown, config=CONFIG)
    remote = remote_filesystem(docs, tmp_path / "d.zip")
    rows = read_documents("sub", filesystem=remote, remote_filesystem=True, config=CONFIG)
    (row,) = rows.take_all()
    assert "Lima" in row["text"] and json.loads(row["metadata"])["source"] == "sub/table.csv"
    s3 = pafs.S3FileSystem(anonymous=True, region="us-east-1")
    with pytest.raises(docread.PathSecurityError, match="outside the workspace bucket/docs"):
        read_documents("bucket/other/a.pdf", filesystem=s3, workspace="bucket/docs")


@pytest.mark.parametrize("block", params(ray=True))
def test_readme_ray_block_runs(block: Block, cluster: str, workdir: Path, home: Path) -> None:
    """The README's blocks that start Ray, as tests/test_readme.py runs every block, but with
    RAY_ADDRESS set (as ``ray job submit`` sets it): their ``ray.init()`` joins this cluster."""
    run_block(block, workdir, home, RAY_ADDRESS=cluster)
