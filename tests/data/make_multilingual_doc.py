"""Makes tests/data/multilingual.doc (a Word 97 file with German, Greek, Russian, Japanese and
Chinese paragraphs): python-docx writes a .docx, LibreOffice converts it. A developer tool, run
by hand (``python tests/data/make_multilingual_doc.py``); never at test time or in CI."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PHRASES = {  # script -> its sample phrase; tests/extractors/office/test_legacy_doc.py looks for each one
    "german": "Größere Übungen für Mädchen und Jungen: Straße, Bäcker, Öl",
    "greek": "Η γρήγορη καφέ αλεπού πηδάει πάνω από τον τεμπέλη σκύλο",
    "russian": "Съешь же ещё этих мягких французских булок, да выпей чаю",
    "japanese": "東京の古書店で処刑記録が見つかった",
    "chinese": "中华人民共和国的首都是北京",
}
#: a heading with a non-breaking hyphen (U+2011) and a no-break space (U+00A0), as Word writes
#: them: a search types "nicht-englischer" and "10 km"
TYPOGRAPHIC = "Texte nicht\u2011englischer Sprache auf 10\u00a0km"

INTRO = (
    "This legacy Word 97 document holds one paragraph in each of five scripts, so that a reader "
    "of .doc files can be checked for text beyond ASCII: German umlauts and the sharp s, Greek "
    "with its tonos accents, Russian Cyrillic, Japanese kanji and kana, and simplified Chinese. "
    "Word stores such paragraphs as UTF-16 in the text stream of the file, and a converter that "
    "maps them through the locale's character set instead of UTF-8 replaces them with question "
    "marks or drops them. Each paragraph below is a short sentence a person would search for."
)


def main(out: Path) -> None:
    from docx import Document
    from docx.oxml.ns import qn

    doc = Document()
    doc.add_heading("Multilingual legacy document", level=1)
    doc.add_paragraph(INTRO)  # antiword refuses a text stream under about 1 KB as "too small"
    doc.add_heading(TYPOGRAPHIC, level=2)
    for script, phrase in PHRASES.items():
        run = doc.add_paragraph().add_run(phrase)
        if script in ("japanese", "chinese"):  # the East Asian font Word would pick
            font = "MS Mincho" if script == "japanese" else "SimSun"
            run._element.get_or_add_rPr().get_or_add_rFonts().set(qn("w:eastAsia"), font)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "multilingual.docx"
        doc.save(str(src))
        soffice = shutil.which("soffice") or "soffice"
        argv = [soffice, "--headless", "--convert-to", "doc:MS Word 97", "--outdir", tmp, str(src)]
        subprocess.run(argv, check=True, capture_output=True, timeout=300)
        shutil.copyfile(Path(tmp) / "multilingual.doc", out)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("multilingual.doc"))
