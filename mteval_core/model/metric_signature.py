"""What produced an external metric's scores: the same name gives other numbers with another
model, checkpoint, package version or precision (one COMET model gives 0.86 in one release and
0.79 in another, and ``comet-score`` has run in half precision since 2.2.5), so each file's
scores carry a :class:`MetricSignature`, from the file where the tool writes it and from the
user's options where not, and two files of one metric that differ in any field are said to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace

from mteval_core.errors import InputError

# a value goes into the run's signature line (fields split at '|', 'key:value') and tables
VALUE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/@+~=-]{0,199}")
YES_NO = {"yes": True, "true": True, "no": False, "false": False}
FIELD_HINT = (
    "Give FIELD=VALUE pairs separated by commas, FIELD one of model, checkpoint, package, "
    "version, precision, reference_based (yes or no), scale; e.g. "
    "model=Unbabel/wmt22-comet-da,version=2.2.6,precision=fp16."
)


@dataclass(frozen=True)
class MetricSignature:
    """Every field may be unknown (None). ``reference_based`` says whether the metric read the
    references (False: quality estimation); ``direction`` is "higher" or "lower" (which scores
    are better); ``scale`` is the range the tool documents, e.g. "0-25"."""

    model: str | None = None
    checkpoint: str | None = None
    package: str | None = None
    version: str | None = None
    precision: str | None = None
    reference_based: bool | None = None
    direction: str | None = None
    scale: str | None = None

    def filled_from(self, other: MetricSignature) -> MetricSignature:
        """This signature, with ``other``'s fields where this one does not know them."""
        return replace(
            self,
            **{
                field.name: getattr(other, field.name)
                for field in fields(self)
                if getattr(self, field.name) is None
            },
        )

    def differences(self, other: MetricSignature) -> list[str]:
        """'model: a vs b' for every field that both know and that differs."""
        found = []
        for field in fields(self):
            mine, theirs = getattr(self, field.name), getattr(other, field.name)
            if mine is not None and theirs is not None and mine != theirs:
                found.append(f"{field.name} {_shown(mine)} vs {_shown(theirs)}")
        return found

    def items(self) -> dict[str, str]:
        """The known fields as text, in the declared order (for signature lines and tables)."""
        return {
            field.name: _shown(getattr(self, field.name))
            for field in fields(self)
            if getattr(self, field.name) is not None
        }

    def describe(self) -> str:
        """'model:X|version:Y|...', or '' when nothing is known."""
        return "|".join(f"{key}:{value}" for key, value in self.items().items())


def parse_signature_fields(text: str, origin: str | None = None) -> MetricSignature:
    """'model=X,version=2.2.6,precision=fp16,reference_based=no' as a signature; an empty text
    is an empty signature. Unknown fields and values that would break a signature line are
    refused. The direction is given apart (it is required, and read by the readers)."""
    given: dict[str, object] = {}
    for pair in (part.strip() for part in text.split(",")):
        if not pair:
            continue
        key, equals, value = (piece.strip() for piece in pair.partition("="))
        key = key.lower().replace("-", "_")
        allowed = [field.name for field in fields(MetricSignature) if field.name != "direction"]
        if not equals or key not in allowed:
            raise InputError(f"{pair!r} is not a signature field", origin=origin, hint=FIELD_HINT)
        if key in given:
            raise InputError(f"{key} is given twice", origin=origin, hint=FIELD_HINT)
        given[key] = _field_value(key, value, origin)
    return MetricSignature(**given)  # type: ignore[arg-type]


def _field_value(key: str, value: str, origin: str | None) -> object:
    if key == "reference_based":
        if value.lower() not in YES_NO:
            raise InputError(
                f"reference_based={value!r}: say yes or no", origin=origin, hint=FIELD_HINT
            )
        return YES_NO[value.lower()]
    if not VALUE.fullmatch(value):
        raise InputError(
            f"{key}={value!r} cannot be part of a signature",
            origin=origin,
            hint="Use letters, digits and _ . : / @ + ~ = - (no spaces, commas or '|'), "
            "starting with a letter or digit, at most 200 characters.",
        )
    return value


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
