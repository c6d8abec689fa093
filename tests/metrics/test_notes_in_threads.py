"""Notes belong to the scoring run that says them, whatever else runs at the same time.

The notes of a run used to be gathered with warnings.catch_warnings, which swaps the warnings
module's global state: two runs at once (two users of the dashboard, or Home's quick metrics
beside METEOR and TER scored in a background thread) could take each other's notes or lose them.
"""

from __future__ import annotations

import threading
import warnings

import pytest

from mteval_core.engine.threads import map_on_cores
from mteval_core.errors import Note, collected_notes, say
from mteval_core.metrics.scoring import score_test_set
from mteval_core.metrics.ter import unspaced_note
from mteval_core.model.testset import TestSet, TextColumn
from mteval_core.settings.options import Options


def test_a_note_outside_a_run_is_a_warning_of_its_kind() -> None:
    class Particular(Note):
        pass

    with pytest.warns(Particular, match="said"):
        say("said", Particular)


def test_a_note_inside_a_run_joins_its_notes_and_warns_nothing() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning would raise here
        with collected_notes() as said:
            say("first")
            with collected_notes() as inner:
                say("second")
            say("third")
    assert said == ["first", "third"]
    assert inner == ["second"]


def test_what_the_threads_of_a_run_say_joins_the_runs_notes() -> None:
    with collected_notes() as said:
        map_on_cores(lambda k: say(f"item {k}"), range(8))
    assert sorted(said) == [f"item {k}" for k in range(8)]


def _unspaced(language: str, name: str) -> TestSet:
    """A test set in ``language``, which TER's default tokenizer leaves unsplit (its note)."""
    texts = tuple(f"{name}{k}{name}" for k in range(40))
    return TestSet(
        references=[TextColumn("ref", texts, f"ref.{language}", language=language)],
        systems=[TextColumn("sys", texts[::-1], f"sys.{language}", language=language)],
    )


def test_two_runs_at_once_keep_their_own_notes() -> None:
    sets = {"Chinese": _unspaced("zh", "猫"), "Japanese": _unspaced("ja", "ねこ")}
    rounds = 20
    barrier = threading.Barrier(len(sets))
    found: dict[str, list[tuple[str, ...]]] = {name: [] for name in sets}

    def score_repeatedly(name: str) -> None:
        for _ in range(rounds):
            barrier.wait()
            scores = score_test_set(sets[name], ["ter"], Options())
            found[name].append(scores.notes)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Note)  # each run says its notes again when it ends
        threads = [threading.Thread(target=score_repeatedly, args=(n,)) for n in sets]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    for name, notes in found.items():
        assert notes == [(unspaced_note(name),)] * rounds
