"""Fuzzing the per-user file loaders (progress, solved list, settings) with damaged content.

Whatever the file holds, a loader never raises, never loses the file (a damaged one is kept
aside byte for byte, a good one is left untouched) and returns values the window can use.
The default run tries a few hundred files per loader; ``pytest -m slow`` tries 20,000.
"""

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.puzzle import Cell, Hint, Puzzle
from game.session import Session
from window import settings as settings_module
from window.storage import Storage, check_progress, check_solved_entry

PUZZLE = Puzzle(6, 6, (4, 0, 3, 2, 0, 1), (3, 2, 3, 0, 1, 1), ((3, 1), (2, 2), (1, 3)),
                {(0, 4): Hint.SUB, (1, 1): Hint.WATER, (2, 0): Hint.TOP})
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WORK = tempfile.TemporaryDirectory(prefix="fuzz-userfiles-")
SLOW = settings(max_examples=20_000, deadline=None, suppress_health_check=list(HealthCheck))


def good_play() -> dict:
    session = Session(PUZZLE)
    for r, c, value in ((5, 5, Cell.WATER), (4, 4, Cell.SHIP), (3, 3, Cell.WATER), (5, 5, Cell.SHIP)):
        session.set_cell(r, c, value)
    session.undo()
    session.elapsed = 12.5
    return session.to_dict()


GOOD_SOLVED = {"0123abcd": {"seconds": 12.5, "name": "First", "when": "2026-01-01 10:00:00"},
               "ffff": {"seconds": 3.0, "name": "Second", "when": "2026-01-02 10:00:00"}}
GOOD_SETTINGS = "ui:\n  theme: dark\n  window: [900, 700]\n  fps: 30\ngenetic:\n  population: 40\n  elite: 0.1\n"

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**15, 10**15),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
                    st.sampled_from(["r1c1=#", "r9c9=.", "r0c4=#", "r1c1=?", "false", "NaN", ""]))
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)), max_leaves=20)


def replace_somewhere(document, path_choice, value):
    """``document`` with the node picked by ``path_choice`` (a list of indices) set to ``value``."""
    document = json.loads(json.dumps(document))
    if not path_choice:
        return value
    node = document
    for index in path_choice[:-1]:
        children = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) \
            if isinstance(node, list) else []
        if not children:
            break
        key, child = children[index % len(children)]
        if not isinstance(child, (dict, list)) or not child:
            break
        node = child
    if isinstance(node, dict) and node:
        node[list(node)[path_choice[-1] % len(node)]] = value
    elif isinstance(node, list) and node:
        node[path_choice[-1] % len(node)] = value
    return document


def file_bytes(good):
    """Damaged (or sometimes intact) contents for a file whose good form is ``good``."""
    text = json.dumps(good, indent=1)
    return st.one_of(
        st.binary(max_size=200),
        json_values.map(lambda v: json.dumps(v, allow_nan=True).encode()),
        st.builds(lambda p, v: json.dumps(replace_somewhere(good, p, v), allow_nan=True).encode(),
                  st.lists(st.integers(0, 50), max_size=5), json_values),
        st.builds(lambda cut: text[:cut].encode(), st.integers(0, len(text))),
        st.builds(lambda at, junk: (text[:at] + junk + text[at:]).encode(), st.integers(0, len(text)),
                  st.sampled_from(["[", "{", "]", ",", '"', "\\", "\x00", "NaN", "1e999", "9" * 30, "\udc80"])
                  .map(lambda s: s.encode("utf-8", "surrogatepass").decode("utf-8", "replace"))),
        st.just(text.encode()),
    )


def only_file(folder: Path, name: str) -> tuple[Path | None, list[Path]]:
    files = sorted(p for p in folder.iterdir() if p.is_file())
    return (folder / name if (folder / name).exists() else None), [p for p in files if ".damaged-" in p.name]


def fresh_folder() -> Path:
    """An empty folder (one per test session, emptied each time: making folders is slow)."""
    folder = Path(WORK.name)
    for path in sorted(folder.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    return folder


def check_progress_loader(content: bytes) -> None:
    root = fresh_folder()
    storage = Storage(root)
    path = storage.progress_path("k")
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    loaded = storage.load_progress("k", PUZZLE)
    current, aside = only_file(path.parent, "k.json")
    if loaded is None:
        assert current is None and [p.read_bytes() for p in aside] == [content]
        assert len(storage.take_messages()) == 1
    else:
        assert current is not None and current.read_bytes() == content and aside == []
        assert check_progress(loaded, PUZZLE) is loaded
        session = Session.from_dict(PUZZLE, loaded)
        assert len(session.history) == len(loaded["history"]) and session.cursor == loaded["cursor"]
        assert [len(s.moves) for s in session.history] == [len(s["moves"]) for s in loaded["history"]]
        assert storage.take_messages() == []


def check_solved_loader(content: bytes) -> None:
    root = fresh_folder()
    storage = Storage(root)
    storage.solved_path.write_bytes(content)
    records = storage.solved()
    assert all(check_solved_entry(key, entry) for key, entry in records.items())
    current, aside = only_file(root, "solved.json")
    if aside:
        assert [p.read_bytes() for p in aside] == [content]
        assert len(storage.take_messages()) == 1
        assert current is None or json.loads(current.read_text()) == records
    else:
        assert current is not None and current.read_bytes() == content
        assert json.loads(content) == records
    storage.mark_solved("k", 1.0, "x")
    assert storage.solved()["k"]["seconds"] == 1.0


def check_settings_loader(content: bytes) -> None:
    root = fresh_folder()
    path = root / "settings.yaml"
    path.write_bytes(content)
    values, problems = settings_module.load(path)
    assert path.read_bytes() == content
    assert all(isinstance(p, str) and "\n" not in p.rstrip() and p.startswith(str(path)) for p in problems)
    rules = settings_module.schema()
    for section, keys in rules.items():
        for key, rule in keys.items():
            if section in values:
                assert rule.check(values[section][key]) == values[section][key]


settings_bytes = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=200).map(lambda t: t.encode("utf-8", "replace")),
    json_values.map(lambda v: json.dumps(v, allow_nan=True).encode()),
    st.builds(lambda section, key, v: json.dumps({section: {key: v}}, allow_nan=True).encode(),
              st.sampled_from(["ui", "genetic", "other"]),
              st.sampled_from(["theme", "palette", "window", "speed", "fps", "solver", "seed", "population",
                               "elite", "noise", "x"]), json_values),
    st.builds(lambda at, junk: (GOOD_SETTINGS[:at] + junk + GOOD_SETTINGS[at:]).encode(),
              st.integers(0, len(GOOD_SETTINGS)),
              st.sampled_from(["&a ", "*a", "[", "{", ": ", "\n  - ", "!!python/none ", "\t", "'", "9" * 40])),
)


@FAST
@given(file_bytes(good_play()))
def test_progress_loader(content):
    check_progress_loader(content)


@FAST
@given(file_bytes(GOOD_SOLVED))
def test_solved_loader(content):
    check_solved_loader(content)


@FAST
@given(settings_bytes)
def test_settings_loader(content):
    check_settings_loader(content)


@pytest.mark.slow
@SLOW
@given(file_bytes(good_play()))
def test_progress_loader_long(content):
    check_progress_loader(content)


@pytest.mark.slow
@SLOW
@given(file_bytes(GOOD_SOLVED))
def test_solved_loader_long(content):
    check_solved_loader(content)


@pytest.mark.slow
@SLOW
@given(settings_bytes)
def test_settings_loader_long(content):
    check_settings_loader(content)
