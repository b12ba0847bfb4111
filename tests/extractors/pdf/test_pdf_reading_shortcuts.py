"""The structure engine's shortcuts (issue 33, speed) give what the long way gives: a line whose
spans share one style is not weighed span by span, the dot-leader pattern of a table of
contents runs only on lines that end in leaders and a number, pictures are found by a
device that hears of nothing else, a page is read and analysed with the garbage collector
paused, and the content guard bounds a page the survey sampled once."""

from __future__ import annotations

import gc
import itertools

import docread
import pymupdf
import pytest
from conftest import CORPUS
from docread.extractors.pdf import content, document, pages, survey
from docread.extractors.pdf.library import drawn_pictures, flags
from docread.extractors.pdf.tables.contents import _LEADER, _led
from docread.extractors.pdf.text.reading import _joined_spans, _line, read_page
from docread.model import collector_paused


def _corpus_page(name: str, number: int) -> pymupdf.Page:
    path = CORPUS / "pdf" / name
    if not path.is_file():
        pytest.skip(f"corpus not present at {CORPUS}")
    return pymupdf.open(path)[number]


def test_one_style_lines_read_as_when_weighed_span_by_span():
    """A paper's line comes as a span a word and one a synthetic space (MuPDF's char flag):
    joined without weighing, it has the text, size, weight, slant, label length and colour the
    weighing gives."""
    page = _corpus_page("layout-parser-paper-fast.pdf", 1)
    data = page.get_text("dict", flags=flags())
    one_style = [
        line
        for block in data["blocks"]
        for line in block.get("lines", ())
        if len(line["spans"]) > 1
        and len({(s["size"], s["font"], s["flags"]) for s in line["spans"]}) == 1
    ]
    assert len(one_style) > 20  # the page is made of them
    for line in one_style:
        made = _line(line, 0)
        text, size, _, _, bold, italic, lead, color = _joined_spans(line["spans"])
        assert made is not None and made.text == text and made.lead == lead
        assert made.color == color
        assert (made.size, made.bold, made.italic) == (round(size * 2) / 2, bold, italic)


def test_leader_lines_all_pass_the_prefilter():
    """Every line the leader pattern takes passes ``_led`` (it only spares the pattern the
    lines it cannot take): real contents pages, and leaders with roman, Arabic-Indic and
    spaced-out page numbers."""
    lines = [ln.text for ln in read_page(_corpus_page("DA-619p.pdf", 0), 5000).lines]
    pieces = [" ", ".", ". ", "…", "_", "\t", "vii", "XI", "12", "٣", "İ", "ı", "a"]
    assert sum(bool(_LEADER.match(t)) for t in lines) > 50  # a contents page
    lines += ["Notes" + "".join(p) for p in itertools.product(pieces, repeat=5)]
    taken = [t for t in lines if _LEADER.match(t)]
    assert len(taken) > 100
    assert all(_led(t) for t in taken)
    assert not _led("A sentence that ends with a full stop.") and not _led("Page 12")


@pytest.mark.parametrize("rotation", [0, 90])
def test_pictures_are_where_the_draw_log_puts_them(rotation):
    """The picture device hears only of pictures (get_bboxlog's device hears of every path in
    Python: 6x the text page on this page of 6,000 paths), and finds the boxes its log has,
    in order, on a rotated page too (the page's own rotation kept)."""
    page = _corpus_page("GeoTopo-komprimiert.pdf", 30)
    page.set_rotation(rotation)
    logged = [tuple(b) for k, b in page.get_bboxlog() if k in ("fill-image", "fill-imgmask")]
    assert logged and drawn_pictures(page) == logged
    assert page.rotation == rotation


@pytest.mark.parametrize("enabled", [True, False])
def test_a_page_is_read_with_the_collector_paused_and_the_setting_restored(enabled, monkeypatch):
    """``read_page`` runs with the garbage collector off (its dict makes thousands of objects
    and no cycle) and leaves the caller's setting as it was: on stays on, off stays off (a
    user's own ``gc.disable()``), after an error too."""
    page = _corpus_page("layout-parser-paper-fast.pdf", 1)
    seen: list[bool] = []
    real = page.get_textpage

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(page, "get_textpage", spy)
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        assert read_page(page, 5000).lines
        assert seen == [False] and gc.isenabled() is enabled
        with pytest.raises(ValueError), collector_paused():
            raise ValueError("a damaged page")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("enabled", [True, False])
