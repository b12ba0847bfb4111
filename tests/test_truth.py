"""Every door holds (issue 25): what docread says about a file is true, whichever way it comes in."""

from __future__ import annotations

import io
from pathlib import Path

import docread
import factories
import pytest
from conftest import NO_CACHE, MakeReader, merged
from docread.detect import detect_encoding
from docread.errors import ExtractionError
from docread.model import Media
from PIL import Image

RESUME = "Résumé, café, naïve: ligne\n" * 20


# -- a UTF-8 file with a bad byte ------------------------------------------------------------
def test_utf8_with_one_bad_byte_stays_utf8_and_says_so(
    reader: docread.Reader, tmp_path: Path
) -> None:
    (tmp_path / "cv.txt").write_bytes(RESUME.encode() + b"\x80 fin\n")
    result = reader.read("cv.txt")
    assert result.file.encoding == "utf-8"
    assert "Résumé" in result.text and "RÃ©sumÃ©" not in result.text
    assert "\ufffd fin" in result.text
    assert any("1 byte not valid utf-8 replaced with U+FFFD" in n for n in result.notes)


def test_loader_counts_replaced_bytes(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "cv.txt").write_bytes(RESUME.encode() + b"\x80\xff fin\n")
    notes: list[str] = []
    docs = list(reader.iter_units("cv.txt", on_note=lambda _p, n: notes.append(n)))
    assert "Résumé" in docs[0].text
    assert any("2 bytes not valid utf-8" in n for n in notes)


def test_legacy_text_is_still_cp1252() -> None:
    assert detect_encoding("Résumé, café\n".encode("cp1252") * 5) == "cp1252"


@pytest.mark.parametrize("data", [b"x\xff\xfe", b"caf\xe9\n"])
def test_a_few_bytes_are_not_an_exotic_code_page(data: bytes) -> None:
    assert detect_encoding(data) == "cp1252"  # charset-normalizer said cp1006, utf_16_be


# -- /proc and /sys ------------------------------------------------------------------------------
def _root_reader(**settings: object) -> docread.Reader:
    return docread.Reader("/", config=merged(NO_CACHE, settings), shared_pool=True)


@pytest.mark.skipif(not Path("/proc/cpuinfo").exists(), reason="Linux procfs")
def test_proc_file_is_read_as_a_stream() -> None:
    with _root_reader() as r:
        result = r.read("/proc/cpuinfo")
        assert "processor" in result.text
        assert not any("empty" in n for n in result.notes)
    with _root_reader(limits={"text": 100}) as r:
        result = r.read("/proc/cpuinfo")
        assert result.file.size == 100
        assert any("up to 100 bytes (limits.text" in n for n in result.notes)


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="Linux procfs")
def test_unreadable_proc_file_is_a_typed_error_naming_it() -> None:
    with (
        _root_reader() as r,
        pytest.raises(ExtractionError, match="/proc/self/mem: cannot be read"),
    ):
        r.read("/proc/self/mem")


# -- a truncated JPEG ----------------------------------------------------------------------------
@pytest.mark.parametrize("fraction", [0.7, 0.5])
def test_truncated_jpeg_is_decoded_as_far_as_it_goes(
    reader: docread.Reader, tmp_path: Path, fraction: float
) -> None:
    whole = factories.encode(factories.photo(), "JPEG", quality=90)
    (tmp_path / "cut.jpg").write_bytes(whole[: int(len(whole) * fraction)])
    result = reader.read("cut.jpg")
    (media,) = result.media
    assert media.metadata["converted"] is True
    assert media.data.endswith(b"\xff\xd9")  # a whole JPEG, not the broken original bytes
    with Image.open(io.BytesIO(media.data)) as img:
        img.load()
        assert img.size == (720, 480)
    assert any("truncated" in n for n in result.notes)


def test_whole_jpeg_is_sent_as_is(reader: docread.Reader, tmp_path: Path) -> None:
    whole = factories.encode(factories.photo(), "JPEG", quality=90)
    (tmp_path / "whole.jpg").write_bytes(whole)
    (media,) = reader.read("whole.jpg").media
    assert media.data == whole and not media.metadata["converted"]


