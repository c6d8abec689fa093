"""Pin what meteor-1.5.jar itself says into tests/metrics/meteor/fixtures/ (run by hand).

    .venv/bin/python scripts/meteor_oracle/make_fixtures.py [--vocabulary SNOWBALL_DATA_DIR]

Compiles MeteorOracle.java against the jar of the installed pycocoevalcap, runs it, and writes:
stems of sampled words per language, synonym sets, Java hashes and lowercasing, `-norm` lines,
the candidate matches of sentence pairs per module (with a small paraphrase table cut from
paraphrase-en.gz so the test needs no 62 MB file, and a few pairs on the full table), and the
jar's own final alignments (`-writeAlignments`) of those pairs. The sample words come from the
shared data and, with --vocabulary (a checkout of snowballstem/snowball-data), its word lists.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from mteval_core.metrics.meteor.java_strings import java_lines, java_tokenize  # noqa: E402
from mteval_core.metrics.meteor.resources import SNOWBALL_LANGUAGES, find_meteor_data  # noqa: E402

FIXTURES = REPO / "tests" / "metrics" / "meteor" / "fixtures"
SHARED = REPO.parent / "shared" / "data"
WORDS_PER_LANGUAGE = 400


def oracle(build: Path, jar: Path, *args: str, stdin: str, memory: str = "1g") -> str:
    """Run MeteorOracle with UTF-8 input and output."""
    command = ["java", f"-Xmx{memory}", "-cp", f"{jar}:{build}", "MeteorOracle", *args]
    result = subprocess.run(command, input=stdin.encode(), capture_output=True, check=True)
    return result.stdout.decode("utf-8")


def shared_lines(*relative: str) -> list[str]:
    lines: list[str] = []
    for name in relative:
        lines += java_lines((SHARED / name).read_text(encoding="utf-8"))
    return lines


def sample_words(language: str, vocabulary: Path | None, rng: random.Random) -> list[str]:
    """Words to stem: shared-data tokens (cased and lowercased), vocabulary words, tricky cases."""
    words: set[str] = set()
    if language == "english":
        lines = shared_lines("compare-mt-ted-sk-en/ref/ref.tok.en")
    elif language == "german":
        lines = shared_lines("wmt17-newstest2017-ende/ref/ref.de")
    else:
        lines = []
    tokens = sorted({token for line in lines for token in java_tokenize(line)})
    words.update(rng.sample(tokens, min(len(tokens), WORDS_PER_LANGUAGE // 2)))
    words.update(word.lower() for word in list(words))
    if vocabulary is not None and (vocabulary / language / "voc.txt").is_file():
        entries = (vocabulary / language / "voc.txt").read_text(encoding="utf-8").split()
        words.update(rng.sample(entries, WORDS_PER_LANGUAGE))
        tricky = {
            "german": lambda w: "niss" in w,
            "russian": lambda w: "ё" in w,
            "french": lambda w: "ë" in w or "ï" in w,
            "finnish": lambda w: re.search("(siin|seen|den|tten)$", w) is not None,
        }.get(language)
        if tricky:
            chosen = [entry for entry in entries if tricky(entry)]
            words.update(rng.sample(chosen, min(len(chosen), 120)))
    return sorted(words)


def synonym_words() -> list[str]:
    lines = shared_lines("compare-mt-ted-sk-en/ref/ref.tok.en")
    tokens = sorted({t.lower() for line in lines[:400] for t in java_tokenize(line)})
    extra = "cars car automobile ran running runs happier happiest wolves mice geese studies "
    extra += "boxes churches dishes women buzzes fixed played playing bigger biggest hopeful "
    extra += "glass ox is an be abaci aardwolves went gone better best children feet teeth"
    return sorted(set(tokens) | set(extra.split()))


def normalization_lines(rng: random.Random) -> dict[str, list[str]]:
    """Lines per language: shared data for English and German, generated text for the rest."""
    lines = {
        "en": shared_lines("compare-mt-ted-sk-en/ref/ref.detok.en")[:150],
        "de": shared_lines("wmt17-newstest2017-ende/ref/ref.de")[:150],
    }
    pieces = (
        "l'homme",
        "aujourd'hui",
        "qu'il",
        "don't",
        "U.S.-based",
        "U.S.",
        "Dr.",
        "No. 5",
        "etc.",
        "...",
        "..",
        "1,000",
        "a,b",
        "3.5",
        "«guillemets»",
        "“quoted”",
        "‘single’",
        "--",
        "–",
        "e-mail",
        "20-jährige",
        "z.B.",
        "St.",
        "(paren)",
        "[x]",
        "50%",
        "$5",
        "#tag",
        "'90s",
        "Mr.",
        "ул.",
        "г.",
        "т.д.",
        "стр.",
        "Sr.",
        "pág.",
        "č.",
        "sv.",
        "mil.",
        "Ã©",
        "x'y",
    )
    words = ("casa", "Haus", "дом", "dům", "maison", "the", "und", "и", "y", "a", "ça", "über")
    for code in ("en", "de", "fr", "es", "ru", "cs"):
        made = []
        for _ in range(60):
            chosen = [rng.choice(pieces + words) for _ in range(rng.randint(1, 12))]
            made.append(rng.choice(["", " ", "\u00a0"]).join(chosen) if chosen else "")
        lines[code] = lines.get(code, []) + made
    return lines


def match_pairs() -> dict[str, list[tuple[str, str]]]:
    """Sentence pairs (hypothesis, reference): normalised and raw, English and German."""
    english = list(
        zip(
            shared_lines("compare-mt-ted-sk-en/sys/sys1.tok.en")[:60],
            shared_lines("compare-mt-ted-sk-en/ref/ref.tok.en")[:60],
            strict=True,
        )
    )
    german = list(
        zip(
            shared_lines("wmt17-newstest2017-ende/sys/KIT.4950.de")[:60],
            shared_lines("wmt17-newstest2017-ende/ref/ref.de")[:60],
            strict=True,
        )
    )
    lowered_en = [(h.lower(), r.lower()) for h, r in english[:40]]
    lowered_de = [(h.lower(), r.lower()) for h, r in german[:40]]
    return {"english": lowered_en + english[40:], "german": lowered_de + german[40:]}


def small_paraphrase_table(full: Path, pairs: list[tuple[str, str]]) -> bytes:
    """The records of the full table whose phrase and paraphrase both occur in the pairs' lines.

    Only such records can make a match, so the pairs' matches are the full table's.
    """
    phrases: set[str] = set()
    for line in (line for pair in pairs for line in pair):
        words = java_tokenize(line)
        for start in range(len(words)):
            for end in range(start + 1, min(len(words), start + 8) + 1):
                phrases.add(" ".join(words[start:end]))
    kept: list[bytes] = []
    with gzip.open(full, "rt", encoding="utf-8") as handle:
        while True:
            probability, source, target = (handle.readline() for _ in range(3))
            if not target:
                break
            source_phrase = " ".join(java_tokenize(source))
            if source_phrase in phrases and " ".join(java_tokenize(target)) in phrases:
                kept.append((probability + source + target).encode("utf-8"))
    return b"".join(kept)


def parse_matches(text: str) -> list[list[list[float]]]:
    pairs, current = [], []
    for line in java_lines(text):
        if line == "END":
            pairs.append(current)
            current = []
        else:
            start, length, match_start, match_length, prob, module = line.split()
            current.append([int(start), int(length), int(match_start), int(match_length),
                            float(prob), int(module)])  # fmt: skip
    return pairs


def final_alignments(jar: Path, pairs, modules: str, language: str, paraphrase: Path | None):
    """The jar's own chosen matches (`-writeAlignments`): [reference start, length, hypothesis
    start, length, module] per pair."""
    with tempfile.TemporaryDirectory() as folder:
        hypothesis, reference = Path(folder) / "hyp", Path(folder) / "ref"
        hypothesis.write_text("".join(h + "\n" for h, _ in pairs), encoding="utf-8")
        reference.write_text("".join(r + "\n" for _, r in pairs), encoding="utf-8")
        command = ["java", "-Xmx2g", "-jar", str(jar), str(hypothesis), str(reference)]
        command += ["-l", language, "-m", modules, "-writeAlignments", "-f", f"{folder}/out"]
        if paraphrase is not None:
            command += ["-a", str(paraphrase)]
        subprocess.run(command, capture_output=True, check=True)
        text = (Path(folder) / "out-align.out").read_text(encoding="utf-8")
    alignments: list[list[list[int]]] = []
    for line in java_lines(text):
        if line.startswith("Alignment\t"):
            alignments.append([])
        found = re.fullmatch(r"(\d+):(\d+)\t\t\t(\d+):(\d+)\t\t\t(\d+)\t\t(\S+)", line)
        if found:
            alignments[-1].append([int(found.group(k)) for k in range(1, 6)])
    return alignments


def main() -> None:  # long: one fixture after another
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocabulary", type=Path, help="a snowball-data checkout")
    args = parser.parse_args()
    data = find_meteor_data()
    jar, table = data.jar, data.paraphrase_path("en")
    FIXTURES.mkdir(parents=True, exist_ok=True)
    rng = random.Random(20250101)
    with tempfile.TemporaryDirectory() as build_folder:
        build = Path(build_folder)
        source = Path(__file__).with_name("MeteorOracle.java")
        subprocess.run(["javac", "-nowarn", "-d", str(build), "-cp", str(jar), str(source)],
                       check=True)  # fmt: skip
        stems = {}
        for language in SNOWBALL_LANGUAGES:
            words = sample_words(language, args.vocabulary, rng)
            out = java_lines(oracle(build, jar, "stem", language, stdin="\n".join(words) + "\n"))
            stems[language] = dict(zip(words, out, strict=True))
        write("stems.json", stems)

        words = synonym_words()
        out = java_lines(oracle(build, jar, "synonyms", stdin="\n".join(words) + "\n"))
        write("synonyms.json", {w: [int(x) for x in s.split()] for w, s in zip(words, out)})

        words = [*sorted({w for ws in stems.values() for w in ws})[::7], "😀x", "Aa", "BB"]
        hashes = java_lines(oracle(build, jar, "hash", stdin="\n".join(words) + "\n"))
        lowered = java_lines(oracle(build, jar, "lower", stdin="\n".join(words) + "\n"))
        write("java_strings.json", {"words": words, "hash": [int(h) for h in hashes],
                                    "lower": lowered})  # fmt: skip

        normalized = {}
        for code, lines in normalization_lines(rng).items():
            text = "\n".join(lines) + "\n"
            normalized[code] = {
                "lines": lines,
                "norm": java_lines(
                    oracle(build, jar, "normalize", code, "true", "true", stdin=text)
                ),
                "nopunct": java_lines(
                    oracle(build, jar, "normalize", code, "false", "true", stdin=text)
                ),
            }
        write("normalized.json", normalized)

        pairs = match_pairs()
        small = FIXTURES / "paraphrase-small.gz"
        small.write_bytes(gzip.compress(small_paraphrase_table(table, pairs["english"]), mtime=0))
        matches = {}
        for name, language, modules, paraphrase in (
            ("english", "en", "exact stem synonym paraphrase", small),
            ("english-paraphrase-first", "en", "paraphrase synonym stem exact", small),
            ("german", "de", "exact stem", None),
        ):
            chosen = pairs[name.split("-")[0]]
            text = "".join(h + "\n" + r + "\n" for h, r in chosen)
            extra = [str(paraphrase)] if paraphrase else []
            out = oracle(build, jar, "matches", language, modules, *extra, stdin=text)
            matches[name] = {
                "language": language,
                "modules": modules.split(),
                "pairs": chosen,
                "matches": parse_matches(out),
                "alignments": final_alignments(jar, chosen, modules, language, paraphrase),
            }
        full_pairs = pairs["english"][:20]
        text = "".join(h + "\n" + r + "\n" for h, r in full_pairs)
        out = oracle(build, jar, "matches", "en", "paraphrase", str(table), stdin=text, memory="3g")
        matches["english-full-table"] = {
            "language": "en",
            "modules": ["paraphrase"],
            "pairs": full_pairs,
            "matches": parse_matches(out),
        }
        write("matches.json", matches)


def write(name: str, value: object) -> None:
    path = FIXTURES / name
    path.write_text(json.dumps(value, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    print(f"{path.relative_to(REPO)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