def test_a_page_is_analysed_with_the_collector_paused_and_the_setting_restored(
    enabled, monkeypatch
):
    """The page's analysis (its blocks, reading order and markdown: many objects and no cycle,
    where a full collection walked every object of the process) runs with the collector off
    too; the caller's setting is kept."""
    path = CORPUS / "pdf" / "layout-parser-paper-fast.pdf"
    if not path.is_file():
        pytest.skip(f"corpus not present at {CORPUS}")
    seen: list[bool] = []
    real = pages.analyse

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(pages, "analyse", spy)
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    reader = docread.Reader(str(path.parent), config={**config, "pdf": {"structure": "auto"}})
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        units = list(reader.iter_documents(path.name))
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert "# 1 Introduction" in "\n".join(d.text for d in units)
    assert len(seen) == len(units) == 2 and not any(seen)


def test_a_surveyed_page_is_bounded_once_in_the_document_the_survey_read(tmp_path, monkeypatch):
    """The content guard runs once a page in a read: the page loop does not bound again a page
    the survey sampled in the same opened document (all of a short one); a second read of the
    file (another opening; the survey kept) bounds its pages itself. The text is the same."""
    doc = pymupdf.open()
    for n in range(3):
        doc.new_page().insert_text((72, 72), f"Page {n + 1} of a short document.")
    doc.save(tmp_path / "three.pdf")
    calls: list[int] = []
    real = content.bound_content

    def counted(doc, page, cap):
        calls.append(page.number)
        return real(doc, page, cap)

    for module in (survey, pages, document):
        monkeypatch.setattr(module, "bound_content", counted, raising=False)
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    reader = docread.Reader(str(tmp_path), config={**config, "pdf": {"structure": "auto"}})
    first = [d.text for d in reader.iter_documents("three.pdf")]
    assert sorted(calls) == [0, 1, 2] and "Page 2 of a short document." in first[1]
    second = [d.text for d in reader.iter_documents("three.pdf")]
    assert sorted(calls) == [0, 0, 1, 1, 2, 2] and second == first


def test_a_page_of_more_lines_than_a_printed_page_is_read_as_plain_text(tmp_path):
    """A content bomb of text operators (tests/hostile_files.py; ~38,000 lines on one page) is
    no printed page: ``auto`` reads its plain text from the text page it made, as ``off``
    does, and says so in a note, instead of converting and analysing every line (4 s against
    off's 1 s at the default content cap)."""
    import hostile_files

    hostile_files.pdf_operator_bomb(tmp_path / "ops.pdf", megabytes=1)
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    texts, notes = {}, {}
    for mode in ("off", "auto"):
        reader = docread.Reader(str(tmp_path), config={**config, "pdf": {"structure": mode}})
        result = reader.read("ops.pdf")
        texts[mode], notes[mode] = result.text, result.notes
        assert [d.text for d in reader.iter_documents("ops.pdf")] == [result.text]
    assert texts["auto"] == texts["off"] and texts["auto"].count("x" * 40) > 5000
    assert notes["off"] == []
    assert notes["auto"] == [
        "Page 1: more than 5,000 lines of text (no printed page): read as plain text, its "
        "headings, tables and columns not looked for."
    ]


def _counted_joins(monkeypatch) -> list[int]:
    """The count of ``joins._join_fragments`` calls, from now on (one item, updated)."""
    from docread.extractors.pdf.text import joins

    calls = [0]
    join = joins._join_fragments

    def counted(*args, **kwargs):
        calls[0] += 1
        return join(*args, **kwargs)

    monkeypatch.setattr(joins, "_join_fragments", counted)
    return calls


