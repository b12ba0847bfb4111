"""Archive benchmark: list and read-member times on a 10,000-member zip and a 1 GB tar.gz, side by
side with the floor (zipfile.namelist / tarfile iteration), and peak RSS while refusing bombs.

Run: .venv/bin/python bench/archives.py   (data is generated once under bench/data/)
Every case runs in its own child process, so each peak RSS is that case's alone; docread runs
in-process there (isolation off, cache off) so the child's RSS is the extractor's.
"""

from __future__ import annotations

import io
import json
import random
import resource
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "archives"
ZIP10K = DATA / "10k.zip"
TGZ1G = DATA / "1g.tar.gz"
BOMB = DATA / "bomb.zip"
LIAR = DATA / "liar.zip"
TGZ_BOMB = DATA / "bomb.tar.gz"
LAST_ZIP_MEMBER = "src/pkg9/module9999.py"
TGZ_MEMBERS = 16
REPEAT = 3


# -- data ---------------------------------------------------------------------------------
def make_data() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    if not ZIP10K.exists():
        with zipfile.ZipFile(ZIP10K, "w", zipfile.ZIP_DEFLATED) as zf:
            for i in range(10_000):
                body = f"def f{i}(x):\n    return x * {i}\n" * 20
                zf.writestr(f"src/pkg{i // 1000}/module{i}.py", body)
    if not TGZ1G.exists():
        rng = random.Random(7)
        lines = [
            f"2026-01-{rng.randint(1, 28):02d} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d} "
            f"INFO worker={rng.randint(1, 64)} request={rng.getrandbits(48):x} ms={rng.random() * 900:.3f}\n"
            for _ in range(700_000)
        ]
        block = "".join(lines).encode()[: 64 << 20]
        with tarfile.open(TGZ1G, "w:gz", compresslevel=1) as tf:
            for i in range(TGZ_MEMBERS):
                info = tarfile.TarInfo(f"logs/part{i:02d}.log")
                info.size = len(block)
                tf.addfile(info, io.BytesIO(block))
    if not BOMB.exists():
        with (
            zipfile.ZipFile(BOMB, "w", zipfile.ZIP_DEFLATED) as zf,
            zf.open("zeros.bin", "w") as out,
        ):
            chunk = bytes(1 << 20)
            for _ in range(1024):  # 1 GB of zeros, ~1 MB compressed
                out.write(chunk)
    if not LIAR.exists():  # the same bomb, its headers claiming 1,000 bytes
        data = bytearray(BOMB.read_bytes())
        for sig, at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
            pos = data.find(sig)
            if data[pos + at : pos + at + 4] != b"\xff\xff\xff\xff":  # not zip64
                data[pos + at : pos + at + 4] = (1000).to_bytes(4, "little")
        LIAR.write_bytes(bytes(data))
    if not TGZ_BOMB.exists():
        with tarfile.open(TGZ_BOMB, "w:gz") as tf:
            info = tarfile.TarInfo("zeros.bin")
            info.size = 1 << 30
            tf.addfile(info, _Zeros())  # type: ignore[arg-type]


class _Zeros:
    """An endless source of zero bytes (tarfile only calls read)."""

    def read(self, n: int = 1 << 20) -> bytes:
        return bytes(n)


# -- cases (run in a child) ---------------------------------------------------------------
def _reader():
    import docread

    return docread.Reader(
        DATA, config={"cache": {"enabled": False}, "isolation": {"enabled": False}}
    )


def case(name: str) -> dict[str, object]:
    import docread  # noqa: F401 - baseline includes the import

    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    reader = _reader() if name.startswith("docread") else None
    ops = {
        "floor_zip_list": lambda: zipfile.ZipFile(ZIP10K).namelist(),
        "docread_zip_list": lambda: reader.read(ZIP10K.name, dedupe=False).render(),
        "floor_zip_read": lambda: zipfile.ZipFile(ZIP10K).read(LAST_ZIP_MEMBER),
        "docread_zip_read": lambda: reader.read(
            ZIP10K.name, archive_path=LAST_ZIP_MEMBER, dedupe=False
        ).render(),
        "floor_tgz_list": _tar_names,
        "docread_tgz_list": lambda: reader.read(TGZ1G.name, dedupe=False).render(),
        "floor_tgz_read": lambda: _tar_read(f"logs/part{TGZ_MEMBERS - 1:02d}.log"),
        "docread_tgz_read": lambda: reader.read(
            TGZ1G.name, archive_path=f"logs/part{TGZ_MEMBERS - 1:02d}.log", limit=100, dedupe=False
        ).render(),
        "docread_bomb_read": lambda: _refused(reader, BOMB.name),
        "docread_liar_read": lambda: _refused(reader, LIAR.name),
        "docread_tgz_bomb_list": lambda: _refused(reader, TGZ_BOMB.name, archive_path=None),
    }
    best = float("inf")  # docread reads pass dedupe=False: a repeated read is otherwise a stub
    for _ in range(2 if "tgz" in name else REPEAT):
        start = time.perf_counter()
        ops[name]()
        best = min(best, time.perf_counter() - start)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seconds": best, "peak_mb": peak / 1024, "above_baseline_mb": (peak - baseline) / 1024}


def _tar_names() -> list[str]:
    with tarfile.open(TGZ1G, "r|gz") as tf:
        return [m.name for m in tf]


def _tar_read(member: str) -> bytes:
    with tarfile.open(TGZ1G, "r|gz") as tf:
        for m in tf:
            if m.name == member:
                return tf.extractfile(m).read()  # type: ignore[union-attr]
    raise KeyError(member)


def _refused(reader, name: str, archive_path: str | None = "zeros.bin") -> None:
    from docread.errors import ArchiveSecurityError

    try:
        reader.read(name, **({"archive_path": archive_path} if archive_path else {}))
    except ArchiveSecurityError:
        return
    raise AssertionError(f"{name} was not refused")


def run(name: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--case", name], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    make_data()
    print(
        f"10k.zip {ZIP10K.stat().st_size / 2**20:.1f} MB; 1g.tar.gz {TGZ1G.stat().st_size / 2**20:.1f} MB "
        f"(1 GB inflated); bombs: 1 GB of zeros in zip, lying zip, tar.gz"
    )
    print(
        f"{'case':<12} {'floor s':>9} {'docread s':>10} {'ratio':>7} {'peak MB floor/docread':>22}"
    )
    for label in ("zip_list", "zip_read", "tgz_list", "tgz_read"):
        floor, ours = run(f"floor_{label}"), run(f"docread_{label}")
        ratio = ours["seconds"] / max(floor["seconds"], 1e-9)
        print(
            f"{label:<12} {floor['seconds']:>9.3f} {ours['seconds']:>10.3f} {ratio:>6.2f}x "
            f"{floor['peak_mb']:>13.1f} / {ours['peak_mb']:.1f}"
        )
    for label in ("bomb_read", "liar_read", "tgz_bomb_list"):
        r = run(f"docread_{label}")
        print(
            f"{label:<14} refused in {r['seconds']:.3f} s, peak RSS {r['above_baseline_mb']:.1f} MB above baseline"
        )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--case":
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
        print(json.dumps(case(sys.argv[2])))
    else:
        main()
