"""SentencePiece models (text/sentencepiece_models.py): an upload is checked before anything
keeps it and never written to disk; a model is known by its bytes (signature, cache keys); at most
MAX_LOADED_SENTENCEPIECE_MODELS stay loaded, and a dropped one is loaded again from the bytes its
session holds; messages name the file as its user named it.

Issue 42: uploads were written to the server's disk before being checked and kept forever (164 MB
after one session, refused files included), every distinct model stayed loaded (four 29 MB
models: +940 MB), the Data page's errors showed the server's path, and spm/flores* signed the
same whatever the model.
"""

from __future__ import annotations

import builtins
import gc
import hashlib
import json
import os
from collections import OrderedDict
from pathlib import Path

import pytest

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.settings.limits import MAX_LOADED_SENTENCEPIECE_MODELS
from mteval_core.settings.options import Options, signature
from mteval_core.text import sentencepiece_models, tokenizers
from mteval_core.text.sentencepiece_models import (
    loaded_digests,
    model_file,
    processor,
    uploaded_model,
)
from tests.helpers import SHARED_DATA

spm = pytest.importorskip("sentencepiece")
LINES = ["The cat sat on the mat.", "我们今天去北京。", "  spaced\tout  ", "", "😀 ñ"]


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> list[Path]:
    """Three small models, each of other bytes (one more than the server keeps loaded)."""
    folder = tmp_path_factory.mktemp("spm")
    corpus = folder / "corpus.txt"
    chinese = SHARED_DATA / "wmt21-newstest2021-zhen" / "src.zh"
    start = chinese.read_text(encoding="utf-8")[:200_000] if chinese.is_file() else ""
    corpus.write_text(start + "the cat sat on the mat\n我们今天去北京。\n" * 50, encoding="utf-8")
    paths = []
    for size in (3000, 3100, 3200, 3300)[: MAX_LOADED_SENTENCEPIECE_MODELS + 1]:
        spm.SentencePieceTrainer.train(
            input=str(corpus),
            model_prefix=str(folder / f"m{size}"),
            vocab_size=size,
            hard_vocab_limit=False,
            minloglevel=2,
        )
        paths.append(folder / f"m{size}.model")
    return paths


@pytest.fixture(autouse=True)
def fresh_memory(monkeypatch):
    """Each test starts with no model loaded and none uploaded."""
    monkeypatch.setattr(sentencepiece_models, "_LOADED", OrderedDict())
    monkeypatch.setattr(sentencepiece_models, "_UPLOADED", sentencepiece_models._UPLOADED.copy())
    sentencepiece_models._UPLOADED.clear()


def pieces(options: Options) -> list[list[str]]:
    return tokenizers.tokenize(LINES, options)


def test_a_refused_upload_is_kept_nowhere_and_named_by_its_file_name():
    with pytest.raises(InputError) as error:
        uploaded_model("my-model.model", b"\x0a\x03not a model")
    assert error.value.origin == "my-model.model"
    assert "not a SentencePiece model" in error.value.problem
    assert "/" not in str(error.value).split("~/.sacrebleu")[0]  # no server path, no C++ file
    assert loaded_digests() == [] and len(sentencepiece_models._UPLOADED) == 0


def test_an_upload_is_never_written_to_disk(models, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"written to disk: {args}")

    real_open = builtins.open

    def reading_only(file, mode="r", *args, **kwargs):
        if any(flag in mode for flag in "wax+"):
            refuse(file, mode)
        return real_open(file, mode, *args, **kwargs)

    data = models[0].read_bytes()
    monkeypatch.setattr(builtins, "open", reading_only)
    monkeypatch.setattr(Path, "write_bytes", refuse)
    monkeypatch.setattr(os, "replace", refuse)
    uploaded = uploaded_model("upload.model", data)
    tokens = pieces(Options(tokenize="spm", spm_model=uploaded.model))
    assert tokens[1] and uploaded.size == len(data)