def test_small_text_printed_thousands_of_times_over_a_line_joins_it_in_linear_work(monkeypatch):
    """Script-sized text printed over a line thousands of times (a content bomb's way) is no
    sub- or superscript to place again and again: a line's fragments are joined again for a
    script a bounded number of times, so the joins made grow with the lines, not their square
    (uncapped: 4,900 such fragments, 1.3 million joins, 3 s)."""
    from docread.extractors.pdf.text import joins, lines

    calls = _counted_joins(monkeypatch)
    row = [lines.Line(100, 100, 200, 112, "a word here", 11.0)]
    row.append(lines.Line(202, 100.5, 400, 112, "then more", 11.0))
    for k in range(4900):
        x = 110 + (k % 250) * 0.7
        row.append(lines.Line(x, 101, x + 4, 108, "e", 8.0))
    out = joins.joined_rows(row)
    assert out[0].text.startswith("a word here e") and out[0].text.endswith("then more")
    assert sum(ln.text.count("e") for ln in out) == 4900 + 4  # each kept, once
    assert calls[0] < 100 * len(row)


def test_small_text_under_many_lines_printed_over_one_another_is_rejoined_once(monkeypatch):
    """63 lines of 15 fragments printed over one another and thousands of script-sized marks
    under their ends: a mark is tried as a script of one line, not of every open line (each
    try joins a line's fragments again: 64 x 16 joins a mark made 10,000 marks 155 s)."""
    from docread.extractors.pdf.text import joins, lines

    calls = _counted_joins(monkeypatch)
    row = []
    for k in range(63):
        y = 100 + k * 0.001
        row += [
            lines.Line(100 + k + j * 12, y, 110 + k + j * 12, y + 12, "ab", 10.0) for j in range(14)
        ]
        row.append(lines.Line(268 + k, y, 368 + k, y + 12, "a long last word", 10.0))
    row.append(lines.Line(260, 100.1, 302, 112.1, "ABSORB", 10.0))  # the marks join this one
    row += [lines.Line(300, 103 + i * 1e-6, 304, 110, "e", 7.0) for i in range(2000)]
    out = joins.joined_rows(row)
    assert sum(ln.text.count("e") for ln in out) >= 2000  # each kept
    assert calls[0] < 100 * len(row)


def _touching_merged(clusters: list[list[float]]) -> list[tuple[float, ...]]:
    """The long way: any two clusters (x0, y0, x1, y1, curves) within 4 points of each other
    merged (their box grown, their curves added) until none are."""
    clusters = [list(c) for c in clusters]
    merged = True
    while merged:
        merged = False
        for a, b in itertools.combinations(clusters, 2):
            if a[0] <= b[2] + 4 and b[0] <= a[2] + 4 and a[1] <= b[3] + 4 and b[1] <= a[3] + 4:
                a[:5] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]),
                         a[4] + b[4]]  # fmt: skip
                clusters.remove(b)
                merged = True
                break
    return sorted(tuple(c) for c in clusters)


def test_drawings_that_grew_into_one_another_are_what_merging_every_touching_pair_gives():
    """Clusters of paths that grew into one another (figures._merged: pairs found by a sweep
    down the page and merged as groups, not every pair tested again after each merge: 5,000
    dots apart were 12 million tests a merge) are what merging every touching pair until none
    is left gives: chains, bands just within 4 points, dots apart; and a page's drawing whose
    arm reaches a dot only once grown (an L) is one drawing with it."""
    import random

    from docread.extractors.pdf import figures

    rnd = random.Random(33)
    for _ in range(60):
        n, size = rnd.choice([(10, 40), (60, 30), (120, 16), (120, 4)])
        clusters = []
        for _ in range(n):
            x, y = rnd.randrange(0, 1200) / 2, rnd.randrange(0, 1600) / 2
            w, h = rnd.randrange(0, 2 * size) / 2, rnd.randrange(0, 2 * size) / 2
            clusters.append([x, y, x + w, y + h, rnd.choice([1, 4])])
        found = figures._merged([[*c, 0] for c in clusters])
        assert sorted(tuple(c[:5]) for c in found) == _touching_merged(clusters)
    stack = [[0.0, 50.0 - 10 * k, 5.0, 58.0 - 10 * k, 1, 0] for k in range(6)]  # made bottom up
    assert figures._merged(stack) == [[0.0, 0.0, 5.0, 58.0, 6, 0]]  # one, where the first stood
    bar, dot, arm = (100.0, 0.0, 101.0, 90.0), (194.0, 0.0, 195.0, 1.0), (100.0, 92.0, 190.0, 93.0)
    assert figures._drawings([bar, dot, arm], [], 1e-9) == [(100.0, 0.0, 195.0, 93.0)]


