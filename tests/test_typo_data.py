"""The typo pass's CLDR words (engine/typos.py): the prebuilt file, the same as building them from babel.

data/cldr_words.json holds the names of languages and the weekday names that `cldr_words` reads from babel's
locales, written ahead so a new process's first message does not load 35 locales (bench/typo_data.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import typos

ROOT = Path(__file__).resolve().parent.parent


def test_the_prebuilt_words_are_what_the_installed_babel_builds() -> None:
    """Fails when the build changed: `python bench/typo_data.py --write` writes it again. With another babel
    installed (a release after the file was written) the engine builds the words from babel instead, as
    `test_words_written_by_another_babel_are_not_used` checks; the suite must not fail on the day one comes out."""
    prebuilt = typos._prebuilt(typos.WORDS_FILE)
    if prebuilt is None:
        pytest.skip("data/cldr_words.json was written with another babel: `python bench/typo_data.py --write`")
    assert prebuilt == typos.cldr_words()


def test_writing_is_deterministic(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    typos.write_words(path)
    assert path.read_bytes() == typos.WORDS_FILE.read_bytes()  # a rebuild with the same babel is an empty diff


def test_words_written_by_another_babel_are_not_used(tmp_path: Path) -> None:
    doc = json.loads(typos.WORDS_FILE.read_text(encoding="utf-8"))
    doc["babel"] = "0.0.1"
    doc["words"] = [w for w in doc["words"] if w != "Deutsch"] + ["Zzdeutsch"]  # what another CLDR might say
    stale = tmp_path / "w.json"
    stale.write_text(json.dumps(doc), encoding="utf-8")
    assert typos._prebuilt(stale) is None
    assert typos._prebuilt(tmp_path / "missing.json") is None
    # a process given the stale file builds the words from babel: the vocabulary, and its readings, as before
    script = (
        "from pathlib import Path\n"
        "import engine.typos as t\n"
        f"t.WORDS_FILE = Path({str(stale)!r})\n"
        "assert 'zzdeutsch' not in t.vocabulary() and 'deutsch' in t.vocabulary()\n"
        "assert t.respelled('i speak Deutsh') == 'i speak Deutsch'\n"
        "assert t.respelled('mierkoles') == 'miércoles'\n"
        "assert t.respelled('cancle') == 'cancel'\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr


def test_the_prebuilt_words_are_read(tmp_path: Path) -> None:
    """The file is what the vocabulary is made from while it matches: a word only the file holds is a word."""
    doc = json.loads(typos.WORDS_FILE.read_text(encoding="utf-8"))
    doc["words"].append("Zzprobe")
    probe = tmp_path / "w.json"
    probe.write_text(json.dumps(doc), encoding="utf-8")
    script = (
        "from pathlib import Path\n"
        "import engine.typos as t\n"
        f"t.WORDS_FILE = Path({str(probe)!r})\n"
        "assert 'zzprobe' in t.vocabulary()\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
