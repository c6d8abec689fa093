"""Full-size parity of METEOR's matching resources with meteor-1.5.jar (minutes; run by hand).

    .venv/bin/python scripts/meteor_oracle/parity.py stems [--vocabulary SNOWBALL_DATA_DIR]
    .venv/bin/python scripts/meteor_oracle/parity.py norm
    .venv/bin/python scripts/meteor_oracle/parity.py matches

stems: every distinct word of the shared data (as written and lowercased) and, with
--vocabulary, every word of snowball-data's lists plus 20,000 random strings per language, through
the jar's stemmer and ours. norm: every line of WMT17 en-de's reference and three systems and of
the English TED and WMT21 zh-en sets through `-norm` (with and without `-noPunct`). matches: the
candidate matches of every segment pair of a TED English system (normalised, and raw) with all
four modules on the full paraphrase table, and of a WMT17 German system with exact and stem.
Prints the counts compared and the mismatches.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from mteval_core.metrics.meteor import matchers  # noqa: E402
from mteval_core.metrics.meteor.java_strings import java_lines, java_tokenize  # noqa: E402
from mteval_core.metrics.meteor.normalizer import prepare_line  # noqa: E402
from mteval_core.metrics.meteor.resources import SNOWBALL_LANGUAGES, find_meteor_data  # noqa: E402
from mteval_core.metrics.meteor.stage import Stage  # noqa: E402
from mteval_core.metrics.meteor.stemmers import jar_stemmer  # noqa: E402

SHARED = REPO.parent / "shared" / "data"
sys.path.insert(0, str(Path(__file__).parent))
from make_fixtures import oracle, parse_matches  # noqa: E402

ENGLISH = [
    "compare-mt-ted-sk-en/ref/ref.detok.en",
    "compare-mt-ted-sk-en/sys/sys1.detok.en",
    "compare-mt-ted-sk-en/ref/ref.tok.en",
    "wmt21-newstest2021-zhen/ref/ref-A.en",
]
GERMAN = [
    "wmt17-newstest2017-ende/ref/ref.de",
    *(
        f"wmt17-newstest2017-ende/sys/{name}"
        for name in ("C-3MA.4959.de", "FBK.4870.de", "KIT.4950.de")
    ),
]


def lines_of(names: list[str]) -> list[str]:
    return [line for name in names for line in java_lines((SHARED / name).read_text("utf-8"))]


def stems(build: Path, jar: Path, vocabulary: Path | None) -> None:
    rng = random.Random(1)
    shared = {"english": lines_of(ENGLISH), "german": lines_of(GERMAN)}
    for language in SNOWBALL_LANGUAGES:
        words = {w for line in shared.get(language, []) for w in java_tokenize(line)}
        words |= {w.lower() for w in words}
        if vocabulary is not None and (vocabulary / language / "voc.txt").is_file():
            listed = (vocabulary / language / "voc.txt").read_text("utf-8").split()
            letters = sorted({c for w in listed for c in w})
            words |= set(listed)
            words |= {"".join(rng.choices(letters, k=rng.randint(1, 14))) for _ in range(20000)}
        ordered = sorted(w for w in words if java_lines(w) == [w])
        if not ordered:
            continue
        expected = java_lines(oracle(build, jar, "stem", language, stdin="\n".join(ordered) + "\n"))
        stem = jar_stemmer(language)
        differing = sum(stem(w) != e for w, e in zip(ordered, expected, strict=True))
        print(f"stems {language}: {len(ordered)} words, {differing} differ")


def norm(build: Path, jar: Path) -> None:
    data = find_meteor_data()
    for code, names in (("en", ENGLISH), ("de", GERMAN)):
        lines = lines_of(names)
        prefixes = data.nonbreaking_prefixes(code)
        for keep in (True, False):
            text = "\n".join(lines) + "\n"
            out = oracle(build, jar, "normalize", code, str(keep).lower(), "true", stdin=text)
            expected = java_lines(out)
            got = [
                prepare_line(x, code, prefixes, normalize=True, keep_punctuation=keep, lower=True)
                for x in lines
            ]
            differing = sum(a != b for a, b in zip(got, expected, strict=True))
            print(f"norm {code} keep_punctuation={keep}: {len(lines)} lines, {differing} differ")


def matches(build: Path, jar: Path) -> None:  # long: two corpora, the same steps
    data = find_meteor_data()
    english_hyp = lines_of(["compare-mt-ted-sk-en/sys/sys1.detok.en"])
    english_ref = lines_of(["compare-mt-ted-sk-en/ref/ref.detok.en"])
    prefixes = data.nonbreaking_prefixes("en")
    normalised = [
        (prepare_line(h, "en", prefixes, normalize=True, lower=True),
         prepare_line(r, "en", prefixes, normalize=True, lower=True))
        for h, r in zip(english_hyp, english_ref, strict=True)
    ]  # fmt: skip
    raw = list(zip(lines_of(["compare-mt-ted-sk-en/sys/sys2.tok.en"]),
                   lines_of(["compare-mt-ted-sk-en/ref/ref.tok.en"]), strict=True))  # fmt: skip
    german = list(zip(lines_of(["wmt17-newstest2017-ende/sys/KIT.4950.de"]),
                      lines_of(["wmt17-newstest2017-ende/ref/ref.de"]), strict=True))  # fmt: skip
    table = data.paraphrases("en")
    resources = {"stem": None, "synonym": data.synonyms("en"), "paraphrase": table}
    for language, modules, pairs in (
        ("en", "exact stem synonym paraphrase", normalised + raw),
        ("de", "exact stem", german),
    ):
        resources["stem"] = jar_stemmer("english" if language == "en" else "german")
        text = "".join(h + "\n" + r + "\n" for h, r in pairs)
        extra = [str(data.paraphrase_path("en"))] if "paraphrase" in modules else []
        expected = parse_matches(
            oracle(build, jar, "matches", language, modules, *extra, stdin=text, memory="3g")
        )
        started, differing, total = time.perf_counter(), 0, 0
        for (hypothesis, reference), wanted in zip(pairs, expected, strict=True):
            stage = Stage(java_tokenize(hypothesis), java_tokenize(reference))
            for number, module in enumerate(modules.split()):
                if module == "exact":
                    matchers.match_exact(stage, number)
                elif module == "stem":
                    matchers.match_stems(stage, number, resources["stem"])
                elif module == "synonym":
                    matchers.match_synonyms(stage, number, resources["synonym"])
                else:
                    matchers.match_paraphrases(stage, number, table)
            got = [
                [m.start, m.length, m.match_start, m.match_length, m.prob, m.module]
                for starting in stage.matches
                for m in starting
            ]
            total += len(got)
            differing += got != wanted
        seconds = time.perf_counter() - started
        print(
            f"matches {language} ({modules}): {len(pairs)} pairs, {total} matches, "
            f"{differing} pairs differ; ours {seconds:.1f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["stems", "norm", "matches"])
    parser.add_argument("--vocabulary", type=Path, help="a snowball-data checkout")
    args = parser.parse_args()
    jar = find_meteor_data().jar
    with tempfile.TemporaryDirectory() as folder:
        source = Path(__file__).with_name("MeteorOracle.java")
        command = ["javac", "-nowarn", "-d", folder, "-cp", str(jar), str(source)]
        subprocess.run(command, check=True)
        if args.what == "stems":
            stems(Path(folder), jar, args.vocabulary)
        elif args.what == "norm":
            norm(Path(folder), jar)
        else:
            matches(Path(folder), jar)


if __name__ == "__main__":
    main()
