"""The typo pass's words (engine/typos.py): the prebuilt file, the same as building them from their sources.

data/typo_words.json is what `built_words` makes from the six tables and CLDR (babel), written ahead so a
new process's first message does not parse the tables and load the locales (bench/typo_data.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import typos

ROOT = Path(__file__).resolve().parent.parent


def test_the_prebuilt_words_are_what_the_tables_and_babel_build() -> None:
    """Fails when a table was edited or babel upgraded: write the file again (`python bench/typo_data.py --write`)."""
    by_table, named = typos._prebuilt(typos.WORDS_FILE)
    assert by_table is not None, "data/typo_words.json was built from other tables: write it again"
    assert named is not None, "data/typo_words.json was built with another babel: write it again"
    assert json.loads(typos.WORDS_FILE.read_text(encoding="utf-8")) == typos.built_words()


def test_writing_is_deterministic(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    typos.write_words(path)
    assert path.read_bytes() == typos.WORDS_FILE.read_bytes()  # a rebuild of unchanged sources is an empty diff


@pytest.mark.parametrize("part", ["tables", "cldr"])
def test_a_part_built_from_other_sources_is_not_used(tmp_path: Path, part: str) -> None:
    doc = json.loads(typos.WORDS_FILE.read_text(encoding="utf-8"))
    if part == "tables":
        doc["tables"]["sha256"] = "0" * 64  # a table edited since the file was written
        doc["tables"]["words"]["commands.yaml"] = ["zzcancel"]
    else:
        doc["cldr"]["babel"] = "0.0.1"
        doc["cldr"]["words"] = ["Spanisch"]
    stale = tmp_path / "w.json"
    stale.write_text(json.dumps(doc), encoding="utf-8")
    by_table, named = typos._prebuilt(stale)
    assert (by_table is None, named is None) == (part == "tables", part == "cldr")
    # a process reading the stale file builds that part from its source: the words, and their readings, as before
    script = (
        "from pathlib import Path\n"
        "import engine.typos as t\n"
        f"t.WORDS_FILE = Path({str(stale)!r})\n"
        "assert 'zzcancel' not in t.vocabulary() and 'cancel' in t.command_words()\n"
        "assert t.respelled('cancle') == 'cancel'\n"
        "assert t.respelled('i speak Deutsh') == 'i speak Deutsch'\n"
        "assert t.respelled('mierkoles') == 'miércoles'\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr


def test_a_missing_file_builds_every_word() -> None:
    by_table, named = typos._prebuilt(Path("/nonexistent/typo_words.json"))
    assert by_table is None and named is None