def test_a_model_is_known_by_its_bytes(models):
    first, same, other = (
        uploaded_model(name, path.read_bytes())
        for name, path in (("a.model", models[0]), ("b.model", models[0]), ("a.model", models[1]))
    )
    assert first.model == same.model and hash(first.model) == hash(same.model)
    assert first._bytes is same._bytes  # equal uploads share one copy of the bytes
    assert first.model != other.model
    assert first.model.digest == hashlib.sha256(models[0].read_bytes()).hexdigest()
    signed = {
        model: signature(Options(tokenize="flores200", spm_model=model.model), 1)
        for model in (first, other)
    }
    assert f"|tok:flores200|spm-model:{first.model.digest[:12]}|" in signed[first]
    assert signed[first] != signed[other]  # so are the cache keys: Options differ
    assert Options(tokenize="spm", spm_model=first.model) != Options(
        tokenize="spm", spm_model=other.model
    )


def test_tokens_of_an_upload_equal_those_of_its_file(models):
    """The same model from bytes (the dashboard) and from its file (the command line, whose
    tokens tests/text/test_tokenizers_sacrebleu.py compares with sacreBLEU's TokenizerSPM)."""
    uploaded = uploaded_model("upload.model", models[1].read_bytes())
    from_file = model_file(str(models[1]))
    assert from_file == uploaded.model
    by_upload = pieces(Options(tokenize="spm", spm_model=uploaded.model))
    sentencepiece_models._LOADED.clear()  # the file's model is loaded from the file
    sentencepiece_models._UPLOADED.clear()
    assert pieces(Options(tokenize="spm", spm_model=from_file)) == by_upload
    assert by_upload[1] == spm.SentencePieceProcessor(model_file=str(models[1])).EncodeAsPieces(
        LINES[1]
    )


def test_at_most_the_limit_stay_loaded_and_a_dropped_one_comes_back(models):
    uploads = [uploaded_model(f"m{k}.model", path.read_bytes()) for k, path in enumerate(models)]
    before = {}
    for uploaded in uploads:
        before[uploaded.model] = pieces(Options(tokenize="spm", spm_model=uploaded.model))
    loaded = loaded_digests()
    assert len(loaded) == MAX_LOADED_SENTENCEPIECE_MODELS
    dropped = uploads[0].model
    assert dropped.digest not in loaded
    assert pieces(Options(tokenize="spm", spm_model=dropped)) == before[dropped]  # from bytes
    assert dropped.digest in loaded_digests()
    assert len(loaded_digests()) == MAX_LOADED_SENTENCEPIECE_MODELS


def test_a_model_nobody_holds_goes(models):
    uploads = [uploaded_model(f"m{k}.model", path.read_bytes()) for k, path in enumerate(models)]
    gone = uploads.pop(0).model
    for uploaded in uploads:  # the others push it out of memory
        processor(uploaded.model)
    gc.collect()
    assert gone.digest not in sentencepiece_models._UPLOADED
    with pytest.raises(InputError, match="no longer in memory") as error:
        processor(gone)
    assert error.value.origin == "m0.model"


def test_a_model_file_that_changes_while_in_use_is_refused(models, tmp_path):
    path = tmp_path / "changing.model"
    path.write_bytes(models[0].read_bytes())
    model = model_file(str(path))
    path.write_bytes(models[1].read_bytes())
    with pytest.raises(InputError, match="changed while it was in use") as error:
        processor(model)
    assert error.value.origin == str(path)


def test_the_command_line_signs_with_the_models_digest(models, tmp_path, capsys):
    reference = tmp_path / "ref.txt"
    reference.write_text("".join(f"{line}\n" for line in LINES), encoding="utf-8")
    signatures = []
    for path in models[:2]:
        arguments = ["score", "--refs", str(reference), "--hyps", str(reference)]
        arguments += ["--metrics", "bleu", "--tokenize", "flores200", "--spm-model", str(path)]
        assert main([*arguments, "--format", "json"]) == 0
        result = json.loads(capsys.readouterr().out)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        assert f"|tok:flores200|spm-model:{digest[:12]}|" in result["signature"]
        signatures.append(result["signature"])
    assert signatures[0] != signatures[1]