# -- header caps ---------------------------------------------------------------------------------
LONG = "word " * 1000  # 4,999 characters once stripped


def test_long_exif_description_is_capped(reader: docread.Reader, tmp_path: Path) -> None:
    exif = Image.Exif()
    exif[0x010E] = LONG  # ImageDescription
    (tmp_path / "p.jpg").write_bytes(factories.encode(factories.photo(), "JPEG", exif=exif))
    text = reader.read("p.jpg").text
    limit = docread.Settings().output.max_metadata_value_len
    assert "word word" in text and len(text) < 2 * limit + 1000
    assert "4,999 chars; output.max_metadata_value_len" in text


def test_long_audio_tag_is_capped(reader: docread.Reader, tmp_path: Path) -> None:
    import wave

    from mutagen.id3 import TIT2
    from mutagen.wave import WAVE

    path = tmp_path / "a.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"\x00\x00" * 8000)
    audio = WAVE(path)
    audio.add_tags()
    audio.tags.add(TIT2(encoding=3, text=LONG))
    audio.save()
    text = reader.read("a.wav").text
    assert "word word" in text and "4,999 chars; output.max_metadata_value_len" in text


# -- position keys -------------------------------------------------------------------------------
def test_position_keys_survive_the_metadata_field_cap(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    red, blue = factories.image_bytes((40, 40), "red"), factories.image_bytes((40, 40), "blue")
    factories.docx(tmp_path / "d.docx", ["one", red, "two", blue])
    reader = make_reader(output={"max_metadata_fields": 1})
    media = [u for u in reader.iter_units("d.docx", extract_images=True) if isinstance(u, Media)]
    assert [m.metadata["image_index"] for m in media] == [1, 2]


# -- the default media folder --------------------------------------------------------------------
def test_default_media_dir_refuses_a_folder_others_can_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docread.errors import PathSecurityError
    from docread.rag.media_files import default_media_dir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    planted = tmp_path / "docread" / "media"
    planted.mkdir(parents=True)
    planted.chmod(0o777)
    with pytest.raises(PathSecurityError, match="writable by group or others"):
        default_media_dir()
    planted.chmod(0o755)  # ours, readable by others: tightened
    assert default_media_dir() == planted and planted.stat().st_mode & 0o777 == 0o700


# -- names in messages ---------------------------------------------------------------------------
def test_pdf_error_names_the_file_not_a_descriptor(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 8)
    with pytest.raises(ExtractionError) as info:
        reader.read("broken.pdf")
    assert "/proc/self/fd" not in str(info.value) and "'broken.pdf'" in str(info.value)


def test_nul_in_an_iter_bytes_name_is_dropped(reader: docread.Reader) -> None:
    units = list(reader.iter_bytes(b"hello\n", "up/lo\x00ad.txt"))
    assert units[0].metadata["source"] == "up/load.txt"


# -- one header layout ---------------------------------------------------------------------------
def test_every_document_family_has_the_pdf_header_layout(
    reader: docread.Reader, tmp_path: Path
) -> None:
    factories.docx(tmp_path / "d.docx", ["hello"], author="Ann")
    factories.xlsx(tmp_path / "x.xlsx", {"S": [["a", "b"], [1, 2]]})
    factories.pptx(tmp_path / "s.pptx", [("Title", "bullet", "")], author="Ann")
    (tmp_path / "f.pdf").write_bytes(factories.pdf_bytes(["hello"]))
    for name, unit_line in [
        ("d.docx", "**Sections:**"), ("x.xlsx", "**Rows:**"), ("s.pptx", "**Slides:**"),
        ("f.pdf", "**Pages:**"),
    ]:  # fmt: skip
        head = reader.read(name).render().split("\n---\n", 1)[0]
        assert head.startswith(f"**Document:** {name}\n"), head
        assert head.count("**Document:**") == 1 and "**File:**" not in head
        if "**Metadata:**" in head:
            assert head.index(unit_line) < head.index("**Metadata:**"), head
