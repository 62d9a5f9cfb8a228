"""The closed vocabulary of things memory may hold, and the one place they are rendered.

Every belief starts as a :class:`Claim`: a kind from :data:`CLAIM_KINDS` plus short string values.
Extractors (deterministic or provider-assisted) may only choose a kind and values; the canonical
sentence a person reads is rendered here, by local code, so a model can never author the wording
of a memory (ADR-0057 decision 3). Values are normalized on the way in (casefold, collapsed
whitespace, no surrounding punctuation, articles dropped and obvious plurals singularized where a
field is a category rather than a proper name) so that two claims compare equal exactly when a
careful reader would call them the same fact, and evaluation can score them without a model
judge.

Values are all strings or ``None`` so that one flat JSON schema (:func:`claim_json_schema`) can
constrain a provider's structured output.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Literal

import msgspec

from agentmem.errors import InvalidInput

__all__ = [
    "CANDIDATE_STATUSES",
    "CLAIM_KINDS",
    "DIETS",
    "LANGUAGE_LEVELS",
    "POLARITIES",
    "PORTABILITIES",
    "RELATIONS",
    "VALUE_FIELDS",
    "Claim",
    "ClaimKind",
    "Evidence",
    "MemoryCandidate",
    "claim_json_schema",
    "make_candidate",
    "normalize_claim",
    "normalize_value",
    "render_statement",
    "statement_is_local",
]

#: ``AFFIRMED``: the cited user text itself states the claim as a present fact (this includes a
#: possessive mention such as "my daughter starts school", which the user really said).
#: ``PROPOSED``: plausible from the text but not stated; the service decides whether it may form.
CANDIDATE_STATUSES: Final = ("AFFIRMED", "PROPOSED")
#: ``portable``: true of the user anywhere; ``local``: true of the work in one scope only.
PORTABILITIES: Final = ("portable", "local")

RELATIONS: Final = (
    "daughter",
    "son",
    "child",
    "stepdaughter",
    "stepson",
    "stepchild",
    "grandchild",
    "granddaughter",
    "grandson",
    "partner",
    "spouse",
    "wife",
    "husband",
    "girlfriend",
    "boyfriend",
    "fiance",
    "fiancee",
    "parent",
    "mother",
    "father",
    "stepmother",
    "stepfather",
    "grandparent",
    "grandmother",
    "grandfather",
    "sibling",
    "sister",
    "brother",
    "half-sister",
    "half-brother",
    "niece",
    "nephew",
    "aunt",
    "uncle",
    "cousin",
    "mother-in-law",
    "father-in-law",
    "daughter-in-law",
    "son-in-law",
    "sister-in-law",
    "brother-in-law",
)
POLARITIES: Final = ("likes", "dislikes", "prefers")
DIETS: Final = (
    "vegetarian",
    "vegan",
    "pescatarian",
    "flexitarian",
    "keto",
    "paleo",
    "halal",
    "kosher",
    "gluten-free",
    "dairy-free",
    "low-carb",
)
#: ``None`` (no level) means "speaks"; the others are stated levels.
LANGUAGE_LEVELS: Final = ("native", "fluent", "learning")

# Relations a person usually has exactly one of at a time render as "a wife"; the others as
# "at least one daughter", because one mention never tells how many there are.
_SINGULAR_RELATIONS: Final = frozenset(
    {
        "partner",
        "spouse",
        "wife",
        "husband",
        "girlfriend",
        "boyfriend",
        "fiance",
        "fiancee",
        "mother",
        "father",
        "stepmother",
        "stepfather",
        "mother-in-law",
        "father-in-law",
    }
)

_RELATION_SYNONYMS: Final = {
    "girl": "daughter",
    "girls": "daughter",
    "boy": "son",
    "boys": "son",
    "kid": "child",
    "kids": "child",
    "children": "child",
    "mom": "mother",
    "mum": "mother",
    "mommy": "mother",
    "mummy": "mother",
    "mam": "mother",
    "mammy": "mother",
    "mama": "mother",
    "dad": "father",
    "daddy": "father",
    "papa": "father",
    "hubby": "husband",
    # "me da turns 70", "my pawpaw Earl", "my MIL is staying with us"
    "da": "father",
    "pawpaw": "grandfather",
    "mawmaw": "grandmother",
    "memaw": "grandmother",
    "mil": "mother-in-law",
    "fil": "father-in-law",
    "other half": "partner",
    "better half": "partner",
    "little one": "child",
    "little ones": "child",
    "cousin brother": "cousin",
    "cousin sister": "cousin",
    "cousin brothers": "cousin",
    "cousin sisters": "cousin",
    "husbnd": "husband",
    "hubs": "husband",
    "bf": "boyfriend",
    "gf": "girlfriend",
    "kiddo": "child",
    "kiddos": "child",
    "wifey": "wife",
    "missus": "wife",
    "wives": "wife",
    "fiancé": "fiance",
    "fiancée": "fiancee",
    "grandma": "grandmother",
    "granny": "grandmother",
    "gran": "grandmother",
    "nana": "grandmother",
    # the words people use for family in their own language, inside English chat
    "mamma": "mother",
    "nanay": "mother",
    "inay": "mother",
    "ammi": "mother",
    "amma": "mother",
    "tatay": "father",
    "abbu": "father",
    "appa": "father",
    "nan": "grandmother",
    "nanna": "grandmother",
    "nani": "grandmother",
    "dadi": "grandmother",
    "abuela": "grandmother",
    "abuelita": "grandmother",
    "oma": "grandmother",
    "nonna": "grandmother",
    "babcia": "grandmother",
    "babushka": "grandmother",
    "lola": "grandmother",
    "lolo": "grandfather",
    "dedushka": "grandfather",
    "auntie": "aunt",
    "aunty": "aunt",
    "tita": "aunt",
    "tia": "aunt",
    "tía": "aunt",
    "tio": "uncle",
    "tío": "uncle",
    "tito": "uncle",
    "akka": "sister",
    "sis": "sister",
    "bro": "brother",
    "didi": "sister",
    "bhaiya": "brother",
    "abuelo": "grandfather",
    "opa": "grandfather",
    "nonno": "grandfather",
    "dziadek": "grandfather",
    "grandpa": "grandfather",
    "granddad": "grandfather",
    "grandad": "grandfather",
    "grandkid": "grandchild",
    "grandkids": "grandchild",
    "grandchildren": "grandchild",
    "stepmom": "stepmother",
    "stepmum": "stepmother",
    "stepdad": "stepfather",
    "stepkid": "stepchild",
    "stepkids": "stepchild",
    "stepchildren": "stepchild",
    "half sister": "half-sister",
    "half sisters": "half-sister",
    "half brother": "half-brother",
    "half brothers": "half-brother",
}
_DIET_SYNONYMS: Final = {
    # the misspellings people type ("im vegeterian btw")
    **dict.fromkeys(("vegeterian", "vegitarian", "vegatarian", "vegetarien"), "vegetarian"),
    "pescaterian": "pescatarian",
    "veggie": "vegetarian",
    "veg": "vegetarian",
    "vegetarianism": "vegetarian",
    "veganism": "vegan",
    "pescetarian": "pescatarian",
    "gluten free": "gluten-free",
    "glutenfree": "gluten-free",
    "dairy free": "dairy-free",
    "low carb": "low-carb",
    "ketogenic": "keto",
    "coeliac": "gluten-free",
    "celiac": "gluten-free",
}
_LEVEL_SYNONYMS: Final = {
    "mother tongue": "native",
    "first language": "native",
    "native speaker": "native",
    "fluently": "fluent",
    "learner": "learning",
    "beginner": "learning",
}
_POLARITY_SYNONYMS: Final = {
    "like": "likes",
    "love": "likes",
    "loves": "likes",
    "enjoy": "likes",
    "enjoys": "likes",
    "dislike": "dislikes",
    "hate": "dislikes",
    "hates": "dislikes",
    "prefer": "prefers",
}
_SPECIES_SYNONYMS: Final = {
    "puppy": "dog",
    "pup": "dog",
    "doggo": "dog",
    "pupper": "dog",
    "tiel": "cockatiel",
    "kitten": "cat",
    "kitty": "cat",
    "bunny": "rabbit",
    "budgie": "parakeet",
    "budgy": "parakeet",  # "budgies" made singular
    "budgerigar": "parakeet",
    "pony": "horse",
    "mare": "horse",
    "gelding": "horse",
    "stallion": "horse",
    "betta": "fish",
    "hen": "chicken",
    "tabby": "cat",
    "moggy": "cat",
    "colly": "dog",
    **dict.fromkeys(
        (
            "beagle",
            "labrador",
            "retriever",
            "poodle",
            "dachshund",
            "corgi",
            "husky",
            "pug",
            "terrier",
            "collie",
            "spaniel",
            "chihuahua",
            "bulldog",
            "greyhound",
            "whippet",
            "schnauzer",
            "rottweiler",
            "labradoodle",
            "cockapoo",
            "shih tzu",
            "pomeranian",
            "dalmatian",
            "yorkie",
            "westie",
            "staffie",
            "staffy",
            "pitbull",
            "pit bull",
            "goldendoodle",
            "bernedoodle",
            "cavapoo",
            "maltipoo",
            "lurcher",
            "mutt",
            "vizsla",
            "shiba",
            "shiba inu",
            "akita",
            "samoyed",
            "french bulldog",
            "frenchie",
            "frenchy",
            "shih tzus",
            "doggy",
            "doggie",
            # "my two cockers pip and rosie", "our jack russell"
            "cocker",
            "jack russell",
            # "my podengo named Faísca", "a galgo from the rescue"
            "podengo",
            "podenco",
            "galgo",
            "dobermann",
            "doberman",
            "mastiff",
            "weimaraner",
            "ridgeback",
            "basenji",
            "bloodhound",
            "cockerpoo",
            "sprocker",
            "kelpie",
        ),
        "dog",
    ),
    # "I've got a lop called Clover"
    "lop": "rabbit",
    "german shepherd": "dog",
    **dict.fromkeys(("maine coon", "ragdoll", "sphynx", "tortie", "calico"), "cat"),
    "african grey": "parrot",
}
# ".NET version" loses its dot to the phrase rules: "net" is .NET, spelled "dotnet"
_SUBJECT_WORDS: Final = {"db": "database", "repo": "repository", "net": "dotnet"}
# "commit message style", "commit messages", "commit format": one setting, the convention
# commits are written in
_COMMIT_SETTINGS: Final = {
    f"commit{middle}{head}": "commit convention"
    for middle in ("", " message", " messages")
    for head in ("", " style", " convention", " conventions", " format")
    if middle or head
}
_SUBJECT_PURPOSES: Final = frozenset({"prs", "mrs", "merges", "features", "releases"})
_LANGUAGE_SYNONYMS: Final = {"farsi": "persian", "mandarin chinese": "mandarin"}

_IRREGULAR_PLURALS: Final = {
    "mice": "mouse",
    "geese": "goose",
    "children": "child",
    "teeth": "tooth",
    "feet": "foot",
    "tomatoes": "tomato",
    "potatoes": "potato",
    "mangoes": "mango",
    "wolves": "wolf",
    "knives": "knife",
    "leaves": "leaf",
    "halves": "half",
}
# Words that end in "s" but are not plurals; singularizing them would change the fact.
_NOT_PLURAL: Final = frozenset(
    {
        "asparagus",
        "bus",
        "citrus",
        "gas",
        "hummus",
        "lens",
        "molasses",
        "series",
        "species",
        "sulfites",
        "hibiscus",
        "octopus",
        "walrus",
        "news",
        "peas",
    }
)

_ARTICLES: Final = frozenset({"a", "an", "the"})
_SUBJECT_DETERMINERS: Final = frozenset(
    {
        "a",
        "an",
        "the",
        "our",
        "my",
        "this",
        "that",
        "current",
        "project's",
        "repo's",
        "repository's",
        "codebase's",
        "app's",
        "service's",
        "team's",
    }
)
# Stripped from both ends of every value: whitespace, quotes, backticks, brackets and sentence
# punctuation. Internal punctuation ("3.12", "o'brien", "st. mary's") is kept.
_STRIP_CHARS: Final = " \t\r\n\"'`“”‘’.,;:!?()[]{}<>*_"
_MAX_VALUE_CHARS: Final = 120
_NAME_RE: Final = re.compile(r"^[^\W\d_]+(?:[ '\-.][^\W\d_]+)*\.?$")
_PLAIN_RE: Final = re.compile(r"^[^\x00-\x1f\x7f]+$")


class ClaimKind(msgspec.Struct, frozen=True, kw_only=True):
    """Metadata of one claim kind.

    ``conflict_fields`` plus the kind form the conflict key: two claims with the same conflict
    key but different values cannot both hold, so the later one supersedes the earlier (a
    single-valued kind has no conflict fields at all; ``preference`` keys on ``object`` so a flipped
    polarity supersedes). Claims of multi-valued kinds conflict only with identical claims, which
    the service merges as duplicates.
    """

    name: str
    fields: tuple[str, ...]
    nullable: tuple[str, ...] = ()
    single_valued: bool = False
    conflict_fields: tuple[str, ...]
    portability: Literal["portable", "local"] = "portable"
    base_salience: float
    description: str


def _kind(
    name: str,
    fields: tuple[str, ...],
    *,
    conflict: tuple[str, ...] | None = None,
    nullable: tuple[str, ...] = (),
    single: bool = False,
    portability: Literal["portable", "local"] = "portable",
    salience: float,
    description: str,
) -> ClaimKind:
    return ClaimKind(
        name=name,
        fields=fields,
        nullable=nullable,
        single_valued=single,
        conflict_fields=fields if conflict is None else conflict,
        portability=portability,
        base_salience=salience,
        description=description,
    )


#: The closed set of claim kinds, in a fixed order (it is also the order of the schema's enum).
CLAIM_KINDS: Final[Mapping[str, ClaimKind]] = {
    k.name: k
    for k in (
        _kind(
            "name",
            ("name",),
            conflict=(),
            single=True,
            salience=0.9,
            description="the user's own name",
        ),
        _kind(
            "preferred_name",
            ("name",),
            conflict=(),
            single=True,
            salience=0.9,
            description="what the user asks to be called",
        ),
        _kind(
            "relationship",
            ("relation", "name"),
            nullable=("name",),
            salience=0.8,
            description="a family member or partner of the user; name only when the user gave it",
        ),
        _kind(
            "pet",
            ("species", "name"),
            nullable=("name",),
            salience=0.6,
            description="an animal the user keeps; species singular, name only when given",
        ),
        _kind(
            "home_location",
            ("place",),
            conflict=(),
            single=True,
            salience=0.7,
            description="where the user lives now, as the user named it",
        ),
        _kind(
            "occupation",
            ("role",),
            conflict=(),
            single=True,
            salience=0.7,
            description="the user's current job title, without article",
        ),
        _kind(
            "employer",
            ("org",),
            conflict=(),
            single=True,
            salience=0.7,
            description="the organization the user works at now",
        ),
        _kind(
            "preference",
            ("polarity", "object"),
            conflict=("object",),
            salience=0.5,
            description="something the user likes, dislikes or prefers, as a noun phrase",
        ),
        _kind(
            "diet",
            ("diet",),
            conflict=(),
            single=True,
            salience=0.7,
            description="the diet the user follows",
        ),
        _kind(
            "allergy",
            ("allergen",),
            salience=0.9,
            description="something the user is allergic to, singular",
        ),
        _kind(
            "language",
            ("language", "level"),
            conflict=("language",),
            nullable=("level",),
            salience=0.6,
            description="a language the user speaks; level only when the user stated it",
        ),
        _kind(
            "working_state",
            ("subject", "value"),
            conflict=("subject",),
            single=True,
            portability="local",
            salience=0.6,
            description=(
                "a fact the user established or confirmed for the ongoing work "
                "(ADR-0069), e.g. subject 'deploy branch', value 'release'"
            ),
        ),
    )
}

#: Every value field of every kind, in first-use order: the flat ``values`` object of the schema.
VALUE_FIELDS: Final[tuple[str, ...]] = tuple(
    dict.fromkeys(f for k in CLAIM_KINDS.values() for f in k.fields)
)

# Fields whose values come from a closed set; exposed as enums in the provider schema.
_CLOSED_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    "relation": RELATIONS,
    "polarity": POLARITIES,
    "diet": DIETS,
    "level": LANGUAGE_LEVELS,
}


# --- normalization ---------------------------------------------------------------------------


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    text = " ".join(text.split()).strip(_STRIP_CHARS)
    return " ".join(text.casefold().split())


def _drop_leading(text: str, words: frozenset[str]) -> str:
    tokens = text.split()
    while len(tokens) > 1 and tokens[0] in words:
        tokens = tokens[1:]
    return " ".join(tokens)


def _singular_word(word: str) -> str:
    if word in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[word]
    if word in _NOT_PLURAL or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _singular_phrase(text: str) -> str:
    tokens = text.split()
    if not tokens:
        return text
    last = tokens[-1]
    while (single := _singular_word(last)) != last:
        last = single
    return " ".join([*tokens[:-1], last])


def _name(raw: str) -> str:
    value = _clean(raw)
    if not _NAME_RE.match(value) or len(value.split()) > 4:
        raise InvalidInput(f"not a plausible personal name: {raw!r}")
    return value


def _phrase(raw: str, *, max_words: int) -> str:
    value = _clean(raw)
    if not _PLAIN_RE.match(value) or len(value.split()) > max_words:
        raise InvalidInput(f"value must be at most {max_words} words on one line: {raw!r}")
    if not any(ch.isalnum() for ch in value):
        raise InvalidInput(f"value has no letters or digits: {raw!r}")
    return value


def _closed(raw: str, allowed: tuple[str, ...], synonyms: Mapping[str, str], what: str) -> str:
    value = _clean(raw).replace("_", "-")
    value = synonyms.get(value, value)
    if value not in allowed:
        singular = _singular_phrase(value)
        value = synonyms.get(singular, singular)
    if value not in allowed:
        raise InvalidInput(f"unknown {what} {raw!r}; expected one of: {', '.join(allowed)}")
    return value


def _relation(raw: str) -> str:
    value = _clean(raw).replace("step-", "step").replace("grand-", "grand")
    value = re.sub(r"[\s-]+in[\s-]+laws?$", "-in-law", value)
    value = re.sub(r"s-in-law$", "-in-law", value)
    return _closed(value, RELATIONS, _RELATION_SYNONYMS, "relation")


def _species(raw: str) -> str:
    value = _singular_phrase(_drop_leading(_phrase(raw, max_words=3), _ARTICLES))
    # "corgis", "shih tzus": a breed's plural the generic rule leaves alone ("-is", "-us" words
    # are often singular)
    if value not in _SPECIES_SYNONYMS and value.endswith("s") and value[:-1] in _SPECIES_SYNONYMS:
        value = value[:-1]
    return _SPECIES_SYNONYMS.get(value, value)


def _allergen(raw: str) -> str:
    value = _singular_phrase(_drop_leading(_phrase(raw, max_words=4), _ARTICLES))
    # "allergic to penicilin": a long allergen name one keystroke from a common one is that one
    if len(value) >= 7 and value not in _COMMON_ALLERGENS:
        for known in _COMMON_ALLERGENS:
            if _one_edit(value, known):
                return known
    return value


_COMMON_ALLERGENS: Final = frozenset(
    [
        "penicillin",
        "amoxicillin",
        "ibuprofen",
        "shellfish",
        "sulfonamide",
        "sulfa",
        "codeine",
        "morphine",
        "cephalosporin",
        "erythromycin",
        "tetracycline",
        "lactose",
        "histamine",
    ]
)


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by one insertion, deletion or substitution."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i + (len(a) == len(b)) :] == b[i + 1 :]


# Abbreviated job titles people type, spelled out, so "backend dev" and "backend developer" are
# one fact. Titles whose expansion is ambiguous (PM: product or project manager) stay as typed.
_ROLE_WORDS: Final = {
    "dev": "developer",
    "devs": "developer",
    "eng": "engineer",
    "swe": "software engineer",
    "sde": "software engineer",
    "brickie": "bricklayer",
    "sparky": "electrician",
    "sparkie": "electrician",
}


# "teacher of mathematics" is the "mathematics teacher" (a subject after the head, as many
# languages put it)
_SUBJECT_TITLE = re.compile(
    r"^(?P<head>teacher|professor|lecturer|tutor|instructor) of (?P<subject>\w+)$"
)


def _role(raw: str) -> str:
    words = _drop_leading(_phrase(raw, max_words=6), _ARTICLES).split()
    value = " ".join(_ROLE_WORDS.get(w, w) for w in words)
    if m := _SUBJECT_TITLE.match(value):
        value = f"{m.group('subject')} {m.group('head')}"
    return value


def _object(raw: str) -> str:
    return _drop_leading(_phrase(raw, max_words=8), _ARTICLES)


def _subject(raw: str) -> str:
    # "db is mysql 8", "the staging db": one subject, however it is abbreviated
    words = _drop_leading(_phrase(raw, max_words=8), _SUBJECT_DETERMINERS).split()
    # "base branch for PRs": what the branch is for names no other branch
    if len(words) > 2 and words[-2] == "for" and words[-1] in _SUBJECT_PURPOSES:
        words = words[:-2]
    # "expo sdk 51": the sdk setting names its version
    if len(words) > 2 and words[-2:] == ["sdk", "version"]:
        words = words[:-1]
    # "prod deploys from release": the deploy branch is the one that deploys to production
    if len(words) == 3 and words[0] in ("prod", "production") and words[1:] == ["deploy", "branch"]:
        words = words[1:]
    subject = " ".join(_SUBJECT_WORDS.get(part, part) for w in words for part in _glued(w))
    return _COMMIT_SETTINGS.get(subject, subject)


# "minsdk", "targetSdk", "compile sdk": an Android build key typed glued or spaced is one setting
_GLUED_KEY = re.compile(r"(min|max|target|compile)(sdk)")


def _glued(word: str) -> tuple[str, ...]:
    """A glued build key as its words ("minsdk" -> "min", "sdk"); any other word as it is."""
    if (m := _GLUED_KEY.fullmatch(word)) is not None:
        return m.groups()
    return (word,)


def _language(raw: str) -> str:
    value = _phrase(raw, max_words=3).removesuffix(" language")
    return _LANGUAGE_SYNONYMS.get(value, value)


# "unity 2022.3 LTS", "node 20 lts": a release line's support tag after its number names the
# same version as the number alone
_LTS_TAG: Final = re.compile(r"(?<=\d)\s+lts$")


_NORMALIZERS: Final[dict[tuple[str, str], Callable[[str], str]]] = {
    ("name", "name"): _name,
    ("preferred_name", "name"): _name,
    ("relationship", "relation"): _relation,
    ("relationship", "name"): _name,
    ("pet", "species"): _species,
    ("pet", "name"): _name,
    ("home_location", "place"): lambda v: _phrase(v, max_words=8),
    ("occupation", "role"): _role,
    ("employer", "org"): lambda v: _phrase(v, max_words=8),
    ("preference", "polarity"): lambda v: _closed(v, POLARITIES, _POLARITY_SYNONYMS, "polarity"),
    ("preference", "object"): _object,
    ("diet", "diet"): lambda v: _closed(v, DIETS, _DIET_SYNONYMS, "diet"),
    ("allergy", "allergen"): _allergen,
    ("language", "language"): _language,
    ("language", "level"): lambda v: _closed(v, LANGUAGE_LEVELS, _LEVEL_SYNONYMS, "level"),
    ("working_state", "subject"): _subject,
    ("working_state", "value"): lambda v: _LTS_TAG.sub("", _phrase(v, max_words=12)),
}


def normalize_value(kind: str, field: str, raw: str) -> str:
    """Normalize one value of ``kind``; idempotent, raises :class:`InvalidInput` when invalid."""
    # Every claim is normalized at least twice (by its extractor, then again when the Claim is
    # built) and sessions repeat their values; only plain strings are cached so that anything
    # else fails exactly as before (an unhashable value must not turn into a TypeError).
    if type(kind) is str and type(field) is str and type(raw) is str:
        return _normalize_value_cached(kind, field, raw)
    return _normalize_value(kind, field, raw)


def _normalize_value(kind: str, field: str, raw: str) -> str:
    normalizer = _NORMALIZERS.get((kind, field))
    if normalizer is None:
        raise InvalidInput(f"claim kind {kind!r} has no value field {field!r}")
    if not isinstance(raw, str):
        raise InvalidInput(f"{kind}.{field} must be a string, not {type(raw).__name__}")
    if len(raw) > _MAX_VALUE_CHARS * 2 or not _clean(raw):
        raise InvalidInput(f"{kind}.{field} must be 1 to {_MAX_VALUE_CHARS} characters: {raw!r}")
    value = normalizer(raw)
    for _ in range(4):
        # a step can expose more to strip ("00:s" singularizes to "00:"): run to a fixed point
        if value == (value := normalizer(value)):
            break
    else:
        raise InvalidInput(f"{kind}.{field} has no stable normal form: {raw!r}")
    if not value or len(value) > _MAX_VALUE_CHARS:
        raise InvalidInput(f"{kind}.{field} must be 1 to {_MAX_VALUE_CHARS} characters: {raw!r}")
    return value


# Invalid values raise and are not cached; valid ones are at most 240 characters.
_normalize_value_cached = functools.lru_cache(maxsize=4096)(_normalize_value)


def normalize_claim(kind: str, values: Mapping[str, str | None]) -> Claim:
    """Validate and normalize a kind and its values into a :class:`Claim`.

    ``values`` may be the flat object of :func:`claim_json_schema`: fields that belong to other
    kinds are accepted only when ``None``. A nullable field of the kind may be missing.
    """
    spec = CLAIM_KINDS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        raise InvalidInput(
            f"unknown claim kind {kind!r}; expected one of: {', '.join(CLAIM_KINDS)}"
        )
    if not isinstance(values, Mapping):
        raise InvalidInput(f"values of a {kind} claim must be an object")
    for field, value in values.items():
        if field not in spec.fields:
            if field not in VALUE_FIELDS:
                raise InvalidInput(f"unknown value field {field!r} for claim kind {kind!r}")
            if value is not None:
                raise InvalidInput(f"value field {field!r} does not apply to a {kind} claim")
    normalized: dict[str, str | None] = {}
    for field in spec.fields:
        raw = values.get(field)
        if raw is None:
            if field not in spec.nullable:
                raise InvalidInput(f"a {kind} claim needs a value for {field!r}")
            normalized[field] = None
        else:
            normalized[field] = normalize_value(kind, field, raw)
    return Claim(kind=kind, values=normalized)


# --- structs ---------------------------------------------------------------------------------


class Claim(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One normalized fact: a kind and its values (every field of the kind present).

    Build claims with :func:`normalize_claim`; constructing or decoding one with values that are
    not already normalized raises :class:`InvalidInput`, so a stored claim is always comparable.
    ``values`` is a plain dict for a natural JSON shape: treat it as read-only.
    """

    kind: str
    values: dict[str, str | None]

    def __post_init__(self) -> None:
        spec = CLAIM_KINDS.get(self.kind)
        if spec is None:
            raise InvalidInput(f"unknown claim kind {self.kind!r}")
        if not isinstance(self.values, dict) or set(self.values) != set(spec.fields):
            raise InvalidInput(
                f"a {self.kind} claim has exactly the value fields {list(spec.fields)}, "
                f"got {list(self.values) if isinstance(self.values, dict) else self.values!r}"
            )
        if tuple(self.values) != spec.fields:
            # stored JSON may have sorted keys; keep the kind's field order so values() lines up
            ordered = {f: self.values[f] for f in spec.fields}
            msgspec.structs.force_setattr(self, "values", ordered)
        for field, value in self.values.items():
            if value is None:
                if field not in spec.nullable:
                    raise InvalidInput(f"a {self.kind} claim needs a value for {field!r}")
            elif normalize_value(self.kind, field, value) != value:
                raise InvalidInput(f"{self.kind}.{field} is not normalized: {value!r}")

    def key(self) -> tuple[str, tuple[str | None, ...]]:
        """Hashable identity: equal keys mean the same fact (duplicates merge their sources)."""
        return (self.kind, tuple(self.values[f] for f in CLAIM_KINDS[self.kind].fields))

    def conflict_key(self) -> tuple[str, tuple[str | None, ...]]:
        """Claims with equal conflict keys but different :meth:`key` cannot both hold."""
        spec = CLAIM_KINDS[self.kind]
        return (self.kind, tuple(self.values[f] for f in spec.conflict_fields))

    def implies(self, other: Claim) -> bool:
        """True when this claim entails ``other``: same kind, and every value ``other`` sets is
        equal here (``other`` may leave a nullable field unknown). "A daughter named Mia" implies
        "at least one daughter", "a postdoc in bioinformatics" a postdoc, "Woodridge, Logan"
        Logan; the converse does not hold.
        """
        if self.kind != other.kind:
            return False
        return all(
            v is None
            or self.values[f] == v
            # "a postdoc in bioinformatics" is a postdoc
            or (f == "role" and (self.values[f] or "").startswith(f"{v} in "))
            # "woodridge, logan" is in logan
            or (f == "place" and v in (p.strip() for p in (self.values[f] or "").split(",")))
            # "my mum" is one of "my parents"
            or (f == "relation" and v == "parent" and self.values[f] in _PARENTS)
            # "my wife" is "married"
            or (f == "relation" and v == "spouse" and self.values[f] in _SPOUSES)
            for f, v in other.values.items()
        )

    @property
    def single_valued(self) -> bool:
        return CLAIM_KINDS[self.kind].single_valued


