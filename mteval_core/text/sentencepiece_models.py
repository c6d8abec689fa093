"""SentencePiece models of the flores101, flores200, spBLEU-1K and spm tokenizers: read, checked
and kept loaded in memory, never written anywhere.

A model is known by the SHA-256 of its bytes (``settings.options.SentencePieceModel``). The
command line's model is a file, read again where it is loaded (a shard's worker reads it from
its path) and checked to be the same bytes. A dashboard upload is checked when it arrives
(``uploaded_model`` loads it, and refuses what does not load, before anything is kept); its
bytes then stay in the uploading session's memory (``UploadedModel``, in its session state),
and this module finds them by digest for as long as some session holds them.

Loaded models are the expensive part (several times the file): at most
``MAX_LOADED_SENTENCEPIECE_MODELS`` stay loaded, for every session together, the least recently
used dropped first, and loaded again from the bytes when a session tokenizes with it next.
Messages name the model as its user named it (the path given, the upload's file name).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from pathlib import Path
from typing import Any

from mteval_core.errors import InputError
from mteval_core.settings.limits import MAX_LOADED_SENTENCEPIECE_MODELS
from mteval_core.settings.options import SentencePieceModel

_LOADED: OrderedDict[str, Any] = OrderedDict()  # digest -> processor, least recently used first
_UPLOADED: weakref.WeakValueDictionary[str, _Bytes] = weakref.WeakValueDictionary()
_LOCK = threading.Lock()


class _Bytes:
    """One copy of an uploaded model's bytes, however many sessions sent it."""

    __slots__ = ("__weakref__", "data")

    def __init__(self, data: bytes) -> None:
        self.data = data


class UploadedModel:
    """An upload that loads as a model, held by the session that uploaded it: ``model`` goes
    into its options; the bytes stay alive through it, so that while some session holds one,
    a processor dropped from memory can be loaded again. Once no session does, they go."""

    __slots__ = ("_bytes", "model")

    def __init__(self, model: SentencePieceModel, held: _Bytes) -> None:
        self.model = model
        self._bytes = held

    @property
    def size(self) -> int:
        return len(self._bytes.data)


def uploaded_model(name: str, data: bytes) -> UploadedModel:
    """An upload checked: it loads as a SentencePiece model (else an InputError naming
    ``name``), and is then loaded and findable by its digest. Keep what this returns for as long
    as the model is used."""
    model = SentencePieceModel.of_bytes(name, data)
    with _LOCK:
        held = _UPLOADED.get(model.digest)
    if held is None:  # bytes no session holds yet: checked before anything is kept
        _keep(model.digest, _load(model, data))
        with _LOCK:
            held = _UPLOADED.setdefault(model.digest, _Bytes(data))
    return UploadedModel(model, held)


def model_file(path: str) -> SentencePieceModel:
    """The model in a local file (the command line's), known by its bytes and read again where
    it is loaded."""
    return SentencePieceModel.of_bytes(path, _read(path), path)


def processor(model: SentencePieceModel) -> Any:
    """The loaded SentencePiece processor of ``model``: kept, or loaded from the session's bytes
    or the model's file (which must still hold the same bytes)."""
    with _LOCK:
        loaded = _LOADED.get(model.digest)
        if loaded is not None:
            _LOADED.move_to_end(model.digest)
            return loaded
        uploaded = _UPLOADED.get(model.digest)
    data = uploaded.data if uploaded is not None else _data_of_file(model)
    loaded = _load(model, data)
    _keep(model.digest, loaded)
    return loaded


def loaded_digests() -> list[str]:
    """The digests of the models loaded now, least recently used first (for tests)."""
    with _LOCK:
        return list(_LOADED)


def _keep(digest: str, loaded: Any) -> None:
    with _LOCK:
        _LOADED[digest] = loaded
        _LOADED.move_to_end(digest)
        while len(_LOADED) > MAX_LOADED_SENTENCEPIECE_MODELS:
            _LOADED.popitem(last=False)


def _load(model: SentencePieceModel, data: bytes) -> Any:
    import sentencepiece

    try:
        return sentencepiece.SentencePieceProcessor(model_proto=data)
    except (RuntimeError, OSError, TypeError):  # its message names its own C++ source file
        raise InputError(
            "this is not a SentencePiece model: sentencepiece cannot read it",
            origin=model.name,
            hint="Give the .model file that sentencepiece's trainer wrote (sacreBLEU keeps its "
            "flores101, flores200 and spBLEU-1K copies in ~/.sacrebleu/models/).",
        ) from None


def _data_of_file(model: SentencePieceModel) -> bytes:
    """The model's bytes from its file, refused if the file now holds another model."""
    if model.path is None:
        raise InputError(
            "this SentencePiece model is no longer in memory (nothing holds its upload)",
            origin=model.name,
            hint="Give the model file again.",
        )
    data = _read(model.path)
    if SentencePieceModel.of_bytes(model.name, data) != model:
        raise InputError(
            "the SentencePiece model file changed while it was in use",
            origin=model.name,
            hint="Run again, so that every number comes from one model.",
        )
    return data


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise InputError(
            f"cannot read the SentencePiece model ({error.strerror or error})",
            origin=path,
            hint="Give the path of the .model file (sacreBLEU keeps its copies in "
            "~/.sacrebleu/models/).",
        ) from None