def test_a_path_with_a_nan_coordinate_joins_no_drawing():
    """A box with a NaN edge touches nothing (every comparison with NaN is false), as before the
    sweep: the drawing beside it stays a drawing (the sweep's early stop passed NaN on)."""
    from docread.extractors.pdf import figures

    nan, drawing = float("nan"), (57.58, 495.22, 219.55, 510.05)
    assert figures._drawings([(177.46, 165.43, 177.46, nan), drawing], [], 48.0) == [drawing]


def test_lines_apart_in_rows_hold_no_row_of_two_in_any_of_their_subsets():
    """``rows_apart`` (what spares a page of prose the search for tables of aligned rows) says
    lines are apart only where ``rows_of`` sets no two of them on one row, in any subset of them
    (a column's lines, the lines a table left): random lines of mixed sizes and heights, lines
    level at their bottoms (a bracket beside its row), and a small line within half of a tall
    line's height of it (the first of its row: its height counts)."""
    import random

    from docread.extractors.pdf.tables.cells import rows_apart, rows_of
    from docread.extractors.pdf.text.lines import Line

    def line(y0: float, height: float, size: float) -> Line:
        return Line(0.0, y0, 50.0, y0 + height, "word", size)

    def one_a_row(lines: list[Line]) -> bool:
        return all(len(row) == 1 for row in rows_of(lines))

    rnd = random.Random(33)
    apart = 0
    for _ in range(400):
        n, spread = rnd.choice([(2, 30), (6, 120), (20, 400), (40, 600)])
        lines = [
            line(rnd.randrange(0, spread * 4) / 4, rnd.choice([4.0, 9.5, 11.0, 12.0, 20.0]),
                 rnd.choice([8.0, 10.0, 12.0]))
            for _ in range(n)
        ]  # fmt: skip
        if not rows_apart(lines):
            continue
        apart += 1
        for a, b in itertools.combinations(lines, 2):
            assert one_a_row([a, b]) and one_a_row([b, a])
        for _ in range(10):
            assert one_a_row(rnd.sample(lines, rnd.randint(1, n)))
    assert 50 < apart < 400  # both answers given
    bracket, level = line(0.0, 20.0, 10.0), line(10.5, 9.5, 10.0)  # one bottom, middles 5 apart
    assert not one_a_row([bracket, level]) and not rows_apart([bracket, level])
    tall, small = line(0.0, 20.0, 14.0), line(13.0, 4.0, 8.0)  # middles 5 apart: in the tall's half
    assert not rows_apart([small, tall])
    assert rows_apart([line(0.0, 12.0, 10.0), line(14.0, 12.0, 10.0)])  # a paragraph's lines
    # at the very edge of ``_level`` (middles exactly half the taller line apart), its sum's
    # rounding says yes one way round and no the other: rows_of may meet them either way
    flat, thin = line(8.403041530931755, 0.0, 10.0), line(8.128790084182993, 0.274251446748762, 10.0)
    assert not rows_apart([flat, thin]) and not rows_apart([thin, flat])
    # a line as tall as the page beside 200 lines of its size: a row only where one's middle is
    # within half the smaller height of its own (each line is tried against its own reach)
    page = [line(4.0 * i, 1.5, 10.0) for i in range(200)]
    assert rows_apart([*page, line(2.75, 800.0, 10.0)])
    assert not rows_apart([*page, line(0.5, 800.0, 10.0)])