_PARENTS: Final = frozenset({"mother", "father", "stepmother", "stepfather"})
_SPOUSES: Final = frozenset({"wife", "husband"})


class Evidence(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A citation: the exact substring ``quote`` of the event with sequence ``seq``."""

    seq: int
    quote: str

    def __post_init__(self) -> None:
        if isinstance(self.seq, bool) or not isinstance(self.seq, int) or self.seq < 0:
            raise InvalidInput(f"evidence seq must be a non-negative integer, got {self.seq!r}")
        if not isinstance(self.quote, str) or not self.quote.strip():
            raise InvalidInput("evidence quote must be a non-empty string")


class MemoryCandidate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A proposed belief, as an extractor hands it to the formation service.

    ``statement`` must equal :func:`render_statement` of ``claim`` (checked on construction), so
    wording is always local. Extractors leave ``scope`` and ``portability`` as ``None``; the
    service sets them with :func:`msgspec.structs.replace` and refuses a candidate that arrives
    with either already set. ``salience`` is the extractor's estimate in [0, 1].
    """

    claim: Claim
    statement: str
    status: Literal["AFFIRMED", "PROPOSED"]
    salience: float
    evidence: tuple[Evidence, ...]
    scope: str | None = None
    portability: Literal["portable", "local"] | None = None

    def __post_init__(self) -> None:
        if not statement_is_local(self):
            raise InvalidInput("a candidate's statement must be rendered locally from its claim")
        if self.status not in CANDIDATE_STATUSES:
            raise InvalidInput(f"candidate status must be one of {CANDIDATE_STATUSES}")
        if isinstance(self.salience, bool) or not 0.0 <= float(self.salience) <= 1.0:
            raise InvalidInput(f"salience must be within [0, 1], got {self.salience!r}")
        if not self.evidence:
            raise InvalidInput("a candidate cites at least one piece of evidence")
        if self.portability is not None and self.portability not in PORTABILITIES:
            raise InvalidInput(f"portability must be one of {PORTABILITIES}")


def make_candidate(
    claim: Claim,
    evidence: tuple[Evidence, ...],
    *,
    status: Literal["AFFIRMED", "PROPOSED"] = "AFFIRMED",
    salience: float | None = None,
) -> MemoryCandidate:
    """An extractor's candidate for ``claim``: statement rendered here, scope and portability
    left to the service, salience defaulting to the kind's base salience."""
    return MemoryCandidate(
        claim=claim,
        statement=render_statement(claim, [e.quote for e in evidence]),
        status=status,
        salience=CLAIM_KINDS[claim.kind].base_salience if salience is None else salience,
        evidence=evidence,
    )


# --- rendering -------------------------------------------------------------------------------

_LOWER_CONNECTORS: Final = frozenset(
    {"of", "and", "de", "da", "do", "dos", "das", "del", "di", "la", "le", "von", "van", "der"}
    | {"den", "upon", "on", "the", "y", "e", "am", "im", "sur", "for", "du", "des"}
)


def _title(value: str) -> str:
    words = []
    for i, word in enumerate(value.split(" ")):
        if i and word in _LOWER_CONNECTORS:
            words.append(word)
        else:
            words.append("-".join(p[:1].upper() + p[1:] for p in word.split("-")))
    return " ".join(words)


_YOU_SOUND: Final = (
    "uni",
    "use",
    "usu",
    "uti",
    "uro",
    "ux",
    "ui ",
    "uk",
    "us ",
    "uber",
    "eu",
    "one",
)
_SILENT_H: Final = ("hour", "honest", "honor", "honour", "heir")


def _a(noun: str) -> str:
    vowel = noun[:1] in "aeiou" and not noun.startswith(_YOU_SOUND)
    return f"an {noun}" if vowel or noun.startswith(_SILENT_H) else f"a {noun}"


#: Fields that hold a name: shown as the user wrote it when they capitalised it themselves.
_SPELLED_FIELDS: Final = ("name", "place", "org", "language", "object")
_SENTENCE_START: Final = re.compile(r"(?:^|[.!?]\s+)$")


def _user_spelling(value: str, quotes: Iterable[str]) -> str | None:
    """How the user wrote ``value`` in ``quotes`` ("PKO Bank Polski", "Python"), if they
    capitalised it deliberately: a capital that only starts a sentence proves nothing."""
    words = [re.escape(word) for word in value.split()]
    pattern = re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", re.IGNORECASE)
    for quote in quotes:
        for match in pattern.finditer(quote):
            spelled = " ".join(match.group(0).split())
            if spelled == value or spelled.lower() == spelled:
                continue
            if (
                _SENTENCE_START.search(quote[: match.start()])
                and spelled[1:] == spelled[1:].lower()
            ):
                continue
            return spelled
    return None


def statement_is_local(candidate: MemoryCandidate) -> bool:
    """Whether a candidate's statement is rendered here from its claim, with or without the
    user's spelling of names from its own evidence (never text a model wrote)."""
    return candidate.statement in (
        render_statement(candidate.claim),
        render_statement(candidate.claim, [e.quote for e in candidate.evidence]),
    )


def render_statement(claim: Claim, quotes: Iterable[str] = ()) -> str:
    """The canonical sentence for ``claim``, e.g. "User has at least one daughter".

    With the evidence ``quotes``, a name keeps the user's capitalisation ("User works at PKO
    Bank Polski", not "Pko Bank Polski"; "User likes Python"): values are normalized to lower
    case for comparison, which is no reason to misspell what the user wrote.
    """
    statement = _canonical_statement(claim)
    quotes = list(quotes)
    for field in _SPELLED_FIELDS:
        value = claim.values.get(field)
        spelled = _user_spelling(value, quotes) if value and quotes else None
        if value and spelled:
            shown = _title(value) if _title(value) in statement else value
            head, found, tail = statement.rpartition(shown)
            if found:
                statement = head + spelled + tail
    return statement


def _canonical_statement(claim: Claim) -> str:
    v = claim.values
    match claim.kind:
        case "name":
            return f"User's name is {_title(v['name'] or '')}"
        case "preferred_name":
            return f"User prefers to be called {_title(v['name'] or '')}"
        case "relationship" | "pet":
            noun = (v.get("relation") or v.get("species")) or ""
            if v["name"]:
                return f"User has {_a(noun)} named {_title(v['name'])}"
            if noun in _SINGULAR_RELATIONS:
                return f"User has {_a(noun)}"
            return f"User has at least one {noun}"
        case "home_location":
            return f"User lives in {_title(v['place'] or '')}"
        case "occupation":
            return f"User works as {_a(v['role'] or '')}"
        case "employer":
            return f"User works at {_title(v['org'] or '')}"
        case "preference":
            return f"User {v['polarity']} {v['object']}"
        case "diet":
            return f"User follows {_a(v['diet'] or '')} diet"
        case "allergy":
            return f"User has {_a(v['allergen'] or '')} allergy"
        case "language":
            language = _title(v["language"] or "")
            return {
                None: f"User speaks {language}",
                "native": f"User is a native {language} speaker",
                "fluent": f"User speaks {language} fluently",
                "learning": f"User is learning {language}",
            }[v["level"]]
        case "working_state":
            return f"For the current work, the {v['subject']} is {v['value']}"
    raise InvalidInput(f"unknown claim kind {claim.kind!r}")


# --- provider schema -------------------------------------------------------------------------


def claim_json_schema() -> dict[str, Any]:
    """JSON schema of one claim, for schema-constrained provider output.

    Values differ per kind, but structured-output engines (OpenAI strict mode, llama.cpp
    grammars) handle one flat object far more reliably than a discriminated union, so ``values``
    lists every field of every kind, all required and all nullable strings; the fields that do
    not belong to the chosen kind must be ``null`` (:func:`normalize_claim` refuses them
    otherwise). Closed-set fields carry an enum that includes ``null``.
    """
    kinds = "; ".join(
        f"{k.name}: {', '.join(k.fields)} ({k.description})" for k in CLAIM_KINDS.values()
    )
    properties: dict[str, Any] = {}
    for field in VALUE_FIELDS:
        prop: dict[str, Any] = {"type": ["string", "null"]}
        if field in _CLOSED_FIELDS:
            prop["enum"] = [*_CLOSED_FIELDS[field], None]
        properties[field] = prop
    return {
        "type": "object",
        "properties": {
            "kind": {"type": "string", "enum": list(CLAIM_KINDS)},
            "values": {
                "type": "object",
                "description": f"Fields by kind, all others null. {kinds}.",
                "properties": properties,
                "required": list(VALUE_FIELDS),
                "additionalProperties": False,
            },
        },
        "required": ["kind", "values"],
        "additionalProperties": False,
    }
