"""The NIST mteval SGML format of the TIDES-era and WMT (until 2020) evaluations.

A file holds one set, ``<srcset>``, ``<refset>`` or ``<tstset>``, made of
``<doc docid=.. sysid=..>`` elements that contain ``<seg id=N>text</seg>`` (possibly inside
``<p>`` or ``<hl>``). Several sysids in one file are several references (or systems). Like
mteval-v13a.pl we read it with regular expressions, not an XML parser: tag names are
case-insensitive, attribute values may be unquoted, and the files are rarely well-formed XML.
Segment text is unescaped (&amp; &lt; &gt; &quot; &apos; and numeric references, each the
character it numbers, as in XML; a reference to a surrogate or to no character is refused with
its line), trimmed, and a line break inside a segment becomes a space. Other entities are never
expanded; a DOCTYPE with declarations is refused, so that a file cannot mean one thing here and
another to an XML parser.
Every pattern below runs in time linear in the file (possessive quantifiers, unclosed comments
matched to the end and then refused), because an upload must not stall the dashboard.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

from mteval_core.errors import InputError
from mteval_core.io.decoding import read_text
from mteval_core.io.strings import REFERENCE_HINT, reference_problem
from mteval_core.model.testset import TextColumn

SET_KINDS = {"srcset": "src", "refset": "ref", "tstset": "tst"}
STRUCTURE = {"mteval", "doc", "seg", "p", "hl", *SET_KINDS}

# A comment, a declaration (<!DOCTYPE ..>, <?xml ..?>), or an element tag: </ name attributes >.
# An unclosed comment or declaration runs to the end of the file and is refused by the parser.
TOKEN = re.compile(r"<!--.*?(?:-->|\Z)|<[!?][^>]*+>?|<(/?)([A-Za-z][\w.:-]*+)([^<>]*+)>", re.DOTALL)
ATTRIBUTE = re.compile(
    r"""(?<![\w.:-])([A-Za-z_][\w.:-]*+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+))"""
)
# Character references of more digits than any character has stay literal text.
ENTITY = re.compile(r"&(amp|lt|gt|quot|apos|#[0-9]{1,8}|#[xX][0-9a-fA-F]{1,8});")
NAMED_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
ENTITY_DECLARATION = re.compile(r"<!(?:ENTITY|DOCTYPE[^>\[]*\[)", re.IGNORECASE)


@dataclass(frozen=True)
class SgmlSet:
    kind: str  # 'src', 'ref', 'tst', or 'bare' (GTM 1.4's documents without a set element)
    columns: list[TextColumn]  # one per sysid, in order of first appearance, named by sysid
    documents: tuple[str, ...]  # document id of every segment
    seg_ids: tuple[str, ...]  # the id attribute of every segment


@dataclass
class _Segment:
    seg_id: str
    text: str
    line: int


@dataclass
class _Document:
    docid: str
    line: int
    segments: list[_Segment] = field(default_factory=list)


def read_sgml(data: bytes, origin: str) -> SgmlSet:
    """Read an mteval srcset, refset or tstset; every sysid must have the same segments."""
    kind, by_sysid = _Parser(read_text(data, origin), origin).parse()
    sysids = list(by_sysid)
    first = by_sysid[sysids[0]]
    for sysid in sysids[1:]:
        _check_same_documents(first, by_sysid[sysid], sysids[0], sysid, origin)
    order = [(doc, segment) for doc in first.values() for segment in doc.segments]
    columns = [
        TextColumn(
            name=sysid,
            segments=tuple(
                segment.text
                for doc in first.values()
                for segment in by_sysid[sysid][doc.docid].segments
            ),
            origin=origin,
        )
        for sysid in sysids
    ]
    return SgmlSet(
        kind=kind,
        columns=columns,
        documents=tuple(doc.docid for doc, _ in order),
        seg_ids=tuple(segment.seg_id for _, segment in order),
    )


def sgml_problem(text: str, origin: str) -> InputError | None:
    """Why ``text`` is not well-formed mteval SGML, or None when it is: how format detection
    tells documents that close from a plain file whose first segment starts with ``<doc``."""
    try:
        _Parser(text, origin).parse()
    except InputError as error:
        return error
    return None


class _Parser:
    """One pass over the tags, keeping the open document and segment."""

    def __init__(self, text: str, origin: str) -> None:
        self.text = text
        self.origin = origin
        self.newlines = [match.start() for match in re.finditer("\n", text)]
        self.kind: str | None = None
        self.set_sysid: str | None = None  # a tstset's sysid or a refset's refid
        self.by_sysid: dict[str, dict[str, _Document]] = {}
        self.doc: _Document | None = None
        self.seg: tuple[dict[str, str], int, int] | None = None  # attributes, end of tag, line

    def parse(self) -> tuple[str, dict[str, dict[str, _Document]]]:
        position = 0
        for token in TOKEN.finditer(self.text):
            self._text(position, token.start())
            position = token.end()
            closing, name = token.group(1), (token.group(2) or "").lower()
            if token.group(0).startswith(("<!", "<?")):
                self._check_declaration(token)
            if self.seg is not None and not (closing and name == "seg"):
                self._inside_segment(token, name)
            elif name in SET_KINDS and not closing:
                self._open_set(name, token)
            elif name == "doc" and closing:
                self._close_doc(token)
            elif name == "doc":
                self._open_doc(token)
            elif name == "seg" and closing:
                self._close_seg(token)
            elif name == "seg":
                self._open_seg(token)
        self._text(position, len(self.text))
        self._check_end()
        assert self.kind is not None  # _check_end refuses a file without a set
        return self.kind, self.by_sysid

    # ------------------------------------------------------------------ tags
    def _open_set(self, name: str, token: re.Match[str]) -> None:
        kind = SET_KINDS[name]
        if self.kind is not None and kind != self.kind:
            raise self._error(
                f"<{name}> in a file that already has a {self.kind}set",
                token.start(),
                "Put sources, references and system outputs in separate files.",
            )
        self.kind = kind
        attributes = self._attributes(token)
        self.set_sysid = attributes.get("sysid") or attributes.get("refid")

    def _open_doc(self, token: re.Match[str]) -> None:
        line = self._line(token.start())
        if self.kind is None:  # GTM 1.4's SGML: documents without a set element
            self.kind = "bare"
        if self.doc is not None:
            raise self._error(
                f"missing </doc> for the document {self.doc.docid!r} "
                f"opened on line {self.doc.line}",
                token.start(),
                "Close every <doc> before the next one.",
            )
        attributes = self._attributes(token)
        docid = attributes.get("docid")
        if not docid:
            raise self._error(
                "this <doc> has no docid", token.start(), 'Give it one: <doc docid="...">.'
            )
        sysid = (
            attributes.get("sysid") or self.set_sysid or ("source" if self.kind == "src" else None)
        )
        if sysid is None:
            raise self._error(
                f"the document {docid!r} has no sysid",
                token.start(),
                'Give every <doc> a sysid="..." naming the reference or system.',
            )
        documents = self.by_sysid.setdefault(sysid, {})
        if docid in documents:
            raise self._error(
                f"sysid {sysid!r} has the document {docid!r} twice "
                f"(first on line {documents[docid].line})",
                token.start(),
                "Every document id may occur once per sysid.",
            )
        self.doc = documents[docid] = _Document(docid, line)

    def _close_doc(self, token: re.Match[str]) -> None:
        if self.doc is None:
            raise self._error("</doc> without an open <doc>", token.start(), None)
        self.doc = None

    def _open_seg(self, token: re.Match[str]) -> None:
        if self.doc is None:
            raise self._error(
                "<seg> outside a <doc>", token.start(), "Put every <seg> inside a <doc>."
            )
        self.seg = (self._attributes(token), token.end(), self._line(token.start()))

    def _close_seg(self, token: re.Match[str]) -> None:
        if self.seg is None or self.doc is None:
            raise self._error("</seg> without an open <seg>", token.start(), None)
        attributes, start, line = self.seg
        seg_id = attributes.get("id") or str(len(self.doc.segments) + 1)
        if any(segment.seg_id == seg_id for segment in self.doc.segments):
            raise self._error(
                f"segment id {seg_id} occurs twice in the document {self.doc.docid!r}",
                token.start(),
                "Segment ids must be unique within a document.",
            )
        raw = self.text[start : token.start()]
        text = self._unescape(raw, start).strip(" \t\n\r").replace("\n", " ")
        self.doc.segments.append(_Segment(seg_id, text, line))
        self.seg = None

    def _check_declaration(self, token: re.Match[str]) -> None:
        """Refuse an unclosed comment or declaration, and entity declarations."""
        markup = token.group(0)
        if markup.startswith("<!--") and not markup.endswith("-->"):
            raise self._error(
                "this comment is never closed", token.start(), "End it with -->, or remove it."
            )
        if not markup.endswith(">"):
            raise self._error(
                f"{markup[:20]!r} is never closed with >",
                token.start(),
                "Write a literal < as &lt;.",
            )
        if ENTITY_DECLARATION.match(markup):
            raise self._error(
                "entity declarations (or a DOCTYPE with declarations inside [ ]) are not "
                "accepted: mteval does not expand entities, an XML parser would",
                token.start(),
                "Remove the DOCTYPE block (<!DOCTYPE ... [ ... ]>); write special characters as "
                "&amp;, &lt;, &gt; or numeric references (&#233;).",
            )

    def _inside_segment(self, token: re.Match[str], name: str) -> None:
        assert self.seg is not None
        if name in STRUCTURE:
            raise self._error(
                "missing </seg>",
                None,
                "Close every <seg> with </seg> before the next tag.",
                line=self.seg[2],
            )
        raise self._error(
            f"markup {token.group(0)[:40]!r} inside a segment",
            token.start(),
            "Write a literal < in a segment as &lt; and & as &amp;.",
        )

    def _text(self, start: int, end: int) -> None:
        """Text between tags must be inside a segment (or be blank)."""
        chunk = self.text[start:end]
        if self.seg is None and chunk.strip():
            offset = start + len(chunk) - len(chunk.lstrip())
            raise self._error(
                "text outside a <seg> element",
                offset,
                "Put all text inside <seg> elements; mteval would ignore it.",
            )

    def _check_end(self) -> None:
        if self.seg is not None:
            raise self._error("missing </seg> at the end of the file", None, None, line=self.seg[2])
        if self.doc is not None:
            raise self._error(
                f"missing </doc> for the document {self.doc.docid!r}",
                None,
                None,
                line=self.doc.line,
            )
        if self.kind is None:
            raise InputError(
                "no <srcset>, <refset> or <tstset> found",
                origin=self.origin,
                hint="This does not look like an mteval SGML file.",
            )
        if not any(doc.segments for docs in self.by_sysid.values() for doc in docs.values()):
            raise InputError(
                "the file has no <seg> elements",
                origin=self.origin,
                hint="Give every segment as <seg id=N>text</seg> inside a <doc>.",
            )

    # ------------------------------------------------------------------ helpers
    def _attributes(self, token: re.Match[str]) -> dict[str, str]:
        attributes = {}
        for match in ATTRIBUTE.finditer(token.group(3)):
            name = match.group(1)
            group = next(g for g in (2, 3, 4) if match.group(g) is not None)
            offset = token.start(3) + match.start(group)
            attributes[name.lower()] = self._unescape(match.group(group), offset)
        return attributes

    def _unescape(self, text: str, offset: int) -> str:
        """Resolve only the XML entities; other &... sequences are literal text in mteval files.
        ``offset`` is where ``text`` starts in the file, for the line of a bad reference."""

        def character(match: re.Match[str]) -> str:
            name = match.group(1)
            if name in NAMED_ENTITIES:
                return NAMED_ENTITIES[name]
            code_point = int(name[2:], 16) if name[1] in "xX" else int(name[1:])
            problem = reference_problem(code_point)
            if problem is not None:
                raise self._error(
                    f"{match.group(0)}: {problem}", offset + match.start(), REFERENCE_HINT
                )
            return chr(code_point)

        return ENTITY.sub(character, text)

    def _line(self, position: int) -> int:
        return bisect_left(self.newlines, position) + 1

    def _error(
        self, problem: str, position: int | None, hint: str | None, *, line: int | None = None
    ) -> InputError:
        if position is not None:
            line = self._line(position)
        return InputError(problem, origin=self.origin, line=line, hint=hint)


def _check_same_documents(
    first: dict[str, _Document],
    other: dict[str, _Document],
    first_sysid: str,
    sysid: str,
    origin: str,
) -> None:
    """mteval needs every sysid to cover the same documents with the same segment ids."""
    hint = "Every reference (or system) in one file must have the same documents and segments."
    for docid, doc in other.items():
        if docid not in first:
            raise InputError(
                f"sysid {sysid!r} has the document {docid!r}, which sysid {first_sysid!r} lacks",
                origin=origin,
                line=doc.line,
                hint=hint,
            )
    for docid, doc in first.items():
        mine = other.get(docid)
        if mine is None:
            raise InputError(
                f"sysid {sysid!r} has no document {docid!r} (sysid {first_sysid!r} has it here)",
                origin=origin,
                line=doc.line,
                hint=hint,
            )
        expected = [segment.seg_id for segment in doc.segments]
        found = [segment.seg_id for segment in mine.segments]
        if found != expected:
            index = next(
                (i for i, (a, b) in enumerate(zip(expected, found, strict=False)) if a != b),
                min(len(expected), len(found)),
            )
            line = mine.segments[index].line if index < len(found) else mine.line
            wanted = f"segment {expected[index]}" if index < len(expected) else "no more segments"
            got = f"segment {found[index]}" if index < len(found) else "no more segments"
            raise InputError(
                f"in document {docid!r}, sysid {sysid!r} has {got} where sysid {first_sysid!r} "
                f"has {wanted}",
                origin=origin,
                line=line,
                hint=hint,
            )
