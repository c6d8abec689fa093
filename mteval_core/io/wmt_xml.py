"""The WMT XML format used since WMT21: source, references and system outputs in one file.

    <dataset id=..><collection id=..><doc id=.. origlang=..>
      <src lang=..><p><seg id="1">..</seg></p></src>
      <ref lang=.. translator="A"><p><seg id="1">..</seg></p></ref>
      <hyp lang=.. system="X"><p><seg id="1">..</seg></p></hyp>
    </doc></collection></dataset>

sacreBLEU fills a missing reference or hypothesis with an empty line; we refuse instead, because an
empty line silently lowers the scores. Documents marked as test suites (``testsuite=..``) have no
references by design; they are skipped and listed in ``notes``.

The file is parsed with defusedxml: an entity declaration in a DOCTYPE could expand to gigabytes
(the "billion laughs") or read another file on the server, so it is refused; test sets never
need one.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import defusedxml
import defusedxml.ElementTree

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode, refuse_nul
from mteval_core.io.strings import XML_REFERENCE_HINT, reference_problem
from mteval_core.model.testset import TextColumn

BAD_CHARACTER_REFERENCE = 14  # expat's XML_ERROR_BAD_CHAR_REF: "reference to invalid character"
REFERENCE = re.compile(r"&#([0-9]{1,12}|[xX][0-9a-fA-F]{1,12});")  # longer: no number to name


@dataclass(frozen=True)
class WmtXmlSet:
    source: TextColumn
    references: list[TextColumn]  # named 'ref-<translator>', or 'ref' without a translator
    systems: list[TextColumn]  # named by the system attribute
    documents: tuple[str, ...]  # document id of every segment
    segment_ids: tuple[str, ...]  # the id of every segment within its document
    notes: tuple[str, ...] = ()  # what was skipped, for the user


def read_wmt_xml(data: bytes, origin: str) -> WmtXmlSet:
    """Read a WMT XML file; every document needs every translator's and system's translation."""
    root = _parse(data, origin)
    documents = [doc for doc in root.iter("doc") if "testsuite" not in doc.attrib]
    skipped = sum(1 for doc in root.iter("doc") if "testsuite" in doc.attrib)
    if not documents:
        raise InputError(
            "the file has no <doc> elements",
            origin=origin,
            hint="This does not look like a WMT XML test set.",
        )
    references = _names(documents, "ref", origin)
    systems = _names(documents, "hyp", origin)
    source: list[str] = []
    texts: dict[tuple[str, str], list[str]] = {key: [] for key in (*references, *systems)}
    document_ids: list[str] = []
    segment_ids: list[str] = []
    seen: set[str] = set()
    for doc in documents:
        doc_id = doc.get("id")
        if not doc_id:
            raise InputError(
                "a <doc> has no id attribute", origin=origin, hint='Give it one: <doc id="...">.'
            )
        if doc_id in seen:
            raise InputError(
                f"the document {doc_id!r} occurs twice",
                origin=origin,
                hint="Every <doc> needs an id of its own; remove or rename the copy.",
            )
        seen.add(doc_id)
        segments = _source_segments(doc, doc_id, origin)
        source.extend(segments.values())
        document_ids.extend([doc_id] * len(segments))
        segment_ids.extend(segments)
        translations = _translations(doc, doc_id, origin)
        for key, column in texts.items():
            column.extend(_aligned(translations.get(key), segments, key, doc_id, origin))
    notes: tuple[str, ...] = ()
    if skipped:
        noun = "document" if skipped == 1 else "documents"
        notes = (f"{origin}: skipped {skipped} test-suite {noun} (they have no references)",)
    source_language = _declared_language(documents, ("src",))
    target = _declared_language(documents, ("ref", "hyp"))
    return WmtXmlSet(
        source=TextColumn("source", tuple(source), origin, source_language),
        references=[
            TextColumn(_column_name(key), tuple(texts[key]), origin, target) for key in references
        ],
        systems=[
            TextColumn(_column_name(key), tuple(texts[key]), origin, target) for key in systems
        ],
        documents=tuple(document_ids),
        segment_ids=tuple(segment_ids),
        notes=notes,
    )


def _parse(data: bytes, origin: str) -> ET.Element:
    """The root element; entity declarations and malformed XML are refused with their line."""
    text = decode(data, origin)
    refuse_nul(text, origin)
    try:
        return defusedxml.ElementTree.fromstring(text)
    except defusedxml.DefusedXmlException:
        declaration = text.find("<!ENTITY")
        raise InputError(
            "XML entity declarations are not accepted (they can expand to gigabytes or read "
            "other files)",
            origin=origin,
            line=text.count("\n", 0, declaration) + 1 if declaration >= 0 else None,
            hint="Remove the DOCTYPE block (<!DOCTYPE ... [ ... ]>); WMT XML test sets do not "
            "need one.",
        ) from None
    except ET.ParseError as error:
        line, column = error.position
        if error.code == BAD_CHARACTER_REFERENCE:
            raise _reference_error(text, line, column, origin) from None
        raise InputError(
            f"this is not well-formed XML ({str(error).split(':')[0]})",
            origin=origin,
            line=line,
            column=column + 1,
            hint="Check that every tag is closed and that & and < in texts are written as "
            "&amp; and &lt;.",
        ) from None


def _reference_error(text: str, line: int, column: int, origin: str) -> InputError:
    """The parser's "reference to invalid character number" at ``line`` and 0-based ``column``
    (where the reference starts) in the words of the other readers."""
    reference = REFERENCE.match(text.split("\n")[line - 1], column)
    problem = "this character reference names no character"
    if reference is not None:
        digits = reference.group(1)
        code_point = int(digits[1:], 16) if digits[:1] in "xX" else int(digits)
        why = reference_problem(code_point) or "XML does not allow this character"
        problem = f"{reference.group(0)}: {why}"
    return InputError(problem, origin=origin, line=line, column=column + 1, hint=XML_REFERENCE_HINT)


def _names(documents: list[ET.Element], tag: str, origin: str) -> list[tuple[str, str]]:
    """(tag, translator or system) pairs in order of first appearance."""
    attribute = "translator" if tag == "ref" else "system"
    found: dict[tuple[str, str], None] = {}
    for doc in documents:
        for element in doc.findall(tag):
            name = element.get(attribute, "")
            if tag == "hyp" and not name:
                raise InputError(
                    f"document {doc.get('id')!r} has a <hyp> without a system attribute",
                    origin=origin,
                    hint='Name every system output: <hyp system="...">.',
                )
            found[tag, name] = None
    return list(found)


def _declared_language(documents: list[ET.Element], tags: tuple[str, ...]) -> str | None:
    """The one lang= value every element of these tags carries (lowercased), else None: a file
    that mixes languages, or leaves some out, declares nothing we could rely on."""
    values = {
        (element.get("lang") or "").strip().lower()
        for doc in documents
        for tag in tags
        for element in doc.findall(tag)
    }
    return values.pop() or None if len(values) == 1 else None


def _column_name(key: tuple[str, str]) -> str:
    tag, name = key
    if tag == "hyp":
        return name
    return f"ref-{name}" if name else "ref"


def _segments(element: ET.Element, what: str, doc_id: str, origin: str) -> dict[str, str]:
    """Segment id -> text of one <src>, <ref> or <hyp>."""
    segments: dict[str, str] = {}
    for seg in element.iter("seg"):
        seg_id = seg.get("id")
        if seg_id is None or seg_id in segments:
            problem = "a <seg> without an id" if seg_id is None else f"segment id {seg_id} twice"
            raise InputError(
                f"document {doc_id!r}: the {what} has {problem}",
                origin=origin,
                hint="Every <seg> needs an id that is unique within its document.",
            )
        segments[seg_id] = "".join(seg.itertext())
    return segments


def _source_segments(doc: ET.Element, doc_id: str, origin: str) -> dict[str, str]:
    sources = doc.findall("src")
    if len(sources) != 1:
        raise InputError(
            f"document {doc_id!r} has {len(sources)} <src> elements instead of one",
            origin=origin,
            hint="Every <doc> needs exactly one <src> with the source segments.",
        )
    return _segments(sources[0], "source", doc_id, origin)


def _translations(
    doc: ET.Element, doc_id: str, origin: str
) -> dict[tuple[str, str], dict[str, str]]:
    """(tag, name) -> segments for every <ref> and <hyp> of one document."""
    translations: dict[tuple[str, str], dict[str, str]] = {}
    for tag, attribute in (("ref", "translator"), ("hyp", "system")):
        for element in doc.findall(tag):
            key = (tag, element.get(attribute, ""))
            if key in translations:
                raise InputError(
                    f"document {doc_id!r} has two {_describe(key)}s",
                    origin=origin,
                    hint="Keep one translation per translator or system and document.",
                )
            translations[key] = _segments(element, _describe(key), doc_id, origin)
    return translations


def _aligned(
    translation: dict[str, str] | None,
    source: dict[str, str],
    key: tuple[str, str],
    doc_id: str,
    origin: str,
) -> list[str]:
    """The translation in source order; it must have exactly the source's segment ids."""
    tag = key[0]
    hint = (
        "Remove that system, or the document, from the file."
        if tag == "hyp"
        else "Remove that reference, or the document, from the file."
    )
    if translation is None:
        raise InputError(
            f"document {doc_id!r} has no {_describe(key)}",
            origin=origin,
            hint=f"An empty translation would silently lower the scores. {hint}",
        )
    missing = [seg_id for seg_id in source if seg_id not in translation]
    extra = [seg_id for seg_id in translation if seg_id not in source]
    if missing or extra:
        problem = (
            f"lacks segment {missing[0]}"
            if missing
            else f"has segment {extra[0]}, not in the source"
        )
        raise InputError(
            f"document {doc_id!r}: the {_describe(key)} {problem}", origin=origin, hint=hint
        )
    return [translation[seg_id] for seg_id in source]


def _describe(key: tuple[str, str]) -> str:
    tag, name = key
    if tag == "hyp":
        return f"hypothesis of system {name!r}"
    return f"reference by translator {name!r}" if name else "reference"
