"""Shared test helpers: the corpus beside the checkout (tests skip when it is absent)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture
def corpus_dir() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("the shared puzzle corpus is not beside this checkout")
    return CORPUS


@pytest.fixture(autouse=True)
def private_user_folder(tmp_path_factory, monkeypatch):
    """Tests never read the user's settings or write to the user's progress folder."""
    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path_factory.mktemp("user")))
