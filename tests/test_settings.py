"""Settings: the design's defaults, YAML lookup order, strict keys and types, fingerprint."""

from __future__ import annotations

from pathlib import Path

import pytest
from docread import Settings, SettingsError
from docread.settings import PdfSettings, Timeouts

ROOT = Path(__file__).resolve().parents[1]


def test_defaults_are_the_designs() -> None:
    s = Settings()
    assert s.global_timeout == 180
    assert s.limits.text == 10485760 and s.limits.pdf == 104857600 and s.limits.archive == 524288000
    assert (
        s.pdf.max_pages_text == 100 and s.pdf.max_pages_ocr == 20 and s.pdf.ocr_text_threshold == 50
    )
    assert s.archive.max_compression_ratio == 100 and s.archive.max_file_count == 10000
    assert ".exe" in s.archive.banned_extensions and ".img" in s.archive.banned_extensions
    assert (
        s.output.max_chars == 500000
        and s.output.truncation_marker == "\n... [content truncated] ..."
    )
    assert s.timeouts.global_ == 180 and s.timeouts.pandoc == 60
    assert s.memory.max_dataframe_rows == 100000
    assert s.cache.ttl_days == 7 and s.cache.max_size_mb == 1024


def test_shipped_example_file_loads_and_equals_the_defaults() -> None:
    assert Settings.from_file(ROOT / "tools-security.yaml") == Settings()


def test_yaml_overrides_and_global_key(tmp_path: Path) -> None:
    cfg = tmp_path / "tools-security.yaml"
    cfg.write_text(
        "tools:\n  read_document:\n    timeouts:\n      global: 30\n    pdf:\n      max_pages_ocr: 3\n"
    )
    s = Settings.load(cfg)
    assert s.timeouts.global_ == 30 and s.pdf.max_pages_ocr == 3 and s.pdf.max_pages_text == 100


def test_unknown_key_is_refused_naming_it(tmp_path: Path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("tools:\n  read_document:\n    pdf:\n      max_pages_txt: 5\n")
    with pytest.raises(SettingsError, match=r"read_document\.pdf\.max_pages_txt"):
        Settings.load(cfg)


@pytest.mark.parametrize(
    "section",
    [{"limits": {"pdf": "big"}}, {"output": {"strip_null_bytes": 1}}, {"archive": {"banned_extensions": ".exe"}},
     {"global_timeout": True}, {"pdf": 3}],
)  # fmt: skip
def test_wrong_type_is_refused(section: dict) -> None:
    with pytest.raises(SettingsError, match="must be"):
        Settings.from_mapping(section)


def test_lookup_order_explicit_then_env_then_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tools-security.yaml").write_text(
        "tools:\n  read_document:\n    global_timeout: 11\n"
    )
    env_cfg = tmp_path / "env.yaml"
    env_cfg.write_text("tools:\n  read_document:\n    global_timeout: 22\n")
    explicit = tmp_path / "explicit.yaml"
    explicit.write_text("tools:\n  read_document:\n    global_timeout: 33\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DOCREAD_CONFIG", raising=False)
    assert Settings.load().global_timeout == 11
    monkeypatch.setenv("DOCREAD_CONFIG", str(env_cfg))
    assert Settings.load().global_timeout == 22
    assert Settings.load(explicit).global_timeout == 33


def test_fingerprint_changes_with_any_value() -> None:
    a, b = Settings(), Settings.from_mapping({"output": {"max_chars": 10}})
    assert a.fingerprint() == Settings().fingerprint()
    assert a.fingerprint() != b.fingerprint()


@pytest.mark.parametrize(
    ("section", "expected"),
    [({"timeouts": {"global": 7}}, 7), ({"global_timeout": 9}, 9), ({"global_timeout": 9, "timeouts": {"global": 4}}, 4)],
)  # fmt: skip
def test_both_spellings_of_a_duplicated_limit_are_honoured(section: dict, expected: float) -> None:
    s = Settings.from_mapping(section)
    assert s.global_timeout == s.timeouts.global_ == expected


@pytest.mark.parametrize(
    ("section", "page", "run"),
    [({"pdf": {"per_page_timeout": 120}}, 120, 180), ({"timeouts": {"pdf_per_page": 60}}, 60, 180),
     ({"global_timeout": 600}, 5, 600), ({"timeouts": {"global": 900}}, 5, 900),
     ({"pdf": {"per_page_timeout": 120}, "timeouts": {"pdf_per_page": 60}}, 60, 180)],
)  # fmt: skip
def test_raising_one_spelling_of_a_duplicated_limit_raises_it(
    section: dict, page: float, run: float
) -> None:
    """A limit written once is not held down by its other spelling's default (a user raising
    ``pdf.per_page_timeout`` alone got 5 s); of two written, the stricter still wins."""
    s = Settings.from_mapping(section)
    assert s.pdf.per_page_timeout == s.timeouts.pdf_per_page == page
    assert s.global_timeout == s.timeouts.global_ == run


def test_a_settings_object_has_its_twice_named_limits_aligned_too() -> None:
    """A Settings made in code sets the spelling it changed from the default: a Reader given
    one holds that limit under both names (it ran with the other name's default)."""
    made = Settings(timeouts=Timeouts(global_=30), pdf=PdfSettings(per_page_timeout=120))
    s = Settings.load(made)
    assert s.global_timeout == s.timeouts.global_ == 30
    assert s.pdf.per_page_timeout == s.timeouts.pdf_per_page == 120
    assert Settings.load(Settings()).fingerprint() == Settings().fingerprint()


def test_a_nan_limit_is_refused_naming_its_key() -> None:
    """``.nan`` in YAML is a float no deadline ever passes: refused, not a limit never reached."""
    with pytest.raises(SettingsError, match=r"read_document\.timeouts\.global must be a number"):
        Settings.from_mapping({"timeouts": {"global": float("nan")}})


def test_ocr_and_pdf_page_timeouts_align() -> None:
    s = Settings.from_mapping(
        {"pdf": {"ocr_per_page_timeout": 12}, "timeouts": {"pdf_per_page": 2}}
    )
    assert s.timeouts.ocr_per_page == s.pdf.ocr_per_page_timeout == 12
    assert s.pdf.per_page_timeout == s.timeouts.pdf_per_page == 2


def test_an_unquoted_yaml_boolean_is_the_enum_choice_spelled_so(tmp_path: Path) -> None:
    """YAML 1.1 reads ``structure: off`` as the boolean False: an enum-valued setting takes it as
    the one choice so spelled ("off"), and says to quote a value no choice is spelled as."""
    for written in ("off", "Off", "OFF", "no", "false", "on"):
        config = tmp_path / f"{written}.yaml"  # a file each: files are parsed once per version
        config.write_text(f"tools:\n  read_document:\n    pdf: {{structure: {written}}}\n")
        if written == "on":
            with pytest.raises(SettingsError, match=r'boolean True .*quote the value, e\.g\. "auto"'):
                Settings.load(config)
        else:
            assert Settings.load(config).pdf.structure == "off"
