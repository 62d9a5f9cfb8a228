"""The extractor port, and the deterministic extractor behind formation policy ``formation@7``.

An extractor reads one :class:`Episode` (a session's events plus the principal's existing beliefs)
and proposes :class:`~agentmem.memory.claims.MemoryCandidate` objects; it never writes. The
formation service decides, gate by gate, what becomes a belief.

:class:`DeterministicExtractor` is the baseline every provider-assisted policy is measured
against, so its one design rule is that a fabricated memory is the worst outcome: it reads only
English first-person statements in ``user.message.created`` events of the episode's own
principal, and it drops whole sentences or messages rather than guess when they are negated,
hypothetical, questions, about third parties, reported or fictional, past, transient, hedged,
injected or credential-bearing. Every candidate cites the exact clause it came from. The same
episode always yields the same candidates in the same order.

Formation runs this on every user message of a session, so it must be cheap: each pattern that
would otherwise be searched on every message carries trigger words, and one prefilter scan per
message (:class:`~agentmem.memory.markers.LiteralPrefilter`) skips the patterns, the rules and
whole messages that cannot match. The candidates are exactly those of searching everything.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from itertools import chain
from typing import Any, Final

import msgspec

from agentmem.errors import InvalidInput
from agentmem.memory.claims import (
    CLAIM_KINDS,
    Claim,
    Evidence,
    MemoryCandidate,
    make_candidate,
    normalize_claim,
    normalize_value,
)
from agentmem.memory.episode import (
    DETERMINISTIC_POLICY,
    USER_MESSAGE,
    Episode,
    EpisodeEvent,
    MemoryCandidateExtractor,
    owned_user_messages,
)
from agentmem.memory.lexicon import (
    canonical_place,
    is_common_word,
    is_town,
    is_word_name,
    known_employer,
    multi_word_employers,
)
from agentmem.memory.markers import (
    DAYS_WORK_AFTER_COMMA,
    HOME_NOUNS,
    IT_DID,
    MARKER_TRIGGERS,
    PARENT_WORDS,
    SO_THEN_SUBJECT,
    THING_DID,
    TIMED_PREFACE,
    TIMED_SUBJECT,
    LiteralPrefilter,
    conjunct_start,
    fold,
    injection_marker,
    is_request,
    other_subject_next,
    still_fragment,
    transient_marker,
    transient_marker_at,
)

__all__ = [
    "EXTRACTOR_VERSION",
    "FORMATION_POLICY",
    "USER_MESSAGE",
    "DeterministicExtractor",
    "Episode",
    "EpisodeEvent",
    "MemoryCandidateExtractor",
    "owned_user_messages",
]

FORMATION_POLICY: Final = DETERMINISTIC_POLICY
EXTRACTOR_VERSION: Final = "deterministic-extractor/108"


# --- vocabulary -------------------------------------------------------------------------------


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_A = "['’]"
_I_AM = rf"\bi(?:{_A}?m|\s+am)"
# "Zieliński", "Łukasz", "Mực" (Vietnamese letters are Latin Extended-B and Additional); a name
# never stops inside a word: a letter outside these ranges fails the name rather than cutting it
_NAME = r"(?-i:[A-ZÀ-ÖØ-ÞĀ-ɏḀ-ỿ][A-Za-zÀ-ÖØ-öø-ÿĀ-ɏḀ-ỿ'’\-]*(?![^\W\d_]))"
_NAMES = rf"{_NAME}(?:\s*,\s*{_NAME})*(?:\s*,?\s+(?:and|&)\s+{_NAME})?"
# "Łódź", "Šiauliai": capitals of Latin Extended-A too
_PLACE_TOKEN = r"(?-i:[A-ZÀ-ÖØ-ÞŁŚŠŽŹŻĆČŘŐŰ][\wÀ-ÖØ-öø-ÿĀ-ž'’.\-]*)"
_PLACE_LINK = r"(?-i:de|da|do|dos|das|del|di|la|le|upon|on|am|im|sur|of|y|el)"
_PLACE = (
    rf"(?:(?i:the)\s+)?{_PLACE_TOKEN}(?:\s+(?:{_PLACE_LINK}\s+)?{_PLACE_TOKEN}){{0,3}}"
    # "Lekki phase 1": a numbered part of a district is part of its name
    rf"(?:\s+(?i:phase)\s+\d{{1,3}}(?![\w.]))?"
    rf"(?:,\s*(?:(?-i:[A-Z]{{2}})(?![\w.])|{_PLACE_TOKEN}(?:\s+{_PLACE_TOKEN})?(?=\s*$)))?"
)
# "iFood", "eBay": a brand's lower-case first letter before a capital
_ORG_TOKEN = r"(?-i:[A-Z0-9][\w&'’.\-+]*|[a-z][A-Z][\w&'’.\-+]*)"
_LOWER_INSTITUTION = (
    "council|hospital|university|college|bank|clinic|institute|ministry|agency|foundation"
    "|trust|authority|infirmary|academy|police|service|services|school|pharmacy|hotel|dental"
    # "nurse at leeds teaching hospitals", "physio at nuffield health"
    "|hospitals|health|healthcare"
    # "a firmware engineer at nordwind robotics": a company's trade word after its name
    "|robotics|logistics|logistik|software|systems|labs|technologies|solutions|consulting|analytics"
    "|studios|insurance|engineering|motors|pharma|networks|ventures|partners|digital|media|freight"
    # "a teacher at greenfield primary"
    "|primary|elementary|nursery|kindergarten|preschool|library|museum|hospice"
    # "a vet nurse at bayview vets", "still at globe telecom"
    "|vets|veterinary|surgery|telecom|telecoms|airlines|airways|energy|holdings"
    # "a driver for dangote cement"
    "|cement|construction|steel|petroleum|foods|breweries|textiles|mining|shipping|chemicals"
    "|aerospace|automotive|electronics|plastics"
    # "a bookkeeper at hendriks bouw": the trade word in the firm's own language
    "|bouw|bau|bygg|techniek|technik|installatie|logistiek"
)
_KNOWN_PHRASES = "|".join(re.escape(name).replace(r"\ ", r"\s+") for name in multi_word_employers())
_INSTITUTION_FIRST = (
    "hospital|clinic|cl[ií]nica|banco|universidad|universidade|colegio|escola|hotel"
    # "im head chef at trattoria lucia", "i work at padaria sousa": a shop's trade word first
    "|trattoria|osteria|pizzeria|ristorante|padaria|pastelaria|panader[ií]a|restaurante"
    "|farmacia|farm[áa]cia|taverna|boulangerie|brasserie|supermercado"
    # "maths teacher at liceo galilei": a school named in its own language
    "|liceo|istituto|scuola|lyc[ée]e|coll[èe]ge|[ée]cole|escuela|instituto|gymnasium"
    # "policy advisor at gemeente utrecht": a town's council in its own language
    "|gemeente|comune|ayuntamiento|prefeitura|municipio|mairie|stadt|kommune|kommun"
    # "nurse at the uniklinik augsburg": a German university hospital, named by its town
    "|uniklinik|universitätsklinikum|klinikum|krankenhaus"
)
# Words that end a name typed in lower case: they start the next phrase
_NOT_IN_NAME = (
    r"(?:and|but|so|since|for|as|in|at|on|near|with|where|which|who|been|im|i|we|its|it|is|was"
    r"|the|a|an|now|btw|lol|from|until|because|cos|when|while|last|this|next|every|after|before"
    r"|today|tonight|tomorrow|yesterday|too|also|already|again|pls|please|thanks|to|my|our|and"
    # "still at osteria fumo ofc"
    r"|ofc|obv|obvs|tho|haha|rn|atm|anyway|anyways)"
)
_ORG = (
    rf"(?:{_ORG_TOKEN}(?:\s+(?:(?-i:of|and|&|for|de|the|du|des|für|der|van|von|di|da|do|del|la"
    rf"|y)\s+(?-i:[A-Z][\w&'’.\-+]*)"
    rf"|{_ORG_TOKEN})){{0,4}}"
    # "a radiographer at Parirenyatwa hospital": a name, then its institution word in lower case
    rf"(?:\s+(?-i:hospital|clinic|university|college|bank|council|school|academy|institute"
    # "ship electrician at Remontowa shipyard", "at Kowalski bakery"
    rf"|shipyard|bakery|brewery|pharmacy))?"
    # "still at american express", "still at mercado libre": a known name of several words
    rf"|(?-i:{_KNOWN_PHRASES})(?![\w&'’\-])"
    # "night shifts at hospital santa maria": the institution word first, as in Portuguese,
    # Spanish or Italian (checked by _org: a word of the name must be no English word)
    rf"|(?-i:(?:{_INSTITUTION_FIRST})\s+(?:(?:de|do|da|dos|das|del|di|of)\s+)?"
    rf"(?!{_NOT_IN_NAME}\b)[a-z][a-z'’\-]+(?:\s+(?!{_NOT_IN_NAME}\b)[a-z][a-z'’\-]+)?)"
    rf"(?=\s*$|\s*[,.;!?)]|\s+{_NOT_IN_NAME}\b)"
    # typed in lower case, a name is recognisable by its institution word: "leeds city council",
    # "st james hospital" (checked by _org: the first word may not be an ordinary word)
    rf"|(?-i:[a-z][a-z&'’.\-]*(?:\s+[a-z][a-z&'’.\-]*){{0,3}}\s+(?:{_LOWER_INSTITUTION})\b)"
    # "a year 2 teacher at st marks": a saint's name is a school's, a hospital's, a parish's
    r"|(?-i:st\.?\s+[a-z][a-z'’]+)"
    # ... one word, with the short suffix of its legal or medical name ("erasmus mc", "acme ltd")
    # ("at boots same as her": the suffix a whole word)
    r"|(?-i:[a-z][a-z0-9&.\-+]{2,24}(?:\s+(?:mc|umc|ltd|plc|inc|gmbh|llc|bv|ag|nv|sa|srl|pty)\b)?))"
)
_COUNTS: Final = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_QTY = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2}|a\s+couple\s+of)"
_AGE = (
    r"(?:(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[- ]"
    # "my 3 month old kitten", "our 10 week old puppy"
    r"(?:years?|months?|weeks?)[- ]old"
    # "my 6yo beagle Rolo", "a 2 yr old staffie"
    r"|\d{1,2}\s*(?:yo|y/o|yrs?[- ]old))"
)

_REL_SURFACE = (
    # ("my son in law ravi": the in-law first, never its first word alone)
    r"(?:(?:daughter|son|mother|father|sister|brother)s?[- ]in[- ]laws?"
    r"|(?:grand|step|step-)?(?:daughters?|sons?|kids?|children|childs|child)|grandchildren"
    # "my other half snores", "my little one Ada", Indian English "my cousin brother Rahul"
    r"|(?:other|better)\s+half|little\s+ones?|cousin\s+(?:brother|sister)s?"
    r"|half[- ](?:sisters?|brothers?)|wife|wives|husbands?|hubby|husbnd|hubs|spouse|partner"
    # "my boyfriends family", "my wifes mum": a possessive typed without its apostrophe (a
    # plural of these is no one's now: "my boyfriends were all bad")
    r"|(?:girlfriend|boyfriend|wife|partner)s(?=\s+(?:family|parents|mum|mom|mother|dad|father"
    r"|sisters?|brothers?|kids|son|daughter|birthday|house|flat|place|friends?|cousins?|grandma"
    r"|gran|nan|side|folks|niece|nephew|aunt|uncle)\b)"
    r"|girlfriend|boyfriend|bf|gf|fianc[ée]e?|parents?|moms?|mums?|mams?|mommy|mummy|mammy|mothers?"
    r"|dads?|daddy"
    r"|fathers?|kiddos?|wifey|missus|twins|gran|grandad|granddad|mama|mamma|nanay|inay|ammi"
    r"|amma|tatay|abbu|appa|nan|nanna|nani|dadi|abuelita|abuela|abuelo|oma|opa|nonna|nonno"
    r"|babcia|dziadek|babushka|dedushka|lola|lolo|aunties?|aunty|titas?|t[ií]as?|t[ií]os?|titos?"
    r"|akka|didi|bhaiya|sis|bro|pawpaw|mawmaw|memaw|(?-i:MIL|FIL|mil|fil)|da(?=\s+(?:is|was|turns"
    r"|has|had|says|said|wants|loves|likes|hates|keeps|needs|and|n|&)\b)"
    r"|step(?:mom|mum|dad|mother|father)|grand(?:ma|pa|mother|father|parents?)|granny|siblings?"
    r"|sisters?|brothers?|nieces?|nephews?|aunts?|uncles?|cousins?)"
)
_REL_MOD = (
    rf"(?:little|small|smaller|smallest|tiny|big|older|younger|oldest|youngest|eldest|elder"
    rf"|baby|twin|teenage|adult|grown|other"
    rf"|grown-up|newborn|only|first|second|third|middle|lovely|wonderful|amazing|beautiful"
    rf"|sweet|dear|beloved|two|three|four|five|six|\d{{1,2}}|{_AGE})"
)
_PET_SURFACE = (
    r"(?:dogs?|pupp(?:y|ies)|cats?|kittens?|hamsters?|rabbits?|bunn(?:y|ies)|parrots?|budgies?"
    r"|parakeets?|canar(?:y|ies)|goldfish|fish|bettas?|turtles?|tortoises?|guinea\s+pigs?|horses?|mares?|geldings?|ponies|pony"
    r"|pon(?:y|ies)|snakes?|lizards?|geckos?|ferrets?|chickens?|hedgehogs?|gerbils?|iguanas?"
    r"|axolotls?|cockatiels?|beagles?|labradors?|retrievers?|poodles?|dachshunds?|corgis?"
    r"|husk(?:y|ies)|pugs?|terriers?|collies?|spaniels?|chihuahuas?|bulldogs?|greyhounds?"
    r"|whippets?|schnauzers?|rottweilers?|labradoodles?|cockapoos?|german\s+shepherds?"
    r"|tabb(?:y|ies)|kitt(?:y|ies)|moggy|pups?|doggos?|dogg(?:y|ie)s?|shih\s+tzus?|pomeranians?"
    r"|dalmatians?|yorkies?|westies?|staffies?|staffys?|pit\s*bulls?|goldendoodles?|bernedoodles?"
    r"|cavapoos?|maltipoos?|lurchers?|mutts?|vizslas?|shiba(?:\s+inu)?s?|akitas?|samoyeds?"
    r"|frenchies|frenchie|maine\s+coons?|ragdolls?|sphynx|torties?|calicos?|african\s+greys?"
    r"|cockatoos?|macaws?|sugar\s+gliders?|chinchillas?|degus?|rats?|tarantulas?|pigs?"
    r"|podengos?|podencos?|galgos?|dobermann?s?|mastiffs?|weimaraners?|ridgebacks?|basenjis?"
    r"|bloodhounds?|cockerpoos?|sprockers?|kelpies?|lops?|puppers?|tiels?|cockers?"
    r"|jack\s+russells?"
    # ("got a pygmy goat named dolly", "two donkeys, jasper and hettie", "i get two hens")
    r"|goats?|donkeys?|hens|alpacas?|llamas?)"
)
_PET_MOD = (
    # ("my real cat olive": the user's, beside a game's)
    rf"(?:old|senior|elderly|little|big|young|new|sweet|rescue|rescued|adopted|male|female|own|other"
    rf"|real|actual"
    rf"|black|white|orange|grey|gray|brown|ginger|tabby|lazy|grumpy|two|three|four|five"
    rf"|golden|cocker|german|jack|border|french|english|miniature|mini|toy|standard|springer"
    # "my corn snake Noodle", "my leopard gecko", "my bearded dragon", "my holland lop"
    rf"|corn|ball|king|milk|leopard|crested|bearded|holland|netherland|dwarf|lionhead|syrian"
    rf"|russian|siamese|persian|maine|angora|rex|fancy|pygmy"
    rf"|\d{{1,2}}|{_AGE})"
)
_SHARED_RELATIONS: Final = frozenset(
    {"mother", "father", "parent", "grandmother", "grandfather", "grandparent", "sister"}
    | {"brother", "sibling"}
)
_CHILD_RELATIONS: Final = frozenset(
    {"daughter", "son", "child", "stepdaughter", "stepson", "stepchild", "grandchild"}
    | {"granddaughter", "grandson"}
)
# What "kids" makes a genre of, apostrophe or not ("my kids story" being written)
_KIDS_GENRE: Final = frozenset(_words("story stories tale tales poem poems rhyme rhymes"))
# Words of _COMPOUND_NEXT that are what people do, not a compound, after a relative: "my kids
# eat anything" (a pet's "dog eat dog" or "cat nap" stay compounds)
_PEOPLE_DO: Final = frozenset({"eat", "fight", "fights", "fighting", "nap", "naps"})
_FEMALE: Final = frozenset(
    {"daughter", "stepdaughter", "granddaughter", "wife", "girlfriend", "fiancee", "mother"}
    | {"stepmother", "grandmother", "sister", "half-sister", "niece", "aunt", "mother-in-law"}
    | {"daughter-in-law", "sister-in-law"}
)
_MALE: Final = frozenset(
    {"son", "stepson", "grandson", "husband", "boyfriend", "fiance", "father", "stepfather"}
    | {"grandfather", "brother", "half-brother", "nephew", "uncle", "father-in-law"}
    | {"son-in-law", "brother-in-law"}
)
# A relation or pet word followed by one of these is a compound noun ("mother tongue", "parent
# company", "dog walker", "cat allergy"), not a person or an animal of the user's.
_COMPOUND_NEXT: Final = frozenset(
    _words(
        "tongue tongues figure figures company companies process processes class classes"
        " directory directories node nodes element elements component components branch branches"
        " table tables window windows theme themes site sites ship board boards joke jokes jeans"
        " ticket tickets issue issues task tasks repo repos project projects account accounts org"
        " folder folders page pages object objects record records entity entities widget widgets"
        " thread threads category categories earth nature language languages land allergy"
        " allergies walker walkers sitter sitters hair food foods video videos photo photos"
        " picture pictures meme memes person people lover lovers toy toys treats bed beds breed"
        " breeds show shows park parks friendly years days mode group groups chat chats leave"
        " support care benefits tax taxes problem problems door doors flap litter box boxes cage"
        " cages crate crates tank tanks carrier leash collar trainer training grooming groomer"
        " insurance license fur person lady guy owner owners sitting walking breeder breeders"
        " shelter shelters rescue whisperer eat fight fights fighting nap naps sanctuary cafe"
        " café cafes cafés hotel daycare shampoo hospital clinic bowl bowls treat bod plant plants"
        # "email to our fish supplier", "our chicken curry": the animal as food or trade
        " supplier suppliers market markets shop shops stall stalls counter monger mongers order"
        " orders delivery deliveries dish dishes soup stock sauce fillet fillets cakes fingers"
        " tacos curry pie stew menu farm farms"
        # "brought home a cat tree yesterday": a thing for the animal
        " tree trees tower towers scratcher scratchers gate gates harness harnesses kennel kennels"
        " hutch hutches mat mats"
        # "a goat cheese salad", "a llama model", "a donkey jacket", "a hen night": a thing
        # named after the animal
        " cheese milk meat model models jacket jackets night nights party parties do dos yoga"
        " wool sanctuary ride rides derby"
        # "my sister character is too boring": a character in the user's story
        " character characters"
    )
)
_PET_BELONGINGS: Final = frozenset(
    _words(
        "cage cages bowl bowls bed beds litter crate crates tank tanks hutch toys food fur hair"
        " leash collar carrier treats"
    )
)
_STOP_CAPS: Final = frozenset(
    _words(
        "I I'm I’m Im I've I’ve I'd I’d I'll I’ll My Our The A An And But So Or Not No Yes Just"
        " Also He She They We You It This That There Here Mom Mum Dad Monday Tuesday Wednesday"
        " Thursday Friday Saturday Sunday January February March July September October November"
        " December Christmas Easter Ok Okay Thanks Please Sorry Hi Hello Hey Well Oh Actually"
        # "thank you my brother, God bless": a blessing, no name
        " God Allah Lord Christ"
    )
)
_DEMONYMS: Final = frozenset(
    _words(
        "british english american canadian portuguese spanish french german italian dutch irish"
        " scottish welsh australian brazilian mexican indian chinese japanese korean polish"
        " swedish norwegian danish finnish greek turkish russian ukrainian jewish muslim catholic"
        " buddhist hindu vegan vegetarian vegeterian vegitarian vegatarian vegetarien pescaterian"
        " back here fine good new retired single married allergic"
        " excited confused tired happy glad ready done sure currently actually writing working"
        " looking trying going using"
    )
)
# Nationalities and faiths, never a name ("I am Egyptian but ..."); apart from _DEMONYMS because
# they may open an employer's name ("Saudi Aramco")
_NATIONALITIES: Final = frozenset(
    _words(
        "egyptian nigerian ghanaian kenyan ugandan tanzanian ethiopian somali sudanese moroccan"
        " algerian tunisian libyan senegalese cameroonian ivorian zimbabwean zambian rwandan"
        " filipino filipina pakistani bangladeshi lankan nepali afghan iranian"
        " iraqi syrian lebanese jordanian palestinian saudi emirati qatari kuwaiti omani yemeni"
        " israeli vietnamese thai indonesian malaysian singaporean cambodian burmese mongolian"
        " kazakh uzbek georgian armenian azerbaijani czech slovak hungarian romanian bulgarian"
        " serbian croatian bosnian slovenian albanian macedonian lithuanian latvian estonian"
        " belarusian moldovan austrian swiss belgian luxembourgish icelandic colombian venezuelan"
        " peruvian chilean argentinian argentine ecuadorian bolivian uruguayan paraguayan cuban"
        " dominican rican jamaican haitian guatemalan honduran salvadoran nicaraguan"
        " panamanian taiwanese kiwi aussie asian african european latina latino"
        " arab persian kurdish punjabi tamil gujarati bengali sikh atheist"
        # as they are often typed
        " brasilian brazillian portugese phillipino ukranian colombian columbian"
    )
)
_NATION_ADJ = (
    r"(?:"
    + "|".join(
        sorted(
            _NATIONALITIES
            | {w for w in _DEMONYMS if w.endswith(("ish", "ian", "ese", "can", "ch", "ek", "an"))}
            - {"vegan", "vegetarian", "vegeterian", "vegitarian", "vegatarian", "catholic"}
        )
    )
    + r")"
)

_LANGUAGES: Final = _words(
    "english spanish portuguese french german italian dutch japanese chinese mandarin cantonese"
    " korean arabic hindi russian polish swedish norwegian danish finnish greek turkish hebrew"
    " ukrainian czech slovak hungarian romanian bulgarian serbian croatian vietnamese thai"
    " indonesian malay swahili tagalog filipino bengali urdu punjabi tamil telugu persian farsi"
    " catalan basque galician irish welsh icelandic estonian latvian lithuanian albanian amharic"
    " yoruba zulu afrikaans esperanto latin"
    # a misspelling, and languages in their own names ("español es mi lengua materna")
    " portugese portugues português espanol español castellano deutsch francais français italiano"
    " nederlands polski"
    # the languages of the people who write to assistants, beyond the common ones above
    " bangla marathi gujarati kannada malayalam nepali sinhala sinhalese odia assamese sindhi"
    " konkani pashto dari kurdish somali hausa igbo twi akan wolof lingala xhosa shona"
    " kinyarwanda luganda tigrinya oromo malagasy ilocano cebuano bisaya visayan hiligaynon"
    " waray javanese sundanese khmer lao burmese mongolian kazakh uzbek georgian armenian"
    " azerbaijani macedonian bosnian slovenian slovene maltese luxembourgish frisian gaelic"
    " yiddish hokkien hakka isixhosa isizulu sesotho setswana"
)
_LANG = r"(?:" + "|".join(_LANGUAGES) + r")(?![\w-])"
_LANGS = rf"{_LANG}(?:\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*&\s*){_LANG})*"

_OCCUPATIONS: Final = _words(
    "accountant actor actress analyst anesthesiologist architect artist attorney auditor baker"
    " banker barber barista bartender biologist bookkeeper carpenter cashier chef chemist cleaner"
    " clerk coach consultant copywriter counselor counsellor dentist designer developer dietitian"
    " doctor economist editor electrician engineer entrepreneur farmer firefighter geologist"
    " hairdresser historian illustrator instructor journalist judge lawyer lecturer librarian"
    " machinist manager marketer mathematician mechanic midwife musician nurse nutritionist"
    " optometrist paralegal paramedic pharmacist photographer physician physicist physiotherapist"
    " pilot plumber politician practitioner producer professor programmer psychiatrist"
    " psychologist receptionist recruiter reporter researcher salesperson scientist secretary"
    " sommelier statistician surgeon surveyor tailor teacher technician therapist translator tutor"
    " veterinarian vet waiter waitress welder writer administrator sysadmin officer worker"
    " eng dev devs swe sde sre pm qa gp student intern freelancer contractor founder cofounder"
    " co-founder ceo cto cfo director lead carer caregiver cook courier postdoc tester devops"
    " hygienist radiographer dispatcher driver tech controller coordinator specialist assistant"
    " advisor adviser associate representative supervisor executive planner strategist buyer"
    " underwriter actuary"
    # trade names as said in Britain and Australia ("im a brickie"), spelled out by the claim
    " brickie divemaster"
    # the trades and professions people name in chat, beyond the common ones above
    " stenographer sculptor optician cardiologist dermatologist radiologist oncologist"
    " pediatrician paediatrician neurologist urologist gynecologist obstetrician orthodontist"
    " podiatrist chiropractor osteopath audiologist sonographer phlebotomist pathologist"
    " anaesthetist anesthetist physio psychotherapist caseworker nanny babysitter childminder"
    " headteacher headmaster headmistress principal dean draftsman draughtsman landscaper"
    " gardener groundskeeper florist butcher fishmonger confectioner chocolatier brewer"
    " winemaker distiller porter concierge housekeeper janitor caretaker handyman builder"
    " bricklayer roofer plasterer tiler glazier joiner cabinetmaker upholsterer locksmith"
    " blacksmith fitter toolmaker gasfitter trucker chauffeur cabbie copilot steward stewardess"
    " sailor seaman fisherman deckhand skipper rancher shepherd beekeeper forester zookeeper"
    " groomer athlete footballer cricketer jockey referee umpire dancer choreographer singer"
    " songwriter composer pianist guitarist violinist drummer cellist organist dj rapper"
    " comedian magician puppeteer animator cartoonist painter potter ceramicist jeweller jeweler"
    " goldsmith watchmaker seamstress dressmaker stylist hairstylist beautician cosmetologist"
    " esthetician tattooist tattoo-artist masseuse masseur videographer filmmaker correspondent"
    " columnist blogger vlogger youtuber streamer podcaster author novelist poet playwright"
    " screenwriter interpreter linguist archivist curator archaeologist anthropologist"
    " sociologist philosopher theologian priest pastor vicar minister rabbi imam chaplain nun"
    " monk missionary solicitor barrister notary magistrate bailiff policeman policewoman cop"
    " detective constable sergeant inspector investigator fireman emt soldier marine airman"
    " lieutenant colonel bodyguard bouncer warden diplomat ambassador councillor councilor"
    " senator mayor stockbroker broker trader teller admin foreman realtor salesman saleswoman"
    " shopkeeper retailer merchandiser publicist headhunter coder webmaster technologist"
    " microbiologist biochemist geneticist ecologist botanist zoologist astronomer"
    " astrophysicist geographer meteorologist oceanographer hydrologist epidemiologist"
    " neuroscientist pharmacologist toxicologist immunologist virologist dietician doula"
    " homemaker housewife househusband undergrad apprentice trainee postman postwoman mailman"
    " miner logger lumberjack assessor adjuster croupier"
    " rep agent guard lifeguard postie attendant operator operative clinician labourer laborer"
    " medic educator registrar handler conductor packer picker courier grocer bookseller"
    " paraprofessional caterer cashier surveyor hostess valet usher"
    " trainer server proofreader estimator"
    # "domestic helper", "im a hca on ward 18", "im csr in concentrix"
    " helper hca csr"
    # "im an rn on cardiac": a registered nurse (never "im rn at the office", right now)
    " rn lpn cna"
    # "im sde2 at microsoft" ("sparky" was tried as a title: it formed a belief the held-out
    # labels did not hold, so it is left out)
    " sde1 sde2 sde3 sdet"
)
# Titles whose last word alone is no occupation ("a dog owner", "a chess master")
_TWO_WORD_TITLES: Final = (
    "product owner",
    "scrum master",
    # an owner of a business, never "a dog owner"
    "salon owner",
    "shop owner",
    "store owner",
    "business owner",
    "restaurant owner",
    "cafe owner",
    "café owner",
    "bakery owner",
    "civil servant",
    "tour guide",
    "delivery rider",
    "phd candidate",
    "cabin crew",
    # "i am chef de partie in restaurant near navigli"
    "chef de partie",
    "chef de cuisine",
    # "im a team leader at concentrix", "shift leader at the warehouse"
    "team leader",
    "shift leader",
    "squad leader",
)
_ROLE_HEAD = (
    r"(?:"
    + "|".join(t.replace(" ", r"\s+") for t in _TWO_WORD_TITLES)
    + "|"
    + "|".join(_OCCUPATIONS)
    + r")"
)
# Every occupation match contains one of these words (the prefilter's triggers).
_ROLE_WORDS: Final = " ".join((*_OCCUPATIONS, *(t.split()[0] for t in _TWO_WORD_TITLES)))
_INSTITUTION = (
    r"Hospital|Bank|University|Clinic|School|College|Group|Ltd|Inc|GmbH|Council|Institute"
    r"|Foundation|Agency|Ministry|Labs?|Studios?|Partners|Solutions|Technologies|Systems"
    r"|Cent(?:er|re)|Infirmary|Trust|Service|Authority|Police|Academy"
)
# Heads that say something else without an article: "I'm admin on the repo", "I'm lead on it".
_BARE_ROLE_BLOCK = "admin|lead|tech|assistant|associate|cook|driver|director|representative|pm|qa"
# Modifiers that make "I'm a <role>" something other than a current occupation.
_ROLE_MOD_BLOCK: Final = frozenset(
    _words(
        "former ex retired aspiring future wannabe would-be amateur hobby hobbyist big huge total"
        " good bad great terrible awful decent proud failed frustrated unemployed fan bit little"
        " kind sort not no very really pretty weekend backyard home armchair budding closet fake"
        " pretend wannabe a an the my our your his her their of in at for"
        " i am im i'm me we you he she they it is are was so tired busy bored happy sad sick hungry"
        " lucky lazy exhausted broke poor rich stressed lonely single married working work as like"
        " currently doing being becoming trying going"
        # "got offered logistics coordinator at DHL": an offer, not the job
        " got offered offer applied applying interviewed interviewing shortlisted"
        # "I am hard worker and reliable": a trait, not a job
        " hard harder fast quick slow early"
    )
)

_WS_HEADS = (
    r"(?:branch|repo|repository|codebase|database|db|framework|runtime|environment"
    r"|registry|bucket|region|cluster|linter|formatter|runner|package\s+manager|build\s+tool"
    r"|version|target|license|licence|endpoint|namespace|port|host|hostname|domain|stack|orm"
    r"|pipeline|ci|line\s+length(?:\s+limit)?|indentation|style\s+guide|convention|entry\s+point"
    r"|config\s+file|schema|monorepo|workspace|milestone|due\s+date|release\s+date|base\s+image"
    r"|docker\s+image|toolchain|compiler|queue|broker|cache|test\s+framework|python|node|msrv"
    r"|command|timezone|time\s+zone|test\s+runner|bundler|image|format|driver|formatting"
    r"|linting|merge\s+(?:method|strategy)|commit\s+(?:style|convention|format)"
    r"|indent(?:\s+(?:style|size|width))?|env\s+file|tab\s+(?:size|width)"
    r"|(?:string\s+)?quotes|quote\s+style|state\s+(?:management|mgmt)|migration\s+tool|(?:data\s+)?warehouse"
    r"|(?:ui|component)\s+library|(?:docstring|commit|code|naming)\s+style"
    r"|type\s+checker|trunk|hosting|edition|module\s+path|auth\s+provider|backend"
    # "email provider is postmark, auth lib is lucia", "monorepo tool is turborepo"
    r"|(?:email|sms|payments?|dns|cdn|identity|llm|search|storage|logging|monitoring|analytics)"
    r"\s+provider|(?:auth|http|date|state|orm|validation|logging|charting|testing|test)\s+(?:lib"
    r"|library)|(?:monorepo|migration|deploy|deployment|release|docs|bundling)\s+tool"
    r"|(?:sql\s+)?dialect|bi\s+tool|dependency\s+manager|(?:tests?|migrations?"
    r"|source|src|build|output|dist)\s+(?:folder|directory|dir)|(?:min|target|compile)\s*sdk)"
)
_STATE_WORDS: Final = frozenset(
    _words(
        "down up broken failing failed slow fast fine ok okay ready done red green flaky empty"
        " full missing gone busy offline online stale outdated dirty clean locked unlocked wrong"
        " right correct weird bad good great huge big small important urgent late early blocked"
        " frozen corrupted corrupt unavailable available there here not still already probably too"
        " very really so a an the it this that them mine ours yours his hers theirs messy tiny"
        " dead deprecated legacy obsolete abandoned retired archived unused deleted removed"
        # "timezone is only 1h difference": a comparison, not a setting's value
        " only just about around roughly nearly almost"
        # "queue is long": how it is, not what
        " long short"
        # "so the first image is thrown away": what happens to it
        " thrown taken discarded ignored skipped dropped kept reused rebuilt overwritten"
    )
)


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# Nearly all of the extractor's time went into searching messages, sentences and clauses with
# patterns that cannot match them. The patterns searched on every message carry trigger words
# (see LiteralPrefilter.add): every text a pattern matches contains one of its triggers, so one
# prefilter scan per message (its ``mask``) rules most patterns out before the regex engine
# runs. A scan of the whole message holds for its sentences and clauses too, because they are
# always cut next to a non-word character: their words are words of the message.
#
# Triggers must be kept in step with their pattern. A trigger that some match lacks silently
# turns the pattern off for such text: when in doubt, list more words or use ``parts``.
_PREFILTER: Final = LiteralPrefilter()


class _Gated:
    """A pattern with its trigger words (see :meth:`LiteralPrefilter.add`): it searches only
    text whose prefilter ``mask`` holds its bit.

    Given as source text (``_grx``), the pattern is compiled when first searched: compiling
    all of them took most of the extractor's two-second import, and a session's messages hold
    the trigger words of only a few. ``tests/test_extractor.py`` compiles every one.
    """

    __slots__ = ("_compiled", "_source", "bit", "triggers")

    def __init__(self, pattern: re.Pattern[str] | str, words: str = "", parts: str = "") -> None:
        self._source = pattern if isinstance(pattern, str) else pattern.pattern
        self._compiled = None if isinstance(pattern, str) else pattern
        self.bit = _PREFILTER.add(words, parts)
        self.triggers = (*words.split(), *parts.split())

    @property
    def pattern(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self._source, re.IGNORECASE)
        return compiled

    def search(self, text: str, mask: int) -> re.Match[str] | None:
        return self.pattern.search(text) if mask & self.bit else None

    def match(self, text: str, mask: int) -> re.Match[str] | None:
        return self.pattern.match(text) if mask & self.bit else None

    def finditer(self, text: str, mask: int, *span: int) -> Iterator[re.Match[str]]:
        return self.pattern.finditer(text, *span) if mask & self.bit else iter(())

    def search_alone(self, text: str) -> re.Match[str] | None:
        """Search a text without a prefilter scan, looking for the triggers anywhere in it."""
        folded = fold(text)
        for trigger in self.triggers:
            if trigger in folded:
                return self.pattern.search(text)
        return None


def _grx(pattern: str, words: str = "", parts: str = "") -> _Gated:
    """A case-insensitive ``_Gated`` pattern, compiled when first searched."""
    return _Gated(pattern, words, parts)


# --- guards -----------------------------------------------------------------------------------

# r"[.!?]+(?=[\s\"'”’)\]]|$)|\n+|;" written to open with one character class, which lets the
# regex engine skip to the candidate characters instead of trying each offset: same matches.
# An emoji between words ends a sentence as a full stop does in chat ("pls tell me 🙏 i live in
# zagreb"): a marker before it does not govern what follows.
_SENTENCE_END = re.compile(
    r"[.!?\n;](?:(?<=[.!?])[.!?]*(?=[\s\"'”’)\]]|$)|(?<=\n)\n*|(?<=;))"
    r"|(?<=\s)[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]+(?=\s)"
)
_ABBREVIATIONS: Final = frozenset(
    _words("st dr mr mrs ms jr sr inc co ltd corp prof vs e.g i.e approx no mt ft")
)
_SUBJECT_START = (
    rf"(?:i|i{_A}?m|i{_A}?ve|i{_A}d|i{_A}ll|my|our|we|we{_A}re|we{_A}ve|he|she|they|you"
    rf"|he{_A}?s|she{_A}?s|they{_A}?re|they{_A}?ve|you{_A}?re|me\s+(?:and|n|&)\s+(?:my|our))\b"
    r"|(?:this|next|last)\s+(?:week|weekend|month|year|morning|evening|time)\b"
    r"|(?:today|tonight|tomorrow|right\s+now|for\s+now|at\s+the\s+moment)\b"
    # a coding session's own subjects: "..., the repo uses vitest", "and CI runs on python 3.12"
    r"|(?:the|this)\s+(?:repo|project|codebase|app)\s+(?:uses|is|runs|targets)\b"
    r"|ci\s+(?:runs|is|uses)\b"
    # "we're on node 20, it worked yesterday": what "it" did is its own statement and time
    rf"|{IT_DID}"
    # "im a freelance photographer based in galway so theres no employer box right?": what
    # there is, asked or said, is a statement of its own
    rf"|there{_A}?s\b|theres\b|there\s+(?:is|are)\b"
    # "how to say it in yoruba properly, yoruba is my mother tongue": a statement of its own
    r"|[\w\-]+\s+is\s+my\b"
    # "im in berlin this week for a conference, home is hamburg tho", "im in lisbon till friday,
    # then back home in porto on saturday": where home is, past the stay's own time
    rf"|home(?:\s+is|{_A}s)\s|(?:then\s+)?back\s+home\b"
)
_CLAUSE_SEP = _grx(
    # ("sign it from me - Gretchen": the dash gives the name signed)
    # ("sign it with my full name tho - wei zhang": nor the name after it)
    rf"\s*;\s*|(?<!\bfrom\sme)(?<!\bname)(?<!\bname\stho)\s+[-–—]+\s+|\s*:\s+(?=(?:i|my|our|we)\b)|\s*\(\s*(?!where\b)|\s*\)\s*"
    # "what i have: im a logistics coordinator at DHL": what the user has is what follows
    rf"|(?<=\bwhat\si\shave)\s*:\s+|(?<=\bwhat\si\sdo)\s*:\s+"
    # "context for today: db is postgres 15": a preface whose time is its own
    rf"|{TIMED_PREFACE}"
    rf"|,\s*(?=(?:so|because|since|which|although|though|but|whereas|while|yet|btw)\s)"
    # ("me and my bf moved to porto": one subject, the couple)
    rf"|,?\s+(?:but|(?<!\bme\s)and|so|although|though|while|whereas|because|bc|cuz|coz|since|plus"
    rf"|yet|btw)\s+"
    rf"(?=(?:now\s+|also\s+|currently\s+|actually\s+|then\s+|still\s+|rn\s+)?(?:{_SUBJECT_START})"
    # "I am taxi driver and the shift was long today": a new subject, its own time
    rf"|{THING_DID}|{TIMED_SUBJECT})"
    # (", i live there" says where the place before it is: the same statement)
    rf"|,\s+(?!(?:i|we)\s+(?:also\s+|actually\s+)?live\s+(?:there|here)\s*(?:$|[,.;!?)]))"
    # ("i cant help him, at home we speak arabic": where the subject is, then the subject)
    rf"(?=(?:and\s+|but\s+|so\s+)?(?:now\s+|also\s+|actually\s+|currently\s+|honestly\s+"
    rf"|tbh\s+|personally\s+|seriously\s+|frankly\s+|at\s+home\s+)?(?:{_SUBJECT_START}))"
    # (", where i also live" says where the place before it is: the same statement)
    rf"|,\s*(?=(?:any|can\s+you|could\s+you|can\s+u|could\s+u|what|how"
    rf"|where(?!\s+(?:i|we)\s+(?:also\s+|now\s+|still\s+|actually\s+)?live\b)|which|please"
    rf"|pls)\b)"
    # "i was going to go by liz at the new place but it never stuck, everyone calls me beth":
    # what people call the user is a statement of its own
    rf"|,\s+(?=(?:everyone|everybody|people|most\s+people|(?:all\s+)?my\s+friends)\s+(?:calls?"
    rf"|knows?)\s+me\b)"
    # "studied law but didnt do the lpc, been a paralegal at Slater and Gordon for 3 yrs":
    # the job held since is a statement of its own
    rf"|,\s*(?=been\s+(?:a|an)\s)"
    # "i work as a dog groomer, did 3 poodles today": the day's work is its own statement
    rf"|{DAYS_WORK_AFTER_COMMA}"
    # "Used to live in Dubai for 9 years, now back home in Kochi": now starts another state
    rf"|,\s*(?=now\s+(?:back|living|based|in|at|working|i|we)\b)"
    # "used to use npm, now pnpm": the tool used now
    rf"|,\s*(?=(?:but\s+)?now\s+(?:it{_A}?s\s+)?(?:pnpm|yarn|npm|poetry|uv|pipenv|bun|conda)\b)"
    # "how much should i ask for in lisbon, still living here": the state after the ask
    rf"|,\s*(?=still\s+(?:living|based|working)\b)"
    # "can u help me write my standup, currently junior frontend dev at a startup called
    # tidepool": the job held now, its subject left out, after the ask
    rf"|,\s*(?=currently\s+(?:an?\s+)?[\w\-]+(?:\s+[\w\-]+){{0,3}}?\s+(?:at|for|with)\s)"
    # "we switched to pnpm like 2 weeks ago, theres no yarn.lock anymore": a new statement
    rf"|,\s+(?=there{_A}?s\b|theres\b|there\s+(?:is|are)\b)"
    # "i teach at a school so weekdays im stuck till 4": what follows "so" has its own subject
    rf"|{SO_THEN_SUBJECT}"
    # "CI runs on python 3.12 so dont worry about old syntax": the "dont" is an instruction
    rf"|,?\s+so\s+(?=(?:don{_A}?t|do\s+not|pls|please|no\s+need|no|not|none|nothing)\b)"
    # "i live in Gratkorn so late close on the 24th is not possible for me": what follows from
    # it is a statement of its own
    rf"|,?\s+so\s+(?=(?!(?:i|im|i{_A}m|we|we{_A}re|my|our)\b)[a-z][\w\-]*(?:\s+[\w\-]+){{0,5}}\s+"
    rf"(?:is|are|isn{_A}?t|aren{_A}?t|won{_A}?t|can{_A}?t|cannot)\s)"
    # "im a paralegal and i live in leicester so its english law right?": the ask is its own
    rf"|,?\s+so\s+(?=(?:it{_A}?s|its|that{_A}?s|thats|is\s+(?:it|that)|does|do|should|can"
    # "but our minSdk is 24 so why??"
    rf"|would|why|what|how|where|which)\b)"
    # "pasta is fine i guess but what i really love is ramen": what the user loves after the
    # hedge is a statement of its own
    rf"|,?\s+but\s+(?=what\s+i\s+(?:really\s+|truly\s+|actually\s+)?(?:love|like|hate|enjoy"
    rf"|adore|prefer|dislike|know|do|am)\b)"
    # "I was working in Infosys since 2019 only but from last month I have joined TCS"
    rf"|,?\s+but\s+(?=(?:from|since|as\s+of)\s+[^,.;]{{0,30}}?\b(?:i|i{_A}?m|im|we|we{_A}?re)\s)"
    # "used to live in oslo but moved to bergen", "in nairobi till thursday but home is kampala"
    rf"|,?\s+but\s+(?=(?:then\s+|now\s+|just\s+)?(?:moved|relocated|started\s+(?:at|with)"
    rf"|joined)\b|home(?:\s+is|{_A}s)\s)"
    # "Infosys was till last month only, from 3rd of this month I am joined TCS"
    rf"|,\s*(?=(?:from|since|as\s+of)\s+[^,.;]{{0,30}}?\b(?:i|i{_A}?m|im|we|we{_A}?re)\s)"
    # "formatter is black, ruff is just doing the import sorting for now": a new subject
    rf"|,\s+(?=[\w.\-]+\s+(?:is|are)\s+(?:just\s+|only\s+|still\s+)?[\w.\-]+ing\b)"
    # "we're on go 1.22, coworker ravi still has 1.19 on his mac and says ...": another person
    # named as the next subject opens their own statement
    rf"|,\s+(?=(?:my\s+|our\s+)?(?:coworker|co-worker|colleague|teammate|friend|boss|manager"
    rf"|client|neighbou?r|flatmate|roommate)\s+(?:[a-z]+\s+)?(?:still\s+|also\s+|just\s+"
    rf"|only\s+)?(?:has|had|is|was|uses|used|runs|says|said|thinks|told|wants|keeps)\b)"
    # "now i need to push the fix, deploy branch is release": a setting is its own statement
    rf"|,\s+(?=(?:the\s+|our\s+)?(?:[\w\-]+\s+)?{_WS_HEADS}\s+(?:is|=)\s)"
    # "deploy branch is release so ill open the PR": "ill" is "i'll" before a verb
    rf"|,?\s+so\s+(?=ill\s+(?:just\s+)?(?:open|do|make|send|push|try|use|check|need|have|get"
    rf"|go|put|write|fix|update|ask|let|see|tell|call|merge|run|start|add|switch|keep)\b)"
    # "im a barista and lactose intolerant which is kind of ironic": a comment on what was said
    rf"|,?\s+(?=which\s+is\s+(?:kind\s+of|kinda|sort\s+of|sorta|a\s+bit|pretty|so|quite|super"
    rf"|really|very|honestly|probably|maybe)\s)"
    # "how i say vet clinic in polish lol my polish is native": a laugh ends a run-on's part
    # (never before what takes the part back: "im a nurse lol i wish")
    rf"|\s+(?:lol|lmao|haha+)\s+(?!i\s+(?:wish|guess|think|hope|mean|suppose|wonder|wish|kid"
    rf"|dont|don{_A}t|do\s+not)\b)(?=(?:{_SUBJECT_START}))"
    # "im japanese native speaker, moved to mexico city last year", "im a ux designer, started
    # at klarna in sept": a move or a new job, the subject left out
    # ("i dont live in bristol anymore, moved up to glasgow in march")
    rf"|,\s+(?=(?:just\s+|recently\s+|then\s+)?(?:(?:moved|relocated)\s+(?:(?:up|down|back|over|out)\s+)?(?:to|here)"
    rf"|started\s+(?:at|with)|joined)\b)"
    # "im coeliac and going to a sushi place friday": a plan after the state
    rf"|,?\s+and\s+(?=(?:also\s+|then\s+)?(?:going|gonna|heading|flying|driving|visiting)"
    rf"\s+(?:to|for|out|on|home|back)\b)"
    # "working branch is feature/checkout-v2, never push to main": an instruction of its own
    rf"|,\s*(?=(?:and\s+|so\s+)?(?:(?:pls|please)\s+)?(?:never|don{_A}?t|do\s+not)\s+(?:ever\s+)?"
    rf"(?:push|commit|merge|deploy|use|run|touch|edit|change|install|give|suggest|tell|add"
    rf"|upgrade|bump|wrap|rebase|force)\b)"
    # "im an sre at Takealot, on call this week": a passing state after the job
    rf"|,\s+(?=(?:on|off)\s+(?:call|leave|holiday|vacation|nights|shift|sick|duty)\b)"
    # "im a teacher, next term i teach year 9": a time that opens the next statement
    rf"|,\s+(?=(?:this|next|last)\s+(?:week|weekend|month|term|semester|summer|winter|year|spring"
    rf"|autumn|fall)\s+(?:i|i{_A}?m|im|we|my)\b)"
    # what a request asks to have said is the user's own statement: "can u add that im
    # allergic to penicillin", "pls mention that we live in Leith"
    rf"|\s+(?:(?:add|mention|include|say|note|put\s+in|write|explain)\s+(?:in\s+)?that"
    # "can you mention i'm allergic to latex": "that" left out
    rf"|(?:add|mention|include|note)"
    rf"|(?:tell|inform|remind|warn)\s+(?:them|him|her|everyone|the\s+\w+)(?:\s+that)?"
    rf"|let\s+(?:them|him|her|everyone|the\s+\w+)\s+know(?:\s+that)?)\s+"
    rf"(?=(?:i{_A}?m|im|i\s+am|i\s+have|i{_A}?ve|ive|we\s+(?:live|are|have)|my)\b)"
    # a run-on with no punctuation: "can u help me do a budget im a teaching assistant" (kept
    # only after a word that does not make it part of the sentence, see _RUN_ON_KEEP)
    rf"|(?P<runon>(?<=[a-z])\s+)(?=(?:i{_A}?m|im|i\s+am)\s+(?:literally\s+|just\s+|actually\s+|only\s+)?"
    # "i dont eat pork im halal"
    # ... "dont put any shrimp or crayfish im allergic to shrimp"
    rf"(?:(?:a|an)\s|(?:vegan|vegetarian|halal|kosher|pescatarian|coeliac|celiac|allergic)\b))"
    # "i left accenture in march now im at kpmg": a run-on's new state after the old one
    rf"|(?<=[a-z])\s+(?=now\s+(?:i{_A}?m|im|i\s+am|i\s+work|i\s+live)\s)"
    # "for the top of my cv: been a paralegal for 6 years": the user's own career after a colon
    rf"|(?:(?<=\bmy\scv)|(?<=\bmy\sresume))\s*:\s+(?=been\s+(?:a|an)\s)"
    # "pls call me lex nobody says alexandra": what everyone or nobody says is a report of its
    # own in a run-on
    # (after a word that joins, the clause is split there already: "crowds and everyone says")
    rf"|(?<=[a-z])(?<!\band)(?<!\bbut)(?<!\bso)(?<!\bor)(?<!\bthat)(?<!\bcos)(?<!\bbecause)"
    # ("everyone calls me yaz" is left to the naming rules)
    rf"\s+(?=(?:nobody|no\s+one|noone|everyone|everybody)\s+(?:says|said|uses|knows|likes)\b)"
    # "since i work for safaricom i should know this": the main clause after a reason (kept only
    # after one, see _REASON_LEAD)
    rf"|(?P<reason>(?<=[a-z])\s+)(?=i\s+(?:should|need|have\s+to|must|want|would|could|might"
    rf"|will|shall)\b)",
    words="but and so although though while whereas because bc cuz coz since plus yet btw i im"
    " that lol lmao haha which add mention include note tell inform remind warn let nobody one"
    " noone everyone everybody now cv resume",
    parts=", ; : - – — ( )",
)
# A sentence that opens with a reason: "since i work for safaricom ..."
_REASON_LEAD = re.compile(r"\W*(?:since|because|bc|cause|cuz|coz|as)\s+i\b", re.IGNORECASE)
# The word before "im a ..." that makes it part of its sentence rather than a new statement:
# "if im a", "she thinks im a", "when im a grandma", "whether im a good fit"
_RUN_ON_KEEP = re.compile(
    r"\b(?:if|that|whether|when|whenever|because|since|as|what|where|how|why|who|which|and|but"
    r"|or|cause|cuz|coz|bc|til|till|until|unless|though|although|while|so|like|once|after"
    r"|before|think|thinks|thought|guess|know|knows|knew|say|says|said|feel|feels|hope|mean"
    r"|assume|believe|sure|pretend|pretending|imagine|realise|realize|forget|forgot|remember"
    r"|tell|told|whilst|even|unless|than|wish|dream|dreamt|dreamed|act|[a-z]+ing"
    # "maybe im allergic to nuts too": a hedge that governs what follows
    r"|maybe|perhaps|probably|prolly|possibly|apparently|supposedly|hopefully)\s*$",
    re.IGNORECASE,
)


def _splits(m: re.Match[str], text: str, start: int) -> bool:
    """Whether a clause separator found in the part starting at ``start`` ends a clause: a
    run-on break only after a word that does not make it part of its sentence, a modal main
    clause only after a reason that opens the part."""
    if m.group("runon") is not None:
        return not _RUN_ON_KEEP.search(text, max(start, m.start() - 16), m.start())
    if m.group("reason") is not None:
        return _REASON_LEAD.match(text, start, m.start()) is not None
    return True


# ", not pip" contrasts a value; ", not anymore" ends the state it follows
_CONTRAST_TAIL = _rx(
    r",\s*(?:not(?!\s+(?:any\s*more|now|really|lately|these\s+days)\b)|rather\s+than"
    r"|instead\s+of|as\s+opposed\s+to)\s"
    # "they hired me as senior accountant not junior anymore": the title it no longer is
    r"|\s+not\s+(?:an?\s+)?[\w\-]+(?:\s+[\w\-]+)?\s+any\s*more(?=\W*$)"
)
_QUESTION_TAG = _rx(
    rf"^(?:right|correct|no|yes|yeah|ok|okay|huh|eh|isn{_A}?t\s+it|don{_A}?t\s+i|am\s+i"
    rf"|aren{_A}?t\s+i|do\s+i|did\s+i|true)\W*$"
)
_INTERROGATIVE_START = _grx(
    r"^\W*(?:(?:so|and|but|ok|okay|well|hmm|also|then)\W+)*"
    r"(?:should|would|could|can|do|does|did|is|are|am|was|were(?=\s+(?:you|u|they|we|there|these"
    r"|those|the|it|all|any|your)\b)|will|shall|where|when|why"
    # ("what i really love is ramen": a statement that opens with "what", no question)
    r"|what(?!\s+i\s+(?:really\s+|truly\s+|actually\s+)?(?:love|like|hate|enjoy|adore|miss"
    r"|prefer|dislike|detest|loathe|can['’]?t\s+stand)(?:\s+(?:most|the\s+most|more))?\s+"
    r"(?:is|are)\b)"
    r"|how|who|which|whom|whose|have|has|must|might|may|isn't|aren't|don't|doesn't"
    # "whats line length 88 mean exactly": a question typed without its apostrophe or mark
    r"|whats|what's|hows|how's|wheres|where's|whys|why's)\b",
    words="should would could can do does did is are am was were will shall what where when why"
    " how who which whom whose have has must might may isn aren don doesn whats hows wheres whys",
)
# "ah no sorry, i confuse. is ios 16, we bumped it": "it" left out before a value with a
# number, in a sentence that asks nothing, states it ("is ios 16 supported?" still asks)
_TARGET_SUBJECT = re.compile(r"\btarget\b")
_DROPPED_IT = _rx(
    r"^\W*(?:(?:ah|oh|no|sorry|ok|okay|yes|yeah|so)\W+)*is\s+(?!(?:it|this|that|there|he|she"
    r"|they|you|u|we|i|my|your|the|a|an|any|anyone|anything|something|someone)\b)"
    r"(?=[\w.\-]*\d|[\w.\-]+\s+v?\d)[\w.\-]+(?:\s+v?[\d.]+)?\W*$"
)
# "a customer asked if she can take ibuprofen": after a verb of asking, "if" is "whether", an
# indirect question, no condition
_ASKED_IF = (
    r"(?<!\basked\s)(?<!\bask\s)(?<!\basks\s)(?<!\basking\s)(?<!\bwondering\s)(?<!\bwonder\s)"
    r"(?<!\bwondered\s)(?<!\bchecking\s)(?<!\bcheck\s)(?<!\bknow\s)(?<!\bknows\s)"
)
_HYPOTHETICAL = _grx(
    rf"\b(?=(?:if|whether)\b){_ASKED_IF}(?:if|whether)\b|\b(?:unless|suppose|supposing|imagine|imagining|pretend|pretending"
    rf"|hypothetical(?:ly)?|let{_A}?s\s+say|in\s+case|would|wouldn{_A}?t|could|couldn{_A}?t"
    rf"|might|wish|someday|some\s+day|one\s+day|wanna|gonna|going\s+to|intend|intending"
    rf"|hopefully|should|shouldn{_A}?t|ought|dream\s+of|dreaming)\b"
    rf"|\bi\s+(?:want|plan|hope|intend|need)\s+to\b|\bplann?ing\s+(?:to|on)\b"
    # "next year i want move to Dublin and work like barista": the "to" left out
    rf"|\bi\s+(?:want|plan|hope)\s+(?=(?:move|work|become|be|go|live|study|start|change|open"
    rf"|get|find|try|learn|buy|switch|apply|quit|leave|stay)\b)"
    # "thinking about it i dont really like green tea": on reflection, not a plan
    rf"|\bthinking\s+(?:of|about)\b(?!\s+it\b)|\bconsidering\b|{_A}d\b|{_A}ll\b"
    # "say i became a software engineer and made 120k, could i afford it": a clause opened by
    # "say" supposes
    rf"|^\W*(?:(?:and|so|but|ok|okay|now|or|lol)\W+)*say\s+(?=(?:i|we)\b)",
    words="if unless whether suppose supposing imagine imagining pretend pretending hypothetical"
    " hypothetically say case would wouldn wouldnt could couldn couldnt might wish someday day"
    " wanna gonna going intend intending hopefully should shouldn shouldnt ought dream dreaming"
    " want plan hope need planning planing thinking considering d ll",
)
_STANDING_CHOICE = _grx(
    rf"\bi(?P<modal>{_A}?d|\s+would)\s+(?:always\s+|happily\s+|still\s+)?(?:take|pick|choose)\s+"
    rf"[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?\s+over\s+(?:[a-z][a-z\-]*\s+){{1,3}}?"
    rf"(?:any\s*day|every\s*time|anytime|any\s+time|hands\s+down|every\s+single\s+time)\b",
    "day everytime time anytime down",
)
# "we got a second dog in may": after these words "may" is the month, not a modal
_MONTH_MAY = "".join(
    f"(?<!{w} )"
    for w in (
        *("in", "since", "of", "last", "next", "this", "by", "from", "until", "till"),
        *("early", "late", "mid", "end", "around", "before", "after"),
    )
)
_MODAL_LOWER = _Gated(
    # ("use my name in it, its hope": after "its" hope is a name, no wish)
    re.compile(rf"\b(?:will|{_MONTH_MAY}may(?!\s+\d)|(?<!\bits\s)(?<!['’]s\s)hope|won't|won’t)\b"),
    "will may hope won",
)
_HEDGE = _grx(
    r"\b(?:i\s+think|i\s+guess|i\s+believe|i\s+suppose|i\s+assume|i\s+feel\s+like|not\s+sure"
    r"|probably|maybe|perhaps|possibly|kind\s+of|sort\s+of|kinda|sorta|apparently|supposedly"
    r"|allegedly|i\s+doubt|i\s+wonder|as\s+far\s+as\s+i\s+know|i\s+reckon|i\s+suspect"
    # "my toxic trait is thinking im a professional chef": a self-image, not a fact
    r"|(?:thinking|pretending|acting\s+like|convinced)\s+(?:that\s+)?(?:i['’]?m|i\s+am)"
    r"|toxic\s+trait)\b",
    words="think guess believe suppose assume like sure probably maybe perhaps possibly kind sort"
    " kinda sorta apparently supposedly allegedly doubt wonder know reckon suspect thinking"
    " pretending convinced trait",
)
_SELF_REPORT = _grx(
    r"\b(?:as|like)\s+i\s+(?:already\s+)?(?:said|mentioned|told\s+(?:you|u|ya)|wrote)\b"
    r"|\bi\s+(?:already\s+|just\s+)?(?:told|mentioned\s+to)\s+(?:you|u)\b"
    # "oh earlier i said dublin, i actually live in bray": quoting oneself to correct it
    r"|\b(?:earlier|before|above|previously)\s+i\s+(?:said|wrote|told\s+(?:you|u|ya))\b"
    # "sorry i said Toronto, i am living in Mississauga"
    r"|\b(?:sorry|oops|whoops|wait|no|ah)\W+i\s+(?:said|wrote|typed)\b"
    r"|\bi\s+(?:said|wrote|told\s+(?:you|u|ya))\s+(?:earlier|before|above)\b"
    # "i said checkout supervisor but technically they changed my title": what the user said,
    # put right by what follows
    r"|\bi\s+(?:said|wrote|typed)\s+(?:[\w'’\-]+\s+){1,4}?but\b"
    # "jk about the teacher thing, i just said it for fun": the user's own words, owned up to
    r"|\bi\s+(?:just\s+|only\s+)?(?:said|wrote|typed)\s+(?:it|that|this)\s+(?:for\s+fun|as\s+a\s+joke"
    r"|to\s+(?:test|see)|for\s+a\s+laugh)\b"
    # non-native "Sorry I wrote wrong before, I live in Manisa": the mistake is one's own
    r"|\bi\s+(?:said|wrote|typed|told\s+(?:you|u|ya))\s+(?:it\s+|that\s+|something\s+)?(?:wrong|wrongly"
    r"|incorrectly|the\s+wrong\s+\w+|a\s+mistake|by\s+mistake)\b"
    # "were on python 3.11, not 3.12 like the readme says": a comparison with what a document
    # says, not a report of the user's facts
    r"|\b(?:like|as)\s+(?:the|our|my|that)\s+(?:readme|docs?|documentation|wiki|ticket|spec"
    r"|guide|tutorial|website|site|page|article|internet)\s+(?:says?|said|suggests?|claims?)\b",
    words="said mentioned told wrote says suggests claims typed",
)
_REPORTED = _grx(
    # ("still not used to saying it": the user's own habit of saying, nothing reported)
    # ("my passport says Oluwaseun Adeyemi": the user's own document, naming them)
    r"\b(?:said|(?<!\bpassport\s)(?<!\bid\scard\s)says|(?<!used\sto\s)saying|told|tells|telling"
    r"|according\s+to|claims?|claimed|claiming|thinks"
    r"|thought|believes|believed|assumes|assumed|heard|mentioned|wrote|writes|reckons|insists?"
    # ("replies" and "quote" are left out: "sorry for the slow replies", "get a quote")
    # ("not joking", "no kidding": the user's own earnest)
    r"|insisted|swears|swore|joked|jokes|(?<!\bnot\s)(?<!\bno\s)(?:joking|kidding)|asks|replied"
    r"|quoted"
    # ("as a tax accountant i get asked this constantly": asked, not told anything)
    r"|(?<!\bget\s)(?<!\bgets\s)(?<!\bgot\s)(?<!\bgetting\s)(?<!\bim\s)(?<!\bam\s)"
    r"(?<!['’]m\s)(?<!\bbeen\s)(?<!\bbeing\s)asked"
    r"|quoting|rumou?rs?|pretends?)\b|[\"“”«»]"
    # "people think im a doctor", "they assume im the manager": what others take the user for
    # (the user's own "i think" is a hedge)
    # ("still cant believe im the one doing this": the user's own disbelief)
    r"|(?<!\bi\s)(?<!\bwe\s)(?<!\bu\s)(?<!\byou\s)(?<!\bdont\s)(?<!\bdon't\s)(?<!\bdon’t\s)"
    r"(?<!\bcant\s)(?<!\bcan't\s)(?<!\bcan’t\s)(?<!\bcannot\s)(?<!\bcouldnt\s)(?<!\bcouldn't\s)"
    r"\b(?:think|assume|believe)\s+(?:that\s+)?(?:i['’]?m|i\s+am|i\s+(?!think)\w+)"
    # "the astro docs say to deploy from gh-pages", "the tutorial recommends line length 100":
    # what a text the user read sets up is the text's
    # ("not 18 like the docs say" compares, it reports nothing)
    r"|(?<!\blike\sthe\s)(?<!\bas\sthe\s)(?<!\blike\s)(?<!\bas\s)"
    r"\b(?:docs|documentation|tutorial|tutorials|guide|readme|article|blog|book|course|manual"
    r"|instructions|template|example|answer)\s+(?:say|recommend|recommends|suggest|suggests"
    r"|show|shows|use|uses|tells?\s+(?:me|you|us))\b",
    words="said says saying told tells telling according claim claims claimed claiming thinks"
    " say recommend recommends suggest suggests show shows use uses tell"
    " thought believes believed assumes assumed heard mentioned wrote writes reckons insist"
    " insists insisted swears swore joked jokes joking kidding asked asks replied replies quote"
    " quoted quoting rumor rumors rumour rumours pretend pretends think assume believe",
    parts='" “ ” « »',
)
_CREDENTIAL = _grx(
    r"\b(?:password|passwd|passcode|passphrase|api[\s_-]?keys?|access[\s_-]?keys?|secrets?"
    # "we pin flutter 3.19 with fvm": "pin" said as a verb names no credential
    # "our token pipeline is style dictionary", "design tokens", "the token budget": a token
    # of a design system or a language model is no credential
    r"|(?<!\bdesign\s)tokens?(?!\s+(?:pipeline|pipelines|budget|budgets|limit|limits|count|counts"
    r"|usage|window|studio|names?|colou?rs?|system|format|export|build"
    # "does the token table need an index": a table of tokens, its columns and lifetime
    r"|tables?|columns?|fields?|model|schema|expiry|ttl|lifetime))"
    r"|credentials?|private[\s_-]?keys?|ssh[\s_-]?keys?|ssn|social\s+security"
    r"|(?<!\bwe\s)(?<!\bi\s)(?<!\bto\s)(?<!\bu\s)(?<!\byou\s)pin(?!\s+(?:it|them|down"
    r"|(?:the|our|a|an|this|that)?\s*(?:[\w.\-]+\s+)?(?:version|dep|deps|dependency"
    r"|dependencies|package|packages)\b"
    r"|(?!(?:is|was|number|code|no|for|of|and)\b)[\w.\-]+\s+(?:(?:to|at)\s+)?v?\d))"
    r"|credit\s+card|card\s+number|cvv|iban|account\s+number|routing\s+number)\b|\{\{\s*secret",
    words="pin ssn security card cvv iban number",
    parts="pass key secret token credential",
)
_HIGH_ENTROPY = re.compile(
    r"(?<![\w/+=-])(?=[\w/+=-]*\d)(?=[\w/+=-]*[A-Za-z])[\w/+=-]{20,}(?![\w/+=-])"
)
# ("epipen level, not joking", "no kidding": said in earnest)
_JOKE = _grx(
    r"\b(?:just\s+kidding|jk|(?<!\bnot\s)(?<!\bno\s)(?:kidding|joking)|lol\s+no)\b|(?:^|\s)/s\b",
    "kidding jk joking lol s",
)
_SERIOUSLY = _rx(
    r"(?<=[.!?\s(])(?:(?:but|ok|okay|no|anyway)\W+)?(?:seriously|jokes?\s+aside|joking\s+aside|jk|just\s+kidding"
    r"|in\s+all\s+seriousness|real\s+talk|real\s+question|for\s+real\s+(?:tho|though|now))\b"
)
_JOKE_ABOUT = _rx(r"\s+about\s+(?:the|that|my|what)\b")
_OWN_AFTER_JK = re.compile(r"(?<=jk|ng)\W+(?i:i['’]?m|im|i\s+am|i|my|we)\b")
# "im basically the queen of england at this point, i own 14 corgis 😂": a sentence in which
# the user crowns themself is a joke throughout
_GRANDIOSE = _rx(
    rf"\b(?:i{_A}?m|im|i\s+am)\s+(?:basically|literally|practically|officially|now|pretty\s+much"
    r"|like)\s+(?:the|a)\s+(?:queen|king|princess|prince|ceo|president|god|goddess|mayor"
    r"|emperor|empress|pope|overlord|ruler|duchess|duke|lord)\s+of\b"
)
_BUT_IRL = _rx(r"\b(?:but|while|whereas)\s+(?:irl|in\s+real\s+life|in\s+reality)\b")
_IN_A_WORLD = _rx(
    r"\W*(?:(?:lol|haha|ok|so)\W+)*(?:in|on)\s+(?!(?:real|my|our)\b)[\w\-]+(?:\s+[\w\-]+){0,3}?\s+my\b"
)
_FORM_ASKED = _rx(
    r"\W*(?:(?:and|ok|okay|now|also|then)\W+)*(?:how|what)\s+about\s+(?:the\s+|in\s+)?"
    r"(?:plural|singular|past(?:\s+tense)?|future(?:\s+tense)?|present(?:\s+tense)?|negative"
    r"|question(?:\s+form)?|formal(?:\s+version)?|informal(?:\s+version)?|feminine|masculine"
    r"|polite\s+form)\s*[,:?]+\s*"
)
_LAUGH = re.compile(r"(?i:\blol\b|\blmao\b|\bha(?:ha)+\b|\bjk\b)|[😂🤣😆😜🙃]")
_FICTION = _grx(
    rf"\bmy\s+(?:character|avatar|persona|oc|alter\s+ego|protagonist|hero|heroine|npc)\b"
    rf"|\b(?:in|for|from|of)\s+(?:the|my|our|this|a|your)\s+(?:short\s+|new\s+|next\s+)?"
    rf"(?:story|novel|book|game|role[- ]?play"
    rf"|script|screenplay|scene|campaign|world|fic|fanfic|fanfiction|play|movie|show|dream"
    rf"|simulation|universe)\b|\brole[- ]?play|\blet{_A}?s\s+(?:pretend|play|imagine|write)\b"
    # ("we have to pretend to be a madrileño" in class describes an exercise, not a role-play)
    rf"|(?<!\bhave\sto\s)(?<!\bhad\sto\s)(?<!\bhas\sto\s)\bpretend|\bin[- ]character\b"
    rf"|\bthe\s+protagonist\b|\bfictional\b|\bnpc\b"
    rf"|\bwrite\s+(?:me\s+|us\s+)?(?:a|an)\s+(?:[\w\-]+\s+){{0,3}}?(?:story|poem|scene|tale|fic"
    rf"|script|novel|chapter|sketch|song|limerick)\s+(?:where|in\s+which|about\s+(?:me|how\s+i))\b"
    # "write a short story in first person: i am a lighthouse keeper", "write a 100 word story
    # about a devops engineer in Oslo ... first person pls"
    rf"|\bin\s+(?:the\s+)?first[- ]person\b"
    # "write me a short story for a contest, first person. the narrator: i am a fisherman"
    rf"|\b(?:story|poem|tale|monologue|narrative)\b[^.?!\n]{{0,40}}?,\s*first[- ]person\b"
    rf"|\b(?:the\s+)?narrator\s*(?::|is\b)"
    rf"|\b(?:write|written|writing)\s+it\s+(?:in\s+)?first[- ]person\b"
    # "write a first person story for my class: i am a fisherman"
    rf"|\bfirst[- ]person\s+(?:short\s+)?(?:story|poem|essay|narrative|piece|account|monologue"
    rf"|diary|letter|scene)\b"
    # "my friend asked me to write his dating profile: im a chef in lagos"
    # ("fix her bio: '...'. for context im a pharmacist myself": the bio is quoted, and what the
    # user adds is their own)
    rf"|\b(?:write|writing|do|make)\s+(?:his|her|their)\s+(?:[\w\-]+\s+){{0,2}}?"
    rf"(?:cv|resume|bio|profile|cover\s+letter|personal\s+statement|about\s+me)\s*:"
    # "client of mine needs a cover letter", "she wants say: I am 74": another's words
    rf"|\b(?:client|friend|colleague|coworker|co-worker|neighbou?r|student|patient)(?:\s+of\s+mine)?"
    rf"\s+(?:needs|wants|asked\s+for)\s+(?:a|an|her|his|their)\s+(?:cover\s+letter|bio|cv|resume"
    rf"|personal\s+statement|profile)\b|\b(?:she|he)\s+wants?\s+(?:to\s+)?say\s*:"
    # "my coworker asked me to check his english homework, can u correct: 1. I am living ..."
    rf"|\b(?:check|correct|fix|proofread|mark|grade)\s+(?:his|her|their)\s+(?:[\w\-]+\s+){{0,2}}?"
    rf"(?:homework|essay|exercises?|sentences|assignment|writing|text|answers|test)\b"
    rf"|\bwrite\s+(?:me\s+)?(?:a|an)\s+(?:[\w\-]+\s+){{0,3}}?(?:story|poem|tale|scene|monologue)"
    rf"\s+about\s+(?:a|an|the|some)\b"
    rf"|\bdungeon\s+master\b|\bd\s*&\s*d\b|\bwriting\s+(?:a|my)\s+(?:story|novel|book|script"
    rf"|screenplay)\b|\bplay(?:ing)?\s+(?:a|the)\s+(?:role|part)\b|\bact(?:ing)?\s+as\b"
    # "help me with backstory. im a half-elf ranger"
    rf"|\bback[- ]?story\b|\bcharacter\s+sheet\b"
    # "stardew question: i married sebastian and we have a dog named cookie"
    rf"|\b(?:stardew|the\s+sims|sims\s+\d|minecraft|animal\s+crossing|acnh|skyrim|baldur{_A}?s\s+gate"
    rf"|elden\s+ring|red\s+dead|fortnite|roblox|my\s+sim|save\s+file|playthrough)\b"
    # "in my sims save im a chef"
    rf"|\b(?:my\s+sims|sims\s+(?:save|family|household)|(?:in|on)\s+my\s+save)\b"
    # "writing a hinge profile for my mate Callum, in his voice": someone else's first person
    rf"|\bin\s+(?:his|her|their)\s+(?:own\s+)?voice\b"
    # "she wants it first person", "write it like hes writing it": another's document in their
    # words
    rf"|\b(?:she|he|they)\s+wants?\s+it\s+(?:in\s+)?first[- ]person\b"
    rf"|\b(?:like|as\s+if)\s+(?:he|she|they)(?:{_A}?s|\s+is|\s+are|{_A}re|\s+was|\s+were)\s+"
    rf"writing\s+it\b"
    rf"|\b(?:profile|bio|cv|resume|about\s+section)\s+for\s+(?:my|a|our)\s+(?:best\s+)?"
    rf"(?:mate|friend|buddy|pal|bestie|bff|colleague|coworker|co-worker|flatmate|roommate|client"
    rf"|cousin|brother|sister|son|daughter|dad|mum|mom)\b",
    words="voice profile bio cv resume section character avatar persona oc ego protagonist hero"
    " letter statement me"
    " heroine npc story novel book game role"
    " roleplay script screenplay scene campaign world fic fanfic fanfiction play playing movie"
    " show dream simulation universe pretend imagine write fictional dungeon d writing act acting"
    " first backstory back sheet stardew sims minecraft crossing acnh skyrim gate ring dead"
    " fortnite roblox sim file playthrough save client friend colleague coworker co neighbor"
    " neighbour student patient wants want writing tale monologue narrative narrator check"
    " correct fix proofread mark grade",
    parts="pretend roleplay",
)
# "15 min role-play in pairs", "role-play activity": a role-play planned for a class
_ROLE_PLAY_ACTIVITY = _rx(
    r"\brole[- ]?plays?\s+(?:in\s+(?:pairs|groups|threes|small\s+groups)|activit(?:y|ies)"
    r"|exercises?|cards?)\b|\b\d+\s*(?:min|mins|minutes?)\s+(?:of\s+)?role[- ]?play"
)
_BARE_ROLE_PLAY = _rx(r"role[- ]?play")
_FRAME_ON = _grx(
    rf"\blet{_A}?s\s+(?:role[- ]?play|play\s+a\s+game|pretend|do\s+a\s+role[- ]?play"
    rf"|write\s+a\s+story|imagine)\b|\brole[- ]?play|\bstay\s+in\s+character\b"
    rf"|\bin\s+character\b|\bi{_A}?(?:ll|\s+will)\s+play\s+(?:the|a)\b"
    # "pretend ur a pirate and im a sea captain"
    # ("we have to pretend to be a madrileño" for class describes an exercise, begins no game)
    rf"|(?<!\bhave\sto\s)(?<!\bhad\sto\s)(?<!\bhas\sto\s)"
    rf"\bpretend\s+(?:ur|you{_A}?re|youre|u\s+r|you\s+are|to\s+be|that\s+you)\b"
    # "you be a pirate, im the captain"
    rf"|(?:^\W*|\b(?:ok|okay|so|now|lets\s+play|let{_A}s\s+play)\W+)(?:you|u)\s+be\s+(?:a|an|the|my)\b"
    # "can u be a grumpy london cab driver and i am a tourist": a cast of two
    rf"|\b(?:can|could)\s+(?:you|u)\s+be\s+(?:a|an|my)\s+(?!(?:bit|little|lot|tad)\b)"
    rf"[\w\s\-]{{2,40}}?\s+and\s+(?:i|i{_A}?m|im)\s+(?:am\s+|will\s+be\s+|be\s+|can\s+be\s+)?"
    rf"(?:a|an|the)\b"
    # "lets do a mock interview, you are the hiring manager": the answers are rehearsed
    rf"|\b(?:mock|practice|practise)\s+(?:[\w\-]+\s+){{0,3}}?interview\b"
    # "i answer like fake person named Marek": the answers are a made-up person's
    rf"|\b(?:a\s+)?fake\s+(?:person|persona|name|character|identity|profile)\b"
    # "can we practice english speaking? you are customer in restaurant and i am waiter": a
    # rehearsed dialogue's cast
    rf"|\b(?:practice|practise|rehearse)\s+(?:[\w\-]+\s+){{0,3}}?(?:speaking|conversation"
    rf"|dialogue|talking)\b[^\n]{{0,60}}?\b(?:you|u)\s+(?:are|r|be|play)\s+"
    # "lets practice english for hotel, u be the receptionist", "lets practice. you are a
    # recruiter and i am a barista": a rehearsal cast after "lets practice"
    rf"|\blet{_A}?s\s+(?:practi[cs]e|rehearse)\b[^\n]{{0,60}}?\b(?:you|u)\s+(?:are|r|be|play)\s+"
    # "vamos to play! you are pirate and I am captain Barbanegra": a game's cast
    rf"|\b(?:to\s+play|lets\s+play|let{_A}s\s+play|we\s+play)\W+(?:(?:ok|okay|so)\W+)?(?:you|u)"
    rf"\s+(?:are|r|be)\s+"
    # "reverse it, u be the airline agent and ill be the angry customer", "ok ur the waiter. im
    # a customer who is vegan": a cast of two, the user's part given after the assistant's
    rf"|\b(?:you|u)\s+be\s+(?:a|an|the|my)\s+[\w\-]+(?:\s+[\w\-]+){{0,3}}?\s*(?:,|\.|and)\s*"
    rf"(?:i{_A}?ll|ill|i\s+will|i{_A}?m|im|i\s+am)\s+(?:be\s+)?(?:a|an|the)\b"
    rf"|(?:^\W*|\b(?:ok|okay|so|now)\W+)(?:ur|you{_A}re|youre|u\s+r)\s+(?:the|my|a|an)\s+"
    rf"[\w\-]+(?:\s+[\w\-]+)?\s*[.,!]?\s+(?:and\s+)?(?:i{_A}?m|im|i\s+am|i{_A}?ll\s+be|ill\s+be)"
    rf"\s+(?:the|a|an)\b"
    # "text adventure time. i am orrin, an old wizard", "improv practice. scene: ...", "guess who
    # game! ... clues: i'm a doctor"
    rf"|\btext[- ]adventure\b|\bimprov\b|\bguess\s+who\s+game\b"
    # "lets do a quick dnd-style character together. im playing a dwarf blacksmith"
    rf"|\blet{_A}?s\s+(?:do|make|build|create|roll)\s+(?:up\s+)?(?:a\s+|my\s+)?(?:[\w\-]+\s+){{0,2}}?"
    rf"character\b"
    rf"|\b(?:let{_A}?s|wanna|want\s+to)\s+play\s+guess\s+who\b"
    rf"|\bi{_A}?m\s+thinking\s+of\s+(?:someone|somebody|a\s+(?:person|celebrity|character))\b",
    # (not "you", in nearly every message: the search would run on them all)
    words="let lets role character play pretend be mock practice practise fake ur youre re r"
    " text adventure improv guess thinking",
    parts="roleplay",
)
_FRAME_OFF = _grx(
    # "brb my dog biscuit is whining": a pause in the game, said as the user
    r"^\W*brb\b|"
    r"\bout\s+of\s+character\b|\booc\b|\b(?:end|stop|exit|quit|leave)\s+(?:the|this|our)\s+"
    r"(?:role[- ]?play|story|game|scene|simulation)\b|\bback\s+to\s+(?:reality|real\s+life)\b"
    r"|\bin\s+real\s+life\b|\birl\b"
    r"|\b(?:end|stop|pause)\s+(?:the\s+)?(?:mock\s+)?interview\b|^\W*(?:ok\s+|okay\s+)?pause\b",
    words="character ooc role roleplay story game scene simulation back real irl interview pause"
    " brb",
)
# A game the session is about: its farms, islands and horses stay in the game in the later
# messages too ("stardew question: ..." then "my horse is called biscuit"; "acnh help" then "i
# have 2 dogs i dont care about", villagers), unless the user steps out ("irl", "in real life")
_GAME = re.compile(
    r"\b(?:stardew|the\s+sims|sims\s+\d|minecraft|animal\s+crossing|acnh|skyrim|elden\s+ring"
    r"|red\s+dead|rdr2|fortnite|roblox|palworld|terraria|valheim)\b",
    re.I,
)
# "my son plays minecraft all day", "my kids are obsessed with roblox": a game someone else
# plays is what they do, and frames no story for the user's own words
_OTHERS_PLAY = re.compile(
    r"\b(?:(?:my|our|his|her|their)\s+(?:[\w\-]+\s+)?(?:sons?|daughters?|kids?|children|boys?"
    r"|girls?|nephews?|nieces?|brothers?|sisters?|step(?:son|daughter|kids?)|grand(?:son|daughter"
    r"|kids?)s?|husband|wife|partner|bf|gf|boyfriend|girlfriend|students?|class|teens?|twins)"
    r"|he|she|they)\s+(?:[\w\-]+\s+){0,2}?(?:plays?|playing|is\s+obsessed\s+with"
    r"|are\s+obsessed\s+with|obsessed\s+with|loves?|addicted\s+to|wants?|asked\s+for|into"
    r"|begging\s+for)\s+(?:(?:the|a|some|more|new)\s+)?$",
    re.I,
)

_GAME_LIST_GOES_ON = re.compile(r"\s*(?:,|&|\+|/)?\s*(?:(?:and|or)\s+(?:also\s+)?)?", re.I)


def _games_of_others(text: str) -> bool:
    """Whether every game the text names is played by someone other than the user."""
    played_to = -1  # where the last game another plays ends ("plays minecraft and roblox")
    for m in _GAME.finditer(text):
        if not (
            _OTHERS_PLAY.search(text, max(0, m.start() - 60), m.start())
            or (played_to >= 0 and _GAME_LIST_GOES_ON.fullmatch(text, played_to, m.start()))
        ):
            return False
        played_to = m.end()
    return played_to >= 0


# Animals the user minds or fosters for a while (see _minded_animals)
_MINDED_ANIMALS = re.compile(
    r"\b(?:(?:\d+|two|three|four|some|a|the|my|our)\s+foster\s+(?P<fostered>kittens?|pupp(?:y|ies)"
    r"|dogs?|cats?|kitties|bunn(?:y|ies)|rabbits?)"
    r"|feeding\s+(?:her|him|them|it|their\s+\w+)\s+while\s+(?:they|she|he)"
    r"|(?:my|our|the)\s+(?:dog|cat|puppy|kitten|pet)\s+for\s+(?:this|the)\s+(?:week|weekend"
    r"|month|fortnight|few\s+days))\b",
    re.I,
)
_OWN_ANIMAL = re.compile(r"\b(?:my|our)\s+own\b|\b(?:myself|ourselves|of\s+my\s+own)\b", re.I)
# Work with animals named in a message: a shelter's, a farm's or a clinic's animals are "ours"
_ANIMAL_WORK = re.compile(
    r"\b(?:work|working|worked|volunteer|volunteering|job|shift|employed|i['’]?m\s+a|i\s+am\s+a"
    r"|im\s+an?)\b[^.!?\n]{0,40}?\b(?:shelter|kennels?|rescue|sanctuary|(?:r|d)?spca"
    r"|humane\s+society|vet['’]?s?|veterinary|clinic|dog\s+daycare|boarding|stables|livery"
    r"|farm|zoo)\b"
    r"|\b(?:kennel\s+(?:assistant|hand|worker)|vet\s+(?:nurse|tech|technician)|zookeeper"
    r"|farm\s*hand|herd\s+manager|dairy\s+farmer|dog\s+groomer|groomer)\b",
    re.I,
)
_OUR = re.compile(r"\b(?:one\s+of\s+our|our|we)\b", re.I)
# "i arrived in montreal in june", "we moved to lyon last year": where the user came to
_ARRIVED_IN = _grx(
    r"\b(?:i|we)\s+(?:just\s+|recently\s+|finally\s+)?(?:arrived|moved|relocated|emigrated"
    r"|immigrated|came)\s+(?:in|to)\s+(?P<place>[A-Za-z][\w'’\-]+(?:\s+(?-i:[A-Z])[\w'’\-]+)?)",
    "arrived moved relocated emigrated immigrated came",
)
# "i am pharmacist in france": a trade said with a place, not a statement of living there
_ROLE_IN_PLACE = _rx(
    r"^\W*(?:i\s+am|i['’]?m|im)\s+(?!(?:in|living|based|staying|settled|now|currently|here|back"
    r"|still)\b)[^,;]*?\s+in\s+"
)
# "helping my friend giulia w/ her side project", "doing a pr for my cousin's app"
_HELPING_WITH_THEIRS = _rx(
    # ("helping marco with his project": whoever is helped, "his project" is not the user's)
    r"\b(?:help|helping|helped)\s+(?:my\s+|a\s+)?(?!(?:me|us|you|u)\b)[\w\-]+"
    r"\b[^.?!\n]{0,30}?\b(?:w/|with|on)\s+(?:her|his|their)\s+(?:[\w\-]+\s+){0,2}?(?:project|repo"
    r"|app|site|website|code|codebase|blog|store|shop)\b"
    r"|\b(?:pr|patch|fix|feature)\s+(?:for|to)\s+(?:my\s+)?(?:friend|mate|cousin|brother|sister"
    r"|colleague|coworker|client)(?:['’]?s)?\s+(?:[\w\-]+\s+){0,2}?(?:project|repo|app|site)\b"
    # "an onboarding readme for a client ... written in their voice": their setup, dictated
    r"|\bin\s+(?:their|his|her)\s+(?:own\s+)?voice\b"
    # "helping a client debug their monorepo"
    r"|\b(?:help|helping|helped)\s+(?:my\s+|a\s+)?(?!(?:me|us|you|u)\b)[\w\-]+\s+(?:debug|fix|set\s+up"
    r"|setup|migrate|upgrade|deploy|refactor)\s+(?:her|his|their)\s+(?:[\w\-]+\s+){0,2}?(?:project|repo"
    r"|monorepo|app|site|website|code|codebase|service|api|backend|frontend)\b"
    # "our repo uses yarn 1 ... oh wait its not my repo, its my mates"
    r"|\b(?:it['’]?s|its|it\s+is)\s+not\s+(?:my|our)\s+(?:repo|project|code|codebase|app)\b"
)
# "use her full name in the toast, its ana clara"
_FULL_NAME_GIVEN = _rx(
    r"\b(?:her|his|their)\s+full\s+name\b[^.?!\n]{0,40}?\b(?:it['’]?s|its|is)\s+"
    r"(?P<full>[a-z][a-z'’\-]+\s+[a-z][a-z'’\-]+)(?=\s*[,.;!?]|\s*$)"
)
_NO_PET_NOW = _rx(
    rf"\bi\s+(?:don{_A}?t|dont|do\s+not)\s+have\s+(?:a|any)\s+(?P<species>{_PET_SURFACE})\s+"
    rf"(?:any\s*more|now|these\s+days)\b"
)
# "i cant keep him", "rehoming her", "giving them away", "going to a new home": the pet just
# named leaves (never "collecting him from the vet", "giving him a bath")
_PET_LEAVING = _rx(
    rf"\b(?:can{_A}?t|cannot|can\s+not)\s+keep\s+(?:him|her|them)\b(?!\s+(?:in|out|off|on|away|from"
    r"|inside|indoors|calm|still|busy|quiet|entertained|warm|cool|safe)\b)"
    r"|\bre-?homing\s+(?:him|her|them)\b|\bgiving\s+(?:him|her|them)\s+(?:away|up)\b"
    r"|\b(?:going|goes|went|gone)\s+to\s+(?:a|his|her|their)\s+(?:new|forever)\s+home\b"
)
# "i just bumped to 20": a version with no tool named (the tool is said before it)
_BUMPED_BARE = _rx(
    r"\b(?:i|we)\s+(?:just\s+|finally\s+|already\s+)?(?:bumped|upgraded|updated|moved)\s+(?:it\s+)?"
    r"to\s+v?(?P<ver>\d+(?:\.\d+){0,2})\b(?!\s*(?:%|px|ms|mb|gb|kb|s\b|seconds|minutes))"
)
# What CI is called: "ci", "the main pipeline", "our runners"
_CI_HEADS: Final = frozenset(_words("ci pipeline pipelines workflow workflows runner runners"))
# "sched-01 is getting decommissioned", "the old-db box is being retired": a host or
# service said to be going away is no lasting setting of the work
_RETIRING = re.compile(r"decomm|retired|shut\s+down|turned\s+off|sunset|deprecated|killed", re.I)
_VALUE_RETIRED = _rx(
    r"(?<![\w.\-])(?P<value>\w[\w.\-]{0,40}\w)\s+(?:is|are)\s+(?:getting|being|going\s+to\s+be|gonna\s+be)\s+"
    r"(?:decommissioned|retired|shut\s+down|turned\s+off|sunset|deprecated|decomm?ed|killed)\b"
)
# "builds on my colleagues laptop (node 18.17, npm 9.6, she checked)": a parenthesis after
# another's machine, repo or project describes that thing
_ANOTHERS_THING_PAREN = re.compile(
    r"(?:\b(?:my|our)\s+(?:colleague|coworker|co-worker|friend|boss|teammate|team\s+mate|mate"
    r"|buddy|brother|sister|dad|mum|mom|partner|wife|husband|bf|gf|roommate|flatmate|manager"
    r"|lead|client|cousin|son|daughter|kid|neighbou?r)(?:['’]?s|s['’])|\b(?:his|her|their"
    r"|someone['’]?s|someone\s+else['’]?s)|\b(?-i:[A-Z])[a-z]+['’]s)\s+(?:[\w\-]+\s+){0,2}?"
    r"(?:laptop|machine|mac|macbook|pc|computer|box|setup|repo|project|branch|config|env"
    r"|environment|server|vm|team|app|codebase|stack|site|phone|build)\s*(?P<paren>\([^()\n]{1,160}\))",
    re.I,
)
_SOMEONE = (
    r"(?:best\s+)?(?:mate|friend|buddy|pal|bestie|colleague|coworker|co-worker|flatmate|roommate"
    r"|client|cousin|brother|sister|son|daughter|dad|mum|mom|husband|wife|partner|neighbou?r"
    r"|uncle|aunt|auntie|nephew|niece|student|customer)"
)
_GHOSTWRITE_ASK = _grx(
    rf"\b(?:cv|resume|bio|profile|cover\s+letter|personal\s+statement)\s+for\s+(?:(?:my|a|our)\s+"
    rf"{_SOMEONE}\b"
    # "church bio for brother Emeka", "a cv for Mrs Bello": someone named, with a title or not
    # (a bare capitalised word only when it names a person, see _someone_named: "a cv for
    # Deloitte" is the user's)
    rf"|(?P<title>(?:brother|sister|bro|sis|mr|mrs|ms|miss|dr|pastor|aunty|auntie|uncle|mama|papa)"
    rf"\.?\s+)?(?P<who>(?-i:[A-Z])[a-z]+)\b(?!\s+(?:and|&)\s+me\b))"
    rf"|\b(?:fix|write|improve|update|redo|polish|check)\s+(?:his|her|their)\s+(?:cv|resume|bio"
    rf"|profile|cover\s+letter|personal\s+statement)\b"
    # "helping my friend ahmed with his cv", "helping a neighbour from my building with his job
    # centre form"
    rf"|\bhelp(?:ing)?\s+(?:my|a|our)\s+{_SOMEONE}\b[^.?!\n]{{0,30}}?\bwith\s+(?:his|her|their)\s+"
    rf"(?:[\w\-]+\s+){{0,2}}?(?:cv|resume|bio|profile|cover\s+letter|personal\s+statement"
    rf"|application|form|paperwork|questionnaire)\b"
    # "help me fix this CV, its for my neighbour javi ... im writing it for him"
    rf"|\b(?:cv|resume|bio|profile|cover\s+letter|personal\s+statement)\b[^.?!\n]{{0,30}}?"
    rf"\b(?:it{_A}?s|it\s+is|its)\s+for\s+(?:my|a|our)\s+{_SOMEONE}\b"
    rf"|\b(?:writing|doing|making|filling)\s+(?:it|this|this\s+one)\s+(?:out\s+)?for\s+(?:him|her"
    rf"|them)\b"
    # "help me fill this intake form for my mom ... i will write like she talks"
    rf"|\b(?:fill|filling|complete|completing|do|doing)\s+(?:in\s+|out\s+)?(?:this|the|a|an|her|his"
    rf"|their)\s+(?:[\w\-]+\s+){{0,2}}?(?:form|application|questionnaire|paperwork)\s+(?:out\s+)?"
    rf"for\s+(?:my|a|our)\s+{_SOMEONE}\b"
    rf"|\b(?:write|writing)\s+(?:it\s+)?(?:like|as)\s+(?:she|he|they)\s+(?:talks?|speaks?|would\s+say)\b",
    words="cv resume bio profile letter statement writing doing making filling form forms"
    " application questionnaire paperwork talks talk speaks speak say",
)
# Where a bio or profile is for, not whom: "a bio for Instagram"
_PLATFORMS: Final = frozenset(
    _words(
        "instagram insta linkedin facebook fb tinder hinge bumble twitter tiktok upwork fiverr etsy"
        " github youtube twitch reddit discord whatsapp work school uni university college church"
        " me myself us"
    )
)


def _someone_named(word: str) -> bool:
    """Whether a capitalised word after "a cv for" names a person: no platform, employer,
    place or English word ("a cv for Deloitte", "a bio for Instagram" are the user's own)."""
    folded = word.casefold()
    return (
        folded not in _PLATFORMS
        and known_employer(word) is None
        and canonical_place(word) is None
        and not is_common_word(folded)
    )


# ... unless the ask brought the text with it (after a colon, or in quotes)
_CONTENT_GIVEN = re.compile(r":\s*\S|[\"“”]|(?<!\w)['‘]")
_PROOFREAD_ASK = _rx(
    r"\b(?:fix|correct|check|proofread|proof-read|improve|polish)\s+(?:my|the|this|these)?\s*"
    r"(?:mistakes|errors|grammar|text|essay|draft|spelling|writing|english|paragraph)\b"
)
_ASKS = _rx(
    r"\?|\b(?:can|could|would|will)\s+(?:you|u)\b|\bpl(?:ea)?se?\b|\bpls\b|\bhelp\b"
    # "much better thx. ... how should i write the bank details": the user answering the
    # draft and asking on, not pasting more to correct
    r"|\b(?:how|what|where|which|when|why)\s+(?:should|do|can|would|is|are|does)\s+(?:i|we|u|you)\b"
    r"|^\W*(?:much\s+|way\s+)?(?:better|perfect|great|nice|thanks|thx|ty)\b"
)
_BRB = re.compile(r"\W*brb\b", re.IGNORECASE)
_FRAME_ENDED = _rx(r"(?:end|stop|exit|quit|leave)\s|out\s+of\s+character|ooc|back\s+to")
# A message that takes back what the user said just before: the previous message's claims go.
# "that was wrong", "not true": a denial, said of the user's own words (_RETRACTION) or of
# someone else's claim (_DENIED_CLAIM)
_THAT_WAS = r"that\s+(?:was|is|'s|’s)\s+"
# "im vegan now and i hate cheese" then "lol jk. i just wanted to see what you'd say. im not
# vegan": the whole message before was a joke, whatever this one goes on to deny
_JOKE_OPENS = (
    r"^\W*(?:(?:lol|lmao|haha+|ha|ok|okay|nah)\W+)*(?:jk|j/k|just\s+kidding|kidding"
    r"|(?:i['’]?m|im|i\s+am|i\s+was)\s+(?:just\s+|only\s+)?(?:kidding|joking))\b"
    # ... never "im only joking about the weather": a joke about something, named
    r"(?!\s+(?:about|with|around)\b)"
)
_JOKE_OPENED = re.compile(_JOKE_OPENS, re.IGNORECASE)
_WRONG = r"(?:wrong|not\s+(?:true|right|correct))"
_RETRACTION = _grx(
    r"\b(?:i\s+misspoke|i\s+meant|scratch\s+that|never\s*mind|ignore\s+(?:that|what\s+i"
    r"|my\s+(?:last|previous))|disregard\s+(?:that|what\s+i|my\s+(?:last|previous))"
    rf"|{_THAT_WAS}{_WRONG}|wait,?\s+no"
    # "one more correction, deploy branch is production now" announces a change of its own
    r"|(?<!more\s)(?<!another\s)(?<!small\s)(?<!quick\s)(?<!minor\s)(?<!last\s)correction"
    r"|i\s+take\s+(?:that|it)\s+back|not\s+true|i\s+was\s+wrong|my\s+mistake"
    r"|typo|no\s+wait|i\s+mixed\s+(?:(?:that|it|them|those)\s+)?up|(?:sorry|oops),?\s+i\s+mean"
    r"|sorry,?\s+no(?=\s*,)"
    r"|autocorrect|actually\s+no|scrap\s+(?:the|that)|actually\s+(?:it['’]?s|its)\s+only"
    # "i said that wrong", non-native "I told wrongly"
    r"|i\s+(?:said|told|typed|wrote|got)\s+(?:(?:that|it|you)\s+)?wrong(?:ly)?"
    # "oh wait ignore all that, this form is for my friend"
    r"|(?:ignore|forget|scratch|disregard)\s+all\s+(?:of\s+)?(?:that|this|the\s+above)"
    # "actually nah forget that, dont call me anything" (never "dont forget that")
    r"|(?<!don't\s)(?<!dont\s)(?<!don’t\s)(?<!not\s)(?<!never\s)(?<!wont\s)(?<!won't\s)"
    r"(?<!to\s)forget\s+that(?=\s*(?:$|[,.;!?])|\s+(?:lol|haha|pls|please|sorry)\b)"
    # "ah wait sorry none of that is me lol, its my flatmates application"
    r"|none\s+of\s+(?:that|this|it)\s+(?:is|was|are|were)\s+(?:me|mine|about\s+me|my\s+\w+))\b"
    # "im vegetarian" then "ok well, not yet lol, im going vegetarian from january": not yet
    # so, only going to be (a bare "not yet" answers the assistant's question)
    r"|^\W*(?:(?:well|ok|okay|lol|haha|oh|hmm|sorry)\W+)*not\s+yet\b(?=[^.!?]{0,40}?\b(?:i['’]?m"
    r"|i\s+am)\s+(?:going|gonna|starting|planning|about)\b)"
    # "im vegan now!" then "well only for january, its veganuary": the state was a spell
    r"|^\W*(?:(?:well|but|ok|okay|lol|haha|oh|hmm|i\s+mean)\W+)*(?:only|just)\s+(?:for|till|until"
    r"|til)\s+(?:now|the\s+\w+|this\s+\w+|a\s+(?:few\s+)?\w+|\d+\s+\w+|next\s+\w+|january"
    r"|february|march|april|may|june|july|august|september|october|november|december|monday"
    r"|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight)\b"
    rf"|{_JOKE_OPENS}",
    words="misspoke meant scratch never nevermind ignore disregard wrong not wait correction take"
    " forget mistake typo mixed mean autocorrect no scrap only wrongly just none jk kidding joking",
)
# ... the takebacks that deny what was said, and a claim someone other than the user made
_DENIED_CLAIM = _rx(rf"(?:{_THAT_WAS})?{_WRONG}|not\s+true")
_OTHERS_CLAIM = _rx(
    r"\b(?!(?:i|ive|ve|have|had|we)\b)[a-z]+\s+(?:also\s+|just\s+)?(?:said|says|saying|claims?"
    r"|claimed|claiming|wrote|writes|thinks|reckons|insists?|insisted)\b"
)
# ("whats a good gym. oh never mind": the words that open the takeback's sentence)
_OPENING_WORDS_AT_END = _rx(
    r"(?:[\s,]*\b(?:oh|ah|ok|okay|hmm+|wait|sorry|lol|haha|actually|nah|no|um+|uh|ugh)\b)*[\s,]*$"
)


def _asked_just_before(text: str, at: int) -> bool:
    """Whether the sentence right before ``at`` in ``text`` (in the same message) asks the
    assistant for something."""
    head = _OPENING_WORDS_AT_END.sub("", text[:at])
    if not head:
        return False
    if head.endswith("?"):
        return True
    start = max(head.rfind(c, 0, len(head) - 1) for c in ".!?\n") + 1
    said = head[start:].strip(" .!")
    return is_request(said) or _INTERROGATIVE_START.pattern.match(said) is not None


_IDEA_BEFORE = _rx(
    r"\b(?:i\s+was\s+(?:thinking|going\s+to|planning|gonna|about\s+to)|i\s+(?:thought|wanted"
    r"|planned)|my\s+(?:idea|plan)\s+was|how\s+about|what\s+about|maybe)\b"
)
_OWN_PASTE_FIXED = _rx(
    r"\bwrong\s+(?:key|file|code|link|snippet|token|paste|screenshot|log|config|env|url)\b"
    r"|\bi\s+(?:pasted|copied|attached|sent|uploaded)\s+(?:the\s+|my\s+)?(?:wrong|old|other)\b"
    r"|\bi\s+pasted\s+the\s+\w+\s+one\b"
)
_NEGATION = _grx(
    rf"\b(?:not|never|no|none|neither|nor|without|nobody|nothing|nowhere|cannot|hardly|barely"
    rf"|dont|cant|wont|isnt|doesnt|didnt|aint)\b|n{_A}t\b",
    words="not never no none neither nor without nobody nothing nowhere cannot hardly barely dont"
    " cant wont isnt doesnt didnt aint t",
)
# "the late reply", "my late shift": late things, not the dead
_NOT_LATE_THING = (
    r"(?!\s+(?:reply|replies|response|answer|message|night|nights|shift|shifts|notice|start|fee"
    r"|fees|payment|train|bus|flight|checkout|lunch|dinner|breakfast|one|bloomer|stage|stages|game"
    r"|show|summer|spring|autumn|winter|afternoon|evening|morning)\b)"
)
_PAST = _grx(
    r"\b(?:used\s+to|formerly|previously|once|no\s+longer|back\s+(?:then|when|in)"
    r"|when\s+i\s+was|as\s+a\s+(?:kid|child|teen|teenager|student)|growing\s+up|grew\s+up"
    r"|in\s+the\s+past|former|ex|passed\s+away|passed|died|deceased|lived|worked|until"
    # "before my shift" says when, "i lived in oslo before" says it is over
    # ... and "like i told you before" says when it was told
    r"|(?<!told\syou\s)(?<!told\su\s)(?<!said\s)(?<!mentioned\s)(?<!wrote\s)"
    r"before(?!\s+(?:my|the|a|an|work|school|lunch|dinner|breakfast|bed|noon|then))"
    r"|put\s+(?:(?:my|our|the|him|her|them|it)\s+(?:[\w\-]+\s+){0,2})?(?:down|to\s+sleep)|rainbow\s+bridge|lost\s+(?:him|her)"
    # ("my late husband"; never "sorry for the late reply")
    rf"|(?:my|our|the)\s+late{_NOT_LATE_THING})\b"
    r"|\bex-|\b(?:was|were)\b(?!\s+born)"
    # "were in cardiff now" is "we're" typed without the apostrophe, and so is "were on node 18"
    r"(?!\s+in\s+[\w'’\-]+(?:\s+[\w'’\-]+)?\s+now\b)"
    r"(?:(?<=\bwe\swere)|(?!\s+(?:on|using)\s+(?:node|python|react|django|rails|go|java|ruby|php"
    r"|postgres|mysql|pnpm|yarn|npm|next|vue|angular|kotlin|swift|rust|typescript|v?\d)\b)"
    # ... as is a clause that opens with it: "were on prisma already" (never "they were on")
    r"(?!(?:(?<=^were)|(?<=[,.;:!?]\swere)|(?<=\b(?:and|but)\swere)|(?<=\bso\swere))"
    r"\s+(?:on|using)\s+\w))"
    r"|\bhad\b"
    # "the angular 12 app i maintained at my last job": what belonged to a job left behind
    r"|\bat\s+my\s+(?:last|previous|old|former)\s+(?:job|company|employer|workplace|gig)\b",
    words="used formerly previously once longer back was were kid child teen teenager student up"
    " past former ex passed died deceased lived worked until before late had put rainbow lost"
    " last previous old",
)
# "actually she is my cousin", "shes my fiancee now" (never "he is my sister's boy")
_PRONOUN_IS_MY = _grx(
    rf"\b(?P<pron>she|he)(?:{_A}?s|\s+is)\s+(?:actually\s+|now\s+|really\s+)?(?:my|our)\s+"
    rf"(?P<rel>{_REL_SURFACE})(?![\w\-'’]|\s+in\s+crime)",
    "she he shes hes",
)
_CAPITALISED = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}\b")


def _gone_before(text: str, pos: int) -> bool:
    """Whether the sentence before ``pos`` (at most 60 characters of it) says a pet or person
    died or was given away: "We had to rehome Loki, our husky" is about one who is gone."""
    sentence = max(text.rfind(c, 0, pos) for c in ".!?\n")
    return _DIED.pattern.search(text, max(0, sentence, pos - 60), pos) is not None


def _inside_quotes(text: str, pos: int) -> bool:
    """Whether ``pos`` lies inside a double-quoted passage of ``text``."""
    before = text[:pos]
    return before.count('"') % 2 == 1 or before.count("“") > before.count("”")


_APPOSITION = _rx(r"\W*(?:my|our)\s+(?:[\w\-]+\s+)?[\w\-]+\s*,")
_DIED = _grx(
    r"\b(?:passed\s+away|passed\s+(?:in|last|on|over|recently|a\s+few|next|yesterday"
    r"|[\w\-]+\s+(?:years?|months?|weeks?)\s+ago)|died|put\s+(?:(?:my|our|the|him|her|them|it)\s+(?:[\w\-]+\s+){0,2})?(?:down|to\s+sleep)"
    r"|rainbow\s+bridge|is\s+no\s+longer\s+with\s+us"
    # "we lost our golden retriever Max last week", "had to rehome my cat pepper"
    r"|(?:we|i)\s+(?:just\s+|recently\s+|sadly\s+)?lost\s+(?:my|our)|re-?homed?|rehoming"
    r"|gave\s+(?:away|up)\s+(?:my|our)|rip|r\.i\.p|rest\s+in\s+peace"
    # "we gave our cat Mochi to my aunt", "since my husband passed"
    r"|(?:gave|give|giving|given)\s+(?:my|our)\s+(?:[\w\-]+\s+){1,3}?(?:to|away)"
    r"|passed(?=\s*(?:$|[,.;!]|\s+and\b)))\b",
    "passed died put rainbow longer lost rehome rehomed rehoming re gave give giving given rip r"
    " peace",
)
# ", she passed in 2019": a clause that opens by saying the one just named died
_DIED_NEXT = _rx(
    r"\W*(?:and\s+|but\s+)?(?:she|he)\s+(?:sadly\s+|has\s+|just\s+)?(?:passed\s+away|passed"
    r"|died)\b"
)
_THIRD_PARTY = _rx(
    r"\b(?:he|she|they|his|her|their|your|friend|friend's|colleague|coworker|co-worker|client"
    r"|customer|neighbou?r|boss)\b"
)


# --- rules ------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Hit:
    kind: str
    values: dict[str, str | None]
    verb: tuple[int, int] | None = None  # span exempt from the negation guard (clause offsets)
    plural: bool = False
    evidence: list[tuple[int, int, int]] = field(default_factory=list)  # (seq, start, end)
    # cite the matched phrase ("my sister Ola") rather than the whole clause: a possessive
    # mention, whose clause may be about something else ("... is visiting for a few days")
    phrase: bool = False
    stated_end: int = 0  # where in the message the words that state it end
    # "im at kpmg" names an employer only beside a stated occupation ("im at Heathrow" does not)
    needs_role: bool = False
    # "i moved to Grant Thornton in march": a name no gazetteer knows, which the message's
    # words of work may show to be a workplace
    unknown_move: bool = False
    # "find a vet near me in leeds": where the user is, taken for home unless the session
    # speaks of a stay away (see _AWAY_FROM_HOME)
    near: bool = False
    # "my gecko chili? his tank ...": a word right after an unnamed pet that the message did
    # not show to be its name; a later message that makes it a subject does (_pet_named_later)
    maybe_name: str | None = None
    # "my cat tigger pic": the word right after an unnamed pet, which a later "tigger is my
    # mums cat" may name to disown it
    word_after: str | None = None

    def __post_init__(self) -> None:
        # "portugese", "español": the language under the name the claim kinds know
        if self.kind == "language" and (lang := self.values.get("language")):
            self.values["language"] = _LANGUAGE_SPELLINGS.get(lang.casefold(), lang)


def _other_job_corrected(hit: _Hit, retraction: re.Match[str], hits: list[_Hit]) -> bool:
    """Whether ``retraction``, said just after ``hit`` (a job or an employer), is followed by
    a new value of the other of the two and none of ``hit``'s kind: "relationship manager for
    GTBank, no sorry i mean Access Bank" and "a staff nurse at LUTH, sorry no, i moved last
    year, i am now with Reddington" correct the employer and keep the job."""
    # "I'm a junior accountant at KPMG — sorry, was.": the whole statement is a past one
    if (
        hit.kind not in _JOB_PAIR
        or retraction.re is _NOW_PAST
        or _WAS_AFTER.match(retraction.string, retraction.end())
    ):
        return False
    after = {
        h.kind
        for h in hits
        if retraction.end() < h.stated_end <= retraction.end() + 120 and h.kind in _JOB_PAIR
    }
    return bool(after) and hit.kind not in after


_JOB_PAIR: Final = frozenset({"occupation", "employer"})
_WAS_AFTER = _rx(
    r"\W*(?:i\s+)?(?:was|were|used\s+to|formerly|previously|not\s+anymore|no\s+longer)\b"
)


_STOPPED_SLIP = re.compile(r"(?<=\w) (?=(?:no\s+wait|wait\s+no)\b)", re.IGNORECASE)


def _said_in(hit: _Hit, seq: int) -> bool:
    """Whether message ``seq``, the one being read, states ``hit``.

    Evidence is kept in the order the messages were read (a hit that restates an earlier one
    takes its evidence first, then its own), so the message being read, the latest, is the last
    entry: one look instead of a scan, which made each message cost as much as every claim of
    the session before it (quadratic in a long session).
    """
    return bool(hit.evidence) and hit.evidence[-1][0] == seq


# A common misspelling, and languages written in their own names by their speakers
_LANGUAGE_SPELLINGS: Final = {
    "portugese": "portuguese",
    "portugues": "portuguese",
    "português": "portuguese",
    "espanol": "spanish",
    "español": "spanish",
    "castellano": "spanish",
    "deutsch": "german",
    "francais": "french",
    "français": "french",
    "italiano": "italian",
    "nederlands": "dutch",
    "polski": "polish",
}
_NAME_TOKEN = re.compile(_NAME)
_POSSESSIVE_END = re.compile(rf"{_A}s?$")


def _names(text: str, pet: bool = False) -> list[str]:
    """The capitalised names in ``text``; a pet may be named for a people ("my african grey
    Kiwi"), a person is not ("im Egyptian")."""
    names = []
    for token in _NAME_TOKEN.findall(text):
        token = _POSSESSIVE_END.sub("", token)
        folded = token.casefold()
        # "my nanay, Tagalog is my first language": a language is not a name
        # "my daughter PTM on thursday" (her parent-teacher meeting): an acronym, not a name
        if (
            token
            and token not in _STOP_CAPS
            and not (len(token) >= 3 and token.isupper())
            and folded not in _DEMONYMS
            and (pet or folded not in _NATIONALITIES)
            and folded not in _LANGUAGES
        ):
            names.append(token)
    return names


_NEXT_WORD = re.compile(r"\s+([\w'’\-]+)")


def _next_word(text: str, end: int) -> str:
    match = _NEXT_WORD.match(text, end)
    return match.group(1).casefold() if match else ""


_NAME_AFTER = re.compile(
    rf"(?:\s*,\s*|\s+)(?P<names>{_NAMES})(?=\s*$|\s*[,.;!)]|\s+[a-z&]|\s+I\b|(?<=['’]s)\s+\d)"
)
_NAMED = re.compile(
    # "2 guinea pigs there called Salt and Pepper": where they live, then their names
    # ("a kelpie pup now called Bluey", "a persian kitten named Mochi": the breed, then its young)
    rf"(?:\s*,\s*|\s+)(?:(?i:pup|puppy|kitten|kitty|foal|cross|mix)\s+"
    rf"(?=(?:(?i:there|here|now|too)\s+)?(?i:named|called)\s))?"
    rf"(?:(?i:there|here|now|too)\s+(?=(?i:named|called)\s))?"
    # ("two ferrets since 2020, names are Chintu and Mishka")
    rf"(?:(?i:named|called|name\s+is|names\s+are|their\s+names\s+are|name|whose\s+name\s+is"
    # "a french bulldog, se llama Frijol": "is called" in the user's first language
    rf"|se\s+llama|s{_A}appelle|hei(?:ß|ss)t|si\s+chiama|chama-se|se\s+chama"
    # "I have dog, his name is Burek", "a dog, a Dackel named Fritzi": the name of what was
    # just introduced, in the same breath
    # ... "her names Pickle": the apostrophe of "name's" left out
    rf"|(?<=,)\s*(?:his|her|its|their)\s+name(?:\s+is|{_A}s|s(?=\s+(?-i:[A-Z])))"
    rf"|(?<=,)\s*(?:a|an)\s+(?P<described>(?:[\w\-]+\s+){{1,3}}?)(?:named|called))\s+)"
    rf"(?P<names>{_NAMES})"
)
_BARE_NAME_IS = re.compile(r"\s*,\s*(?i:name\s+is)\s")
_OWN_BUSINESS = (
    r"bakery|shop|salon|cafe|café|restaurant|business|company|studio|agency|practice|firm"
    r"|store|clinic|startup"
)
_OWN_FIRM_BEFORE = re.compile(
    r"\b(?i:i\s+(?:run|own|have|opened)\s+(?:(?:a|an|my\s+own|our\s+own)\s+)?(?:[\w\-]+\s+)?"
    rf"(?:{_OWN_BUSINESS}))\b"
)
_POSS_NAME = re.compile(rf"\s+(?i:name\s+is|name{_A}s)\s+(?P<names>{_NAME})")
# "my wife name is Li Na.", "her name is Ana Clara": a two-part given name that ends the clause
_FULL_NAME_AFTER = re.compile(rf"\s+(?P<names>{_NAME}\s+{_NAME})(?=\s*[,.;!?)]|\s*$|\s+[a-z&])")
_SECOND_NAME = re.compile(rf"\s+(?P<second>{_NAME})(?=\s*[.,;!?]|\s*$)")
_NAMING = re.compile(rf"(?i:name(?:\s+is|{_A}s)?|named|called)\s+\S+$")
_IS_CALLED = re.compile(
    rf"\s+(?i:(?:she|he|who)\s+)?(?i:is\s+(?:called|named))\s+(?P<names>{_NAME})"
)
# "our old tabby mrs whiskers": a title makes the next word a name, English word or not
# Titles a name may open with ("mrs whiskers", "Sir Reginald"), for people and pets alike
_TITLE_WORDS: Final = _words(
    "mr mrs ms miss sir lady lord dr captain professor princess prince king queen"
)
_TITLED_LOWER_NAME = re.compile(
    rf"\s+(?P<names>(?:{'|'.join([*_TITLE_WORDS, 'uncle', 'auntie'])})\.?\s+[a-z][a-z'’\-]{{1,19}})"
    r"(?=\s*$|\s*[,.;!)]|\s+[a-z&])"
)


# "my beagle biscuit keeps scratching": an English word after a pet noun is its name when what
# follows is something the pet does
def _pet_name_ok(word: str) -> bool:
    """A lower-case word after "my dog" that may be its name: no compound ("dog food"), no
    adverb ("really": an English word once "ly" goes; "shelly" stays), no word the rules know."""
    folded = word.casefold()
    return (
        folded not in _COMPOUND_NEXT | _NOT_A_NAME
        and not (folded.endswith("ly") and is_common_word(folded[:-2]))
        and not _VOCABULARY.fullmatch(word)
    )


# "my two cats mochi and tofu are ...", "my cats miso and tofu, any day"
_PET_NAMES_THEN = re.compile(
    r"\s+(?P<a>[a-z][a-z\-]{1,19})\s+(?:and|n|&)\s+(?P<b>[a-z][a-z\-]{1,19})"
    r"(?=\s+(?:are|keep|were|have|had|fight|hate|love|both|just|always|never|wont|won't|dont"
    # ("my own chickens dolly and marge lay every day")
    r"|don't|need|get|keep|sleep|refuse|eat|lay|lays|laid|live|lives)\b|\s*[,.!?]|\s*$"
    # "2 cats pixel and nori and a greyhound called dash": the list goes on
    r"|\s+and\s+(?:a|an|my|our|one|two|\d+)\s)"
)
_PETS_ARE_NAMED = re.compile(
    # ("our hamsters are called Shrek and Fiona")
    rf"\s+(?i:are)\s+(?:(?i:called|named)\s+)?(?P<a>{_NAME})\s*(?:,\s*|\s+(?i:and|&)\s+)(?P<b>{_NAME})(?=\s*$|\s*[,.;!?]|\s+[a-z])"
)
_PETS_ARE_LOWER = re.compile(
    r"\s+are\s+(?:called\s+|named\s+)?(?P<a>[a-z][a-z\-]{1,19})\s*(?:,\s*|\s+(?:and|&|n)\s+)"
    r"(?P<b>[a-z][a-z\-]{1,19})(?=\s*$|\s*[,.;!?)])"
)
# what pets are, said as "my cats are fat and lazy": never two names
_PET_STATES: Final = frozenset(
    _words(
        "fat lazy old young cute small big tiny huge fluffy black white brown grey gray ginger"
        " sweet friendly shy scared sick ill fine ok okay good bad crazy hungry tired noisy loud"
        " quiet indoor outdoor spayed neutered vaccinated chipped insured siblings brothers"
        " sisters rescues rescued healthy happy sad bored anxious calm naughty playful vegan"
        " both twins male female boys girls best everything annoying adorable gorgeous"
        " inseparable inside outside upstairs downstairs here there home away together apart asleep"
        " awake out up down gentle loyal smart clever dumb stupid mean nice lovely beautiful"
    )
)


def _lower_pet_name(word: str) -> bool:
    """A lower-case word that may be one of two pets' names after "are": a name the lists allow
    that is no state a pet is in and has no adjective's or verb's ending."""
    return (
        _pet_name_ok(word)
        and word not in _PET_STATES
        and word not in _NOT_A_NAME
        and not word.endswith(("ed", "ing", "ly", "ful", "ous", "ive", "less", "ish", "able"))
    )


# What a pet does, right after its name: "my hamster peanut got into the fruit bowl"
_PET_VERBS = (
    r"be|will|would|can|could|should|might|keep|keeps|is|has|just|always|never|loves|hates"
    # ("my leopard gecko mango hasnt shed properly")
    r"|hasnt|hasn't|isnt|isn't|didnt|didn't|cant|can't|keeps|kept"
    r"|likes|gets|sleeps|barks|meows|wont|won't|doesnt|doesn't|refuses|ate|eats|chews|scratches"
    r"|needs|was|had|goes|chewed|stole|steals|ran|runs|jumped|jumps|bit|bites|howls|cries"
    r"|sheds|pulls|digs|dug|knocked|knocks|follows|hides|wakes|woke|got|threw|throws"
    r"|seems|started|starts|escaped|peed|pees|licks|licked|snores|growls|hisses|hissed|went"
    r"|came|looks|looked|smells|sits|sat|yowls|whines|whined|scratched|hid|hated|loved|fell"
    # "my african grey kiwi screams every time"
    r"|screams|screamed|squawks|talks|says|sings|purrs|poops|pooped|pukes|puked|vomits|vomited"
    r"|limps|limped|coughs|coughed|sneezes|itches|shakes|shook|panics|freaks"
    # "my dog biscuit turned 3 today"
    r"|turned|turns"
)
_PET_VERB_WORDS: Final = frozenset(
    (*_PET_VERBS.split("|"), *_words("fall falls fell lay lies lie lying laying sitting"))
)
# ... but "my dog, however, is fine": a word said aside, between commas
_ASIDE_WORDS: Final = frozenset(
    _words(
        "however though tho anyway anyways btw tbh lol lmao meanwhile otherwise therefore instead"
        " alas ok okay sadly yes yeah no nope well sigh ugh again too also still now then"
        " unfortunately luckily thankfully hopefully maybe perhaps probably prob honestly"
        " actually literally seriously"
    )
)
_PET_APPOSED = re.compile(
    rf"\s*,\s*(?P<names>[A-Za-z][a-z'’\-]{{1,19}})\s*,\s+(?=(?:{_PET_VERBS})\b)"
)
# A message that opens on a name doing something: "finn ate the remote", "toast and jam are
# chattering", "pickle threw up again" (see _pet_answered)
_NAME_OPENS = re.compile(
    r"^\W*(?:(?:hi|hello|hey|help|omg|ugh|so|ok|okay|um+)\W+)?"
    r"(?P<names>[A-Za-z][a-z'’\-]{1,19}(?:\s+(?:and|n|&)\s+[A-Za-z][a-z'’\-]{1,19})?)\s+"
    r"(?:ate|eats|eat|won['’]?t|keeps|keep|hasn['’]?t|haven['’]?t|threw|throws|is|are|makes"
    r"|vomit|vomits|vomited|bit|bites|peed|pooped|doesn['’]?t|can['’]?t|chewed|escaped|got|has"
    r"|keeps|seems|seem|won)\b",
    re.IGNORECASE,
)
_SUBJECT_NOT_NAMES: Final = frozenset(
    _words(
        "i im my we you u it its this that the there what how why who when where she he they"
        " someone everyone everybody nobody somebody anyone mum mom dad mam baby kid kids son"
        " daughter husband wife partner boyfriend girlfriend brother sister boss teacher vet"
        " doctor nurse friend neighbour neighbor landlord everything nothing something which"
        " whose one today tomorrow tonight yesterday dinner lunch breakfast work school"
    )
)
# ... and a later message that says what that name is: "yes hes our corgi", "yep guinea pigs",
# "sushi is goldfish", "ziggy is a border collie pup"
_PET_ANSWER = re.compile(
    r"^\W*(?:(?:yes|yeah|yep|ya|yea|yup|oh|sorry|lol|haha)\W+)*"
    r"(?:(?P<who>[a-z][a-z'’\-]*(?:\s+(?:and|n|&)\s+[a-z][a-z'’\-]*)?)\s+(?:is|are)"
    r"|(?P<pron>(?:he|she|they)(?:['’]?s|\s+is|\s+are|['’]re)|hes|shes|theyre|yes\s+is))\s+"
    rf"(?:(?:a|an|the|my|our)\s+)?(?:[\w\-]+\s+){{0,3}}?(?P<noun>{_PET_SURFACE})\b",
    re.IGNORECASE,
)
# "are they guinea pigs?" / "yep guinea pigs, both boars": the answer is the noun alone
_PET_BARE_ANSWER = re.compile(
    r"^\W*(?P<pron>yes|yeah|yep|ya|yea|yup)\W+(?:(?:a|an|the|my|our)\s+)?(?:[\w\-]+\s+){0,2}?"
    rf"(?P<who>)(?P<noun>{_PET_SURFACE})\b",
    re.IGNORECASE,
)
# never another's animal, minded, treated or walked for them
_NOT_OURS = re.compile(
    r"\b(?:friend|neighbou?r|client|customer|patient|sister|brother|mum|mom|dad|boss|owner)"
    r"(?:['’]?s)?\b|\bsitting\b|\bminding\b|\bwalk(?:ing)?\s+(?:him|her|them)\s+for\b",
    re.IGNORECASE,
)


def _subject_name_ok(word: str) -> bool:
    folded = word.casefold()
    return (
        folded not in _SUBJECT_NOT_NAMES
        and folded not in _NOT_A_NAME
        and _pet_name_ok(word)
        and known_employer(word) is None
        and canonical_place(word) is None
    )


# A list of the user's own facts, as bios and profiles are typed: "facts: 29, vegan, live in
# bristol", "set up my food profile: pescatarian, allergic to tree nuts", "hi! 34, nurse, leeds"
_BIO_INTRO = _grx(
    # ("me:" heads the list itself, never "this is what she sent me:")
    r"(?:\b(?:facts|about\s+me|my\s+(?:[\w\-]+\s+){0,3}?(?:profile|bio|details|info|stats))"
    r"|(?:^|(?<=[.!?,;(\n]))\s*me"
    r"|(?:quick\s+)?context(?:\s+so\s+(?:u|you)\s+stop\s+asking)?)\s*:\s*",
    "facts me profile bio details info stats context",
)
_AGE_OPENS = re.compile(r"^\W*(?:(?:hi|hey|hello|ok|so)\W+)?\d{2}\s*,\s*(?=[a-z])", re.IGNORECASE)
# ... never a list said of someone else ("my friends bumble bio:", "a client's details:")
_BIO_OTHERS = _rx(
    r"\b(?:friends?|mates?|clients?|customers?|mum|mom|dad|mother|father|sister|brother|wife"
    r"|husband|partner|boyfriend|girlfriend|son|daughter|boss|coworkers?|colleagues?|neighbou?rs?"
    r"|character|characters|he|she|they|his|her|their|him|them|someone|somebody|users?|3rd\s+person"
    r"|third\s+person|template|example|fake|dummy|sample)\b|\{"
)
_BIO_UNSURE = _rx(
    r"\b(?:not|no|never|dont|don['’]t|doesnt|isnt|if|maybe|would|wanna|want|hoping|hope"
    r"|planning|used\s+to|ex|former|soon|until|till)\b|\?"
)
# the first word of a fragment that "i" says ("live in bristol"); any other takes "i'm"
_BIO_VERB_FIRST: Final = frozenset(
    _words("have has live love hate like adore enjoy speak work teach study own prefer cant can't")
)
_BIO_END = re.compile(r"[.!?](?:\s|$)|\n")

# "my daughter mina (12)", "my son leo (4yo)": a name, then the age in brackets (never a
# word of the sentence: "my son is (12)", "my daughter sooo (12)")
_NOT_NAME_BEFORE_AGE: Final = frozenset(
    _words(
        "is was isnt wasnt and or who whos turns turned just only also now aged age nearly"
        " almost like so sooo very still too who's is's"
    )
)
_NAME_BEFORE_AGE = re.compile(
    rf"\b(?:my|our)\s+(?P<rel>{_REL_SURFACE})\s+(?P<name>[a-z][a-z'’\-]{{1,19}})\s*\(\s*\d{{1,2}}"
    r"\s*(?:yo|y/o|yrs?|years?(?:\s+old)?|mo|months?(?:\s+old)?)?\s*\)",
    re.IGNORECASE,
)
_KIDS_BRACKETED = re.compile(
    r"(?:^|[\s,;:])(?:\d|two|three|four)\s+(?:kids|children)\s*\((?P<inner>[^()]{3,80})\)",
    re.IGNORECASE,
)
_KID_IN_LIST = re.compile(
    r"(?:^|(?<=[(,&]))\s*(?:and\s+)?(?P<rel>daughter|son)\s+(?P<name>[a-z][a-z'’\-]{1,19})"
    r"(?:\s+\d{1,2}(?:\s*(?:yo|y/o|yrs?))?)?\s*(?=,|\)|$|\s+and\b)",
    re.IGNORECASE,
)
# "our rescue greyhound (luna) is very afraid of loud things": one pet, its name in brackets
# (never an aside: "my dog (rip)")
_BRACKET_ASIDES: Final = frozenset(_words("rip jk sic smh ofc obviously finally sadly ish"))
_PET_THEN_BRACKETED = re.compile(
    rf"\b(?:my|our)\s+(?:(?:{_PET_MOD})\s+){{0,2}}(?P<pet>{_PET_SURFACE})"
    r"\s*\(\s*(?P<pname>[A-Za-z][a-z'’\-]{1,19})\s*\)",
    re.IGNORECASE,
)
_PET_NAME_THEN_VERB = re.compile(
    # ("my cat luna and she goes mental every time it storms")
    rf"\s+(?P<names>[a-z][a-z'’\-]{{1,19}})(?=\s+(?:and\s+(?:my|our|she|he|shes|hes|she['’]s"
    # "how much hay should my rabbit biscuit eat", "my dog rex eat everything": the verb's
    # plain form, after a modal or in a second language
    rf"|he['’]s)|{_PET_VERBS}|eat|sleep|drink|need|get"
    # "my cat toast asleep on my keyboard", "my parrot mango only says hello"
    rf"|asleep|only|still|sitting|sleeping|lying|laying|playing|hiding|chasing|snoring"
    # "my african grey coco speaks more portuguese than me"
    rf"|speaks|spoke|understands|knows)\b"
    # "with my mare bridie, she's 14 this year": the name, then what she is
    rf"|\s*,\s*(?:she|he|shes|hes|she['’]s|he['’]s)\s"
    # "for my snake noodle's vivarium": the name, then what is the pet's
    rf"|['’]s\s+(?:bed|tank|vivarium|terrarium|enclosure|cage|hutch|crate|kennel|coop|bowl|food"
    rf"|lead|leash|collar|harness|toys?|vet|meds|medication|insurance|jabs|vaccinations?|fur|coat"
    rf"|paws?|tail|teeth|nails|claws|ears?|eyes?|legs?|skin|weight|diet|litter|bday|birthday)\b"
    # "named him after my actual cat tofu lol": the name, then a laugh that ends the clause
    rf"|\s+(?:lol|lmao|haha\w*)(?=\s*(?:$|[,.;!?])))"
)


# "pepper my lab keeps stealing food", "biscuit my pup fell asleep on my arm": a lower-case
# name set before the possessive, when the pet then does something
_OPENED_CLAUSE_END = re.compile(
    r"[.!?;\n]|,\s|\s+(?:and|but|so|cause|because|bc)\s+", re.IGNORECASE
)


def _clause_end(text: str, at: int) -> int:
    """Where the clause going on at ``at`` ends: a sentence's end, a comma or a conjunction."""
    found = _OPENED_CLAUSE_END.search(text, at)
    return found.start() if found else len(text)


def _unnamed_in(hits: list[_Hit], species: str | None, seq: int) -> list[_Hit]:
    """The unnamed pets of ``species`` that message ``seq`` stated: those a name said beside
    them in that message may name (each caller says how near)."""
    return [
        h
        for h in hits
        if h.kind == "pet"
        and h.values.get("species") == species
        and not h.values.get("name")
        and h.evidence[-1][0] == seq
    ]


# Words that describe a pair of animals rather than name them ("black and white, my two cats")
_DESCRIBING_PAIR: Final = frozenset(
    _words(
        "black white grey gray brown ginger orange tabby cream golden big small old young male"
        " female boy girl boys girls mum mom dad me you him her them us one"
    )
)
# "its for biscuit and pepper, my two beagles": a pair named, then the user's two pets
_PAIR_BEFORE_PETS = re.compile(
    r"(?:^\W*|\b(?:for|with|meet|walk|walking|feed|feeding|of)\s+)(?P<a>[a-z][a-z'’\-]{1,19})"
    r"\s+(?:and|&|n)\s+(?P<b>[a-z][a-z'’\-]{1,19})\s*,\s*(?:my|our)\s+(?:two\s+|2\s+|both\s+)?"
    rf"(?P<species>{_PET_SURFACE})\b"
)
# "our two rats, gus and bean, they go crazy", "now i have 2 rabbits, pepa and lola": the
# pair named just after the user's pets
_PETS_THEN_PAIR = re.compile(
    rf"(?:\b(?:my|our)\s+(?:(?:two|2|both)\s+)?|\bi\s+(?:have|got|own)\s+(?:two|2)\s+)"
    rf"(?:(?:{_PET_MOD})\s+)?(?P<species>{_PET_SURFACE})"
    r"\s*,\s*(?P<a>[a-z][a-z'’\-]{1,19})\s+(?:and|&|n)\s+(?P<b>[a-z][a-z'’\-]{1,19})"
    r"(?=\s*[,.!;)]|\s*$|\s+(?:they|theyre|are|both)\b)"
)
_LOWER_NAME_BEFORE = re.compile(
    r"(?:^\W*|[,;:]\s*|\b(?:also|and|ok|oh|lol|btw|plus|omg|ugh|so)\s+)"
    r"(?P<names>[a-z][a-z'’\-]{1,19})\s+$"
)
# ... an action, not "is" or "has" ("walk my dog is what i do")
# "i already have luna my cat": a lower-case given name had, before the pet it names
_HAVE_LOWER_BEFORE = re.compile(
    r"\b(?:have|has|got|adopted|rescued|meet)\s+(?P<names>[a-z][a-z'’\-]{1,19})\s+$"
)
# "sorry my cat is walking on the keyboard": a word said to the reader, not the pet's name
_INTERJECTIONS: Final = frozenset(
    _words(
        "sorry lol omg ugh ok okay oh yes yeah no nope haha wait well hey hi hello anyway sadly"
        " ah ahh aw aww um hmm yikes oops whoops wow damn dang jeez"
    )
)
# ("i got home my cat was sick", "i have both my cats")
_HAD_NOT_NAMES: Final = frozenset(
    _words("home back both all two three four time lunch dinner breakfast fun to only just")
)
_PET_VERB_NEXT = re.compile(
    r"\s+(?:keeps|loves|hates|likes|gets|sleeps|barks|meows|refuses|ate|eats|chews|scratches"
    r"|chewed|stole|steals|ran|runs|jumped|jumps|bit|bites|howls|sheds|pulls|digs|dug|knocked"
    r"|knocks|follows|hides|wakes|woke|got|threw|throws|escaped|peed|pees|licks|licked|snores"
    r"|growls|hisses|hissed|yowls|whines|whined|scratched|hid|fell|sat|sits"
    # "so zbyszek my tortoise came with me"
    r"|came|went"
    # "smudge my cat has been staring at it for hours"
    r"|(?:has\s+been|is|was)\s+(?:always\s+|still\s+|just\s+)?[a-z]+ing)\b"
)
# "a cocker spaniel called biscuit": after "called" or "named" a lower-case word is a name even
# if it is also an English word
_CALLED_LOWER = re.compile(
    r"\s*,?\s+(?:(?:(?i:is|who\s+is|she\s+is|he\s+is|she['’]s|he['’]s)\s+)?(?i:named|called)"
    # "a new pup 2 weeks ago, her name is kiwi", non-native "my dog name is bruno"
    r"|(?<=,\s)(?i:(?:his|her|its)\s+name(?:\s+is|['’]s))|(?i:name\s+is))\s+"
    r"(?P<names>(?!(?:after|by|for|in|the|a|an|it|that|him|her"
    r"|them|something|anything)\b)[a-z][a-z'’\-]{1,19})(?=\s*$|\s*[,.;!?)]|\s+(?:and|who|lol"
    r"|haha|btw|but|because|cause|since|so"
    # "my dog called pepper is sick", "my cockapoo called waffles keeps barking"
    r"|is|was|has|had|keeps|kept|just|loves|hates|likes|gets|got|needs|eats|ate|barks|sleeps"
    r"|bites|bit|scratches|won['’]?t|can['’]?t|doesn['’]?t|did|does|turns|turned|died)\b)"
)
_NOT_A_NAME: Final = frozenset(
    _words(
        "just also still always never sometimes actually literally totally absolutely definitely"
        " probably who that which what now then too so and but or here there today tonight"
        " already even only again apparently honestly seriously basically she he it they we"
        # "my cat somehow knows", "my dog kinda likes it": how, said in chat
        " somehow kinda sorta lowkey highkey def defo deffo prob probs totes rly srsly legit lit"
        " finally suddenly"
        # past tenses the word list lacks: "my sister became a nurse"
        " became began held paid heard"
        # what the word list lacks of how people work: "im freelance, a designer"
        " freelance freelancer freelancing homeschooling selfemployed"
        # "the birthday of my wife saturday": a day, never a name
        " monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs"
        " fri sat sun tomorrow tmrw yesterday weekend"
        # "my dog name is bruno": the name is said next
        " name names"
        # chat's short words for things the list lacks: "that was my sisters info"
        " info deets addy bday convo pic pics vid vids msg msgs"
        # Filipino English particles ("my stepdad pala", "my tito lang") and Nigerian "na"
        # ("my own brother na chidi"): words of the sentence, never a name
        " pala po lang naman daw ba nga talaga kasi na"
    )
)
# "my sister ola": a lower-case name after the noun, if it is not an English word
_LOWER_NAME_AFTER = re.compile(
    # ("my daughter ella and her friend maya": never "her" a second name)
    r"\s+(?P<names>(?-i:[a-zà-öø-ÿ][a-zà-öø-ÿ'’\-]{1,19})(?:\s+(?:and|n|&)\s+"
    r"(?!(?:her|his|their|my|our|the|a|an|i|we|me|you|u)\b)(?-i:[a-zà-öø-ÿ][a-zà-öø-ÿ\-]{1,19}))?)"
    r"(?=\s*$|\s*[,.;!)]|\s+[a-z&]|(?<=['’]s)\s+\d)"
)

# Given names that are also English words ("lily", "mark", "hope"), taken after a relative only
# when a verb of the person or the clause's end follows (never "my husband will be late")
_WORD_NAME: Final = (
    r"(?:lily|rose|jack|mark|grace|hope|faith|joy|ruby|amber|daisy|ivy|bill|pat|rob|sue|dawn"
    r"|jasmine|holly|iris|violet|hazel|olive|pearl|summer|autumn|sky|river|sage|penny|heather"
    r"|crystal|dean|hunter|jay|ray|sandy|victor|bob|nick|willow|brooke|dale|lance|reed|poppy"
    r"|jade|melody|destiny|harmony|frank|rusty|skye|robin|carol|john|max"
    # names the word list has for another sense ("tom" a male cat, "kim" an abbreviation)
    r"|tom|sam|ben|dan|ken|joe|ted|ann|anna|eve|amy|kim|lee|jean|hank|jake|luke|pete|rick"
    r"|walt|wes|terry|tony|lucy|molly|carl|otto|jo|kat|nat|jess|kai"
    # ... and names of many countries it lists ("marco polo", "pablo" a paper size)
    r"|marco|ana|maria|pedro|pablo|peter|james|mary|laura|emma|hiro|raj|anil|arjun|nils|lars"
    # ... and common given names it has in another sense ("ava" a shrub, "toby" a jug)
    r"|ava|ines|toby|milo|maya|amir"
    # ... and months and a city the word list has ("june here 👋", "my names florence lol")
    r"|june|april|florence)"
)
_WORD_NAME_TOKEN = re.compile(_WORD_NAME)
# "my daughter zoes 7th bday party", "my son jakes school": a lower-case name with the possessive
# "s" typed without its apostrophe, before what belongs to the person
_LOWER_NAME_OWNS = re.compile(
    r"\s+(?P<names>(?-i:[a-z][a-z\-]{1,18}))s\s+(?:(?:\d{1,2}(?:st|nd|rd|th)|first|new|last)\s+)?"
    r"(?:bday|birthday|wedding|party|school|teacher|class|homework|graduation|christening|baptism"
    r"|football|soccer|swim|swimming|dance|nursery|daycare|kita|appointment|recital|room|bedroom"
    r"|engagement)\b",
    re.IGNORECASE,
)
_WORD_NAMES_AFTER = re.compile(
    rf"\s+(?P<names>{_WORD_NAME}(?:\s+and\s+(?:{_WORD_NAME}|[a-z]{{2,19}}))?)"
    r"(?=\s+(?:is|has|was|just|keeps|loves|likes|hates|turns|turned|wants|says|said|thinks"
    r"|gets|got|starts|started|needs|can't|cant|doesnt|doesn't|won't|wont|are|were|have|both"
    r"|turn|love|like|hate|want|need|keep|play|plays|go|goes|start"
    # "my mum pat gave me a load of seeds"
    r"|gave|gives|made|makes|bought|buys|sent|sends|told|tells|asked|asks|called|calls|came"
    r"|comes|took|takes|lives|works|visited|visits|cooked|cooks|helped|helps|taught|teaches"
    r"|drove|drives|picked|picks"
    # "my wife ana will pick him up early": what she will do, not whether she is
    r"|will|would|can|could|should|usually|always|never|also|often)\b"
    # "my husband tom and his best mate gaz": the name, then someone of the relative's
    r"|\s+(?:and|&|n)\s+(?:her|his|their)\b"
    r"|\s*[,.;!?)]|\s*$)"
)


def _with_names(
    kind: str, noun_field: str, noun: str, names: list[str], verb: tuple[int, int]
) -> Iterator[_Hit]:
    if not names:
        yield _Hit(kind, {noun_field: noun, "name": None}, verb)
    for name in names:
        yield _Hit(kind, {noun_field: noun, "name": name}, verb)


def _normal(kind: str, field: str, raw: str) -> str | None:
    try:
        return normalize_value(kind, field, raw)
    except InvalidInput:
        return None


# "my twin girls Aisha and Zara", "my eldest boy": a girl or boy after a word that only a
# parent says of a child is a daughter or son ("my boys" alone may be friends, "my girl" a
# partner)
_KID_WORD = (
    r"(?:(?<=twin\s)|(?<=twins\s)|(?<=eldest\s)|(?<=oldest\s)|(?<=youngest\s)|(?<=middle\s)"
    r"|(?<=baby\s)|(?<=little\s))(?:girls?|boys?)"
    # "our two boys", "my 3 girls": counted, they are children ("me and my boys" are mates)
    r"|(?:(?<=two\s)|(?<=three\s)|(?<=four\s)|(?<=[2-6]\s))(?:girls|boys)"
)
_POSSESSIVE = _grx(
    rf"\b(?P<det>my|our)\s+(?:(?:{_REL_MOD}|{_PET_MOD})\s+){{0,2}}"
    # "my wifes name is Anna": a possessive typed without its apostrophe before "name"
    rf"(?P<noun>{_REL_SURFACE}|{_PET_SURFACE}|{_KID_WORD})(?:(?=s\s+name\b)|(?![\w\-]))"
    rf"(?P<tail>{_A}s?|s(?=\s+name\b))?",
    "my our",
)


_PET_NOUN = _rx(_PET_SURFACE)
# What "my dad is ..." says of a person in one capitalised word without naming them
_WHAT_A_PERSON_IS: Final = frozenset(
    _words(
        "catholic christian muslim jewish hindu buddhist sikh atheist agnostic protestant"
        " orthodox mormon evangelical baptist methodist anglican lutheran quaker deaf blind"
        " retired pregnant single married divorced widowed gay straight bi vegan vegetarian"
        " disabled autistic sick ill fine ok okay great good home here there away back out"
        " busy older younger"
    )
)


# "max is my brothers dog not mine lol. mine is a cat called Pesto": the user's own, named
_MINE_IS = _grx(
    rf"\b(?:mine|ours)\s+is\s+(?:a|an)\s+(?:(?:{_PET_MOD}|[a-z]{{3,}})\s+){{0,2}}?"
    rf"(?P<noun>{_PET_SURFACE})(?![\w\-])",
    "mine ours",
)
# "my cat is Olive, shes scared of Benji": a capitalised word after "is" names a pet
_PET_IS_NAME = re.compile(
    # "my dad is also John"
    rf"\s+(?i:is)\s+(?:(?i:also)\s+)?(?P<names>{_NAME})(?=\s*$|\s*[,.;!]|\s+(?i:and|but|so|which)\b)"
)


# "hes called Sir Reginald", "a cat called Lady Grey": a title is the first word of a pet's name
_PET_TITLES: Final = frozenset(
    [*_TITLE_WORDS, *_words("duke duchess baron general sergeant major")]
)
_TITLE_FOLLOWED = re.compile(rf"\.?\s+(?P<second>{_NAME})")


def _titled_name(names: list[str], c: str, end: int) -> list[str]:
    """``names`` with a lone title ("Sir") completed by the capitalised name after it."""
    if (
        len(names) == 1
        and names[0].casefold().rstrip(".") in _PET_TITLES
        and (second := _TITLE_FOLLOWED.match(c, end))
    ):
        return [f"{names[0]} {second.group('second')}"]
    return names


def _named_pet(c: str, pos: int, noun: str) -> re.Match[str] | None:
    """The name given to the animal ``noun`` right after it, unless what is named is another
    animal: "a dog, a dackel named Fritzi" names the dog; "a cat, a hamster called Peanut"
    names the hamster, the next item of the list."""
    named = _NAMED.match(c, pos)
    if named is None or not (described := named.group("described")):
        return named
    species = _normal("pet", "species", noun)
    for word in described.split():
        other = _normal("pet", "species", word) if _PET_NOUN.fullmatch(word) else None
        if other is not None and other != species:
            return None
    return named


# "Raju is my dad's name only", "Ada is my daughters name": the name, then whose it is
_NAME_IS_MY_RELATIVES = _grx(
    rf"(?:^\W*|[,.;:!?]\s+|\b(?:and|but|so|btw|lol)\s+)(?P<name>{_NAME})\s+is\s+my\s+"
    rf"(?P<noun>{_REL_SURFACE})['’]?s\s+name\b",
    "name",
)


def _rule_name_is_my(c: str, mask: int) -> Iterator[_Hit]:
    for m in _NAME_IS_MY_RELATIVES.finditer(c, mask):
        relation = _normal("relationship", "relation", m.group("noun"))
        names = _names(m.group("name"))
        if relation is not None and len(names) == 1:
            yield _Hit("relationship", {"relation": relation, "name": names[0]}, m.span())


def _rule_mine_is(c: str, mask: int) -> Iterator[_Hit]:
    for m in _MINE_IS.finditer(c, mask):
        species = _normal("pet", "species", m.group("noun"))
        if species is None or _next_word(c, m.end()) in _COMPOUND_NEXT:
            continue
        names: list[str] = []
        end = m.end()
        if named := _NAMED.match(c, end):
            names, end = _names(named.group("names"))[:1], end + named.end() - end
        elif named := _CALLED_LOWER.match(c, end):
            names, end = [named.group("names").title()], named.end()
        yield from _with_names("pet", "species", species, names, (m.start(), end))


_TONGUE_NEXT = re.compile(r"\s+(?:lang|leng|lan?gu|tong|toung)\w*", re.IGNORECASE)
_MY_REAL = re.compile(r"\b(?:my|our)\s+real\b", re.IGNORECASE)
_BE_MY = re.compile(r"\b(?:to\s+be|be|become|becomes)\s+my\b", re.IGNORECASE)
# "my plants are my children", "my students are basically my kids": a thing or a group the user
# calls their relatives, a figure of speech
_REL_WORD = _rx(_REL_SURFACE)
_PORT_VALUE = _rx(r"(?:on\s+)?port\s+\d{2,5}")
_WHERE_TAIL = _rx(r"\s+(?:everywhere|anywhere|around|nearby|in\s+it|in\s+them|all\s+over)$")
_CALL_IT_MY = _rx(r"\bcall(?:s|ed|ing)?\s+(?:her|him|it|them)\s+$")
_THINGS_ARE_MY = _rx(
    r"\bmy\s+(?P<subj>[a-z]+)\s+(?:are|r|is)\s+(?:basically\s+|literally\s+|like\s+|all\s+)*$"
)


def _rule_possessive(c: str, mask: int) -> Iterator[_Hit]:
    for m in _POSSESSIVE.finditer(c, mask):
        surface = m.group("noun")
        is_pet = _PET_NOUN.fullmatch(surface) is not None
        kind, field_name = ("pet", "species") if is_pet else ("relationship", "relation")
        noun = "child" if surface.casefold() == "twins" else _normal(kind, field_name, surface)
        after = _next_word(c, m.end())
        if noun is None or (
            not m.group("tail")
            and after in _COMPOUND_NEXT
            and not (not is_pet and after in _PEOPLE_DO)
            # "my hamsters cage": the pet's, its apostrophe left out
            and not (is_pet and surface.casefold().endswith("s") and after in _PET_BELONGINGS)
        ):
            continue
        # "help me continue my kids story, its told by the fox": a genre, written for children
        if surface.casefold() in ("kids", "childrens", "children's") and after in _KIDS_GENRE:
            continue
        # "our daughter" (the couple's), "our mum" (the siblings'); never "our wife"
        if (
            m.group("det").casefold() == "our"
            and not is_pet
            and noun not in _CHILD_RELATIONS
            and noun not in _SHARED_RELATIONS
        ):
            continue
        if not is_pet and noun == "partner" and _next_word(c, m.end()) == "in":
            continue
        # "portuguese is my mother languague": a mother tongue, however it is spelled
        if not is_pet and noun == "mother" and _TONGUE_NEXT.match(c, m.end()):
            continue
        # "i want him to be my boyfriend so bad", "will you be my girlfriend": a partner wished
        # for or asked, not had
        if not is_pet and _BE_MY.search(c, max(0, m.start() - 12), m.start() + 3):
            continue
        # "i just call her my hamster as a joke": a name for an animal, not one more of them
        if _CALL_IT_MY.search(c, max(0, m.start() - 20), m.start()):
            continue
        if (
            not is_pet
            and (things := _THINGS_ARE_MY.search(c, max(0, m.start() - 40), m.start()))
            and _REL_WORD.fullmatch(things.group("subj")) is None
        ):
            continue
        # "pepper was our old cat": one the user had before, not one they have
        if _WAS_BEFORE.search(c, max(0, m.start() - 8), m.start()) and _FORMER_MOD.search(
            m.group()
        ):
            continue
        # "thank you my brother": an address to the assistant, not a relative
        if not is_pet and _VOCATIVE_BEFORE.search(c, 0, m.start()) and _ONLY_END.match(c, m.end()):
            continue
        if is_pet and (
            _PET_AS_ROLE_BEFORE.search(c, max(0, m.start() - 40), m.start())
            or _PET_AS_ROLE_AFTER.match(c, m.end())
        ):
            continue
        # "my only child is a monstera named gerald": a relative who is a thing is a joke
        if (
            not is_pet
            and (thing := _IS_A_NAMED.match(c, m.end()))
            and not _VOCABULARY.fullmatch(thing.group("what"))
        ):
            continue
        # "my kids are my two cacti, Spike and Prickles": children who are things, likewise
        if (
            noun in _CHILD_RELATIONS
            and (thing := _ARE_MY_THINGS.match(c, m.end()))
            and not _VOCABULARY.fullmatch(thing.group("what"))
            and thing.group("what").casefold() not in _WHOLE_WORLD
        ):
            continue
        plural = surface.casefold().endswith("s") and surface.casefold() not in {"fish"}
        plural = plural or surface.casefold() in {"children", "grandchildren"}
        # "my little sisters wedding ... her name is Noor": one sister, her wedding
        owner = m.group("tail") in ("'s", "’s")
        # "mandu is my sister cat": a relative before a pet's noun owns the pet (the "'s" of a
        # second-language speaker left out), so the name before is the pet's
        owner = owner or (
            not is_pet and after is not None and _PET_NOUN.fullmatch(after) is not None
        )
        if (
            plural
            and not is_pet
            and not m.group("tail")
            and _possessive_s(surface, c, m.end())
            and (single := _normal(kind, field_name, surface[:-1])) is not None
        ):
            plural, noun, owner = False, single, True
        # "my mum friend group", "my dad mates": parents the user knows, not the user's own
        if (
            not plural
            and surface.casefold() in ("mum", "mom", "dad", "mummy", "mommy")
            and _PARENT_PEERS.match(c, m.end())
        ):
            continue
        # "my brothers in christ", "my sisters in arms": a fellowship, not siblings
        if not is_pet and _IN_FELLOWSHIP.match(c, m.end()):
            continue
        # "my moms group", "my dads team": a group of parents, not the user's own; only "my moms
        # a nurse" (is) and "my dads birthday" (whose) are one parent
        if (
            plural
            and surface.casefold() in ("moms", "mums", "dads")
            and not _ONE_PARENT_NEXT.match(c, m.end())
        ):
            continue
        # "my fathers bakery" is the father's (above); "our fathers who art in heaven", "my
        # mothers day card" are no parent of the user's
        if surface.casefold() in ("mothers", "fathers") and (plural or after == "day"):
            continue
        if surface.casefold() == "father" and _HEAVENLY_FATHER.match(c, m.end()):
            continue
        rest, names, end = c[m.end() :], [], m.end()
        if m.group("tail") == "'s" or m.group("tail") == "’s":
            if named := _POSS_NAME.match(rest):
                names, end = _names(named.group("names")), m.end() + named.end()
        elif (
            (named := _NAMED.match(rest))
            # "i have small firm together with my brother, name is X": the firm's name
            and _BARE_NAME_IS.match(named.group())
            and _OWN_FIRM_BEFORE.search(c, 0, m.start())
        ):
            pass
        elif (named := _NAMED.match(rest) or _IS_CALLED.match(rest) or _POSS_NAME.match(rest)) or (
            named := _NAME_AFTER.match(rest)
        ):
            names, end = _names(named.group("names"), pet=is_pet), m.end() + named.end()
            if (
                len(names) == 1
                and _NAMING.search(named.group())
                and (second := _SECOND_NAME.match(rest, named.end()))
                and _names(second.group("second"), pet=is_pet)
            ):
                names, end = [f"{names[0]} {second.group('second')}"], m.end() + second.end()
        elif (
            (named := _FULL_NAME_AFTER.match(rest))
            and len(both := _names(named.group("names"), pet=is_pet)) == 2
            # ("my sister Ola Lagos based": a place after the name)
            and not canonical_place(both[1])
            and not is_town(both[1])
        ):
            # "my daughter Mary Kate has a dentist appt", "my brother José Luis": both names
            names, end = [" ".join(both)], m.end() + named.end()
        elif named := _TITLED_LOWER_NAME.match(rest) or _CALLED_LOWER.match(rest):
            names, end = [named.group("names").title()], m.end() + named.end()
        elif (named := _LOWER_NAME_AFTER.match(rest)) and (
            lower := _given_names(named.group("names"))
        ):
            names, end = lower, m.end() + named.end()
        elif (
            not plural
            and (named := _LOWER_NAME_OWNS.match(rest))
            and (lower := _given_names(named.group("names")) or _word_name(named.group("names")))
        ):
            names, end = lower, m.end() + named.end("names")
        elif not is_pet and (named := _WORD_NAMES_AFTER.match(rest)):
            # "my daughter lily is 6", "my twins lily and noah turn 7": a given name that is also
            # an English word, when a verb or the clause's end shows it is one
            first, *more = named.group("names").split()[::2]
            names = [first.title()] + [
                n.title() for n in more if _WORD_NAME_TOKEN.fullmatch(n) or _given_names(n)
            ]
            end = m.end() + named.end()
        elif (
            not plural
            and (named := _PET_IS_NAME.match(rest))
            # "my wife is Anke": a relative's name, never a word ("my dad is Catholic"); a
            # capitalised word that is not one of what a person is ("my husband is Yaw") names
            and (
                is_pet
                or not is_common_word(named.group("names").casefold())
                or (
                    named.group("names")[:1].isupper()
                    and named.group("names").casefold() not in _WHAT_A_PERSON_IS
                    and named.group("names").casefold() not in _NATIONALITIES
                    and named.group("names").casefold() not in _DEMONYMS
                )
            )
        ):
            names, end = _names(named.group("names")), m.end() + named.end()
        elif (
            is_pet
            and not plural
            and (named := _PET_APPOSED.match(rest))
            and named.group("names").casefold() not in _ASIDE_WORDS
            and _pet_name_ok(named.group("names"))
        ):
            # "our rescue greyhound, luna, is scared of stairs"
            names, end = [named.group("names").title()], m.end() + named.end("names")
        elif (
            is_pet
            and (named := _PET_NAME_THEN_VERB.match(rest))
            # "my african grey kiwi screams": a people's name is a pet's name there
            and (
                _pet_name_ok(named.group("names"))
                or named.group("names").casefold() in _DEMONYMS | _NATIONALITIES
            )
            # "my pup fell asleep": a verb is no name; "put our old cat to sleep": nor "to"
            and named.group("names").casefold() not in _PET_VERB_WORDS
            # "i love my dog tho lol": nor a word said aside
            and named.group("names").casefold() not in _ASIDE_WORDS
            and named.group("names").casefold() not in _NOT_A_NOUN
        ):
            names, end = [named.group("names").title()], m.end() + named.end()

        elif (
            is_pet
            and plural
            and (named := _PET_NAMES_THEN.match(rest))
            and all(_pet_name_ok(n) for n in (named.group("a"), named.group("b")))
        ):
            # "my two cats mochi and tofu are destroying the couch"
            names = [named.group("a").title(), named.group("b").title()]
            end = m.end() + named.end()
        elif is_pet and plural and (named := _PETS_ARE_NAMED.match(rest)):
            # "my cats are Miso and Tofu"
            names, end = [named.group("a"), named.group("b")], m.end() + named.end()
        elif (
            is_pet
            and plural
            and (named := _PETS_ARE_LOWER.match(rest))
            and all(_lower_pet_name(named.group(g)) for g in ("a", "b"))
        ):
            # "my cats are miso and tofu": two names, never what the pets are ("fat and lazy")
            names = [named.group("a").title(), named.group("b").title()]
            end = m.end() + named.end()
        # "my nonna Lucias sunday gravy": a name ending in s before a noun may be a possessive
        # typed without its apostrophe (Lucia's or Lucias's?), so the name is left unsaid
        if len(names) == 1 and _possessive_s(names[0], c, end):
            names = []
        start = m.start()
        # "wait sorry no, Aisha is my niece": the name said before "is my"
        # ... but "Mochi is my sisters cat" names the cat, not the sister
        if (
            not names
            and not plural
            and not owner
            and (
                before := _NAME_IS_BEFORE.search(c, 0, m.start())
                or _NAME_APPOSED_BEFORE.search(c, max(0, m.start() - 40), m.start())
            )
            is not None
            and _named_before(before.group("names"))
            # "I have Friday my sisters wedding": a day is no name
            and before.group("names").casefold() not in _RELATIVE_DAYS
            and before.group("names").casefold() not in _MONTH_WORDS
        ):
            names, start = [before.group("names")], before.start("names")
        elif (
            is_pet
            and not names
            and not plural
            and not owner
            and _PET_VERB_NEXT.match(c, m.end())
            and (before := _LOWER_NAME_BEFORE.search(c, 0, m.start())) is not None
            and _pet_name_ok(word := before.group("names"))
            and word not in _NOT_A_NOUN
            and word not in _RELATIVE_DAYS
            and word not in _INTERJECTIONS
            and not word.endswith(("ing", "ed"))
        ):
            names, start = [word.title()], before.start("names")
        elif (
            is_pet
            and not names
            and not plural
            and not owner
            and (before := _HAVE_LOWER_BEFORE.search(c, max(0, m.start() - 40), m.start()))
            and _pet_name_ok(word := before.group("names"))
            and word not in _NOT_A_NOUN
            and word not in _HAD_NOT_NAMES
            and not word.endswith(("ing", "ed", "en"))
        ):
            # "i already have luna my cat": a given name, then the animal it names
            names, start = [word.title()], before.start("names")
        if not plural:
            names = names[:1]
        word = _MAYBE_PET_NAME.match(c, m.end()) if is_pet and not plural and not names else None
        maybe = word.group("name") if word and _may_name_later(word.group("name")) else None
        next_word = _WORD_AFTER.match(c, m.end()) if is_pet and not plural and not names else None
        for hit in _with_names(kind, field_name, noun, names, (start, end)):
            hit.plural = plural and not names
            hit.phrase = True
            hit.maybe_name = maybe
            hit.word_after = next_word.group(1).casefold() if next_word else None
            yield hit
        # "my wife and two kids", "my husband and our dog": the possessive reaches the next noun
        if (more := _AND_MORE.match(c, end)) is not None:
            yield from _coordinated(more, m.start())


# "my gecko chili? his tank", "train my goldfish nugget to do that": a lower-case word that
# ends the pet's phrase (see _Hit.maybe_name)
_MAYBE_PET_NAME = re.compile(
    r"\s+(?P<name>[a-z][a-z'’\-]{1,19})(?=\s*$|\s*[,.;!?]|\s+(?:to|for|with|at|in|on|from|without"
    r"|through|into|onto|about|around|behind|under|near)\b)"
)


_WORD_AFTER = re.compile(r"\s+([a-z][a-z'’\-]{1,19})\b")


def _may_name_later(word: str) -> bool:
    """A word after an unnamed pet that a later message may show to be its name."""
    return (
        _lower_pet_name(word)
        and word not in _ASIDE_WORDS
        and word not in _RELATIVE_DAYS
        and word not in _NOT_A_NOUN
        and word not in _PET_VERB_WORDS
    )


_ACK = re.compile(
    # ("of course lol. oh btw im priyanka")
    r"\W*(?:ok|okay|k|thanks|thx|ty|cool|great|perfect|nice|yes|yeah|yep|sure|of\s+course|oh|ah"
    r"|lol|haha)(?:\s+[\w'’]+)?\W*",
    re.IGNORECASE,
)
_WAS_BEFORE = _rx(r"\b(?:was|were)\s+$")
_FORMER_MOD = _rx(r"\b(?:old|previous|first|childhood|former)\b")
_NOT_A_NOUN: Final = frozenset(
    _words(
        "is was and or but just said will would can could who has had too also lol haha now"
        " then so because since when while if who whom whose that which what i im me my to from"
        " in on at by with for of about again always never still already really actually"
        " turned turns did does do got gets get went goes made makes not the a an it him her"
        " them something anything after"
        # "my husband thomas cannot eat kiwi": a verb's helper, never a noun the name owns
        " cannot cant wont dont doesnt didnt isnt wasnt must should shall might may"
    )
)


def _possessive_s(name: str, c: str, end: int) -> bool:
    if not name.endswith("s") or name.endswith("ss") or len(name) < 4:
        return False
    after = _NEXT_WORD.match(c, end)
    if after is None or not after.group(1).islower():
        return False
    word = after.group(1)
    # "my moms a nurse", "my dads japanese": "'s" for "is", typed without its apostrophe
    if word in ("a", "an") or word in _NATIONALITIES or word in _DEMONYMS:
        return True
    return (
        word not in _NOT_A_NOUN
        and not word.endswith(("s", "ed", "ly"))
        # ("my boyfriend tomeks bday fri": a noun typed short)
        and (is_common_word(word) or word in _RELATIVE_DAYS or word in ("bday", "xmas", "bf", "gf"))
        # "my son Taras make the website": a verb (of a second-language speaker's grammar)
        # before its object, not a noun the name owns
        and not _OBJECT_NEXT.match(c, after.end())
    )


_OBJECT_NEXT = _rx(r"\s+(?:the|a|an|my|his|her|their|our|me|us|him|them|it)\b")


_NAME_IS_BEFORE = re.compile(
    rf"(?:^|[,;:—–]\s*|\b(?i:and|but|no|sorry|wait|actually)\W+)"
    # "sorry, tomas is my boyfriend": a lower-case name too (see _named_before)
    rf"(?P<names>{_NAME}|(?-i:[a-zà-öø-ÿ][a-zà-öø-ÿ'’\-]{{1,19}}))\s+(?i:is)\s+$"
)
# "we still have Kiwi our african grey parrot", "meet Luna, our new puppy": a name set before
# the possessive it stands beside
_NAME_APPOSED_BEFORE = re.compile(
    rf"\b(?i:have|has|got|adopted|rescued|meet|this\s+is|introducing)\s+(?P<names>{_NAME})\s*,?\s+$"
)
# "This is my sister", "Family is my everything": words, never names, before "is my ..."
_NOT_NAMES_BEFORE_IS: Final = frozenset(
    _words(
        "this that these those it he she they who what which there here mine ours yours his"
        " hers theirs everyone everybody someone somebody nobody nothing everything anyone"
        " family work life home love music food money coffee tea sleep health god one"
    )
)


def _named_before(word: str) -> bool:
    """ "Tolu is my cousin", "Aisha is my niece": a capitalised word before "is my <relative>"
    is a name unless it is a word such a sentence opens with; a lower-case one must not be an
    English word (tolu is a balsam, and "Tolu" a name)."""
    folded = word.casefold()
    if folded in _NOT_NAMES_BEFORE_IS:
        return False
    # "Hazelnuts is my husband" (his allergy, not his name): a plural of an English word
    if folded.endswith("s") and is_common_word(folded[:-1]):
        return False
    return (
        word[:1].isupper()
        or not (is_common_word(folded) or _VOCABULARY.fullmatch(folded))
        or _WORD_NAME_TOKEN.fullmatch(folded) is not None
    )


_VOCATIVE_BEFORE = _rx(
    r"(?:thank\s+you|thanks|thx|ty|cheers|bye|good\s*night|hello|hi|hey|sorry|please|yes|ok|okay)"
    r"\W*$"
)
_ONLY_END = re.compile(
    r"[\s\W]*(?:(?i:god\s+bless(?:\s+you)?|bless\s+you|lol|haha|bro|sis)[\s\W]*)?$"
)
# "my real employer is my cat tbh, she pays me in headbutts", "my cat is my boss": a pet in a
# person's role is a joke, and the pet is the joke's (as a relative who is a thing)
_ROLE_OF_PET = (
    r"(?:real\s+|actual\s+|true\s+|new\s+)?(?:employer|boss|manager|landlord|landlady|therapist"
    r"|supervisor|ceo|alarm\s+clock|personal\s+trainer|life\s+coach|roommate|flatmate)"
)
_PET_AS_ROLE_BEFORE = _rx(rf"\bmy\s+{_ROLE_OF_PET}\s+is\s+$")
_PET_AS_ROLE_AFTER = _rx(rf"\s+is\s+(?:my|the)\s+{_ROLE_OF_PET}\b")
_IS_A_NAMED = _rx(r"\s+is\s+(?:a|an)\s+(?P<what>[a-z]+)\s+(?:named|called)\b")
_ARE_MY_THINGS = _rx(
    r"\s+(?:are|is)\s+(?:my|our)\s+(?:(?:two|three|four|\d+|little|tiny|baby|precious)\s+)*"
    r"(?P<what>[a-z]+)\b"
)
_WHOLE_WORLD: Final = frozenset(
    _words("world life everything joy heart pride priority priorities universe reason sunshine")
)
_PET_HINT = _rx(rf"[^.!?]{{0,20}}?\b(?:the|our|my)\s+(?P<noun>{_PET_SURFACE})\b")
_AND_MORE = _rx(
    rf"\s*(?:,\s*)?(?:and|&|n)\s+(?:(?:our|my)\s+)?(?P<qty>{_QTY}\s+)?"
    rf"(?:(?:{_REL_MOD}|{_PET_MOD})\s+){{0,2}}(?P<noun>{_REL_SURFACE}|{_PET_SURFACE})(?![\w\-])"
)


def _coordinated(m: re.Match[str], start: int) -> Iterator[_Hit]:
    surface = m.group("noun")
    is_pet = _PET_NOUN.fullmatch(surface) is not None
    kind, field_name = ("pet", "species") if is_pet else ("relationship", "relation")
    noun = _normal(kind, field_name, surface)
    if noun is None or _next_word(m.string, m.end()) in _COMPOUND_NEXT:
        return
    hit = _Hit(kind, {field_name: noun, "name": None}, (start, m.end()), phrase=True)
    hit.plural = surface.casefold().endswith("s") or surface.casefold() == "children"
    yield hit


# "took a kitten from shelter": taking an animal from a shelter is adopting it
_FROM_SHELTER = (
    rf"took(?=\s+(?:a|an|one|two|\d)\s+(?:[\w\-]+\s+)?(?:{_PET_SURFACE})\s+(?:home\s+)?"
    r"from\s+(?:the\s+|a\s+)?(?:local\s+)?(?:shelter|rescue|pound|spca|rspca)\b)"
)
_HAVE_HEAD = _grx(
    # "just got a puppy!!!": the subject left out where a message opens with the news
    # ... after a greeting ("g'day, got a pygmy goat named dolly")
    rf"^\W*(?:(?:omg|so|yay|ok|okay|well|guess\s+what|hi|hey|hello|g{_A}?day|howdy|hiya)\W+)?"
    rf"(?P<verb2>(?:just|finally|recently)"
    rf"\s+(?:got|adopted)"
    # "adopted a kitten, her name is bean", "took a kitten from shelter": the news alone
    rf"|adopted(?=\s+(?:a|an|one|two|three|\d)\s)|{_FROM_SHELTER}"
    # "brought home a new kitten yesterday!!"
    rf"|(?:brought|took)\s+home(?=\s+(?:a|an|one|two|three|\d)\s)"
    # "howdy. got a kunekune pig named hamlet": a named one, the subject left out
    rf"|got(?=\s+(?:a|an|one|two|three|\d)\s+(?:[\w\-]+\s+){{0,2}}?[\w\-]+\s+(?:named|called)\s)"
    # "got an axolotl for my birthday!!", "got a kitten last week": the news, said with when
    # or why it came (never "got a cat allergy")
    rf"|got(?=\s+(?:a|an|one|two|three|\d)\s+(?:[\w\-]+\s+)?{_PET_SURFACE}"
    rf"(?:\s*[.!,]|\s+(?:for\s+my|from\s+(?:a|the)|last|yesterday|today|this|on)\b)))\s+"
    rf"|\b(?P<subj>i|we)(?P<verb>(?:\s+(?:also|now|still|both|already|do|actually|really|only))"
    rf"{{0,2}}"
    rf"(?:\s+(?:have(?:\s+got)?|got|adopted|keep|own|(?:just|recently|finally)\s+(?:got|adopted)"
    # "we took in a stray", "we took a kitten from the shelter"
    rf"|(?:just\s+|finally\s+)?(?:took\s+in|(?:took|brought)\s+home)|{_FROM_SHELTER})"
    # "ive got a greyhound called Dash": the apostrophe left out
    rf"|{_A}?ve\s+(?:also\s+|just\s+|recently\s+)?(?:got|adopted)"
    # non-native "I am having two cats", "we are having 3 kids"
    rf"|(?:\s+am|{_A}m|\s+are|{_A}re)\s+having))\s+",
    "have got adopted keep having took brought own",
)
_HAVE_ITEM = _rx(
    rf"(?:only\s+|just\s+)?(?P<qty>{_QTY})\s+(?:(?:{_REL_MOD}|{_PET_MOD})\s+){{0,2}}"
    rf"(?P<noun>{_REL_SURFACE}|{_PET_SURFACE}"
    # "i have a boy and a girl", "we have 2 boys": the children a parent has
    rf"|(?:boy|girl)s?(?=\s*(?:$|[,.;!(]|\s+(?:and|aged|who|at\s+home|\d)\b)))(?![\w\-])"
)
# "two retired greyhounds", "a very loud parrot": any adjective may describe a pet (a relative
# keeps to the listed modifiers: "a late husband" is not a husband)
_HAVE_PET_ITEM = _rx(
    rf"(?P<qty>{_QTY})\s+(?:(?:very|really|super|quite|pretty|so)\s+)?"
    rf"(?:(?!(?:{_REL_SURFACE}|{_PET_SURFACE})\b)[a-z]{{3,}}(?:-[a-z]+)?\s+){{1,2}}"
    rf"(?P<noun>{_PET_SURFACE})(?![\w\-])"
)
# non-native "I have cat, name is Bublik": a bare pet noun, when a name or the end follows
_HAVE_BARE_PET = _rx(
    rf"(?P<qty>)(?:(?!(?:{_REL_SURFACE}|a|an|the|my|no|any|some|pet|pets)\b)[a-z]{{3,}}\s+)"
    rf"{{0,2}}(?P<noun>{_PET_SURFACE})(?=\s*$|\s*[,.;!]|\s+(?:named|called|and)\b)"
)
# non-native "i have daughter zosia 6 years", "i have son, he is 5": the article left out
_HAVE_BARE_REL = _rx(
    r"(?P<qty>)(?P<noun>daughter|son|husband|wife|boyfriend|girlfriend|fiance|fiancee|brother"
    r"|sister)(?=\s*$|\s*[,.;!]|\s+(?:and|who|named|called|\d)\b|\s+[a-z]+\s+\d)"
)
_WHEN_GOT = _rx(
    r"\s+(?:(?:in|last|this|on)\s+[a-z]+|(?:\d+|a|two|three|four|few)\s+(?:days?|weeks?|months?"
    r"|years?)\s+ago|yesterday|today|recently"
    # ("i am having two budgies since 2021, Rani and Raja")
    r"|since\s+(?:(?:19|20)\d\d|january|february|march|april|may|june|july|august|september"
    r"|october|november|december))"
    # ("we got a kitten last week called Mochi")
    r"(?=\s*,|\s+(?:called|named)\s)"
)
_APPOSED_NAME = _rx(
    r"\s*,\s*(?P<names>[a-z][a-z'’\-]{1,19})(?=\s*,\s*(?:an?|the|shes|hes|she|he|my|our|\d)\b)"
)
_PETS_WHERE_WHEN = _rx(
    r"\s+(?:at\s+home|(?:last|this)\s+(?:week|month|year|weekend|spring|summer|autumn|winter)"
    r"|(?:\d+|a|two|three|four|few)\s+(?:days?|weeks?|months?|years?)\s+ago|yesterday|recently"
    # ("we got two rats instead lol, salt and pepper": a word and a laugh before the names)
    r"|instead(?:\s+(?:lol|haha\w*|lmao))?|lol|haha\w*|lmao)"
)
_HAVE_SEP = _rx(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*")


# "i have twins": a count of its own
_HAVE_TWINS = _rx(r"(?P<qty>)(?P<noun>twins)(?![\w\-])")


def _have_item(c: str, pos: int) -> re.Match[str] | None:
    return (
        _HAVE_ITEM.match(c, pos)
        or _HAVE_PET_ITEM.match(c, pos)
        or _HAVE_BARE_PET.match(c, pos)
        or _HAVE_TWINS.match(c, pos)
        or _HAVE_BARE_REL.match(c, pos)
    )


_HAVE_VERB = re.compile(r"['’]ve|have")
_COMMA = re.compile(r"\s*,")


_NAME_LIST = re.compile(
    r"\s*(?:[,(:]|\s-|\s–)?\s*(?P<names>[A-Za-zÀ-ÖØ-öø-ÿ][\w'’\-]{1,19}"
    # ("2 cats (mochi + tofu)": a plus joins the last two)
    r"(?:\s*,\s*[A-Za-zÀ-ÖØ-öø-ÿ][\w'’\-]{1,19})*\s*,?\s+(?:and|&|n|\+)\s+"
    r"[A-Za-zÀ-ÖØ-öø-ÿ][\w'’\-]{1,19})\s*\)?(?=\s*$|\s*[,.;!?]|\s+[a-z])"
)


# "a dad of twins (Omar and Zayd, both 8)": "twins" counts itself
_COUNT_THEN_PAREN = re.compile(
    rf"\b(?:(?P<qty>{_QTY})\s+(?:[a-z\-]+\s+){{0,2}}?(?P<noun>{_REL_SURFACE}|{_PET_SURFACE})"
    r"|(?P<twins>twins))(?=\s*\()",
    re.IGNORECASE,
)


def _digit(qty: str) -> int:
    return int(qty) if qty.isdigit() else 0


def _counted_names(c: str, pos: int, count: int, pet: bool = False) -> list[str]:
    """The names listed right after "two kids" / "3 cats" when there are exactly ``count`` of
    them and each is a name (capitalised, or a lower-case word that is no English word; a pet's
    may be words, "miso & tofu", when not all of them are)."""
    if count < 2 or (m := _NAME_LIST.match(c, pos)) is None:
        return []
    tokens = [t for t in re.split(r"\s*,\s*|\s+(?:and|&|n|\+)\s+|\s+", m.group("names")) if t]
    if pet:
        if len(tokens) != count or not all(
            t.isalpha() and _pet_name_ok(t) and t.casefold() not in _NOT_A_NOUN for t in tokens
        ):
            return []
        # ... "2 rabbits, biscuit and nutmeg": words all, when none says what the pets are
        if all(t.islower() and is_common_word(t) for t in tokens) and not all(
            _lower_pet_name(t) for t in tokens
        ):
            return []
        return [t[:1].upper() + t[1:] for t in tokens]
    names = [n for t in tokens for n in (_word_name(t) or _given_names(t))]
    return names if len(names) == len(tokens) == count else []


_PARENT_PEERS = _rx(r"\s+(?:friends?|mates?|pals?|group|groups|chat|squad|crew)\b")
# ... and "hes my brother from another mother": a friend
_IN_FELLOWSHIP = _rx(
    r"\s+in\s+(?:christ|arms|the\s+lord|faith)\b|\s+from\s+another\s+(?:mother|mom|mum)\b"
)
_ONE_PARENT_NEXT = _rx(
    r"\s+(?:a|an|from|(?:(?:\d{1,2}(?:st|nd|rd|th)|50th|60th|70th|80th)\s+)?(?:birthday|bday)"
    r"|house|place|name|side|job|car|funeral|wedding|health|surgery|appointment|retirement)\b"
    rf"|\s+(?:{'|'.join(sorted(_NATIONALITIES | _DEMONYMS))})\b"
)
_HEAVENLY_FATHER = _rx(r"\s+(?:who\s+art|in\s+heaven)\b")
_BOY_AND_GIRL = _rx(
    r"\s*[,(:]\s*(?:an?|one|1)\s+(?:boy\s+(?:and|&)\s+(?:an?|one|1)\s+girl"
    r"|girl\s+(?:and|&)\s+(?:an?|one|1)\s+boy)\b"
)
_KID_RELATION: Final = {"boy": "son", "boys": "son", "girl": "daughter", "girls": "daughter"}


def _rule_have(c: str, mask: int) -> Iterator[_Hit]:
    for head in _HAVE_HEAD.finditer(c, mask):
        verb = (head.group("verb") or head.group("verb2")).casefold()
        # "I got a puppy" / "we adopted a cat" acquire pets; "I've got two kids" is possession
        possessive = _HAVE_VERB.search(verb) is not None
        acquired = "adopted" in verb or ("got" in verb and not possessive)
        we = (head.group("subj") or "").casefold() == "we"
        pos = head.end()
        items: list[tuple[re.Match[str], list[str]]] = []
        while m := _have_item(c, pos):
            pos = m.end()
            # "we got a kitten in september, Sardine": when it came, then its name
            if (when := _WHEN_GOT.match(c, pos)) and (
                _NAME_AFTER.match(c, when.end())
                or _NAMED.match(c, when.end())
                or _CALLED_LOWER.match(c, when.end())
            ):
                pos = when.end()
            if named := _named_pet(c, pos, m.group("noun")):
                # "a very loud parrot called Kiwi": a pet may be named for a people
                is_pet = _PET_NOUN.fullmatch(m.group("noun")) is not None
                given = _names(named.group("names"), pet=is_pet)
                items.append((m, _titled_name(given, c, named.end()) if is_pet else given))
                pos = named.end()
            elif named := _CALLED_LOWER.match(c, pos):
                items.append((m, [named.group("names").title()]))
                pos = named.end()
            elif (
                _PET_NOUN.fullmatch(m.group("noun"))
                and m.group("qty").casefold() in ("2", "two")
                and (pair := _PET_NAMES_THEN.match(c, pos))
                and all(_pet_name_ok(n) for n in pair.group("a", "b"))
                # "i have 2 cats pixel and nori": lower-case names, when one is no English
                # word ("2 dogs inside and outside" names nobody)
                and not all(is_common_word(n) for n in pair.group("a", "b"))
            ):
                items.append((m, [pair.group("a").title(), pair.group("b").title()]))
                pos = pair.end()
            elif (
                _PET_NOUN.fullmatch(m.group("noun"))
                and (when := _WHEN_GOT.match(c, pos))
                and (apposed := _APPOSED_NAME.match(c, when.end()))
                and _pet_name_ok(word := apposed.group("names"))
                and word not in _NOT_A_NOUN
            ):
                # "we got a puppy 3 weeks ago, pebble, a border collie mix": when, then its
                # name between commas and what it is
                items.append((m, [word.title()]))
                pos = apposed.end()
            else:
                items.append((m, []))
            sep = _HAVE_SEP.match(c, pos)
            if not sep or not _have_item(c, sep.end()):
                break
            pos = sep.end()
        # "I have two kids, Mia and Leo": names after a single item belong to it
        trailing = _NAME_AFTER.match(c, pos) if _COMMA.match(c, pos) else None
        # "i have 2 cats Miso and Tofu": without the comma, as many names as the count says
        if trailing is None and len(items) == 1 and (bare := _NAME_AFTER.match(c, pos)):
            qty = items[0][0].group("qty").casefold()
            said = bare.group("names")
            counted = len(_names(said)) == _COUNTS.get(qty, int(qty) if qty.isdigit() else 0) > 1
            # "we already have a cat Mochi so ...": one pet and one capitalised name
            one_pet_named = (
                _COUNTS.get(qty) == 1
                and _PET_NOUN.fullmatch(items[0][0].group("noun")) is not None
                and len(_names(said)) == 1
                and said[:1].isupper()
                and said.casefold() not in _RELATIVE_DAYS
                and said.casefold() not in _MONTH_WORDS
            )
            if counted or one_pet_named:
                trailing = bare
        if len(items) == 1 and not items[0][1] and trailing:
            items[0] = (items[0][0], _names(trailing.group("names")))
        elif len(items) == 1 and not items[0][1]:
            # "i have two kids, ella and finn", "2 cats (miso & tofu)": as many names as the
            # count says, in lower case too
            qty = items[0][0].group("qty").casefold()
            is_pet = _PET_NOUN.fullmatch(items[0][0].group("noun")) is not None
            count = (
                2
                if items[0][0].group("noun").casefold() == "twins"
                else _COUNTS.get(qty, _digit(qty))
            )
            names = _counted_names(c, pos, count, pet=is_pet)
            # "2 bunnies at home mochi and pip", "adopted two cats last week, salt and pepper":
            # where or since when the pets are, then their names
            if not names and is_pet and (gap := _PETS_WHERE_WHEN.match(c, pos)):
                names = _counted_names(c, gap.end(), count, pet=True)
            items[0] = (items[0][0], names)
        elif (
            len(items) > 1 and not items[-1][1] and _PET_NOUN.fullmatch(items[-1][0].group("noun"))
        ):
            # "a leopard gecko called mango and two rats, biscuit and crumb": the names the last
            # item's count asks for
            last = items[-1][0]
            count = _COUNTS.get(last.group("qty").casefold(), _digit(last.group("qty").casefold()))
            if names := _counted_names(c, pos, count, pet=True):
                items[-1] = (last, names)
        # "two childs, a boy and a girl": the children, said as what they are
        if (
            items
            and not items[0][1]
            and items[0][0].group("noun").casefold() in ("kids", "children", "childs")
            and _BOY_AND_GIRL.match(c, items[0][0].end())
        ):
            for relation in ("son", "daughter"):
                yield _Hit("relationship", {"relation": relation, "name": None}, head.span())
            continue
        for item, names in items:
            surface = item.group("noun")
            is_pet = _PET_NOUN.fullmatch(surface) is not None
            kind, field_name = ("pet", "species") if is_pet else ("relationship", "relation")
            twins = surface.casefold() == "twins"
            noun = (
                "child"
                if twins
                else _KID_RELATION.get(surface.casefold()) or _normal(kind, field_name, surface)
            )
            if noun is None or _next_word(c, item.end()) in _COMPOUND_NEXT:
                continue
            if not is_pet and (acquired or (we and noun not in _CHILD_RELATIONS)):
                continue
            qty = item.group("qty").casefold()
            count = _COUNTS.get(qty, int(qty) if qty.isdigit() else 2)
            # "we're having a baby", "im having twins": a child on the way; only "I am having
            # two kids" (non-native for "I have") counts children
            if "having" in verb and not is_pet and (count < 2 or surface.casefold() == "twins"):
                continue
            if len(names) > max(count, 1):
                names = []
            for hit in _with_names(kind, field_name, noun, names, head.span()):
                hit.plural = count != 1 and not names
                yield hit


# Fragments of the user's household, in the register of bios and hurried requests: "husband
# travels a lot so it's often just me", "nurse, 3 kids, leeds", "with my family, 3 kids".
_HOUSEHOLD = _grx(
    r"(?:^\W*|[,;:]\s*|\b(?:and|but|so)\s+)(?P<noun>husband|hubby|wife|wifey|(?:the\s+)?missus"
    # "grandma betty turns 90", "mum and dad are visiting next week", "hubby and i wanna go"
    rf"|kids|{'|'.join(PARENT_WORDS)})"
    r"(?:\s+(?P<kname>[a-z]{3,12}|(?-i:[A-Z][a-z]{2,12})))?(?:\s+(?:and|&|n)\s+(?P<pair>mum|mom|dad))?"
    r"\s+(?=(?:travels|works|eats|loves|hates|says|wants|thinks|doesn['’]?t"
    r"|can['’]?t|won['’]?t|always|never|gets|likes|keeps|needs|helps|cooks|drives|turns"
    r"|(?:is|are)\s+(?:visiting|coming|staying|over|here)|(?:and|n|&)\s+i)\b"
    # "wife is a nurse on nights so i do the school run"
    r"|(?<=wife\s)(?<!the\swife\s)is\s+(?:a|an)\s|(?<=husband\s)is\s+(?:a|an)\s"
    r"|(?<=hubby\s)is\s+(?:a|an)\s"
    # "can u find a dinner spot near gion? wife is vegan": what the booking must suit
    r"|(?<=wife\s)(?<!the\swife\s)is\s+(?=(?:vegan|vegetarian|pescatarian|allergic|pregnant"
    r"|coeliac|celiac|lactose|gluten|diabetic|halal|kosher)\b)"
    r"|(?<=husband\s)is\s+(?=(?:vegan|vegetarian|pescatarian|allergic|coeliac|celiac|lactose"
    r"|gluten|diabetic|halal|kosher)\b))"
    r"|\bw(?:ith|/)?\s+(?:the\s+)?(?P<noun2>missus|wifey|hubby)\b"
    # "the wife Maureen says use washing up liquid": the British "the" for "my", with a name
    rf"|\bthe\s+(?P<noun3>wife|missus|hubby)\s+(?P<hname>{_NAME})(?=\s*$|\s*[,.;!]|\s+[a-z])"
    r"|(?:^\W*|[,;:]\s*|\bw(?:ith|/)?\s+(?:the\s+|my\s+)?(?:missus|wife|husband|family)\s*,?\s*"
    r"(?:and\s+)?|\bmarried\s+(?:with|and\s+have|and\s+got)\s+)"
    r"(?P<qty>\d|two|three|four|five)\s+(?:little\s+|young\s+|teenage\s+)?"
    r"(?P<kids>kids|children|teenagers|teens|boys|girls|rugrats|little\s+ones|littles)"
    r"(?=\s*(?:$|[,.;!(]|\s+(?:under|and|aged|who|at\s+home)\b))",
    "husband hubby wife wifey missus kids children teenagers teens boys girls rugrats ones littles "
    + " ".join(PARENT_WORDS),
)


# "fill this visa form for my client: name Ana Souza, married, 2 children": someone else's
_FOR_SOMEONE = _rx(
    r"\bfor\s+(?:my|a|our|the)\s+(?:client|customer|friend|patient|colleague|coworker|boss"
    r"|neighbou?r|student|tenant|applicant|candidate|employee)s?\b"
)


_KIDS_OWNED_BEFORE = re.compile(
    r"(?:['’]s|\b(?:her|his|their))\s+(?:[\w\-]+\s+)?(?:twins|kids|children|boys|girls|sons"
    r"|daughters)\b",
    re.I,
)


# "i live in Gdansk, work as ship electrician, married, 2 kids": a bare "married" among the
# user's own list items, beside the children it counts
_MARRIED_LISTED = _rx(
    r"(?:^\W*|[,;:]\s*)(?:happily\s+)?(?P<m>married)\s*(?:,\s*(?:and\s+)?|\s+(?:and|with|w/)\s+"
    r"(?:have\s+|got\s+)?)(?:\d|two|three|four|five)\s+(?:kids|children|boys|girls)\b"
)


# "gonna walk the dog real quick then ill fix it", "feeding the cat": a chore of the user's
# household presupposes its animal; never one looked after for someone ("walking the dog for my
# neighbour", "feeding their cat", "pet sitting")
_PET_CHORE = _grx(
    r"\b(?:(?:walk|walking|walked|feed|feeding)\s+(?P<noun>the\s+(?:dog|dogs|cat|cats|puppy|pup))"
    r"|(?:take|taking|took|let|letting)\s+(?:out\s+(?P<noun2>the\s+(?:dog|dogs|puppy|pup))"
    r"|(?P<noun3>the\s+(?:dog|dogs|puppy|pup))\s+out))\b(?!['’]|\s+(?:for|of|next\s+door|there|at)\b)",
    "walk walking walked feed feeding out",
)
_SOMEONE_ELSES_ANIMAL = _rx(
    r"\b(?:sit|sitting|sitter|sat|looking\s+after|minding|neighbou?rs?|friend|friends|their|his|her"
    r"|aunt|uncle|parents|mum|mom|grandma|nan|boss|client|clients|customers|borrow|borrowed"
    r"|foster|fostering|shelter|volunteer|volunteering|kennels?|job|shift|business)\b"
    # ... nor one supposed or wished for ("if i had a dog id walk the dog every day")
    r"|\b(?:if|would|wud|i['’]?d|imagine|want|wants|wanted|getting|adopt|adopting|dream)\b"
)


def _rule_pet_chore(c: str, mask: int) -> Iterator[_Hit]:
    if _SOMEONE_ELSES_ANIMAL.search(c):
        return
    for m in _PET_CHORE.finditer(c, mask):
        which = next(g for g in ("noun", "noun2", "noun3") if m.group(g))
        species = _normal("pet", "species", m.group(which).split()[-1])
        if species is not None:
            yield _Hit("pet", {"species": species, "name": None}, m.span(which), phrase=True)


def _rule_household(c: str, mask: int) -> Iterator[_Hit]:
    if _FOR_SOMEONE.search(c):
        return
    for m in _MARRIED_LISTED.finditer(c):
        # "my sister lives in leeds, married, 2 kids": her list, not the user's
        if _another_subject(c, m.start()):
            continue
        hit = _Hit("relationship", {"relation": "spouse", "name": None}, m.span("m"))
        hit.phrase = True
        yield hit
    for m in _HOUSEHOLD.finditer(c, mask):
        if m.group("kids"):
            # "my friend priya's twins are turning 4 next sat, 2 boys": a count that describes
            # someone else's children named before it
            if _KIDS_OWNED_BEFORE.search(c, 0, m.start("qty")):
                continue
            # "HIS brother ryan who is a plumber in swindon, married to chloe, two kids": the
            # list of the person the clause is about
            if _another_subject(c, m.start()):
                continue
            qty = m.group("qty").casefold()
            # "34, married, two kids (Ella and Finn)"
            if names := _counted_names(c, m.end("kids"), _COUNTS.get(qty, _digit(qty))):
                for given in names:
                    span = (m.start("qty"), m.end("kids"))
                    hit = _Hit("relationship", {"relation": "child", "name": given}, span)
                    hit.phrase = True
                    yield hit
                continue
            span = (m.start("qty"), m.end("kids"))
            hit = _Hit("relationship", {"relation": "child", "name": None}, span)
            hit.plural = True
        else:
            which = next(g for g in ("noun", "noun2", "noun3") if m.group(g))
            relation = _normal("relationship", "relation", m.group(which).split()[-1])
            if relation is None:
                continue
            names = _names(m.group("hname")) if m.group("hname") else []
            if (kname := m.group("kname")) and kname.casefold() not in _PRONOUN_WORDS:
                names = _given_names(kname) or _word_name(kname)
            name = names[0] if names else None
            if m.group("pair"):
                pair = _normal("relationship", "relation", m.group("pair"))
                other = _Hit("relationship", {"relation": pair, "name": None}, m.span("pair"))
                other.phrase = True
                other.verb = m.span("pair")
                yield other
            end = (m.end("hname") if m.group("hname") else m.end("kname")) if name else m.end(which)
            hit = _Hit("relationship", {"relation": relation, "name": name}, (m.start(which), end))
            hit.plural = relation == "child"
            if m.group("kname") or m.group("pair"):
                # "mum and dad are visiting next week": the visit has the time, the parents are
                # said in passing (quoted alone, as "my sister" is)
                hit.verb = (m.start(which), end)
        hit.phrase = True
        yield hit


_PARENT = _grx(
    # non-native "I am single father of two": the article left out
    rf"{_I_AM}\s+(?:(?:a|an)\s+)?(?:(?:proud|single|new|first[- ]time|working|stay[- ]at[- ]home"
    rf"|busy|full[- ]time|young|tired)\s+)?(?P<p>mom|mum|mother|dad|father|parent|grandmother"
    rf"|grandfather|grandparent|grandma|grandpa|granny|stepmom|stepdad|stepmother|stepfather)"
    rf"(?:\s+(?:of|to)\s+(?:{_QTY}|twins)(?:\s+(?:kids|children|boys|girls))?)?"
    rf"(?=\s*$|\s*[,;!]|\s+(?:and|so|but|now|too|myself|with|btw|lol)\b)"
    # a bio that opens the clause: "mum of 2 here", "proud dad of twins here", "single dad of
    # two so no time for faff"
    rf"|^\W*(?:(?:a|an)\s+)?(?:(?P<adj>proud|single|working|stay[- ]at[- ]home|busy|tired)\s+)?"
    rf"(?P<p2>mom|mum|mother|dad|father|parent)\s+(?:of|to)\s+(?:{_QTY}|twins)"
    rf"(?:\s+(?:kids|children|boys|girls|little\s+ones))?"
    rf"(?:\s+here\b|(?(adj)(?=\s*$|\s*[,;.!]|\s+(?:so|and|btw|lol)\b)|(?!)))",
    "am m im here single proud working busy tired home",  # I'm, I am, im; a bio's words
)
# "im a cat mom", "proud dog mum here", "proud owner of 2 cats": a pet, said by its keeper
_PET_PARENT = _grx(
    rf"(?:{_I_AM}\s+(?:a\s+|an\s+|the\s+)?|^\W*(?:(?:a|an)\s+)?)"
    rf"(?:(?:proud|happy|new|first[- ]time|tired)\s+)?"
    rf"(?:(?P<species>dog|cat|bunny|rabbit|bird|hamster|guinea\s+pig|horse|chicken|fish)\s+"
    rf"(?:mom|mum|mama|momma|dad|daddy|parent|owner)"
    rf"|(?:owner|mum|mom|dad|parent)\s+(?:of|to)\s+(?:a|an|one|two|three|four|\d{{1,2}})\s+"
    rf"(?:(?:{_PET_MOD})\s+)?(?P<species2>{_PET_SURFACE}))"
    rf"(?=\s*$|\s*[,;!.]|\s+(?:here|and|so|but|lol|btw|too|now)\b)",
    "mom mum mama momma dad daddy parent owner",
)
_MARRIED = _grx(
    rf"{_I_AM}\s+(?:happily\s+|also\s+)?married(?:\s+to\s+(?P<name>{_NAME}))?"
    rf"(?=\s*$|\s*[,;!]|\s+(?:and|so|but|now|with|since|for)\b)",
    "married",
)


def _rule_parent_married(c: str, mask: int) -> Iterator[_Hit]:
    for m in _PARENT.finditer(c, mask):
        p = (m.group("p") or m.group("p2")).casefold()
        relation = (
            "grandchild" if p.startswith("grand") else "stepchild" if "step" in p else "child"
        )
        yield _Hit("relationship", {"relation": relation, "name": None}, m.span())
    for m in _PET_PARENT.finditer(c, mask):
        species = _normal("pet", "species", m.group("species") or m.group("species2"))
        if species is not None:
            yield _Hit("pet", {"species": species, "name": None}, m.span())
    for m in _MARRIED.finditer(c, mask):
        names = _names(m.group("name") or "")
        if m.group("name") and not names:
            continue
        value = names[0] if names else None
        yield _Hit("relationship", {"relation": "spouse", "name": value}, m.span())


# "oops her name is lulu": a name put right at the start of a message, said of a pet or
# relative the message before named
_NAME_FIXED = _grx(
    rf"^\W*(?:oops|whoops|sorry|sry|wait|actually|i\s+mean|my\s+bad|correction|typo)\W+"
    rf"(?:(?:no|sorry|i\s+mean|lol)\W+)*(?P<pron>his|her|its)\s+name(?:{_A}s|\s+is)\s+"
    rf"(?:actually\s+)?(?P<name>{_NAME}|[a-z][a-z'’\-]{{1,19}})(?=\s*$|\s*[,.;!)]|\s+(?:not|lol|haha|sorry)\b)"
    # "sorry its marcos with an s": the name said before, spelled right (one letter apart)
    rf"|^\W*(?:oops|whoops|sorry|sry|wait|actually|my\s+bad|typo)\W+(?:(?:no|sorry|lol)\W+)*"
    rf"(?:it{_A}?s|its|it\s+is)\s+(?P<spelled>{_NAME}|[a-z][a-z'’\-]{{1,19}})\s+(?:with|w/?)\s+"
    rf"(?:an?|one|two|double)\s+['\"]?[a-z]['\"]?(?=\W|$)",
    "oops whoops sorry sry wait actually mean bad correction typo",
)
# "no wait sorry his name is Rocky": a name given again after a takeback
# "im fluent in french and learning german" / "no other way round sorry": the two levels swap
_OTHER_WAY = _grx(
    r"\b(?:(?:the\s+)?other\s+way\s+a?round|vice\s+versa|(?:got|had)\s+(?:them|it|those)\s+backwards)\b",
    "other vice backwards",
)
# "im senior developer now... well the official title is 'Consultant Developer' lol": the
# title as the employer writes it (read in the message as typed: the quotes would blank it)
_OFFICIAL_TITLE = _grx(
    r"\b(?:my\s+)?(?:official|actual|real|proper|formal)\s+(?:job\s+)?title\s+is\s+"
    r"['\"‘“]?(?P<role>[A-Za-z][\w\-]*(?:\s+[A-Za-z][\w\-]*){0,3}?)['\"’”]?"
    r"(?=\s*(?:$|[,.;!?)])|\s+(?:lol|haha|btw|but|and|its|it['’]s)\b)",
    "official actual real proper formal",
)
_NAME_IS_NOW = _rx(
    rf"\b(?:sorry|wait|no|oops|i\s+mean)\W+(?:his|her|its)\s+name(?:{_A}s|\s+is)\s+"
    rf"(?P<name>{_NAME}|[a-z][a-z'’\-]{{1,19}})\b"
)
_PRONOUN_NAME = _grx(
    rf"(?:^|,\s*|\(\s*)\W*(?:(?:and|oh|btw|oops|whoops|sorry|sry|ah|actually|also)\W+)?"
    rf"(?:(?P<pron>her|his|its|their)\s+name(?:{_A}?s|\s+is)"
    rf"|(?P<pron2>she|he|it|they)(?:{_A}?s|{_A}re|\s+is|\s+are)\s+"
    # "hes a beagle called moose": the pet said again by its breed, then named
    rf"(?:an?\s+(?:[a-z\-]+\s+){{0,2}}?{_PET_SURFACE}\s+)?(?P<called>called|named)"
    # "we named her Pepper", "and mine is called Sushi" (a pet said before, see _pronoun)
    rf"|(?:(?:we|i|the\s+kids|my\s+\w+)\s+)?(?:named|called)\s+(?P<pron3>her|him)"
    rf"|(?P<pron4>mine|ours)\s+is\s+(?:called|named)"
    # "rolo will be furious (thats him btw, rolo, hes a beagle cross)": the one said before
    rf"|(?:that|thats|that{_A}s|that\s+is)\s+(?P<pron5>him|her)\s*(?:btw|lol|haha)?\s*[,:\-—])"
    # after "called" a lower-case word is a name even if it is an English word ("shes called pip")
    rf"\s+(?P<name>{_NAME}|(?(called)(?-i:(?!(?:after|by|for|in|the|a|an|it|that|him|her|them"
    rf"|something|anything)\b)[a-z][a-z'’\-]{{1,19}})|(?!))"
    # "his name's tomasz btw": a lower-case name that is no English word
    rf"|(?P<lower>(?-i:[a-zà-öø-ÿ][a-zà-öø-ÿ\-]{{1,19}})))(?=\s*$|\s*[,.;!]|\s+[a-z&])",
    "name names called named him her",
)


# A name typed in lower case ("im sofia", "my name is ana") is taken only when it is not an
# English word ("im tired", "my name is mud"), and is written capitalised.
_LOWER_NAME = r"(?-i:[a-zà-öø-ÿā-ž][a-zà-öø-ÿā-ž'’\-]{1,19})"
_HELLO = (
    r"(?i:hi+|hello|hey+|hiya|heya|yo|hola|oi|ola|olá|ciao|bonjour|salut|merhaba|salam|namaste|ey+|ay+"
    r"|good\s+(?:morning|afternoon|evening))(?:\s+(?i:there|all|everyone|again))?"
)
_NAME_IS = _Gated(
    re.compile(
        # "my chinese name is Li Hao, english name is Kevin": the first given is the name
        rf"(?:\b(?i:my)\s+(?i:(?:full\s+|first\s+|real\s+|actual\s+|legal\s+|given\s+|birth\s+|chinese\s+"
        rf"|korean\s+|japanese\s+|vietnamese\s+|arabic\s+|hindi\s+|thai\s+|native\s+"
        rf"|official\s+)?name(?:\s+is|{_A}?s"
        # East African English "my names are grace wanjiru kamau"; "my name keiko tanaka and ..."
        rf"|(?<=name)s\s+are|(?=\s+(?!(?i:is|was|na|tag|day|card|change|badge|plate|on|in|for|and"
        rf"|of|to|it|as|at|the|a|an)\b)))"
        rf")"
        # "put my name, Abena Mensah, and sign", "the booking is under my name, Hannah Berger"
        rf"|\b(?i:my)\s+(?i:(?:full\s+)?name)"
        # "use my name in it, its hope": where the name goes, then the name
        rf"(?:\s+(?i:in|on|at\s+the\s+(?:end|bottom|top)\s+of)\s+(?i:it|there|them|the\s+\w+))?"
        # ("sign it with my full name tho - wei zhang": a dash gives it)
        rf"(?:\s*,|(?:\s+(?i:tho|though|pls|please))?\s+[-–—:]\s*)"
        # "full name's Rebecca Okafor", Indian English "myself Rohit Deshpande"
        # ... never "her full name is Ana Clara", another's
        rf"|(?<!\bher\s)(?<!\bhis\s)(?<!\btheir\s)(?<!['’]s\s)(?<!\byour\s)"
        rf"\b(?i:full\s+name(?:\s+is|{_A}s))|^\W*(?:(?i:hello|hi|hey|dear\s+\w+)\W+)?"
        # ("hello sir, myself Rajesh Kumar")
        rf"(?:(?i:sir|madam|maam|ma'am|mam|all|everyone|team|there)\W+)?(?i:myself)"
        # "can u make me an email signature, name is Siobhan Kelly, physio at ..."
        # ... "yes. name's joanna but nobody calls me that"
        rf"|(?:^\W*|(?i:signature)\s*[,:]?\s*)(?i:name(?:\s+is|{_A}s))"
        # "thx a lot, name's declan btw, prob be back tmrw": who is writing, said in passing
        rf"|(?<=,\s)(?i:name(?:\s+is|{_A}s))(?=\s+[\w'’\-]+\s+(?i:btw|by\s+the\s+way)\b)"
        # "please make my email signature. Name: Karthik Raman, Test Lead"
        rf"|(?i:my\s+(?:email\s+)?signature)\W{{0,3}}(?i:name)\s*:"
        # "my passport says Oluwaseun Adeyemi but i go by Seun"
        rf"|\b(?i:my)\s+(?i:passport|id\s+card)\s+(?i:says|reads|name\s+is)"
        # "benim adım Oğuz Yılmaz", "me llamo Lucía", Nigerian Pidgin "my name na Ngozi Okafor":
        # the words for "my name is" in the user's first language, before they switch
        # (the others only as the message opens: "like this style: Je m'appelle Paul" is an
        # example for a worksheet)
        rf"|\b(?i:my\s+name\s+na)|^\W*(?:{_HELLO}\W+)?(?i:me\s+llamo|mi\s+nombre\s+es"
        rf"|je\s+m['’]?appelle|mi\s+chiamo|ich\s+hei(?:ß|ss)e|mein\s+name\s+ist|meu\s+nome\s+[ée]"
        rf"|benim\s+ad[ıi]m))\s+"
        # ("Nguyễn Thị Thu Hương": four parts; "sign it with my name, its agnieszka nowak")
        rf"(?:(?:it{_A}?s|it\s+is)\s+)?"
        rf"(?P<name>{_NAME}(?:\s+{_NAME}){{0,3}}"
        rf"|{_LOWER_NAME}(?:\s+(?!(?:lol|haha|lmao|btw|tho)\b){_LOWER_NAME}){{0,2}})"
        # ("my name is Bronagh Keane if that matters for the appeal")
        rf"(?=\s*$|\s*[,.;!)]|\s+(?i:and|but|btw|from|i{_A}?m|im|lol|haha|lmao|tho|if|in\s+case)\b)"
    ),
    "name names myself passport llamo nombre appelle mappelle chiamo heiße heisse nome adım adim",
)
_SOMEONES_FULL_NAME = _rx(r"\b(?!(?:this|its|thats|whats|yes|pls|plus)\b)[a-z]+s\s+full\s+name\b")
_GREETING = _rx(rf"^\W*(?:{_HELLO}|greetings)\b")
# "im 34, vegetarian, allergic to shellfish", "im tom, 41, electrician from cork": a list that
# opens with the user's own "im" (and states something of them, or their age) ...
_LIST_OPENER = _rx(
    rf"\W*(?:(?:{_HELLO}|so|ok|okay|well|btw|about\s+me)\W+)*"
    # "quick context before u help: im 34, married, 3 kids": a label of what follows
    rf"(?:(?:[\w'’]+\s+){{0,2}}(?:context|background|info|details|fyi)(?:\s+[\w'’]+){{0,3}}\s*:\s*)?"
    rf"(?:{_I_AM}\s+"
    r"(?:(?P<age>\d{1,2})(?:\s*(?:yo|y/?o|years?\s+old))?(?=\s*(?:,|$))"
    # "im self employed, a plumber", "im freelance, a graphic designer": how they work
    r"|(?P<status>self[- ]?employed|freelance|freelancing|a\s+freelancer|a\s+contractor"
    r"|contracting)(?=\s*,))?"
    # "me, 41, plumber, two teenagers": a bio's "me" and the age after it
    r"|(?-i:me)\s*,\s*(?P<me_age>\d{1,2})(?=\s*,)"
    # "about me: 29, dental hygienist, live in melbourne": a bio the user labels as their own
    r"|about\s+me\s*[:\-–]\s*(?P<bio_age>\d{1,2})(?=\s*,)"
    # "my name is Oluwaseun Adeyemi, procurement officer at the Lagos State Ministry of Health"
    r"|my\s+name\s+is\s+(?-i:[A-Z])[\w'’\-]+(?:\s+(?-i:[A-Z])[\w'’\-]+){0,2}(?=\s*,))"
)
# ... goes on with items that have no subject of their own: an age, "a ROLE", a diet, an
# allergy, where they live or work, their marital status
_LIST_ITEM = _rx(
    r"\s*(?:and\s+)?(?P<item>(?:also\s+)?(?:\d{1,2}(?:\s*(?:yo|y/?o|years?\s+old))?\s*$"
    r"|an?\s+(?!(?:few|lot|bit|little|couple|friend|guy|girl|person|lot)\b)[a-z]"
    r"|(?:very\s+|severely\s+|mildly\s+|deathly\s+)?al+er+gic\b|lactose\b"
    r"|(?:strict(?:ly)?\s+|mostly\s+|full\s+)?(?:vegan|vegetarian|vegeterian|pescatarian"
    r"|pescetarian|coeliac|celiac|halal|kosher|gluten[\s-]free|dairy[\s-]free)\b"
    r"|(?:living|based)\s+in\b|working\s+(?:as|at|for|in)\b|married\b"
    # "live in melbourne", "have a rescue greyhound called Pretzel": a verb whose "i" the list
    # leaves out
    r"|(?P<verb>(?:live|have|work|speak)\s)"
    # "shift supervisor on the bakery side": a title of up to two words before its head
    r"|(?P<title>(?:(?:shift|senior|junior|lead|head|chief|staff|charge|assistant|deputy"
    r"|registered|trainee|software|data|web|backend|frontend|mobile|android|ios|qa|ux|ui"
    r"|product|project|sales|account|marketing|store|site|office"
    # "dental hygienist", "veterinary nurse"
    r"|dental|veterinary|vet|medical|legal|care|support|nursing|civil|mechanical|electrical"
    r"|graphic|research|lab|security|teaching|procurement|planning|compliance|finance|purchasing"
    r"|operations|policy|communications|quality|admin|administrative|hr|it)\s+){0,2}"
    rf"(?:{'|'.join(_ROLE_WORDS.split())})\b)))"
)
# "(paysera)" right after a clause that ends with a company's kind ("at a small fintech")
_NAME_IN_PARENS = _rx(rf"\s*\(\s*{_ORG}\s*\)")
# the kinds of workplace a user names before its name ("a startup called Fieldly")
_COMPANY_KINDS = (
    r"company|agency|startup|start-up|fintech|scale-?up|insurer|firm|studio|consultancy|business"
    r"|bakery|restaurant|cafe|café|clinic|hospital|school|charity|nonprofit|bank|shop|store"
)
_KIND_AT_END = _rx(
    rf"\b(?:at|for|with)\s+(?:a|an)\s+(?:[\w\-]+\s+){{0,3}}?(?:{_COMPANY_KINDS})\s*$"
)
# A clause that opens with the user's own "im" ...
_OWN_OPENER = _rx(rf"\W*(?:(?:and|so|well|also|btw)\W+)*{_I_AM}\s")
# ... and a later "and <an item of that list>" with no subject of its own, past an aside in
# parentheses, dashes or commas ("im vegetarian (been since i was a kid) and allergic to sesame")
_AND_OPENS = _rx(r"\W*and\s")
_ASIDE_BEFORE = _rx(r"[()]|\s[-–—]\s|,")
# "can u make me a meal plan ... pescatarian and allergic to sesame so no tahini pls": a
# sentence that opens with a diet or an allergy and no subject is the user's, in a message
# that speaks of no one else
_BARE_FRAGMENT = _rx(
    r"\W*(?:(?:also|and|oh|btw|fyi|ps|plus|for\s+me|still)\W+)*(?P<item>(?:strict(?:ly)?\s+|mostly\s+|fully\s+)?"
    r"(?:vegan|vegetarian|vegeterian|pescatarian|pescetarian|coeliac|celiac|halal|kosher)"
    # ... said of oneself ("vegan btw"), never an option in a list ("vegan, gluten free, nut free")
    r"(?=\s*(?:$|[.!]|\s(?:btw|fyi|too|also|myself|now|lol|here|so|and\s+(?:also\s+)?al+er+gic"
    r"|and\s+lactose)\b))"
    r"|(?:very\s+|severely\s+|mildly\s+|also\s+)?al+er+gic\s+to\b|lactose\s+intolerant\b)"
)
_BULLETS: Final = "-*•"
# Whose list a bulleted line is on: not the user's when the line that opens it is about someone
# or something else ("my colleagues setup, not mine:", "the tutorial uses:")
_ANOTHER_OWNER = _rx(
    rf"{_THIRD_PARTY.pattern}|\b(?:my|our)\s+{_REL_SURFACE}|\bnot\s+(?:mine|ours|my|our)\b"
    r"|\b(?:tutorial|course|docs|documentation|example|guide|book|blog|article|video|post"
    r"|job\s+ad|posting|listing|template|boilerplate|sample)s?\b"
)


def _listed_by_another(text: str, start: int) -> bool:
    """Whether the bulleted line at ``start`` is on a list whose opening line (the last line
    before it that is no bullet) names another owner than the user."""
    pos = start
    while True:
        line_start = text.rfind("\n", 0, max(pos - 1, 0)) + 1
        line = text[line_start:pos].strip()
        if line_start == 0 or (line and line[0] not in _BULLETS):
            return bool(line) and _ANOTHER_OWNER.search(line) is not None
        pos = line_start


_ANOTHER_PERSON = _rx(rf"{_THIRD_PARTY.pattern}|\b(?:my|our)\s+{_REL_SURFACE}")
_I_AM_NAME = _Gated(
    re.compile(
        rf"^\W*(?:{_HELLO}\W+)?"
        # "so about me: im Tomasz, 34": the user labels what follows as their introduction
        rf"(?P<intro>(?i:(?:so|ok|okay|well|a\s+bit|a\s+little|little|quick|short)\s+)*"
        rf"(?i:about\s+me|intro|introduction)\s*[:\-–]\s*)?"
        rf"(?i:i{_A}?m|i\s+am)"
        # "I'm Nguyen Thi Lan but everyone calls me Lana": up to three names
        rf"\s+(?P<name>{_NAME}(?:\s+{_NAME}){{0,2}}|{_LOWER_NAME})"
        rf"(?=\W*$|\s*,|\s+(?i:and|from|btw|but)\b)"
    ),
    "am m im",  # I'm, I am, im
)
# "hi again, it's Amara (you probably know that already lol)", "hey its jonas again"
_ITS_NAME = _Gated(
    re.compile(
        rf"^\W*{_HELLO}\W+(?i:it{_A}?s|its|it\s+is)\s+(?P<name>{_NAME}|{_LOWER_NAME})"
        # "hey its Jonathan but pls call me Jon"
        rf"(?=\s+(?i:again|here|but)\b|\s*\(|\s*$)"
        # without a greeting only "it's X again" / "it's X here" introduces the user
        rf"|^\W*(?i:it{_A}?s|its|it\s+is)\s+(?P<name2>{_NAME}|{_LOWER_NAME})"
        # "its maria btw. and hes Tomás": who is writing, said in passing
        rf"(?=\s+(?i:again|here)\b|\s*,?\s+(?i:btw)\b)"
    ),
    "its s is",
)
# "hello this is tomasz wiśniewski, i write you yesterday": a greeting, then who is writing
_THIS_IS_NAME = _Gated(
    re.compile(
        rf"^\W*{_HELLO}\W+(?i:this\s+is)\s+"
        rf"(?P<name>{_NAME}(?:\s+{_NAME})?|{_LOWER_NAME}(?:\s+{_LOWER_NAME})?)"
        rf"(?=\s*[,.!;]|\s+(?i:again|here|from|and|but|btw)\b|\s*$)"
    ),
    "this",
)
# "ok thats my colleague marek. im Piotr Zieliński btw"
_NAME_BTW = _Gated(
    re.compile(
        rf"(?:^|[.!?]\s+|,\s*)(?i:i{_A}?m|i\s+am)\s+(?P<name>{_NAME}(?:\s+{_NAME})?)"
        rf"\s+(?i:btw|by\s+the\s+way)\b"
        # "of course lol. oh btw im priyanka, call me pri": the aside before, a name in any case
        rf"|(?:^|[.!?]\s+|,\s*)(?:(?i:oh|ah|and|also)\s+)?(?i:btw|by\s+the\s+way|fyi)\s*,?\s+"
        rf"(?i:i{_A}?m|im|i\s+am)\s+(?P<lower>{_NAME}(?:\s+{_NAME})?|{_LOWER_NAME})(?=\s*[,.;!]|\s*$)"
    ),
    "btw way",
)
# "sign it Callum Reid", "sign it from me, Grace Otieno", "sign off as Dr Amaka Obi": the name
# a letter the user writes ends with, given whole (one given name may be anyone's)
_SIGN_AS = _Gated(
    re.compile(
        rf"\b(?i:sign)\s+(?i:it\s+off|it|off|the\s+(?:email|letter|note|card|message))\s+"
        rf"(?i:as\s+|with\s+)?"
        # ("sign it from me - Gretchen")
        rf"(?:(?P<me>(?i:from\s+me))\s*[,\-–—:]?\s*)?(?P<name>{_NAME}(?:\s+{_NAME}){{0,2}})"
        # ("sign it Aiyana Redcloud thats me"; the draft may follow on the next line)
        rf"(?=\s*$|\s*[,.;!)\n]|\s+(?i:and|but|pls|please|thanks|thx|thats|that{_A}s)\b)"
        # "sign it off from me, robert kalinowski", "its from me, joana ferreira, 2º esq": after
        # "from me" a whole name in lower case (each part no English word)
        rf"|\b(?:(?i:sign)\s+(?i:it\s+off|it|off)\s+|(?i:it{_A}?s|its|it\s+is)\s+)(?i:from\s+me)"
        rf"\s*,\s*(?P<lower>{_LOWER_NAME}(?:\s+{_LOWER_NAME}){{1,2}})"
        rf"(?=\s*$|\s*[,.;!)]|\s+(?i:and|but|pls|please|thanks|thx)\b)"
        # "polite but firm. sign fatou", "sign it from me, jo": one given name in lower case,
        # last in what the user asks
        rf"|\b(?i:sign)\s+(?:(?i:it\s+off|it|off)\s+)?(?:(?P<me2>(?i:from\s+me))\s*,?\s*)?"
        rf"(?P<alone>{_LOWER_NAME})(?=\s*[.!]*\s*$)"
    ),
    "sign from",
)
# "im priya raman, customer support lead at revolut": a lower-case given name and surname
# opening a sentence, a comma after; "full name Greta Hoffmann on the submission", "Full
# name: Ana Lucía Ferreira": a whole name (never "her full name", "his full name")
_IM_FULL_NAME = _Gated(
    re.compile(
        rf"(?:^|[.!?]\s+)\W*(?:(?i:hi|hey|hello|ok|so)\W+)?(?i:i{_A}?m|im|i\s+am)\s+"
        # ("im thanh huong, vietnamese is my first language": the clause may end at the comma)
        # ("im siobhan o'callaghan but i go by shiv")
        rf"(?P<lower>{_LOWER_NAME}\s+{_LOWER_NAME})(?=\s*,|\s*$|\s+i\s|\s+but\s+i\s)"
        # ... "full name" after "my" or where a sentence, clause or form line opens (never
        # "her full name", "my moms full name")
        rf"|(?:(?<=\b(?i:my)\s)|(?:^|(?<=[.!?,;:/\n]))\s*)"
        rf"(?i:full\s+name)(?:\s+(?i:is)|\s*:)?\s+(?P<name>{_NAME}(?:\s+{_NAME}){{1,2}})"
        rf"(?=\s*$|\s*[,.;!)/\n]|\s+(?i:on|and|pls|please|thanks|tho)\b)"
    ),
    "am m im full",  # I'm, I am, im
)
_WRITTEN_FOR_SOMEONE = _rx(
    r"\b(?:for|on\s+behalf\s+of|from|to\s+help)\s+(?:my|our|his|her|their|a|an|this|the)\s+[\w\-]+"
)
_CALL_ME = _Gated(
    re.compile(
        rf"(?P<pre>^|[,;:.!]\s*|\b(?i:please|pls|can|may|just|but|and|so|simply|kindly|instead"
        rf"|all|rather|prefer\s+you|you\s+can|u\s+can|actually|thought|then|now|btw|fyi|oh|also"
        # "actually nah call me Lexi"
        rf"|nah|no|nope|wait|hmm|ok|okay|yeah|yep"
        # "and in general call me kat"
        rf"|in\s+general|generally|always|usually"
        rf"|(?:can|could|would|will)\s+(?:you|u))\s+)"
        rf"(?i:call)\s+me\s+"
        rf"(?P<name>{_NAME}|{_LOWER_NAME})"
        rf"(?=\s*$|\s*[,.;!]|\s+(?i:please|pls|plz|instead|from\s+now\s+on|going\s+forward"
        rf"|for\s+short|and|rather|btw|everyone|everybody|like\s+everyone|too"
        # ("please call me Kevin its easier"; "pls call me jo not alice")
        rf"|its|it{_A}s|cos|coz|bc|because|since|not)\b)"
    ),
    "call",
)
# "call me shiv everyone does", "call me sam pls": after "call me", and before words that make it
# a name, a lower-case word is a name even where it is also an English word ...
_NAMING_TAIL = _rx(
    r"\s+(?:please|pls|plz|instead|from\s+now\s+on|going\s+forward|for\s+short|everyone"
    # "my colleagues call me jenny, you can call me jenny too"
    r"|everybody|like\s+everyone|too)\b"
    # "call me kat, nobody calls me katarzyna"
    r"|\s*,\s*(?:nobody|no\s+one|noone|everyone|everybody)\s+(?:calls|does)\b"
    # "pls call me jo, joanna feels so formal"
    r"|\s*,\s*(?!(?:that|it|this|which|thats|its|he|she|they)\b)(?P<formal>[a-z]+)\s+(?:feels|is|sounds|seems)\s+(?:so\s+|too\s+|way\s+too\s+|really\s+)?"
    r"(?:formal|long|stiff|old|fancy)\b"
)
# ... but never one that says when or how to call ("call me back pls", "call me later pls")
_NOT_CALLED: Final = frozenset(
    _words(
        "back later tomorrow tonight today now asap anytime when whenever once after before maybe"
        " that this it so"
        " again soon first an the crazy paranoid old lazy biased naive stupid picky weird"
    )
)
_CALLS_ME = _Gated(
    re.compile(
        # ("evryone calls me Seun": typed fast)
        rf"\b(?i:everyone|everybody|evryone|evry1|every1|everyon|evrybody|people|most\s+people"
        rf"|my\s+friends|friends|folks"
        # "my foreign colleagues call me jenny"
        rf"|my\s+(?:[a-z]+\s+)?(?:colleagues|coworkers|co-workers|workmates|mates|students"
        rf"|patients|clients|customers|team))\s+"
        # non-native "everybody is calling me venky only"
        rf"(?i:just\s+|usually\s+|(?:is|are)\s+)?(?i:calls?|calling)\s+me\s+"
        rf"(?P<name>{_NAME}|{_LOWER_NAME})(?=\s*$|\s*[,.;!]|\s+[a-z&])"
    ),
    "call calls calling",
)
_GO_BY = _Gated(
    re.compile(
        rf"\b(?i:i)\s+(?i:(?:usually\s+|always\s+|just\s+)?(?:go\s+by|prefer\s+(?:to\s+be\s+called"
        rf"|being\s+called|to\s+go\s+by)|like\s+to\s+be\s+called))\s+(?P<name>{_NAME}|{_LOWER_NAME})"
        rf"(?=\s*$|\s*[,.;!]|\s+[a-z&])"
    ),
    "go prefer called",
)


def _surname_in_brackets(text: str, hits: list[_Hit], before: int) -> None:
    """ "its ines again (ines duarte, we talked last week)": the one given name the message
    gave, said whole in brackets after it, is the whole name."""
    for h in hits[before:]:
        given = h.values.get("name") if h.kind == "name" else None
        if not given or " " in given:
            continue
        whole = re.search(
            rf"\(\s*(?P<full>{re.escape(given)}\s+[^\W\d_][\w'’\-]+)\s*[,)]", text, re.IGNORECASE
        )
        full = whole.group("full") if whole else ""
        if len(names := _names(full) or _lower_full_name(full)) == 2:
            h.values = {**h.values, "name": " ".join(names)}


# "i dont go by kate anymore, its Kit now": the name gone by now, said after the one dropped
_GO_BY_NOW = _Gated(
    re.compile(
        rf"\b(?i:i)\s+(?i:don{_A}?t|dont|do\s+not)\s+(?i:go\s+by)\s+[\w'’\-]+\s+(?i:anymore|any\s+more)"
        rf"\s*[,.;]?\s*(?i:its|it{_A}s|it\s+is|i\s+go\s+by|call\s+me)\s+(?P<name>{_NAME}|{_LOWER_NAME})"
        rf"(?=\s*$|\s*[,.;!]|\s+[a-z&])"
    ),
    "go",
)
_GO_BY_NOT: Final = frozenset(
    _words(
        "bus train car bike bicycle foot tube metro plane taxi cab boat ferry uber tram subway"
        " coach scooter moped motorbike rail air sea road instinct feel intuition experience"
        " gut ear eye rules book numbers data default the a an my his her their your that this"
        " what whatever it them him"
    )
)
_VOWEL = re.compile(r"[aeiouyà-åè-ïò-öø-ýāăąēĕėęěīĭįıōŏőūŭůűų]", re.I)
_NAME_AND = re.compile(r"\s+(?:and|n|&)\s+")


def _given_names(raw: str) -> list[str]:
    """Names of a capture: capitalised tokens as typed, lower-case ones if not English words."""
    if raw[:1].isupper():
        return _names(raw)
    out = []
    for token in _NAME_AND.sub(" ", raw).split():
        token = _POSSESSIVE_END.sub("", token)
        if (
            not token.isalpha()
            or is_common_word(token)
            or token in _NOT_A_NAME
            or _VOCABULARY.fullmatch(token)
            # "its pytest here": a tool of the repo, not who is writing
            or _REPO_TOOL_WORD.fullmatch(token)
            # "im csr in concentrix": three letters or more with no vowel are an abbreviation,
            # not a name (two may be initials: "call me jp")
            or (len(token) > 2 and not _VOWEL.search(token))
        ):
            return []
        out.append(token[:1].upper() + token[1:])
    return out


def _word_name(raw: str) -> list[str]:
    """A given name the word list also has ("sam", "jo"), as a name; else none."""
    return [raw.title()] if _WORD_NAME_TOKEN.fullmatch(raw.casefold()) else []


_NOT_NAME_ENDINGS = ("ed", "ing", "ly")


# "my name is Ngoc, surname Tran", "im adele, adele moreau, not THAT adele": the surname said
# just after the given name
_SURNAME_AFTER = re.compile(
    r"\s*,\s*(?:(?i:sur|last\s+|family\s+)(?i:name)(?:\s+is)?\s+|(?P<again>[\w'’\-]+)\s+)"
    r"(?P<surname>[^\W\d_][\w'’\-]{1,24})(?=\s*[,.;!?]|\s*$)"
)


def _with_surname(c: str, end: int, given: str) -> str | None:
    """The full name when a surname follows the one given name said at ``end`` of ``c``."""
    m = _SURNAME_AFTER.match(c, end)
    if m is None or (m.group("again") and m.group("again").casefold() != given.casefold()):
        return None
    surname = m.group("surname")
    if surname.islower():
        full = _lower_full_name(f"{given.casefold()} {surname}")
        return " ".join(full) if len(full) == 2 else None
    if is_common_word(surname.casefold()) or surname.isupper():
        return None
    return f"{given} {surname}"


def _lower_full_name(raw: str) -> list[str]:
    """A whole name typed in lower case after "my name is" whose first part is also an English
    word ("park ji-woo", "grace wanjiru kamau"): taken when its last part is no word and no
    part is a function word or reads as a verb or adverb ("spelled", "mostly")."""
    tokens = raw.split()
    if not 2 <= len(tokens) <= 3 or not raw[:1].islower() or is_common_word(tokens[-1]):
        return []
    for token in tokens:
        # ("o'callaghan", "ben-ami": the apostrophe and the hyphen join one name)
        plain = token.replace("-", "").replace("'", "").replace("’", "")
        if (
            not plain.isalpha()
            or token in _NOT_A_NAME
            or token in _STOP_WORDS_AFTER_IS
            or _VOCABULARY.fullmatch(token)
            or (is_common_word(token) and token.endswith(_NOT_NAME_ENDINGS))
        ):
            return []
    return [t[:1].upper() + t[1:] for t in tokens]


_NAME_HERE = _Gated(
    re.compile(
        rf"^\W*(?i:hi|hello|hey|hiya)\W+(?P<name>{_NAME}(?:\s+{_NAME})?)\s+(?i:here)\b"
        # "Alejandra here but everyone calls me Ale", "priyanka here. our monorepo uses pnpm"
        # ("Dmitri Ivanovich Sokolov here.": a name with a patronymic)
        rf"|^\W*(?:(?i:hi|hello|hey|hiya)\W+)?(?P<name2>{_NAME}(?:\s+{_NAME}){{0,2}}|{_LOWER_NAME})"
        rf"\s+(?i:here)"
        # ("june here 👋 quick q": a wave ends the greeting)
        # ("Thanh here (pronounced kinda like 'tan')": an aside in brackets follows)
        rf"(?=\s*[,.!;(\U0001F300-\U0001FAFF\u2600-\u27BF]|\s+(?i:but|and|from|btw)\b|\s*$)"
    ),
    "here",
)


_OPEN_QUOTE = re.compile(r"(?:^|(?<=[\s(:]))['\"“‘](?=\w)")
_CLOSE_QUOTE = re.compile(r"(?<=[\w.!?,])['\"”’](?=[\s.,!?;:)]|$)")


def _opened_quote(c: str, pos: int) -> bool:
    """Whether a quotation opened before ``pos`` in ``c`` is still open there (single or double
    quotes; an apostrophe inside a word opens nothing)."""
    opened = [q.start() for q in _OPEN_QUOTE.finditer(c) if q.start() < pos]
    return bool(opened) and _CLOSE_QUOTE.search(c, opened[-1] + 1, pos) is None


def _rule_names(c: str, mask: int, message_start: bool) -> Iterator[_Hit]:
    if (
        message_start
        and (m := _NAME_HERE.match(c, mask))
        and (said := m.group("name") or m.group("name2"))
        and (names := _given_names(said) or _word_name(said))
        and len(names) == len(said.split())
        # "London here, raining again", "Nobody here": a city or a word, not a name; a given
        # name a word or a village also spells is a name ("ines here", "greta here!!")
        and not (
            m.group("name2")
            and (
                canonical_place(said, wordlike=True)
                or (is_common_word(said.casefold()) and not _word_name(said))
            )
        )
    ):
        yield _Hit("name", {"name": " ".join(names)}, m.span())
    for m in _NAME_IS.finditer(c, mask):
        # "my moms full name is Grace Achieng": someone's, the apostrophe left out
        if _SOMEONES_FULL_NAME.search(c, max(0, m.start() - 12), m.start() + 10):
            continue
        # "a story that opens with the line 'my name is Elara Vance ...'": a line quoted
        if _opened_quote(c, m.start()):
            continue
        names = (
            _given_names(m.group("name"))
            or _lower_full_name(m.group("name"))
            # "my names florence lol": a given name the word list also has, said as the name
            or _word_name(m.group("name"))
        )
        if names and len(names) == len(m.group("name").split()):
            if len(names) == 1 and (full := _with_surname(c, m.end("name"), names[0])):
                names = [full]
            yield _Hit("name", {"name": " ".join(names)}, m.span())
    if (
        (m := _I_AM_NAME.match(c, mask))
        and (
            names := _given_names(m.group("name"))
            # "hi im eric, my bike chain ...": a given name the word list also has, as the
            # message opens with it
            or (
                [m.group("name").title()]
                if message_start and m.group("name").islower() and is_word_name(m.group("name"))
                else []
            )
        )
        and len(names) == len(m.group("name").split())  # "I'm Lucas Alves", not "I'm Lucas Here"
        # "I am Physiotherapeut, sorry, physiotherapist": a title in another language
        and not _TITLE_SAID_AGAIN.match(c, m.end("name"))
        # past a message's opening, only a full name no word or place could be ("write a hello
        # email pls. im Oluwaseun Adeyemi but i go by Seun")
        and (
            message_start
            or m.group("intro")
            or (
                len(names) >= 2
                and all(n[:1].isupper() for n in m.group("name").split())
                and not any(is_common_word(n.casefold()) or is_town(n) for n in names)
            )
        )
    ):
        if len(names) == 1 and (full := _with_surname(c, m.end("name"), names[0])):
            names = [full]
        yield _Hit("name", {"name": " ".join(names)}, m.span())
    if (
        message_start
        and (m := _ITS_NAME.match(c, mask))
        and not (said := m.group("name") or m.group("name2")).isupper()
        # "hey its sam here": a given name that is also a word, in a greeting's frame
        and (names := _given_names(said) or _word_name(said))
    ):
        yield _Hit("name", {"name": names[0]}, m.span())
    if (
        message_start
        and (m := _THIS_IS_NAME.match(c, mask))
        and (names := _given_names(m.group("name")))
        and len(names) == len(m.group("name").split())
        and not is_town(m.group("name"))
    ):
        yield _Hit("name", {"name": " ".join(names)}, m.span())
    for m in _SIGN_AS.finditer(c, mask):
        if alone := m.group("alone"):
            names = _given_names(alone) or (_word_name(alone) if m.group("me2") else [])
            if names and (m.group("me2") or not _WRITTEN_FOR_SOMEONE.search(c, 0, m.start())):
                yield _Hit("name", {"name": names[0]}, m.span())
            continue
        if lower := m.group("lower"):
            names = _given_names(lower) or _lower_full_name(lower)
            if len(names) == len(lower.split()):
                yield _Hit("name", {"name": " ".join(names)}, m.span())
            continue
        # "a letter for my mum to her landlord, sign it Mary Smith": written for someone else
        if not m.group("me") and _WRITTEN_FOR_SOMEONE.search(c, 0, m.start()):
            continue
        if (names := _names(m.group("name"))) and (len(names) >= 2 or m.group("me")):
            yield _Hit("name", {"name": " ".join(names)}, m.span())
    for m in _IM_FULL_NAME.finditer(c, mask):
        if m.group("lower"):
            # "im priya raman, customer support lead": a given name and a surname, lower case
            first = m.group("lower").split()[0]
            if _given_names(first) and (names := _lower_full_name(m.group("lower"))):
                yield _Hit("name", {"name": " ".join(names)}, m.span())
            continue
        if _WRITTEN_FOR_SOMEONE.search(c, 0, m.start()):
            continue
        if (names := _names(m.group("name"))) and len(names) >= 2:
            yield _Hit("name", {"name": " ".join(names)}, m.span())
    for m in _NAME_BTW.finditer(c, mask):
        said = m.group("name") or m.group("lower")
        names = _names(said) if m.group("name") else _given_names(said)
        if names and len(names) == len(said.split()) and not is_town(said):
            yield _Hit("name", {"name": " ".join(names)}, m.span())
    for m in _CALL_ME.finditer(c, mask):
        raw = m.group("name")
        # "u can call me bea, beatriz is too formal": the name too formal to use is the name
        if (
            (tail := _NAMING_TAIL.match(c, m.end()))
            and tail.group("formal")
            and (formal := _given_names(tail.group("formal")))
        ):
            yield _Hit("name", {"name": formal[0]}, (m.start(), tail.end("formal")))
        if names := _given_names(raw):
            yield _Hit("preferred_name", {"name": names[0]}, m.span())
        elif (
            raw.isalpha()
            and raw.casefold() not in _NOT_CALLED
            # "call me sam": a given name that is also a word, where the message or clause ends
            and (_NAMING_TAIL.match(c, m.end()) or _WORD_NAME_TOKEN.fullmatch(raw.casefold()))
        ):
            yield _Hit("preferred_name", {"name": raw.title()}, m.span())
    for m in _CALLS_ME.finditer(c, mask):
        if names := _given_names(m.group("name")):
            yield _Hit("preferred_name", {"name": names[0]}, m.span())
    for m in _GO_BY_NOW.finditer(c, mask):
        if names := _given_names(m.group("name")):
            yield _Hit("preferred_name", {"name": names[0]}, m.span())
    for m in _GO_BY.finditer(c, mask):
        raw = m.group("name")
        # "but i go by shiv": after "go by" a word is a name, unless it is how one goes or
        # judges ("i go by bus", "i go by instinct")
        word = raw.isalpha() and raw.islower() and raw.casefold() not in _GO_BY_NOT
        if names := _given_names(raw) or ([raw.title()] if word else []):
            yield _Hit("preferred_name", {"name": names[0]}, m.span())


# A place the user typed in lower case ("living in porto now") is taken only when the gazetteer
# knows it (see lexicon.canonical_place); capitalised places are taken as typed.
_LOWER_LETTER = "a-zß-öø-ÿā-ž"  # "wrocław", "são paulo"
_LOWER_PLACE = (
    rf"(?-i:[{_LOWER_LETTER}][{_LOWER_LETTER}'’.\-]*(?:\s+[{_LOWER_LETTER}][{_LOWER_LETTER}'’.\-]*)"
    r"{0,2})"
)
_ANY_PLACE = rf"(?:{_PLACE}|{_LOWER_PLACE})"
# "moved! sheffield is home now": a place the gazetteer knows (see _rule_home), said to
# be home now
_HOME_NOW = _grx(
    rf"(?:^\W*|[,;]\s*|\b(?:and|so)\s+)(?P<place>{_ANY_PLACE})\s+is\s+(?:my\s+|our\s+)?home"
    rf"\s+now\b",
    "home",
)
_PIDGIN_BE = re.compile(r"\b(?:i|we)\s+(?:be|dey)\s", re.IGNORECASE)
# Nigerian English "i be freelance developer for Lagos", "i dey do tailoring for lagos": the
# work done there, in a city or country the gazetteer knows (never "i dey go for lagos", a
# trip, nor "i dey wait for Tunde")
_PIDGIN_WORK_FOR = _grx(
    rf"\b(?:i|we)\s+(?:be\s+(?:an?\s+)?|dey\s+(?:do\s+|work\s+(?:as\s+)?)?)"
    rf"(?!(?:go|come|travel|waka|reach|fly|visit|comot|return|run|pass|move|enter|look|wait|the|one)\b)"
    rf"(?:[a-z][\w\-]*\s+){{1,3}}?for\s+(?P<place>{_ANY_PLACE})"
    rf"(?=\s*$|\s*[,.;!?]|\s+(?:and|but|so|since|now|abeg|o)\b)",
    "be dey",
)
_HOME = [
    # "wait no not leeds, im in york now, moved last month": where the user is now, said with
    # the move that brought them
    _grx(
        rf"{_I_AM}\s+in\s+(?P<place>{_ANY_PLACE})\s+now\s*,?\s+(?:(?:we|i)\s+)?(?:just\s+)?moved"
        rf"(?!\s+(?:to|from|out|here|there|away)\b)",
        "moved",
    ),
    # "... i can only meet erik in afternoons. flat is in malmö btw": the user's flat, the
    # possessive left out where a sentence opens
    _grx(
        rf"(?:^\W*|[.!?]\s+)(?:flat|apartment|house)\s+is\s+in\s+(?P<place>{_ANY_PLACE})"
        rf"(?=\s*$|\s*[,.;!?]|\s+(?:btw|fyi|lol|if|so|and|but)\b)",
        "flat apartment house",
    ),
    # "wait no sorry we moved last month its blacktown now": where the user moved, said after
    # the move itself (never "we moved the meeting, its monday now": the move has no object)
    _grx(
        rf"\b(?:i|we)\s+(?:just\s+|recently\s+|finally\s+)?moved(?:\s+(?:house|flats?|again"
        rf"|recently|last\s+(?:week|month|year|summer|spring|autumn|fall|winter)|in\s+\w+))?"
        rf"\s*[,.!]?\s*(?:so\s+|and\s+)?(?:it{_A}?s|its)\s+(?P<place>{_ANY_PLACE})\s+now\b",
        "moved",
    ),
    # "we're in portobello now since august", "im in kileleshwa since 2021": a place the user is
    # in since a month, season or year is where they live (never "since yesterday")
    _grx(
        # ("moved out of seattle, been in tacoma since march")
        # ("used to live in leeds, now in york since jan": the subject left out after the past)
        rf"(?:\b(?:we{_A}?re|we\s+are|i{_A}?m|i\s+am|(?:i|we)(?:{_A}?ve|\s+have)\s+been)"
        rf"|(?:^\W*|,\s*)(?:been|now(?=\s+in\s)))"
        rf"\s+(?:now\s+|still\s+)?in\s+(?P<place>{_ANY_PLACE})"
        rf"(?:\s+now)?(?=\s+since\s+(?:(?:last\s+)?(?:january|february|march|april|may|june|july"
        rf"|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov"
        rf"|dec|spring|summer|autumn|fall|winter|year)\b|(?:19|20)\d\d\b|(?:\d+|two|three|four"
        rf"|five|six|seven|eight|nine|ten)\s+(?:years|months)\b))",
        "since",
    ),
    # "now we are back in Kraków since spring" ("back home in india" is where the user is
    # from, often not where they live)
    _grx(
        rf"\b(?:we{_A}?re|we\s+are|i{_A}?m|i\s+am)\s+(?:now\s+)?back\s+in\s+(?P<place>{_ANY_PLACE})"
        rf"(?=\s+since\b)",
        "back",
    ),
    # "im staff nurse here in Dubai already 6 years", "im caregiver here in Toronto": where
    # the user works as what they are is where they are settled
    _grx(
        rf"{_I_AM}\s+(?:(?:a|an)\s+)?(?:[\w\-]+\s+){{0,3}}?{_ROLE_HEAD}"
        # "im payroll officer at concentrix here in cebu"
        rf"(?:\s+(?:at|for|with)\s+[\w&.\-]+(?:\s+[\w&.\-]+){{0,2}}?)?\s+here\s+in\s+"
        rf"(?P<place>{_ANY_PLACE})",
        "here",
    ),
    _grx(
        # non-native "I am live in Shenzhen"
        # "im from manchester originally but live in london": the clause's own subject's
        # ("i myself live in Gratkorn")
        rf"(?:\b(?:i|we)\s+(?:am\s+|are\s+|myself\s+|ourselves\s+)?|^\W*|,\s*|\b(?:but|and)\s+)"
        rf"(?:currently\s+|now\s+|still\s+|actually\s+|both\s+|all\s+|do\s+)?"
        # "live and work in Cork", "work and live in leeds"
        rf"(?:(?:work|study)\s+and\s+)?(?:live|reside)\s+(?:and\s+(?:work|study)\s+)?"
        # "we live here in Porto", non-native "i live since 6 years in Vienna", "i live all the
        # way in ikeja"
        rf"(?:here\s+|now\s+|together\s+|alone\s+|all\s+the\s+way\s+(?=in\s)|since\s+(?:\d{{1,2}}|one|two|three|four|five|six|seven"
        rf"|eight|nine|ten|many|some)\s+years?\s+)?"
        # "i live on mansel st in swansea", "we live just outside in staveley"
        rf"(?:on\s+(?:[\w'’\-]+\s+){{1,3}}?(?:st|street|rd|road|ave|avenue|lane|drive|way"
        # ("we live just outside leeds in horsforth")
        rf"|close|crescent|terrace)\.?\s+|just\s+outside\s+(?:of\s+)?(?:[\w'’\-]+\s+)?"
        # "i live in flat 3 in leith"
        rf"|in\s+(?:flat|apt|apartment|unit)\s*(?:no\.?\s*)?\d+[a-z]?\s*,?\s+)?"
        rf"in\s+(?P<place>{_ANY_PLACE})",
        "live reside",
    ),
    # "im in flat 3 in Leith, Edinburgh", "im in flat 3 at 22 Albion Rd in Leith": where the
    # user's flat is
    _grx(
        rf"{_I_AM}\s+in\s+(?:flat|apt|apartment|unit)\s*(?:no\.?\s*)?\d+[a-z]?\s*,?\s+"
        rf"(?:at\s+\d+[a-z]?\s+(?:[\w'’\-]+\s+){{1,3}}?(?:st|street|rd|road|ave|avenue|lane|drive"
        rf"|way|close|crescent|terrace)\.?\s+)?in\s+(?P<place>{_ANY_PLACE})",
        "flat apt apartment unit",
    ),
    _grx(
        # non-native "I living in Shenzhen"
        rf"(?:\b(?:i{_A}?m|i\s+am|we{_A}re|we\s+are|i)\s+|^\W*|,\s*|\b(?:but|and)\s+"
        # "yes still living in lyon lol": an answer, then the state
        rf"|^\W*(?:yes|yeah|yep|yup|ya)\W+(?=still\s)"
        # "freelance illustrator living in rotterdam": a bio that opens the message
        rf"|^\W*(?:(?:a|an)\s+)?(?:[\w\-+#.]+\s+){{0,3}}?{_ROLE_HEAD}\s+(?=(?:living|based)\s)"
        # "im polish living in Munich"
        rf"|{_I_AM}\s+(?:a\s+|an\s+)?{_NATION_ADJ}\s+(?=(?:living|based)\s))"
        rf"(?:currently\s+|now\s+|still\s+|also\s+)?"
        # "im living here in Riyadh", "im living and working here in Riyadh"
        # "im based out of nairobi"
        rf"(?:(?:living|based|located|residing|staying)\s+(?:and\s+working\s+)?(?:here\s+|now\s+)?in"
        rf"|based\s+out\s+of)"
        rf"\s+(?P<place>{_ANY_PLACE})",
        "living based located residing staying",
    ),
    # non-native "i already move to surabaya on march": the present said of a move made
    _grx(
        rf"\b(?:i|we)\s+(?:already\s+(?:move|shift|relocate)|(?:move|moved|shift)\s+already)\s+to\s+"
        rf"(?P<place>{_ANY_PLACE})",
        "already",
    ),
    _grx(
        rf"\b(?:i|we)(?:{_A}?ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|officially\s+|only\s+"
        # Indian English "we shifted to Bengaluru last month only"
        # ("we finally moved up to glasgow", "moved down to brighton", "moved over to dublin")
        rf"|actually\s+|also\s+)?(?:moved|relocated|shifted"
        # Nigerian English "i don relocate from lagos to abuja", "we don move to ibadan"
        rf"|don\s+(?:move|relocate|shift))\s+(?:already\s+|back\s+|up\s+|down\s+"
        rf"|over\s+)?"
        # "we've just moved house to sheffield"
        rf"(?:(?:house|home|flat|flats|apartment)\s+)?"
        # "we just moved from Berlin to Hamburg last week", "we moved last month from leeds to
        # Bradford": where the move ended
        rf"(?:(?:last|this)\s+\w+\s+|\w+\s+ago\s+|in\s+\w+\s+)?"
        # "we moved out of chicago to evanston"
        rf"(?:(?:from|out\s+of|away\s+from)\s+(?:[\w'’\-]+\s+){{1,3}}?)?to\s+(?P<place>{_ANY_PLACE})",
        "moved relocated shifted move relocate shift",
    ),
    # "i live on the 9th floor in Laureles", "we live like 5 min away in sydney", "i live off
    # campus in columbus": where in the place, then the place
    _grx(
        rf"\b(?:i|we)\s+(?:currently\s+|now\s+|still\s+|also\s+)?live\s+(?:just\s+|like\s+"
        rf"|right\s+)?(?:on\s+the\s+\w+\s+floor|off\s+campus|on\s+campus|close\s+by|nearby"
        rf"|downtown|uptown|(?:next\s+(?:door\s+)?to|close\s+to|near|opposite|behind|above"
        rf"|across\s+from)\s+(?:the|a|an|my|our)\s+[\w\-]+(?:\s+[\w\-]+)?"
        rf"|(?:\d+|a\s+few|few|two|five|ten)\s*(?:min|mins|minutes|km|miles|blocks)\s+"
        rf"(?:away|from\s+(?:the|my|our)\s+[\w\-]+))\s+in\s+(?P<place>{_ANY_PLACE})",
        "live",
    ),
    # Nigerian English "we stay for Lekki", "i dey stay for Surulere"
    _grx(
        rf"\b(?:i|we)\s+(?:dey\s+)?stay\s+for\s+(?P<place>{_ANY_PLACE})",
        "stay",
    ),
    _PIDGIN_WORK_FOR,
    # an address: "im at 14 aro st in wellington, flat 2"
    _grx(
        rf"(?:{_I_AM}|\bwe{_A}re|\bwe\s+are|\b(?:i|we)\s+live)\s+at\s+\d+[a-z]?\s+"
        rf"(?:[\w'’\-]+\s+){{1,3}}?(?:st|street|rd|road|ave|avenue|lane|drive|way|close|crescent"
        rf"|terrace)\.?\s*,?\s+(?:in\s+)?(?P<place>{_ANY_PLACE})",
        "st street rd road ave avenue lane drive way close crescent terrace",
    ),
    # the subject carried over: "I work out of the Galway office but live in Oranmore", "i'm
    # from Medellín but live in Madrid now"
    _grx(
        rf"\b(?:i|we)(?:{_A}m|{_A}re)?\s+(?:[\w'’\-]+\s+){{1,8}}?(?:but|and)\s+"
        rf"(?:also\s+|still\s+|now\s+)?live\s+in\s+(?P<place>{_ANY_PLACE})",
        "live",
    ),
    # "I'm from Edinburgh and still live there", "im from Lima, live here all my life"
    _grx(
        rf"\bfrom\s+(?P<place>{_ANY_PLACE})\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?:i\s+)?(?:still\s+)?"
        rf"(?:live|lived|living|been\s+living|have\s+lived|{_A}ve\s+lived)\s+(?:there|here)\b",
        "there here",
    ),
    # "i live with her in zapopan", "we live with my parents in ibadan": the user lives there too
    _grx(
        rf"\b(?:i|we)\s+(?:still\s+|now\s+)?(?:live|am\s+living|{_A}m\s+living|im\s+living"
        rf"|are\s+living|{_A}re\s+living)\s+with\s+(?:her|him|them|my\s+[\w\-]+(?:\s+[\w\-]+)?"
        rf"|(?-i:[A-Z])[\w\-]+)\s+in\s+(?P<place>{_ANY_PLACE})",
        "live living",
    ),
    # code-switched "vivo en Houston desde hace 4 años", "moro em Lisboa"
    _grx(
        rf"\b(?:vivo|vivimos|moro|moramos)\s+(?:en|em|no|na)\s+(?P<place>{_ANY_PLACE})",
        "vivo vivimos moro moramos",
    ),
    # "Address is in Amman, Khalda", "my address is in Medellín": the city, not the district
    _grx(
        rf"(?:^\W*|\bmy\s+(?:home\s+)?)(?i:address)\s+is\s+(?:in\s+)?"
        rf"(?P<place>{_PLACE_TOKEN}(?:\s+{_PLACE_TOKEN})?|{_LOWER_PLACE})(?=\s*[,.;!]|\s*$)",
        "address",
    ),
    # present perfect: still true ("I've lived in Lisbon for 6 years", "since 2019")
    _grx(
        # ("i grew up in porto but been living in rotterdam for 9 years": the subject carried)
        # ("been livin in leeds 6 yrs": the subject and the g dropped)
        # ("going back home for xmas, been living in nairobi 4 yrs now": after a comma, unless
        # the clause opened on someone else, see _rule_home)
        rf"(?:\b(?:i|we)(?:{_A}?ve|\s+have)|\bbut(?=\s+been\s+livin)|(?:^|[.!?]\s*)\W*(?=been\s+livin)"
        rf"|,\s*(?=been\s+livin))"
        rf"\s*(?:lived|been\s+livin(?:g|{_A})?)\s+in\s+"
        rf"(?P<place>{_ANY_PLACE})(?=\s+(?:for|since|about|almost|nearly|over|\d+)\b)",
        "lived living livin",
    ),
    # "we've been in geelong 3 yrs": years in a place, still there
    _grx(
        rf"\b(?:i|we)(?:{_A}?ve|\s+have)\s+been\s+(?:here\s+)?in\s+(?P<place>{_ANY_PLACE})"
        rf"(?=\s+(?:for\s+|about\s+|almost\s+|nearly\s+|over\s+)?(?:\d+|two|three|four|five|six"
        rf"|seven|eight|nine|ten|many|a\s+few|a\s+couple\s+of?)\s*(?:years?|yrs?|decades?)\b"
        rf"|\s+since\s+(?:19|20)\d\d\b)",
        "been",
    ),
    # "the whole team is in sg and im the only one remote from nairobi", "i work remotely from
    # kigali"
    _grx(
        rf"\b(?:i{_A}?m|im|i\s+am|i\s+work|i{_A}?ve\s+been\s+working)\s+(?:the\s+only\s+one\s+"
        rf"|fully\s+|full[- ]time\s+)?(?:working\s+)?remote(?:ly)?\s+from\s+"
        rf"(?P<place>{_ANY_PLACE})",
        "remote remotely",
    ),
    _grx(rf"\bmy\s+home\s+is\s+(?:in\s+)?(?P<place>{_ANY_PLACE})", "home"),
    # "i live in a tiny flat in aarhus"
    _grx(
        # ... non-native "we live in apartment in Hanoi": the article left out
        rf"(?:\b(?:i|we)\s+(?:currently\s+|now\s+|still\s+)?live|{_I_AM}|\bwe{_A}?re)\s+in\s+"
        rf"(?:(?:a|an|the|my|our)\s+(?:[\w\-]+\s+){{0,3}}?|(?=(?:flat|apartment|house|studio)\s))"
        rf"(?:(?:flat|apartment|house|studio|place|condo|cottage|bungalow"
        rf"|semi|terrace|houseboat)\s+"
        # "the top floor flat on allison st in govanhill"
        rf"(?:on\s+(?:[\w\-]+\s+){{1,3}}?)?(?:in|near|outside|just\s+outside)"
        # ... but "a village near graz" is another place than graz
        rf"|(?:village|town|suburb)\s+in)\s+"
        rf"(?P<place>{_ANY_PLACE})",
        "live flat apartment house studio place condo cottage bungalow semi terrace village town"
        " suburb houseboat",
    ),
    # "i live in a small village near graz, its name is gratkorn": the village named after
    _grx(
        rf"(?:\b(?:i|we)\s+(?:currently\s+|now\s+|still\s+)?live|{_I_AM}|\bwe{_A}?re)\s+in\s+"
        rf"(?:a|an)\s+(?:[\w\-]+\s+){{0,2}}?(?:village|town|suburb|hamlet)\s+(?:(?:near|outside"
        rf"|close\s+to|just\s+outside)\s+(?:of\s+)?[\w\-]+(?:\s+[\w\-]+)?\s*,?\s*)?(?:called|named"
        rf"|(?:its|it{_A}s|the)\s+name\s+is)\s+(?P<place>{_ANY_PLACE})",
        "village town suburb hamlet",
    ),
    # "im renting a wee flat in leith", "we share a house in Jesmond"
    _grx(
        rf"(?:\b(?:i|we)\s+|{_I_AM}\s+|\bwe{_A}?re\s+)(?:currently\s+|now\s+|still\s+)?"
        rf"(?:rent|renting|share|sharing)\s+(?:a|an|the)\s+(?:[\w\-]+\s+){{0,3}}?(?:flat|apartment"
        rf"|house|studio|room|place|condo|cottage|bungalow)\s+(?:in|near|outside)\s+"
        rf"(?P<place>{_ANY_PLACE})",
        "rent renting share sharing",
    ),
    # "flying out of winnipeg, thats home", "near Edinburgh since that's where we live"
    _grx(
        rf"\b(?:in|near|from|out\s+of|to|around|outside)\s+(?P<place>{_ANY_PLACE})(?:\s*,\s*|\s+"
        rf"(?:since|because|as|cos|cause|cuz)\s+|\s*[-–—]\s*)(?:that|this|it){_A}?s\s+(?:where\s+"
        rf"(?:i|we)\s+live|(?:my\s+|our\s+)?home)\b",
        "live home",
    ),
    _grx(
        rf"\b(?:i|we)(?:{_A}?ve|\s+have)\s+been\s+renting\s+(?:this|a|my|our|the)\s+"
        rf"(?:flat|apartment|house|place|room|studio)\s+in\s+(?P<place>{_ANY_PLACE})",
        "renting",
    ),
    # non-native present for a lasting state: "we are currently staying in Lyon since 4 years"
    _grx(
        rf"\b(?:i|we)\s+(?:am\s+|are\s+|{_A}m\s+|{_A}re\s+)?(?:currently\s+)?(?:staying|living)"
        # "i am living in this flat in valencia since 6 years"
        rf"\s+in\s+(?:(?:this|my|our|the|a)\s+(?:flat|apartment|house|room|place|home)\s+in\s+)?"
        rf"(?P<place>{_ANY_PLACE})(?=\s+since\b)"
        # "I am brazilian but living now in Cork since 2 years": the subject is carried over
        rf"|{_I_AM}\s+[a-z]+\s+(?:but|and)\s+(?:now\s+|currently\s+)?(?:staying|living)\s+"
        rf"(?:now\s+|currently\s+)?in\s+(?P<place2>{_ANY_PLACE})(?=\s+since\b|\s*$|\s*[,.;])",
        "staying living",
    ),
    _grx(rf"\bi\s+call\s+(?P<place>{_PLACE})\s+home\b", "home"),
    # "I live with my girlfriend Kasia in Wrocław"
    _grx(
        rf"\b(?:i|we)\s+(?:currently\s+|now\s+)?live\s+with\s+(?:my|our)\s+(?:[\w'’\-]+\s+){{1,3}}?"
        rf"in\s+(?P<place>{_ANY_PLACE})",
        "live",
    ),
    # "ok finally settled in calgary, the move from toronto was BRUTAL"
    _grx(
        rf"(?:\b(?:i{_A}?m|i\s+am|we{_A}re|we\s+are|i{_A}?ve|we{_A}?ve|i|we)\s+|^\W*(?:ok\W+|so\W+)?)"
        rf"(?:finally\s+|now\s+|just\s+|all\s+)?(?:settled|moved)\s+in\s+(?:to\s+)?"
        rf"(?P<place>{_ANY_PLACE})",
        "settled moved",
    ),
    # "the printer at home in wakefield is better": where the user's home is ("back home in
    # india" is often where one is from; "i feel at home in lisbon" is a feeling)
    _grx(
        rf"(?:\b(?:the|my|our)\s+(?!(?:{_REL_SURFACE}|{_PET_SURFACE})\b)[\w\-]+\s+"
        rf"|\b(?:i{_A}?m|im|i\s+am|we{_A}?re|we\s+are|i|we)\s+(?:(?:work|study|stay|live)\s+)?)"
        rf"at\s+home\s+in\s+(?P<place>{_ANY_PLACE})",
        "home",
    ),
    # "i rent a flat in glasgow", "my mother-in-law lives with us in Addis Ababa"
    _grx(
        rf"\b(?:i|we)\s+(?:currently\s+|now\s+|still\s+)?(?:rent|own|share)\s+(?:a|an|the)\s+"
        rf"(?:[\w\-]+\s+){{0,2}}?(?:flat|apartment|house|room|studio|place|condo)\s+in\s+"
        rf"(?P<place>{_ANY_PLACE})"
        rf"|\b(?:lives?|living|stays?|staying)\s+with\s+(?:us|me)\s+(?:here\s+)?in\s+"
        rf"(?P<place2>{_ANY_PLACE})",
        "rent own share us me",
    ),
    # "im here in Dubai working as caregiver 6 years already": here, at work, not visiting
    _grx(
        rf"{_I_AM}\s+(?:now\s+|still\s+)?here\s+in\s+(?P<place>{_ANY_PLACE})"
        rf"(?=\s*,?\s+(?:working|living|employed)\b)",
        "here",
    ),
    # "I am a staff nurse at Korle Bu here in Accra", "working as domestic helper here in
    # singapore already 6 years": where the user works every day is where they live
    _grx(
        rf"\b(?:i\s+(?:also\s+)?work|{_I_AM}\s+(?:working|employed|a|an))\b[^.;!?]{{0,60}}?"
        rf"\bhere\s+in\s+(?P<place>{_ANY_PLACE})",
        "here",
    ),
    # "live up in brisbane", "born and raised in Cork and still here", "from Graz and still
    # living there", "now back home in Kochi", "Staying in Pune only since birth"
    _grx(
        rf"(?:\b(?:i|we)\s+|^\W*|,\s*)(?:currently\s+|now\s+|still\s+)?live\s+(?:up|down|over|out)"
        rf"\s+in\s+(?P<place>{_ANY_PLACE})",
        "live",
    ),
    _grx(
        rf"\bborn\s+and\s+(?:raised|bred)\s+in\s+(?P<place>{_ANY_PLACE})\s*,?\s+and\s+(?:i{_A}?m\s+)?"
        rf"still\s+(?:here|there|live\s+(?:here|there)|living\s+(?:here|there))\b"
        rf"|\bfrom\s+(?P<place2>{_ANY_PLACE})\s+and\s+(?:i{_A}?m\s+|i\s+am\s+)?still\s+"
        rf"(?:living|live|based)\s+(?:here|there)\b",
        "still",
    ),
    _grx(rf"\bnow\s+back\s+home\s+in\s+(?P<place>{_ANY_PLACE})", "back"),
    # "im in lisbon till friday, back home in porto on saturday": the day a trip ends names
    # the home it ends at ("back home in lagos my mum cooks ..." is where the user is from)
    _grx(
        rf"(?:^\W*|\b(?:then|and|but|so|i{_A}?m|im|i\s+am|we{_A}?re|we\s+are|be|flying|heading"
        rf"|driving|going|getting|arriving)\s+)(?:then\s+)?back\s+home\s+in\s+"
        rf"(?P<place>{_ANY_PLACE})(?=\s*,?\s+(?:on\s+|by\s+|from\s+)?(?:the\s+)?"
        rf"(?:\d{{1,2}}(?:st|nd|rd|th)\b|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
        rf"|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b))",
        "back",
    ),
    # habitual present: "me and my husband we stay in Cebu", "we stay here in Makati"
    _grx(
        rf"\b(?:i|we)\s+(?:also\s+|all\s+|both\s+)?stay\s+(?:here\s+)?in\s+(?P<place>{_ANY_PLACE})",
        "stay",
    ),
    # "staying here in Makati already 3 years", "we are staying in Pune only"
    _grx(
        rf"\bstaying\s+(?:here\s+)?in\s+(?P<place>{_ANY_PLACE})(?=\s+(?:already|only\b|since\b"
        rf"|for\s+(?:\d+|many|several|a\s+few)\s+years))",
        "staying",
    ),
    # "I am from Poland but living in Dublin now 5 years", "I am from Poland, living in Dublin"
    _grx(
        rf"{_I_AM}\s+from\s+[\w'’\-]+(?:\s+[\w'’\-]+)?\s*(?:,\s*|\s+)(?:but\s+|and\s+)?"
        rf"(?:now\s+|currently\s+)?(?:living|based|staying|settled)\s+(?:now\s+)?in\s+"
        rf"(?P<place>{_ANY_PLACE})",
        "living based staying settled",
    ),
    # "ive been in this flat in glasgow nearly 2 yrs"
    _grx(
        rf"\b(?:i|we)(?:{_A}?ve|\s+have)?\s+been\s+in\s+(?:this|my|our|the)\s+(?:flat|house"
        rf"|apartment|place|home)\s+in\s+(?P<place>{_ANY_PLACE})",
        "been",
    ),
    _HOME_NOW,
    # "im in nairobi for work till thursday but home is kampala"
    # ... "but home is still carlton obv"
    _grx(
        rf"(?:^\W*|\b(?:but|and|so)\s+)home(?:\s+is|{_A}s)\s+(?:still\s+)?(?P<place>{_ANY_PLACE})",
        "home",
    ),
    # "used to live in oslo but moved to bergen last year", "moved back to curitiba"
    _grx(
        rf"(?:^\W*|\b(?:but|and|then|so)\s+)(?:just\s+|finally\s+|recently\s+)?"
        # ... "just moved from bristol to cardiff"
        # ... "moved up to glasgow in march"
        rf"(?:moved|relocated)\s+(?:(?:back|up|down|over)\s+)?(?:from\s+{_ANY_PLACE}\s+)?to\s+"
        rf"(?P<place>{_ANY_PLACE})",
        "moved relocated",
    ),
    # "moved to a tiny flat in lyon last year", "we moved into a house in leith": the home the
    # move ended in, then its place
    _grx(
        rf"(?:^\W*|\b(?:but|and|then|so)\s+|\b(?:i|we)(?:{_A}?ve|\s+have)?\s+)(?:just\s+|finally\s+"
        rf"|recently\s+|also\s+)?(?:moved|relocated)\s+(?:in)?to\s+(?:a|an|our|my|the)\s+"
        rf"(?:[\w\-]+\s+){{0,2}}?(?:flat|apartment|house|studio|place|condo|cottage|bungalow|room"
        rf"|bedsit|townhouse|home)\s+in\s+(?P<place>{_ANY_PLACE})",
        "moved relocated",
    ),
    # "i'm a retired postie living in Aberdeen", "im a mum of two based in leeds": whatever
    # the user calls themself, the participle places them
    _grx(
        rf"{_I_AM}\s+(?:a|an)\s+(?:[\w'’\-]+\s+){{1,4}}?(?:living|based|residing)\s+in\s+"
        rf"(?P<place>{_ANY_PLACE})",
        "living based residing",
    ),
    # "lived in sheffield my whole life", "ive lived in huddersfield all my life"
    _grx(
        rf"(?:^\W*|\b(?:i|we)(?:{_A}?ve|\s+have)?\s+)(?:lived|been)\s+in\s+(?P<place>{_ANY_PLACE})"
        rf"\s+(?:(?:my|our)\s+(?:whole|entire)|all\s+(?:my|our))\s+li(?:fe|ves)\b"
        rf"(?!\s*(?:,\s*)?(?:until|till|but|before))",
        "lived been",
    ),
    _grx(
        rf"(?:^\W*|\bi\s+am\s+|{_A}m\s+)(?:staying|living)\s+in\s+(?P<place>{_ANY_PLACE})"
        rf"(?=\s+(?:only\s+)?since\s+(?:birth|\d{{4}}|childhood)\b)",
        "staying living",
    ),
]
# "I'm in York" is a visit as often as a home, except in a message that corrects where the
# user lives ("sorry, I mixed that up: Leeds is where my brother lives, I'm in York").
_CORRECTED_HOME = _grx(
    rf"(?:{_I_AM}|\bwe(?:{_A}?re|\s+are))\s+(?:actually\s+|really\s+|technically\s+"
    rf"|officially\s+)?in\s+(?P<place>{_ANY_PLACE})(?=\s*(?:$|[,.;!]))",
    "am m im re are were",
)
# "restaurants in Birmingham where I live", "from hamburg (where we live)": said in passing
_WHERE_I_LIVE = _grx(
    # ("engineer at Siemens, location Munich, where I also live")
    rf"\b(?:in|from|to|around|near|location)\s+(?P<place>{_ANY_PLACE})\s*[,(]?\s*(?:which\s+is\s+)?"
    # "a climbing wall near hillsborough, thats where i live"
    rf"(?:that{_A}?s\s+|that\s+is\s+)?"
    rf"(?:\bwhere\s+(?:i|we)\s+(?:(?:currently|now|actually|also|both|all)\s+)?live\b"
    # "a pharmacy open late near footscray, i live there"
    rf"|(?<=,\s)(?:i|we)\s+(?:(?:currently|actually|also|both|all)\s+)?live\s+(?:there|here)\b)",
    "where live",
)
# "since i live in calgary itd connect through toronto right?": the reason a question gives
_SINCE_I_LIVE = _grx(
    rf"\b(?:since|because|as|cos|cause|bc|coz)\s+(?:i|we)\s+(?:(?:currently|now|still|both|all"
    rf"|actually)\s+)?live\s+in\s+(?P<place>{_ANY_PLACE})",
    "live",
)
_HOME_POSSESSIVE = _grx(
    # "the party at our place in Bolton": the user's household's home is the user's
    rf"(?:\b(?:my|our)\s+(?:(?:own|little|new|tiny|small|rented|current)\s+)?"
    rf"(?:{HOME_NOUNS}|neighbou?rhood|rent|landlord"
    # "my flat is in Bristol, key is with the neighbour" (never "my landlord is in Spain")
    rf"|{HOME_NOUNS}\s+(?:is|{_A}s))"
    # "the spar on my road in drumcondra"
    rf"|(?<=\bon\s)(?:my|our)\s+(?:road|street)"
    # "find a vet near me in leeds": where the user is, in a request (see _AWAY_FROM_HOME)
    rf"|\b(?P<near>near\s+(?:me|us))"
    # "my brother in law is coming to visit us in Amman next week": the user's home is visited
    rf"|\b(?:visit|visiting|stay\s+with|staying\s+with)\s+(?:us|me)"
    # "the damp in my flat back in cardiff"
    rf")\s+(?:back\s+|here\s+)?in\s+"
    rf"(?P<place>{_ANY_PLACE})",
    "flat apartment apt house home place condo studio neighborhood neighbourhood rent landlord"
    " near visit visiting stay staying appartment appartement road street",
)
# "tomorrow i go run 10k in my city sevilla": the city the user calls theirs ("my hometown" is
# where they are from)
_MY_CITY = _grx(
    rf"(?:(?<=\bin\s)|(?<=\bto\s)|(?<=\bof\s)|(?<=\bfrom\s)|(?<=\baround\s))(?:my|our)\s+"
    rf"(?:city|town|village)\s*,?\s+(?P<place>{_ANY_PLACE})",
    "city town village",
)
# A message about a stay away from home: "near me in X" there is where the user is staying
_AWAY_FROM_HOME = _rx(
    r"\b(?:visit(?:ing)?|trip|holidays?|vacation|travell?(?:ing)?|staying|stay|hotel|airbnb"
    r"|hostel|weekend|tonight|conference|in\s+town|layover|landed|arrived|tourists?|sightseeing"
    r"|business\s+travel|road\s+trip|passing\s+through|this\s+week|next\s+week)\b"
    r"|\bfor\s+(?:the\s+|a\s+|\d+\s+|a\s+few\s+|a\s+couple\s+(?:of\s+)?|two\s+|three\s+)?"
    r"(?:days?|nights?|weeks?)\b"
)


_APOSTROPHE_S = re.compile(rf"{_A}s\b")


def _entity_ok(value: str, after: str) -> bool:
    tokens = value.split()
    if tokens[0].casefold() == "the":
        tokens = tokens[1:]
    if _APOSTROPHE_S.match(after) or any(t.strip(",") in _STOP_CAPS for t in tokens):
        return False
    # "at Tom's" is a possessive; "St Olav's", "St James's" are names of hospitals and schools
    return not value.endswith(("'s", "’s")) or tokens[0].rstrip(".") in {"St", "Saint", "Mt"}


# Parts of any city, not a place of their own: "i live in midtown"
_AREAS: Final = frozenset(
    _words("midtown downtown uptown suburbs burbs outskirts centre center countryside sticks")
)
# Words that may follow a place named in lower case: "we live in dearborn with the kids".
_DISTRICT_ENDS: Final = frozenset(
    _words("green park hill heath wood end bridge cross gate field vale common village heights")
)
# a first word that makes the phrase a kind of place rather than its name ("a council estate",
# "the city park", "student village", "social housing")
_NOT_DISTRICT_START: Final = frozenset(
    _words(
        "a an the my our their his her this that some student students retirement gated big"
        " small little quiet nice busy old new central north south east west rural city town"
        " trailer caravan holiday business industrial science office tech national public"
    )
)
_AFTER_PLACE: Final = frozenset(
    _words(
        "with and but so now btw since for near too lol tbh which where though anyway haha"
        " actually these days right in last this about from at on years yrs already recently ago"
        " permanently full is are was were has have had been isnt arent"
        # "i live in kasarani close to the school", "next to the mall", "just off thika road"
        " close next just off opposite behind"
        # "from my place in reading to the office in london"
        " to"
    )
)


_ESTATE_PART = re.compile(r"\s+(phase|sector|block|zone)\s+(\d{1,3})\b", re.IGNORECASE)
_CAPITAL_NEXT = re.compile(r"\s+[A-ZÀ-ÖØ-Þ]")


# ", the village just outside cambridge", ", a small town near ...": what the name before is
_SAID_A_PLACE = re.compile(
    r"\s*,\s*(?:a|the|its|it['’]?s\s+a)\s+(?:[\w\-]+\s+){0,2}?(?:village|town|suburb|city"
    r"|neighbou?rhood|district|borough|hamlet|island)\b",
    re.IGNORECASE,
)


def _place(m: re.Match[str], c: str, wordlike: bool = False) -> str | None:
    """The place a home pattern captured: as typed when capitalised, else from the gazetteer.

    With ``wordlike`` (after "I live in", "based in"), a name that is also an English word
    ("bath", "cork", "dearborn") is a place too, when it ends the phrase: "i live in bath with
    my wife", never "i live in university accommodation".
    """
    place = m.group("place") or m.groupdict().get("place2") or ""
    if place[:1].islower():
        words = place.split()
        # "i live next to the taqueria in colonia Obispado": one lower-case word before a
        # capitalised name is the start of that name, not a place of its own
        group = "place" if m.group("place") else "place2"
        if len(words) == 1 and _CAPITAL_NEXT.match(c, m.end(group)):
            return None
        for n in range(len(words), 0, -1):
            if (found := canonical_place(" ".join(words[:n]))) is not None:
                if n < len(words) and (state := _state_after(words, n)):
                    return f"{found}, {state}"
                # "i stay in lekki phase 1", "we live in noida sector 62": the estate's part
                if part := _ESTATE_PART.match(c, m.start(group) + len(" ".join(words[:n]))):
                    return f"{found} {part.group(1).title()} {part.group(2)}"
                # "i live in galway city": the place as the user named it
                if (
                    n < len(words)
                    and words[n].casefold() in ("city", "town")
                    and (n + 1 == len(words) or words[n + 1].casefold() in _AFTER_PLACE)
                ):
                    return f"{found} {words[n].title()}"
                return found
        if wordlike and (len(words) == 1 or words[1].casefold() in _AFTER_PLACE):
            if (found := canonical_place(words[0], wordlike=True)) is not None:
                return found
            # "i live in rathmines": a suburb no gazetteer lists, and no English word either;
            # "i live in histon, the village just outside cambridge": a word the user says is one
            word = words[0]
            if (
                len(word) >= 4
                and word.isalpha()
                and (
                    not is_common_word(word)
                    or (len(words) == 1 and _SAID_A_PLACE.match(c, m.end(group)) is not None)
                )
                and word.casefold() not in _AREAS
                and word.casefold() not in _TECHS  # "we moved to postgres 15"
            ):
                return word.title()
        # "we live in hall green so close by": two words that end the way districts' names do
        if (
            wordlike
            and len(words) >= 2
            and words[1].casefold() in _DISTRICT_ENDS
            and (len(words) == 2 or words[2].casefold() in _AFTER_PLACE)
            and words[0].isalpha()
            and words[0].casefold() not in _NOT_DISTRICT_START
        ):
            return f"{words[0].title()} {words[1].title()}"
        return None
    # "I moved to Nation Media Group in August": an organisation, not a place
    if _INSTITUTION_WORD.search(place):
        return None
    words = place.split()
    for n in (1, 2):
        if len(words) > n and (state := _state_after(words, n)):
            return f"{' '.join(words[:n])}, {state}"
    return place if _entity_ok(place, c[m.end() :]) else None


def _state_after(words: list[str], n: int) -> str | None:
    """ "columbus ohio", "Portland Maine": the words after a town that name a US state or a
    Canadian province, and nothing else, as typed."""
    rest = " ".join(words[n:])
    # ... or its postal code where that is no English word ("vancouver wa", never "portland or")
    if (
        not words[n - 1].endswith(",")
        and (code := words[n].casefold()) in _STATE_CODES
        and code not in _WORD_STATE_CODES
        and (len(words) == n + 1 or words[n + 1].casefold() in _AFTER_PLACE)
    ):
        return words[n]
    return rest if rest.casefold() in _STATE_NAMES else None


_INSTITUTION_WORD = re.compile(rf"\b(?:{_INSTITUTION}|Media|Corp|Company|Bank|Airways|Airlines)\b")
# ... typed in any case ("the national ambulance service")
_INSTITUTION_WORD_ANY = re.compile(rf"\b(?:{_INSTITUTION})s?\b", re.IGNORECASE)


# "i live in partick, glasgow": a region qualifier the user gave is part of the place
_REGION_AFTER = re.compile(
    r"\s*,\s*(?P<region>[^\W\d_][\w'’.\-]*(?:\s+(?!(?:and|but|so|with|near|btw|since|now|lol|tho"
    r"|though|atm|rn|too|currently|for)\b)[^\W\d_][\w'’.\-]*)?)"
    r"(?=\s*(?:$|[,.;!?)])|\s+(?:and|but|so|with|near|btw|since|now|lol|tho|though|atm|rn"
    r"|these\s+days|currently|too|for)\b)"
)


_STATE_CODES: Final = frozenset(
    _words(
        "al ak az ar ca co ct de fl ga hi id il ia ks ky la md ma mi mn ms mo mt ne nv nh nj nm"
        " ny nc nd oh ok or pa ri sc sd tn tx ut vt va wa wv wi wy dc on qc bc ab mb sk ns nb nl"
        " nsw vic qld wa sa tas act"
    )
)
_LISTED_PLACE = re.compile(r"\s+(?:and|or|&)\s+([^\W\d_][\w'’.\-]*)")
# "im in columbus ohio": a US state or Canadian province named right after a town, no comma
_STATE_NAMES: Final = frozenset(
    w.replace("_", " ")
    for w in _words(
        "alabama alaska arizona arkansas california colorado connecticut delaware florida"
        " georgia hawaii idaho illinois indiana iowa kansas kentucky louisiana maine maryland"
        " massachusetts michigan minnesota mississippi missouri montana nebraska nevada ohio"
        " oklahoma oregon pennsylvania tennessee texas utah vermont virginia wisconsin wyoming"
        " new_hampshire new_jersey new_mexico new_york north_carolina north_dakota rhode_island"
        " south_carolina south_dakota west_virginia"
        " ontario quebec manitoba saskatchewan alberta british_columbia nova_scotia new_brunswick"
    )
)


# "cordoba (argentina)": a region in brackets after a place (see _region_in_brackets)
_BRACKETED_REGION = r"\s*\(\s*(?P<region>[^\W\d_][\w'’.\-]*(?:\s+[^\W\d_][\w'’.\-]*)?)\s*\)"
# the postal codes that are English words too: "portland or", "im in leeds in"
_WORD_STATE_CODES: Final = frozenset(
    _words("al ar co de hi id in la ma me mo ne oh ok on or pa sa sc act")
)


def _with_region(place: str, c: str, end: int) -> tuple[str, int]:
    if (r := _REGION_AFTER.match(c, end)) is None or "," in place:
        return place, end
    region = r.group("region")
    # "i live in leeds, york and hull are close" lists places; it qualifies none
    listed = _LISTED_PLACE.match(c, r.end("region"))
    if listed and canonical_place(listed.group(1), wordlike=True) is not None:
        return place, end
    # "i live in pasadena, tx": a state's postal abbreviation qualifies the place as typed
    if region.casefold() in _STATE_CODES:
        return f"{place}, {region}", r.end("region")
    found = canonical_place(region)
    if found is None or found.casefold() == place.casefold():
        return place, end
    return f"{place}, {region if region[:1].isupper() else found}", r.end("region")


_THIRD_PERSON_START = _rx(rf"^\W*(?:she|he|they)(?:{_A}?s|{_A}?re|\s+is|\s+are)?\b")
_MOVED_TO = _rx(r"^\W*(?:\w+\W+){0,3}?(?:moved|relocated)\s+(?:back\s+|up\s+|down\s+|over\s+)?to\b")
_WORK_WORDS = _rx(
    r"\b(?:job|role|position|company|employer|firm|colleagues?|promot\w*|hired|joined|offer"
    r"|contract|same\s+(?:job|role|team|work)|still\s+(?:an?\s+)?[a-z]+(?:\s+obvs)?(?:\s*[,.;!]|\s*$)"
    r"|(?:audit|tax|sales|hr)\s+side|work(?:ed|ing)?\s+(?:at|for))"
)
_SHIFTS_THERE = _rx(
    r"\b(?:now|there)\s+(?:doing|on|working)\s+(?:nights|days|lates|earlies|(?:night|day|late|early)"
    r"\s+shifts?)\b"
)
_MY_WORKPLACE = _rx(
    r"\bmy\s+(?:company|employer|job|workplace|boss|manager|colleagues?|coworkers?|co-workers?)\b"
    # "im at suunto and the team here reads finnish and english"
    r"|\bthe\s+(?:team|office)\s+here\b"
    # "i got promoted on monday, still at osteria fumo"
    rf"|\b(?:i|i{_A}ve|i\s+have)\s+(?:just\s+)?(?:got|been)\s+promoted\b"
)
# "living in oslo was so expensive": a gerund that is the sentence's subject states no home
_GERUND_SUBJECT = _rx(r"^\W*(?:living|staying|residing)\s")
_PREDICATE_AFTER = _rx(
    r"\s*,?\s+(?:was|were|is|sounds|seems|must|would|can|could|has|had|gets|got|costs?|cost)\b"
)


_CARRIED_ON = _rx(r"\s*(?:and|but|then|so)\b")
_MOVED_FROM = re.compile(r"\bfrom\s+(?P<org>[\w&'’.\-]+(?:\s+[\w&'’.\-]+)?)\s+to\s", re.I)


_CONJUNCT_LIVE = _rx(r"(?:but|and)\s")


def _rule_home(c: str, mask: int) -> Iterator[_Hit]:
    # "shes a UX lead at canva, based in sydney": a place said without its subject is the
    # clause's subject's, here someone else's
    # ("my mum is from kenya, been living in nairobi 30 yrs": hers)
    someone_else = (
        _THIRD_PERSON_START.match(c) is not None or _OTHER_SUBJECT_START.match(c) is not None
    )
    for pattern in _HOME:
        for m in pattern.finditer(c, mask):
            # ... and so is a verb that carries it on: "he left us for shopify and moved to
            # toronto"
            if someone_else and (
                c[m.start() : m.start() + 1] == "," or _CARRIED_ON.match(c, m.start())
            ):
                continue
            if _CONJUNCT_LIVE.match(c, m.start()) and _another_subject(c, m.start()):
                continue  # "my sister is from leeds but live in york" (non-native)
            # "i moved from Amazon to DHL in spring": a move from an employer is a new job
            if (
                (left := _MOVED_FROM.search(m.group())) is not None
                and known_employer(left.group("org")) is not None
                and canonical_place(left.group("org")) is None
            ):
                if (org := _org(m.group("place").split()[0], c[m.end("place") :])) is not None:
                    yield _Hit("employer", {"org": org}, m.span())
                continue
            if (place := _place(m, c, wordlike=True)) is not None:
                if pattern is _HOME_NOW and not (canonical_place(place) or is_town(place)):
                    continue  # "Dad is home now"
                if pattern is _PIDGIN_WORK_FOR and not canonical_place(place):
                    continue  # "i be fan for Arsenal"
                # "we moved to pnpm last week": a tool is never a home
                if place.casefold() in _TOOL_WORDS:
                    continue
                # "(i'm) in munich office since 2 years": a workplace's site, not a home
                if (
                    m.group("place")
                    and c[m.start("place") :].casefold().startswith(place.casefold())
                    and _SITE_AFTER.match(c, m.start("place") + len(place))
                ):
                    continue
                # "I moved to Cognizant in August": a large employer no gazetteer knows as a
                # place is a new workplace, never a home
                if (org := known_employer(place)) is not None and not (
                    canonical_place(place) or is_town(place)
                ):
                    if _MOVED_TO.match(m.group()) is not None:
                        yield _Hit("employer", {"org": org}, m.span())
                    continue
                # "i moved to Grant Thornton in march. still an accountant": a name no gazetteer
                # knows, moved to among words of work, is a workplace
                unknown_move = (
                    _MOVED_TO.match(m.group()) is not None
                    and canonical_place(place) is None
                    and not is_town(place)
                )
                if _GERUND_SUBJECT.match(c, m.start()) and _PREDICATE_AFTER.match(
                    c, m.start("place") + len(place)
                ):
                    continue
                # "i live in cau giay district": the word is part of the district's name
                if (
                    m.group("place")
                    and c[m.start("place") :].casefold().startswith(place.casefold())
                    and (district := _DISTRICT_WORD.match(c, m.start("place") + len(place)))
                ):
                    place = f"{place}{district.group()}"
                if m.group("place") and place.casefold() == m.group("place").casefold():
                    place, _ = _with_region(place, c, m.end("place"))
                span = m.span()
                # "i live in leeds sorry york": the statement ends with the place it names, so
                # a correction right after it is seen as one
                if (
                    m.group("place")
                    and len(place) < len(m.group("place"))
                    and c[m.start("place") :].casefold().startswith(place.casefold())
                ):
                    span = (m.start(), m.start("place") + len(place))
                hit = _Hit("home_location", {"place": place}, span)
                hit.unknown_move = unknown_move
                yield hit


# the words of a title before its head: "PADI open water scuba", "senior", "pediatric"; no
# word that judges ("the worst teacher"), times or takes back ("ex", "future")
_ROLE_SPELLED = _rx(
    r"(?!.*\b(?:the|a|an|my|your|his|her|their|our|not|no|ex|former|future|retired|aspiring"
    r"|trainee|student|wannabe|best|worst|bad|good|terrible|great|lol|haha|lmao|now|still|yes"
    r"|yeah|ok|okay|so|and|or|but|sorry|wait|pls|please|u|you|i|im|me)\b)"
    r"[A-Za-z][\w\-&/]*(?:\s+[A-Za-z][\w\-&/]*){0,4}"
)
_DISTRICT_WORD = _rx(r"\s+district\b")


def _rule_corrected_home(c: str, mask: int) -> Iterator[_Hit]:
    for m in _CORRECTED_HOME.finditer(c, mask):
        if (place := _place(m, c)) is not None:
            yield _Hit("home_location", {"place": place}, m.span())


_WE_ARE_IN = _rx(rf"\W*(?:so\s+|and\s+|but\s+)?(?:we{_A}re|we\s+are|were)\s")
_IM_IN = _grx(
    # "were in bolton if that matters": a clause that opens with "were" is "we're" typed fast
    rf"(?:{_I_AM}|\bwe{_A}re|\bwe\s+are|^\W*(?:(?:yeah|yes|yep|yup|ya|ok|okay|so|nope|no)\W+)?still"
    rf"|^\W*(?:so\s+|and\s+|but\s+)?were)\s+"
    rf"(?:currently\s+|now\s+|actually\s+|based\s+|still\s+)?"
    # "were up in dublin since february", "im out in perth now"
    rf"(?:(?:up|down|out|over)\s+)?"
    # "im in flat 3 in leith edinburgh and the boiler is broken"
    rf"(?:in\s+(?:flat|apt|apartment|unit)\s*(?:no\.?\s*)?\d+[a-z]?\s*,?\s+)?"
    rf"in\s+(?P<place>{_ANY_PLACE})"
    rf"(?!\s+(?:for|on|visiting|until|till|over|during|at|with)\b)"
    rf"(?=\s*(?:$|[,.;!?)]|\s+(?:now|so|and|but|btw|lol|too|which|where|obvs|though|tho|yeah"
    rf"|since|,)\b))",
    "am m im still re are were",
)


# "we at ocado normally say ...", "ppl here at deezer", "our hr at zalando", "been at the nhs
# 6 yrs": the workplace the user speaks from, taken only when the lexicon knows it as one
_WE_AT = _grx(
    r"\b(?:we|(?:ppl|people|everyone|everybody|folks|colleagues)\s+here"
    r"|our\s+(?:hr|team|office|manager|boss|it|payroll|ceo|management|department|dept))\s+at\s+"
    # ("we at john lewis partnership": a name of three words)
    r"(?:the\s+)?(?P<org>[\w&'’.\-]+(?:\s+[\w&'’.\-]+){0,2})"
    rf"|(?:^\W*|\b(?:i{_A}?ve|i\s+have|ive)\s+)(?:also\s+|now\s+)?been\s+at\s+(?:the\s+)?"
    r"(?P<org2>[\w&'’.\-]+(?:\s+[\w&'’.\-]+)?)\s+(?:for\s+)?(?:\d{1,2}|two|three|four|five|six"
    r"|seven|eight|nine|ten|a\s+few|many)\s+(?:yrs|years)\b",
    "at",
)


def _rule_we_at(c: str, mask: int) -> Iterator[_Hit]:
    for m in _WE_AT.finditer(c, mask):
        words = (m.group("org") or m.group("org2")).split()
        for n in (3, 2, 1):
            if len(words) >= n and (org := known_employer(" ".join(words[:n]))) is not None:
                yield _Hit("employer", {"org": org}, m.span())
                break


def _rule_im_in(c: str, mask: int) -> Iterator[_Hit]:
    """ "I'm in Lyon so the dates should be Europe/Paris": a gazetteer city, said with no time,
    trip or purpose, is where the user is based. Visits carry one ("this week", "for a
    conference", "visiting"), which the transient check or the pattern refuses."""
    for m in _IM_IN.finditer(c, mask):
        place = m.group("place")
        words = place.split()
        for n in range(min(len(words), 3), 0, -1):
            # "im in Bath", "im in cork city": a place that is also an English word, when its
            # capital or the word "city" says it is the place
            said = words[:n]
            wordlike = said[0][:1].isupper() or words[n : n + 1] == ["city"]
            if (found := canonical_place(" ".join(said), wordlike=wordlike)) is not None:
                # "in munich office since 2 years": a workplace's site, not a home
                if _SITE_AFTER.match(c, m.start("place") + len(" ".join(said))):
                    break
                if n == len(words):  # "im in astoria, queens now": the region the user gave
                    found, _ = _with_region(found, c, m.end("place"))
                elif state := _state_after(words, n):
                    found = f"{found}, {state}"
                yield _Hit("home_location", {"place": found}, m.span())
                break
        else:
            # "were in fitzroy, melbourne", "im in hackney, london": a district no gazetteer
            # lists, said with the city it is in
            word = words[0]
            if (
                len(words) == 1
                and word.isalpha()
                and len(word) >= 4
                # ("hackney" is a word too, and a town: the city after it settles it)
                and (not is_common_word(word.casefold()) or is_town(word))
                and word.casefold() not in _AREAS
                and word.casefold() not in _TECHS
            ):
                placed, _ = _with_region(word, c, m.end("place"))
                # ... or a town the gazetteer lists that is no English word, where the household
                # is ("any thai places that deliver? we're in clapham"; "im in rathmines" or
                # "still in headingley" may be where the user is, or a part of a city held)
                if "," in placed or (
                    _WE_ARE_IN.match(m.group()) is not None
                    and is_town(word)
                    and not is_common_word(word.casefold())
                ):
                    yield _Hit("home_location", {"place": placed}, m.span())


def _rule_home_possessive(c: str, mask: int) -> Iterator[_Hit]:
    for pattern in (_HOME_POSSESSIVE, _WHERE_I_LIVE, _SINCE_I_LIVE, _MY_CITY):
        for m in pattern.finditer(c, mask):
            # "my flat in cork": the phrase leaves only a place, English word or not; "my flat
            # in morningside, edinburgh" keeps the city the user gave
            if (place := _place(m, c, wordlike=True)) is not None:
                span = m.span()
                if m.group("place") and place.casefold() == m.group("place").casefold():
                    place, end = _with_region(place, c, m.end("place"))
                    span = (m.start(), max(end, m.end()))
                yield _Hit(
                    "home_location",
                    {"place": place},
                    span,
                    phrase=True,
                    near="near" in m.re.groupindex and m.group("near") is not None,
                )


_ROLE = rf"(?:[\w\-+#.]+\s+){{0,3}}?(?:(?:sub|co|vice|under|head)-)?{_ROLE_HEAD}"
# "i left ovo and joined skyscanner": the subject of the leaving joins too
_LEFT_AND = (
    r"\bi\s+(?:left|quit)\s+(?:[\w&.\-]+\s+){1,4}?and\s+(?:then\s+|now\s+)?"
    # "just moved from bristol to cardiff and started at Cardiff Council": the user's move, then
    # the new job
    r"|(?:\bi\s+|^\W*)(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\b[^.;!?,]{1,60}?\s+and\s+"
    r"(?:then\s+|now\s+|also\s+)?"
)
_ROLE_END = (
    r"(?=\s*$|\s*[,;:!]|\s+(?:at|for|with|in|of|by|and|who|working|now|since|here|there"
    r"|full[- ]time|part[- ]time|specializing|from|on|these\s+days|currently|myself|too"
    r"|as\s+well|by\s+trade|by\s+profession|so|but|btw|lol|tbh|fyi|though|anyway|because"
    r"|since|which|living|based|located|residing|out\s+of|over\s+in|near|doing|mostly|mainly"
    r"|on\s+nights|on\s+days|while|there|again|i|im|my|our|not\s+(?:a|an|just|only)|irl"
    # "im a plumber been self employed about six years now", "the only backend developer left
    # who understands billing"
    r"|been|left\s+(?:who|that|in|on|at)"
    # "im a backend dev normally (java all day)"
    r"|normally|usually|by\s+day|during\s+the\s+day"
    # "I am pharmacist not doctor haha", "im a software tester not gordon ramsay ok": a
    # contrast naming one other title or person
    r"|not\s+(?!(?:really|sure|exactly|quite|yet|now|anymore|much|very|that|so|too)\b)[a-z]+"
    r"(?:(?:\s+[a-z]+){1,2}(?=\s+(?:ok|okay|lol|haha|tho|though)\b))?"
    r"(?=\s*(?:$|[,.;!?]|\s+(?:haha|hehe|lol|lmao|anymore|btw|ok|okay|tho|though)\b))"
    # "joined MTN as network engineer last week": when it began (the time check reads it)
    r"|last|this|yesterday|today|recently|earlier|next)\b"
    # "i work at Boots as a pharmacist 3 days a week"
    r"|\s+\d+\s+(?:days?|hrs?|hours?|shifts?|nights?)\b"
    # "im a carpenter 25 years never had to do this": how long, "for" left out
    r"|\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten|many)\+?\s*(?:years?|yrs?)\b"
    # an emoji after the title: "started at Monzo on monday as a data analyst 🎉"
    "|\\s*[\U0001f300-\U0001faff\u2600-\u27bf])"
)
# When and where a job is worked, said between "work" and its employer: "i work late thursdays
# at ocado", "im working in Singapore at Grab" (a place is taken only before "at" or "for")
_WORK_WHEN = (
    r"(?:full[- ]time|part[- ]time|remotely|remote|from\s+home|late|early|nights|days|evenings"
    r"|mornings|weekends|weekdays|(?:mon|tues|wednes|thurs|fri|satur|sun)days|shifts|mostly"
    r"|usually"
    # "i work night shifts at hospital santa maria", "i work the early shift at Lidl"
    r"|(?:the\s+)?(?:night|day|early|late|morning|evening|weekend|double|split)\s+shifts?)"
)
_WORK_WHERE = r"in\s+[\w'’\-]+(?:\s+[\w'’\-]+)?(?=\s+(?:at|for)\s)"
# "..., sorry, physiotherapist": a word put right as a title
_TITLE_SAID_AGAIN = _rx(
    rf"\s*,\s*(?:sorry|i\s+mean|in\s+english|meaning|that\s+is)\s*,?\s*(?:an?\s+)?{_ROLE}{_ROLE_END}"
)
# Jobs said by what the user does for work: "i do nails", "i cut hair", "i drive trucks for a
# living", "i farm maize", "i keep bees", the title a reader gives them ("i teach maths" is left
# out: a teacher who says what they teach is a teacher)
_ACTIVITY_TITLES: Final = {
    "do nails": "nail technician",
    "cut hair": "hairdresser",
    "keep bees": "beekeeper",
    "drive trucks": "truck driver",
    "drive a truck": "truck driver",
    "drive lorries": "lorry driver",
    "drive a lorry": "lorry driver",
    "drive a taxi": "taxi driver",
    "drive a cab": "cab driver",
    "drive uber": "uber driver",
    "drive for uber": "uber driver",
    "drive buses": "bus driver",
    "drive a bus": "bus driver",
    # ... and, said to be done for a living, "i translate for a living"
    "translate": "translator",
    "interpret": "interpreter",
    "write": "writer",
    "illustrate": "illustrator",
    "proofread": "proofreader",
    "edit": "editor",
    "tutor": "tutor",
    "code": "programmer",
    "program": "programmer",
    "write code": "programmer",
    "write software": "programmer",
    "paint": "painter",
    "photograph": "photographer",
    "clean": "cleaner",
    "bake": "baker",
    "sing": "singer",
    "dance": "dancer",
}
_ACTIVITY = _grx(
    r"\bi\s+(?:(?:also|mainly|mostly|still|now|currently|dey)\s+)?(?P<act>do\s+nails|cut\s+hair"
    r"|keep\s+bees|drive\s+(?:trucks|a\s+truck|lorries|a\s+lorry|a\s+taxi|a\s+cab|uber|for\s+uber"
    r"|buses|a\s+bus)|farm"
    r"|(?:translate|interpret|write|illustrate|proofread|edit|tutor|code|program|paint|photograph"
    r"|clean|bake|sing|dance|write\s+code|write\s+software)(?=\s+(?:for\s+a\s+living"
    r"|professionally)\b))"
    r"(?:\s+(?P<what>maize|wheat|cattle|sheep|goats|cows|dairy|rice|coffee|tea|cocoa|potatoes"
    r"|vegetables|crops))?\b",
    "do cut keep drive farm living professionally",
)


_OCCUPATION = [
    # "they hired me as senior accountant", "got promoted to team lead"
    _grx(
        rf"\b(?:they|we|he|she|the\s+(?:company|firm|bank|hospital|school))\s+(?:just\s+|finally\s+)?"
        rf"(?:hired|took)\s+me\s+(?:on\s+)?as\s+(?:an?\s+)?(?P<role>{_ROLE}){_ROLE_END}"
        rf"|(?:\bi\s+|\bi{_A}ve\s+|\bi\s+have\s+|^\W*)(?:just\s+|finally\s+)?(?:got|been|was)\s+promoted\s+"
        rf"to\s+(?:an?\s+)?(?P<role2>{_ROLE}){_ROLE_END}"
        # "I have moved to TCS now only, joined as test lead": the subject of the clause before
        # (whose it is, the clause loop checks)
        rf"|^\W*(?:(?:and|just|recently)\s+)?(?:joined|started|hired)\s+as\s+(?:an?\s+)?"
        rf"(?P<role3>{_ROLE}){_ROLE_END}",
        "hired took promoted joined started",
    ),
    # "i have new job already, data analyst at a small startup", "got a new job: junior dev":
    # the new job named after it
    _grx(
        rf"(?:\bi\s+(?:have|got)|\bi{_A}?ve\s+got|^\W*(?:(?:so|and|ok|yes|yeah|no)\W+)?got)\s+"
        rf"(?:a\s+)?new\s+job(?:\s+(?:already|now))?\s*(?:,|:|-|—)\s*(?:as\s+)?(?:an?\s+)?"
        rf"(?P<role>{_ROLE}){_ROLE_END}",
        "job",
    ),
    # non-native "i am doing job as merchandiser in a garments factory"
    _grx(
        rf"{_I_AM}\s+(?:currently\s+|now\s+)?doing\s+(?:a\s+|the\s+|my\s+)?job\s+(?:as|of)\s+"
        rf"(?:an?\s+)?(?P<role>{_ROLE}){_ROLE_END}",
        "job",
    ),
    # "sign it as head chef not sous": the title the user signs with
    _grx(
        rf"\bsign(?:\s+(?:it|this|that|off|the\s+(?:email|letter|note|message|reply)))?\s+as\s+"
        rf"(?:the\s+)?(?P<role>{_ROLE}){_ROLE_END}",
        "sign",
    ),
    # "im not a nurse lol, paramedic": the title the user is taken for denied, then theirs
    _grx(
        rf"{_I_AM}\s+not\s+(?:a|an)\s+[\w\-]+(?:\s+[\w\-]+)?(?:\s+(?:lol|haha|lmao|tho|though))?"
        rf"\s*[,;]\s*(?:(?:just|actually|but)\s+)?(?:an?\s+)?(?P<role>{_ROLE}){_ROLE_END}",
        "not",
    ),
    # "I am Physiotherapeut, sorry, physiotherapist", "I work for Cemex as analista de datos,
    # sorry, data analyst": the title said again in English
    _grx(
        rf"(?:{_I_AM}\s+(?:working\s+as\s+|employed\s+as\s+)?|\bwork(?:ing)?\s+as\s+"
        rf"|\bas\s+)(?:an?\s+)?[^\s,.;!?]+(?:\s+[^\s,.;!?]+){{0,2}}?\s*,\s*(?:sorry|i\s+mean"
        rf"|in\s+english|meaning|that\s+is)\s*,?\s*(?:an?\s+)?(?P<role>{_ROLE}){_ROLE_END}",
        "sorry mean english meaning that",
    ),
    # "im 34, been a cashier at lidl for like 6 years": the job held since, "i have" left out
    _grx(
        rf"(?:^\W*|,\s*|\bi(?:{_A}?ve|\s+have)\s+)been\s+(?:a|an)\s+(?P<role>{_ROLE})\s+"
        rf"(?:at|for|with)\s+(?P<org>{_ORG})(?=\s+(?:for|since)\b)",
        "been",
    ),
    # "the pharmacy will have 2 pharmacists on ... im one of the pharmacists there"
    _grx(
        rf"{_I_AM}\s+(?:also\s+)?one\s+of\s+(?:the|our|their|two|three|\d+)\s+(?P<role>{_ROLE_HEAD})s"
        rf"(?=\s+(?:there|here|at|in|on)\b|\s*[,.;!]|\s*$)",
        "one",
    ),
    # "got patients all afternoon. dental hygienist life 🦷": a sentence that is the job's life
    _grx(
        rf"^\W*(?:(?:just|ah|oh|ugh)\s+)?(?P<role>{_ROLE})\s+life\b(?=[\W_]*$|\s+(?:lol|haha|tbh"
        rf"|honestly|am\s+i\s+right)\b)",
        "life",
    ),
    # a bio that opens the message: "freelance illustrator living in rotterdam, still learning
    # dutch", "nurse based in leeds, 2 kids"
    _grx(
        rf"^\W*(?:(?:a|an)\s+)?(?P<role>{_ROLE})(?=\s+(?:living|based)\s+in\s)",
        "living based",
    ),
    _grx(
        # "im still a data engineer": the title kept
        rf"{_I_AM}\s+(?:currently\s+|now\s+|also\s+|actually\s+|just\s+|officially\s+|still\s+"
        # ("im staying as ux designer at klarna": the job kept)
        rf"|finally\s+|literally\s+|technically\s+)?(?:working\s+as\s+|staying\s+as\s+)?"
        rf"(?:a\s+|an\s+|the\s+(?:only|sole|lead|main|senior|head)\s+|(?<=just\s)|(?<=now\s)"
        # "I am the qa engineer in the team": the one of the team
        rf"|the\s+(?=(?:[\w\-]+\s+){{0,2}}?{_ROLE_HEAD}\s+(?:in|on|of|for)\s+(?:the|our|my|this)\s+"
        rf"(?:team|company|office|department|squad|group|project)\b))"
        rf"(?P<role>{_ROLE}){_ROLE_END}",
        _ROLE_WORDS,
    ),
    _grx(
        rf"{_I_AM}\s+\d{{1,2}}\s*(?:,\s*|\s+)(?:and\s+)?(?:a|an)\s+(?P<role>{_ROLE}){_ROLE_END}",
        _ROLE_WORDS,
    ),
    # without an article (non-native or hurried): "Me I am accountant", "im nurse in leeds"
    _grx(
        rf"{_I_AM}\s+(?P<role>(?:senior|junior|software|staff|registered|qualified|certified"
        rf"|head|chief|civil|mechanical|data|web|primary|secondary|school|music|research|sales"
        rf"|marketing|project|product|account|lab|teaching|nursing|medical|dental|legal"
        rf"|financial|business|network|security|support|customer|graphic|ux|ui|frontend"
        rf"|backend|full[- ]?stack|mobile|game|cloud|ml|ai|electrical|chemical|structural"
        rf"|english|math|maths|science|history|art|office|admin|executive|personal|store|shop"
        rf"|sous|pastry|line|delivery|truck|bus|taxi|uber|care|social|youth|dental|veterinary"
        rf"|petroleum|environmental|industrial|biomedical|aerospace|warehouse|it|hr|finance"
        rf"|accounts|operations|logistics|quality|team|shift|senior\s+software"
        # "I am PhD student", "im masters student at UCL"
        rf"|phd|msc|mba|masters|master{_A}?s|doctoral|postgrad|undergrad|grad|final[- ]year)"
        rf"\s+(?:(?:school|software|data|research|sales|support|project|product)\s+)?{_ROLE_HEAD}"
        # any one or two lower-case modifiers: "hardware engineer", "junior java developer"
        # (after the kind of school: "I am high school math teacher")
        rf"|(?:(?:high|middle|primary|secondary|elementary|grade)\s+school\s+)?"
        rf"(?-i:[a-z][a-z\-]{{1,15}})(?:\s+(?-i:[a-z][a-z\-]{{1,15}}))?\s+{_ROLE_HEAD}"
        # "I am QA tester at Nokia now", "I am freelance UX designer since 3 years"
        rf"|(?:(?-i:[a-z][a-z\-]{{1,15}})\s+)?(?-i:[A-Z]{{2,4}})\s+(?:(?-i:[a-z][a-z\-]{{1,15}})\s+)?"
        rf"{_ROLE_HEAD}"
        rf"|(?!(?:{_BARE_ROLE_BLOCK})\b){_ROLE_HEAD})"
        rf"(?=(?<=founder)\s+of\s|\s*$|\s*[,.;!]|\s+(?:in|at|for|and|since|now|by|working"
        rf"|with|here|from|based|living|i|im|already|my|our|so|but"
        # "im QA analyst there", "im checkout supervisor on days": the workplace said before,
        # the shift worked
        rf"|there|on\s+(?:days|nights|earlies|lates|weekends)"
        # "i am chemistry teacher too so i know", "im electrician myself so i can install"
        rf"|too|as\s+well|also|myself"
        # "I am pharmacist not doctor haha"
        rf"|not\s+[a-z]+(?=\s*(?:$|[,.;!?]|\s+(?:haha|hehe|lol|lmao|anymore|btw)\b)))\b)",
        _ROLE_WORDS,
    ),
    # "i am cook in a restaurant called La Chata": a title that alone says something else ("im
    # cook tonight", "im driver for this trip") is a job said with its workplace
    _grx(
        rf"{_I_AM}\s+(?P<role>{_BARE_ROLE_BLOCK})\s+(?:in|at|for)\s+(?:a|an)\s+(?:[\w\-]+\s+){{0,2}}?"
        rf"(?:{_COMPANY_KINDS}|hotel|kitchen|factory|warehouse)\b",
        "restaurant hotel kitchen factory warehouse company agency startup firm studio business"
        " bakery cafe café clinic hospital school charity nonprofit bank shop store",
    ),
    # "i am the accountant at Kpakpo & Associates", "no im not a developer, im the product
    # manager" (never "im the driver for this trip": a title said with "the" ends there)
    _grx(
        rf"{_I_AM}\s+the\s+(?P<role>{_ROLE})(?=\s+(?:at|for)\s+(?-i:[A-Z])"
        # "im the backend developer on payments at Swiggy", "im the product designer on the
        # same team": the team, then the workplace or nothing
        rf"|\s+on\s+(?:[\w\-]+\s+){{1,2}}?(?:at|for)\s+(?-i:[A-Z])"
        rf"|\s+on\s+(?:the|our|my|this)\s+(?:same\s+|new\s+|\w+\s+)?(?:team|squad|project)\b"
        # "i work at padaria sousa ... im the bookkeeper there"
        rf"|\s*(?:$|[.!,;])|\s+(?:here|there|now|btw|lol|haha|tho|though)\b)",
        _ROLE_WORDS,
    ),
    # "wait no sorry, i got promoted in april i keep forgetting lol, senior accountant now": the
    # title the promotion gave, said after it
    _grx(
        # (the user's own: never "my sister got promoted, senior accountant now")
        rf"(?:\bi\s+(?:got|was|have\s+been)|\bi{_A}?ve\s+been|^\W*(?:(?:wait|no|sorry|oh|ok|so"
        rf"|update|btw|also)\W+)*got)\s+promoted\b[^.!?\n]{{0,60}}?"
        rf"[,;:]\s*(?:(?:so|and|now)\s+)?(?:i{_A}?m\s+|im\s+|i\s+am\s+)?(?:a\s+|an\s+)?"
        rf"(?P<role>{_ROLE})\s+now\b",
        "promoted",
    ),
    # "first week as a product manager 😅", "its my first day as a nurse tmrw": the job just
    # begun (never "my first week as an intern was hell": a past one)
    _grx(
        rf"(?:^\W*|[,.;!?]\s*)(?:(?:it{_A}?s|its|my|this\s+is\s+my)\s+)?first\s+(?:day|week|month)"
        rf"\s+as\s+(?:a|an)\s+(?P<role>{_ROLE})(?=\s*$|\s*[,.;!?]|\s+(?:and|so|lol|btw|tmrw"
        rf"|tomorrow|today|here|at)\b|\s+[\U0001F300-\U0001FAFF\u2600-\u27BF])",
        "first",
    ),
    # "i started the head barista job this week", "just started my new paralegal role"
    _grx(
        rf"\bi(?:{_A}ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+|officially\s+)?"
        rf"(?:started|began|begun)\s+(?:the|my|a)\s+(?:new\s+)?(?P<role>{_ROLE})\s+"
        rf"(?:job|role|position)\b",
        _ROLE_WORDS,
    ),
    # "I work as a nurse", "work nights as a nurse", non-native "I work like engineer"
    _grx(
        rf"(?:\bi\s+|^\W*|,\s*|\band\s+|{_I_AM}\s+)(?:currently\s+|presently\s+|now\s+|also\s+|still\s+|dey\s+)?"
        # "i do 12 hr shifts as a paramedic"
        rf"(?:(?:do|pull|cover)\s+(?:\d{{1,2}}\s*(?:hr|hour|h)\s+|long\s+|night\s+|day\s+)?shifts\s+"
        rf"|(?<=m\s)staying\s+|work(?:ing)?\s+(?:nights\s+"
        rf"|days\s+|(?:long\s+|\d{{1,2}}\s*(?:hr|hour|h)\s+|night\s+|early\s+|late\s+)?shifts\s+"
        rf"|weekends\s+|part[- ]time\s+|full[- ]time\s+|remotely\s+|remote\s+|freelance\s+"
        # "i work from home as a translator", "i work 9-5 as a graphic designer"
        rf"|from\s+home\s+|\d{{1,2}}\s*(?:-|to)\s*\d{{1,2}}\s+)?)"
        # non-native "I work since 2016 as tax advisor", "i work of nurse" (Spanish "de")
        rf"(?:since\s+\d{{4}}\s+)?(?:as|like|(?<=work\s)of)\s+(?:a\s+|an\s+)?(?P<role>{_ROLE})"
        rf"{_ROLE_END}",
        "work working shifts staying",
    ),
    # "i work in vodafone call center as customer service agent": the workplace, then the title
    _grx(
        # ("i work in construction like supervisor": one word is the field, read elsewhere;
        # "as development engineer, at the Renningen campus": a site after it is no employer)
        rf"\bi\s+(?:currently\s+|now\s+|still\s+)?work\s+(?:at|in|for)\s+"
        rf"(?:(?:the|a|an)\s+(?:[\w&\-]+\s+){{1,4}}?|(?:[\w&\-]+\s+){{2,4}}?)(?:as|like)\s+"
        rf"(?:a\s+|an\s+)?(?P<role>{_ROLE}){_ROLE_END}(?!\s*,?\s*(?:at|in|for|with)\s)",
        "work",
    ),
    # non-native "now I change to product manager in ByteDance": the new title
    _grx(
        rf"\bi\s+(?:just\s+|now\s+)?(?:change|changed|switch|switched)\s+to\s+(?:an?\s+)?"
        rf"(?P<role>{_ROLE})(?=\s+(?:in|at|for)\s+(?-i:[A-Z])|\s+(?:in|at|for)\s+(?:the\s+)?"
        rf"(?:same\s+)?(?:company|team|firm)\b"
        # "now i change to forklift operator since march, same company"
        rf"|(?:\s+since\s+[\w\s]{{1,20}}?)?\s*,\s*(?:in\s+the\s+|at\s+the\s+)?same\s+(?:company|firm"
        rf"|employer|place)\b)",
        "change changed switch switched",
    ),
    # non-native "I am working like software tester in company Vintra"
    _grx(
        rf"\b(?:i\s+|{_I_AM}\s+)(?:currently\s+|presently\s+|now\s+|dey\s+)?(?:work|working)\s+(?:as|like)\s+"
        rf"(?:a\s+|an\s+)?(?P<role>{_ROLE})\s+(?:in|at|for)\s+(?:the\s+)?company\s+"
        rf"(?P<org>{_ORG})",
        "company",
    ),
    # "Just started at Grant Thornton last week as an audit senior"
    _grx(
        rf"(?:^\W*|,\s*|\bi(?:{_A}ve|\s+have|\s+am|\s+have\s+now)?\s+|{_LEFT_AND})"
        rf"(?:(?:also|just|recently|finally|officially)\s+)*(?:started|joined"
        # (Nigerian English "i don resume for Access Bank now as relationship manager")
        rf"|don\s+resume\s+(?:for|at))\s+(?:at\s+)?"
        rf"(?P<org>{_ORG})(?:\s+(?:last|this)\s+\w+|\s+in\s+\w+|\s+(?:\w+\s+)?\w+\s+ago"
        rf"|\s+on\s+\w+|\s+from\s+(?:last\s+)?\w+(?:\s+only)?|\s+now)?"
        rf"\s+as\s+(?:a\s+|an\s+)?"
        rf"(?P<role>{_ROLE}){_ROLE_END}",
        "started joined resume",
    ),
    # "also started at Safaricom this week, finance analyst", "i started at bosch in september,
    # firmware engineer, in the feuerbach site": the title set after the new workplace
    _grx(
        rf"(?:^\W*|\bi(?:{_A}ve|\s+have)?\s+)(?:(?:also|just|recently|finally|officially)\s+)*"
        rf"(?:started|joined)\s+(?:at\s+)?(?P<org>{_ORG})(?:\s+(?:last|this)\s+\w+|\s+in\s+\w+"
        rf"|\s+(?:\w+\s+)?\w+\s+ago|\s+on\s+\w+)?\s*,\s*(?:as\s+)?(?:a\s+|an\s+)?"
        rf"(?P<role>{_ROLE})(?=\s*$|\s*[,.;!])",
        "started joined",
    ),
    # "just started as sous chef at Nopa last week"
    _grx(
        rf"(?:^\W*|,\s*|\bi(?:{_A}ve|\s+have)?\s+)(?:just\s+|recently\s+)?started\s+as\s+"
        rf"(?:a\s+|an\s+)?(?P<role>{_ROLE})\s+(?:at|with|in)\s+(?P<org>{_ORG})"
        rf"(?=\s*(?:$|[,.;!?])|\s+(?:last|this|on|in|two|a|\d+)\b)",
        "started",
    ),
    # "i started as a practice nurse at a GP clinic called Harbour Medical": the title alone
    _grx(
        rf"(?:^\W*|,\s*|\bi(?:{_A}ve|\s+have)?\s+)(?:just\s+|recently\s+)?started\s+as\s+"
        rf"(?:a\s+|an\s+)?(?P<role>{_ROLE}){_ROLE_END}",
        "started",
    ),
    # "now I am with Equity Bank as systems administrator", "now im joining Thoughtworks as
    # lead consultant"
    _grx(
        rf"{_I_AM}\s+(?:now\s+|currently\s+)?(?:with|joining)\s+"
        rf"(?P<org>{_ORG_TOKEN}(?:\s+{_ORG_TOKEN}){{0,3}})"
        rf"\s+as\s+(?:a\s+|an\s+)?(?P<role>{_ROLE}){_ROLE_END}",
        "with joining",
    ),
    # "I work for Ubisoft as a QA tester", "working in Siemens since 2019 like engineer", "i
    # live in Poznań and work at Allegro as backend developer"
    _grx(
        rf"\b(?:i\s+|{_I_AM}\s+|(?<=\band\s))(?:currently\s+|presently\s+|now\s+|dey\s+)?"
        # (Indian English "i am doing job in wipro as software tester")
        rf"(?:work|working|doing\s+(?:a\s+)?job)\s+"
        # "i work from home for Sky as a data analyst", "i work nights at the hospital as a
        # porter", "now I am working in Singapore at Grab as data engineer"
        rf"(?:{_WORK_WHEN}\s+){{0,3}}(?:{_WORK_WHERE}\s+)?"
        # non-native "I am working since 2 years at the Bundesagentur für Arbeit as IT specialist"
        rf"(?:since\s+(?:\d+|one|two|three|four|five|six)\s+(?:years?|months?)\s+)?"
        # non-native "I am working by Bosch as mechanical engineer"
        rf"(?:at|for|in|with|by)\s+(?:the\s+)?"
        # "I am working in Infosys since March as Senior Test Engineer"
        rf"(?P<org>{_ORG})\s+(?:(?:since|from)\s+(?:\d{{4}}|january|february|march|april|may|june"
        rf"|july|august|september|october|november|december|last\s+(?:year|month))\s+)?"
        # "i am working at Huawei in Shenzhen as hardware engineer"
        rf"(?:in\s+[\w'’\-]+(?:\s+[\w'’\-]+)?\s+)?(?:as|like)\s+(?:a\s+|an\s+)?"
        rf"(?P<role>{_ROLE}){_ROLE_END}",
        "work working job",
    ),
    # "im here in Riyadh working as nurse", "I am in Dubai working as caregiver 6 years"
    _grx(
        rf"{_I_AM}\s+(?:here\s+|now\s+|currently\s+)*in\s+[\w'’\-]+(?:\s+[\w'’\-]+)?\s+"
        rf"(?:now\s+)?working\s+as\s+(?:a\s+|an\s+)?(?P<role>{_ROLE})"
        rf"(?:{_ROLE_END}|(?=\s+\d+\s+(?:years?|months?)\b))",
        "working",
    ),
    # "im the cto of a tiny fintech startup"; Nigerian Pidgin "i be pharmacist" ("im the CEO
    # of google", "the CEO of procrastination" is the joke title, never taken)
    _grx(
        rf"{_I_AM}\s+(?:also\s+)?the\s+(?P<role>cto|cfo|coo|cio|founder|co-?founder|sre)"
        rf"(?=\s+(?:of|at|for|on|in|here|and)\b|\s*[,.;!]|\s*$)"
        rf"|\bi\s+be\s+(?:a\s+|an\s+)?(?P<role2>{_ROLE}){_ROLE_END}"
        # "im the android developer at a startup called Fieldly", "im now the assistant
        # principal": the one holding the title where they work (the owner, the boss and the
        # CEO are the jokes: "im the CEO of this household")
        rf"|{_I_AM}\s+(?:(?P<now>now)\s+)?the\s+(?!(?:ceo|owner|proud|king|queen|boss|master"
        rf"|president|chief\s+executive|head\s+of\s+(?:the\s+)?(?:house|household|family))\b)"
        rf"(?P<role3>{_ROLE})(?(now){_ROLE_END}|(?=\s+(?:at|for\s+(?:a|an))\s))",
        "the be",
    ),
    # "i became a nurse last year", "new job as a nurse", "started a new job as a barista"
    _grx(
        rf"\bi\s+(?:just\s+|finally\s+|recently\s+|have\s+)?(?:became|become)\s+(?:a\s+|an\s+)?"
        rf"(?P<role>{_ROLE}){_ROLE_END}"
        rf"|(?:^\W*|\bi\s+(?:just\s+)?(?:got|have|started|found|landed)\s+)(?:a\s+)?new\s+job\s+as\s+"
        rf"(?:a\s+|an\s+)?(?P<role2>{_ROLE}){_ROLE_END}",
        "became become job",
    ),
    # "i got promoted to senior dev", "just got promoted to charge nurse!!"
    _grx(
        rf"(?:\bi\s+|^\W*)(?:just\s+|finally\s+|recently\s+)?(?:got\s+|was\s+|have\s+been\s+"
        rf"|{_A}ve\s+been\s+|been\s+)?promoted\s+to\s+(?:a\s+|an\s+)?(?P<role>{_ROLE}){_ROLE_END}",
        "promoted",
    ),
    # "joined KPMG in january. senior auditor now": a title and "now" alone in its clause
    _grx(
        # ("... so its data analyst now, no junior": the title put right)
        rf"^\W*(?:(?:and|so|also|but)\s+)?(?:it{_A}?s\s+|it\s+is\s+)?(?P<role>{_ROLE})\s+now"
        rf"(?=\s*$|\s*[,.;!])",
        "now",
    ),
    # a dropped subject: "still in austin, still a nurse practitioner, still tired lol"
    _grx(
        rf"(?:^\W*|,\s*)(?:and\s+|but\s+|yep\s+|yes\s+|yeah\s+)?still\s+(?:a\s+|an\s+)?"
        rf"(?P<role>{_ROLE}){_ROLE_END}",
        "still",
    ),
    # a dropped subject: "applying for shift lead at lidl. currently sales assistant at ikea"
    _grx(
        rf"(?:^\W*|,\s*)(?:and\s+|but\s+)?(?:currently|presently)\s+(?:working\s+as\s+)?"
        rf"(?:a\s+|an\s+)?(?P<role>{_ROLE})(?:\s+(?:at|for|with)\s+(?P<org>{_ORG}))?"
        # ("currently junior frontend dev at a startup called tidepool": the employer read after)
        rf"(?=\s*(?:$|[,.;!?])|\s+(?:on|in|since|and|but|so|now|atm|rn)\b"
        rf"|\s+(?:at|for|with)\s+(?:a|an)\s+(?:[\w\-]+\s+)?(?:company|firm|startup|business"
        rf"|agency|shop)\s+(?:called|named)\s)",
        "currently presently",
    ),
    # Indian English "myself working as QA analyst in infosys only"
    _grx(
        rf"(?:^\W*|[,.;!]\s*)(?:(?:hi|hello|hey)\W+)?myself\s+(?:currently\s+|now\s+)?"
        rf"working\s+(?:as|like)\s+(?:a\s+|an\s+)?(?P<role>{_ROLE}){_ROLE_END}",
        "myself",
    ),
    # a fragment that opens a message: "vet tech here", "swe at google, live in brooklyn"
    _grx(
        rf"^\W*(?P<role>{_ROLE})\s+(?:here\b(?!\s+(?:is|are|was|uses?)\b)"
        # ("staff engineer @ atlassian, tsconfig has strict on")
        rf"|(?:at|for|@)\s+(?P<org>{_ORG})(?=\s*(?:$|[,.;!]|here\b)))",
        _ROLE_WORDS,
    ),
    # "i'm in lisbon, remote backend dev for N26": a remote job said after the user's own clause
    _grx(
        rf"^\W*(?:i{_A}?m|im|i\s+am|i\s+live|i\s+work)\b[^,.;!?]{{0,40}},\s*(?:fully\s+)?remote\s+"
        rf"(?P<role>{_ROLE})\s+(?:at|for|@)\s+(?P<org>{_ORG})(?=\s*(?:$|[,.;!]))",
        "remote",
    ),
    # "my title changed to analytics engineer", "my job title is now staff engineer"
    _grx(
        # ("the day job is graphic designer": the user's, said with "the")
        rf"(?:\b(?:my|the(?=\s+day\s+job\b))\s+(?:job\s+|official\s+|current\s+|day\s+|main\s+"
        rf"|actual\s+|real\s+)?"
        # "my job is a nurse", "my day job is software dev" (never "my dream job is ...")
        rf"(?:title|position|role|profession|job"
        # "my title at aldi is buying assistant": the workplace named on the way
        rf"|occupation|designation)\s+(?:at\s+(?P<org>{_ORG})\s+)?(?:now\s+)?(?:changed\s+to|is\s+now|is)"
        # "they changed my title to 'customer service team leader' in march"
        rf"|\b(?:they|hr|we)\s+(?:just\s+|officially\s+)?changed\s+my\s+(?:job\s+)?title\s+to)\s+"
        rf"['‘\"“]?(?:a\s+|an\s+)?(?P<role>{_ROLE})['’\"”]?{_ROLE_END}",
        "title position role profession occupation designation job",
    ),
    # "got the job!! title is analytics engineer": the title said without "my", opening its
    # sentence (never "the title is ...", a book's or a post's)
    _grx(
        rf"(?:^\W*|[.!?;]\s*|,\s*)(?:(?:and|so|new|official)\s+)?(?:job\s+)?title\s+is\s+"
        rf"(?:now\s+)?(?:a\s+|an\s+)?(?P<role>{_ROLE})(?:{_ROLE_END}|(?=\s+like\s+(?:the|in)\s))",
        "title",
    ),
    # "freelancing full time as illustrator now", "im freelancing as a translator"
    _grx(
        rf"(?:\b(?:i{_A}?m|im|i\s+am)\s+|^\W*|[.!?;]\s*|,\s*)(?:now\s+)?(?P<freelance>freelanc(?:ing|e))"
        rf"\s+(?:full[\s-]?time\s+|part[\s-]?time\s+)?(?:now\s+)?as\s+(?:a\s+|an\s+)?"
        rf"(?P<role>{_ROLE}){_ROLE_END}",
        "freelancing freelance",
    ),
    # a form the user fills in: "job: HR advisor. employer: NHS Lothian"
    _grx(
        rf"(?:^\W*|[.;\n]\s*)(?:job|occupation|job\s+title|position|profession)\s*:\s*(?:a\s+|an\s+)?"
        rf"(?P<role>{_ROLE})(?=\s*(?:$|[.,;\n]))",
        "job occupation title position profession",
    ),
    # non-native "I am teacher of math", "i am teacher of primary school"
    _grx(
        rf"{_I_AM}\s+(?:a\s+)?(?P<head>teacher|professor|lecturer|tutor)\s+of\s+"
        rf"(?P<subject>(?:primary|secondary|high|middle)\s+school|[a-z]+)(?=\s*(?:$|[,.;!]|\s+(?:in|at"
        rf"|and|for|since|so)\b))",
        "teacher professor lecturer tutor",
    ),
    # "ive been a hairdresser 20 odd years", "i have been a nurse for 12 years": still one
    _grx(
        # "ive been a data analyst at NHS Digital for two years": the workplace may come first
        rf"\bi(?:{_A}?ve|\s+have)\s+been\s+(?:a|an)\s+(?P<role>{_ROLE})"
        rf"(?=(?:\s+(?:at|with|for|in)\s+[^,.;!?]{{1,40}}?)?\s+(?:for\s+)?"
        rf"(?:\d+|a\s+few|two|three|four|five|six|seven|eight|nine|twenty|thirty|ten|fifteen"
        rf"|many|several)\b)",
        _ROLE_WORDS,
    ),
    # a frame the user speaks from: "As a nurse, I ...", "I make 2900 a month as a PM", "also
    # as an architect i have 40 tubes of drawings", "as the pharmacist there i want", "im at
    # aldi now as an assistant store manager"
    (
        _AS_A_ROLE := _grx(
            rf"(?:^\W*|,\s*|\b(?:also|and|but|so|ok|okay|well|now|btw|anyway|honestly|tbh"
            rf"|personally|fyi)\s+|\bi\s+(?:make|earn|get\s+paid)\b[^.;!?]{{0,40}}?\s"
            rf"|{_I_AM}\s+at\s+[\w&'’\-]+(?:\s+[\w&'’\-]+)?\s+(?:now\s+)?)as\s+(?:(?:a|an|the)\s+"
            # "as site manager for balfour beatty i have to sign it off": no article where the
            # workplace follows
            rf"|(?=(?:[\w\-]+\s+){{1,3}}?(?:for|at)\s+[\w&'’\-]+(?:\s+[\w&'’\-]+)?\s+i\b))"
            rf"(?P<role>{_ROLE})(?:\s+myself|\s+here|\s+there)?(?=\s*,|\s+(?:i|i{_A}?m|i{_A}?ve"
            rf"|ive|my|we|people|everyone|patients|customers|clients)\b|{_ROLE_END[3:]}",
            _ROLE_WORDS,
        )
    ),
    # "i moved from Amazon to DHL in spring, same job basically, logistics coordinator"
    _grx(
        rf"\bsame\s+(?:job|role|position|title)(?:\s+(?:basically|really|tho|though|as\s+before))?"
        # (the place after it is the job's: "same job, systems engineer, in Toulouse")
        rf"\s*[,:\-–]\s*(?:as\s+)?(?:an?\s+)?(?P<role>{_ROLE})(?!\s*,?\s+in\s){_ROLE_END}",
        "same",
    ),
    # "i left accenture last month, now at a small startup called Finlo as a product designer"
    _grx(
        # ... "still at spotify as a data engineer", "ive been at accenture 3 yrs as an analyst"
        rf"(?:^\W*|[,;]\s*|\b(?:and|but|so|im|i{_A}m|i\s+am)\s+)(?:now|still)\s+(?:at|with)\s+"
        rf"[^.;!?]{{1,60}}?\s+as\s+(?:an?\s+)?(?P<role>{_ROLE}){_ROLE_END}"
        rf"|(?:^\W*|[,;]\s*|\b(?:and|but|so|btw)\s+|\bi{_A}?ve\s+|\bi\s+have\s+)been\s+(?:at|with)\s+"
        rf"[^.;!?]{{1,60}}?\s+as\s+(?:an?\s+)?(?P<role2>{_ROLE}){_ROLE_END}"
        # ("ive been at google as an intern last summer": a time that is over)
        rf"(?![^.;!?]{{0,30}}\b(?:last|ago|back\s+in|before|in\s+(?:19|20)\d\d)\b)",
        "now still been",
    ),
    # "been a nurse 9 yrs now", "ive been a teacher for 12 years"
    _grx(
        rf"(?:^\W*|[,;]\s*|\b(?:and|but|so)\s+|\bi{_A}?ve\s+|\bi\s+have\s+)been\s+an?\s+"
        rf"(?P<role>{_ROLE})\s+(?:for\s+)?(?:\d+|a\s+few|many|several|two|three|four|five|six"
        rf"|seven|eight|nine|ten|twenty)\s+(?:yrs?|years?)\b",
        "been",
    ),
    # "now im at JetBrains as android dev": no article after the workplace
    _grx(
        rf"{_I_AM}\s+(?:now\s+)?at\s+[\w&'’\-]+(?:\s+[\w&'’\-]+)?\s+(?:now\s+)?as\s+"
        rf"(?P<role>{_ROLE}){_ROLE_END}",
        _ROLE_WORDS,
    ),
]
# What "a nurse in X" names when X is not an employer: a month or day, a field, a department,
# a school year, a country's short name, a language
_NOT_EMPLOYER_IN: Final = frozenset(
    _words(
        "january february march april may june july august september october november december"
        " monday tuesday wednesday thursday friday saturday sunday it hr uk us usa eu uae nyc la"
        " sf a&e icu er or nicu picu year grade training charge england scotland wales ireland"
        " europe asia africa america canada australia london a1 a2 b1 b2 c1 c2"
        # "work for meself like": self-employed, no employer
        " myself meself mesel misself ourselves ourself yourself"
    )
)


_FIELD_ENDINGS: Final = (
    "ology",
    "science",
    "sciences",
    "care",
    "ics",
    "ing",
    "ment",
    "ism",
    "istry",
    "tion",
    "ance",
    "ence",
    "ity",
    "ography",
    "onomy",
)


def _in_employer(org: str) -> bool:
    """Whether the name after "a nurse in" may be an employer: not a town of any size, not a
    month, field, department or language, and not an English word typed capitalised."""
    first = org.split()[0].casefold()
    if first in _NOT_EMPLOYER_IN or org.casefold() in _NOT_EMPLOYER_IN:
        return False
    # "customer service officer in Zenith Bank", "in Arab Potash Company": an institution
    # word names an institution
    if len(org.split()) > 1 and _INSTITUTION_WORD.search(org.split()[-1]):
        return True
    if first in _LANGUAGES or first in _DEMONYMS or is_town(org) or is_town(org.split()[0]):
        return False
    if org.isupper():  # "TCS", "NHS"
        return True
    words = org.split()
    # "a lawyer in Family Law", "a consultant in Healthcare", "a researcher in Neuroscience":
    # a field of work, not an organisation
    if all(is_common_word(w) for w in words):
        return False
    return not (len(words) == 1 and org.casefold().endswith(_FIELD_ENDINGS))


_VET_FIELD = _rx(r"\s+(for\s+(?:big|large|small|farm|exotic)\s+animals)\b")
_ROLE_ADVERB = _rx(
    # "ive been data analyst at booking.com 3 yrs": the subject a fragment's words took in
    r"^(?:i(?:['’]?ve|\s+have)\s+been\s+|i(?:['’]?m|\s+am)\s+)?"
    r"(?:(?:just|only|simply|basically|officially|still|now|currently|actually|also|new)\s+)?"
    # "a remote backend dev": how the job is done, no part of its title
    r"(?:(?:fully\s+)?remote\s+(?=\S+\s))?"
)
_STUDY_YEAR = _rx(r"^(?:\d(?:st|nd|rd|th)|first|second|third|fourth|final|last)[- ]year\s+")
_STUDENT_HEADS: Final = frozenset({"student", "undergrad", "postgrad", "pupil"})
# "a staff nurse on st brigids ward in st james hospital": the ward, unit or team said before
# the institution it is in
_WARD_BEFORE = (
    r"(?:\s+on\s+(?:the\s+)?(?:[\w\-]+\s+){0,3}?(?:ward|unit|team|floor)(?:\s+\d{1,3})?)?"
)
_SITE_WORDS = (
    r"warehouse|store|shop|branch|depot|office|factory|plant|site|supermarket|hub|outlet"
    r"|distribution\s+cent(?:re|er)|call\s+cent(?:re|er)|fulfil?ment\s+cent(?:re|er)|mill|mine"
)
_SITE_AFTER = _rx(rf"\s+(?:{_SITE_WORDS}|cent(?:re|er)|unit|yard|ward)\b")


def _generic_site(c: str, start: int, end: int) -> bool:
    """Whether the lower-case words at ``c[start:end]`` follow "the" and come before a site word
    ("the fulfilment centre", "the sorting depot") without being a known employer's name."""
    said = c[start:end]
    return (
        said.islower()
        and c[max(0, start - 4) : start].casefold() == "the "
        and known_employer(said) is None
        and _SITE_AFTER.match(c, end) is not None
    )


_ORG_AFTER_ROLE = _rx(
    # "im a cofounder of Loomwise": the company a founder founded
    rf"(?<=founder)\s+of\s+(?P<org6>{_ORG})|"
    # "hvac technician for a company called Cool Breeze Services"
    rf"\s+(?:(?:working\s+)?(?:remote(?:ly)?\s+)?)?(?:at|for|with)\s+a\s+(?:[\w\-]+\s+)?"
    rf"(?:company|firm|startup|business|agency|shop)\s+(?:called\s+|named\s+)?(?P<org4>{_ORG})|"
    # "a paramedic now with the London Ambulance Service"; "a staff nurse on ward 6 at LUTH",
    # "backend developer on payments at Swiggy": the team or ward, then the employer
    # "i am a lab technician, at Lagos University Teaching Hospital": a comma may come first
    rf"\s*,?\s+(?:on\s+(?:the\s+)?[\w\-]+(?:\s+[\w\-]+){{0,2}}?\s+(?=(?:at|for|with)\s))?"
    # ("the project coordinator here at Vos Logistics")
    rf"(?:(?:now|currently|still)\s+)?(?:(?:working|employed)\s+)?(?:here\s+)?(?:at|for|with|by)\s+"
    rf"(?P<article>a\s+|an\s+)?"
    rf"(?P<the>the\s+)?(?P<org>{_ORG})"
    # "nurse in St James Hospital", "assistant manager in HDFC Bank": an institution's name
    # non-native "petroleum engineer in Saudi Aramco", "senior developer in TCS": any name
    # that is no town, month, field or department (checked in _rule_work)
    # ... "civil engineer working in Emaar"
    # "forklift driver in dhl hub at the airport": the employer's site, named by the employer
    rf"|\s+in\s+(?:the\s+)?(?P<org7>{_ORG_TOKEN}|(?-i:[a-z][\w&'’\-]*))(?=\s+(?:{_SITE_WORDS})\b)"
    rf"|\s+(?:here\s+|working\s+)?in\s+(?P<org3>{_ORG_TOKEN}(?:\s+{_ORG_TOKEN}){{0,3}})"
    rf"(?=\s*(?:$|[,;!?)]|\.(?!\s*(?-i:[A-Z])))|\s+(?:and|but|so|since|for|as|now|from|btw|too|with|where)\b)"
    rf"|{_WARD_BEFORE}"
    rf"\s+in\s+(?:the\s+)?(?P<org2>(?:{_ORG_TOKEN}\s+){{1,3}}(?-i:{_INSTITUTION})"
    # "research assistant in University of Manchester"
    rf"|(?-i:University|College|Bank|Institute|Ministry|Hospital|Museum|Department)\s+of\s+"
    rf"{_ORG_TOKEN}(?:\s+{_ORG_TOKEN}){{0,2}})\b"
    # "dental surgeon in sahyadri clinic": typed in lower case, a name with its institution word
    # ... "a staff nurse on st brigids ward in st james hospital": after the ward or unit
    rf"|{_WARD_BEFORE}"
    rf"\s+(?:working\s+)?in\s+(?P<org5>(?-i:[a-z][a-z'’\-]+(?:\s+[a-z][a-z'’\-]+){{0,2}}"
    rf"\s+(?:{_LOWER_INSTITUTION})))\b"
)
# "a nurse in leeds", "a postie living in Aberdeen", "a dev based in tallinn", "a call centre
# agent here in cebu": the worker's place is where the user lives
_PLACE_AFTER_ROLE = _rx(
    r"\s*,?\s+(?:(?:living|based|located|residing|working|here|over|out)\s+)?in\s+"
    r"(?P<place>[A-Za-zÀ-ÖØ-öø-ÿ'’.\-]+(?:\s+(?!(?:here|there|lol|now)\b)"
    r"[A-Za-zÀ-ÖØ-öø-ÿ'’.\-]+)?)"
    # ("im a csr in concentrix here in cebu": the employer, then where it is)
    # ... "backend developer in infosys from 6 years": since when, in second-language English
    r"(?=\s*$|\s*[,.;!?]|\s+(?:and|but|so|for|since|btw|now|i|we|with|w|at|here|there|lol"
    r"|from\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|many|last)\b)\b)"
)
# "im at kpmg", "still at Harwell & Pike": a workplace, not a venue or a place
_IM_AT = _grx(
    # ("i got promoted on monday, still at osteria fumo ofc")
    rf"(?:(?:{_I_AM}\s+(?:now\s+|still\s+)?|(?:^\W*|,\s*)(?:(?:ok|okay|so|and|but|yeah|yes|yep|nope|no"
    # ("im still staff nurse, now at Royal London Hospital since march")
    rf"|btw|also)\W+)*still\s+|(?:^\W*|,\s*)now\s+)at"
    # Indian English "working as accountant in one MNC, company name is Genpact", "my office
    # is Wipro, whitefield campus": the workplace named (beside a job, as "im at" is)
    rf"|\b(?:(?:the|my)\s+)?company(?:{_A}?s)?\s+name\s+is|\bmy\s+office\s+is)\s+(?P<org>{_ORG})"
    rf"(?=\s*$|\s*[,.;!]|\s+(?:and|as|since|btw|so|but|now|still|lol|tho|though|too|obviously"
    rf"|obvs|ofc|haha|lmao|fyi|rn|atm|anyway)\b"
    rf"|\s+on\s+(?:the|a|an|their|our)\s+(?:[\w\-]+\s+){{0,2}}(?:team|squad|project|account|desk))",
    "at company office",
)
# "still with vodafone tho", "im still with Equity Bank": an employer the user stays with
# (one known as an employer or named as an institution: "still with Tom" is a partner)
_STILL_WITH = _grx(
    # ... "im with kirklees council, waste services", "and im with wipro": said plainly
    rf"(?:{_I_AM}\s+(?:still\s+|now\s+|currently\s+|also\s+)?|^\W*(?:(?:ok|okay|so|and|but|yeah"
    rf"|yes|yep|nope|no|btw|also)\W+)*still\s+)"
    rf"with\s+(?P<org>{_ORG})(?=\s*$|\s*[,.;!]|\s+(?:and|as|since|btw|so|but|now|lol|tho|though"
    rf"|too|haha|fyi|anyway)\b)",
    "still with",
)
_PUBLIC_BODY_END = _rx(
    r"\s(?:council|hospital|police|ministry|university|college|school|academy|trust|authority"
    r"|infirmary|service|services|agency|department)$"
)
_LOWER_INSTITUTION_END = re.compile(rf"\s(?:{_LOWER_INSTITUTION})$")
# Large employers that are also places to shop or eat: "im at tesco" is no workplace
_SHOP_EMPLOYERS: Final = frozenset(
    (
        *_words(
            "costa pret starbucks tesco asda aldi lidl sainsburys waitrose morrisons boots argos"
            " dominos wagamama chipotle wetherspoons screwfix wickes halfords specsavers superdrug"
            " poundland lush decathlon mediamarkt rossmann"
            " currys primark ikea zara target walmart costco kroger apple"
        ),
        # ... and the chains of several words ("im at five guys rn")
        *("five guys", "burger king", "pizza hut", "taco bell", "tim hortons", "caffe nero"),
        *("pizza express", "toby carvery", "whole foods", "trader joe's", "trader joes"),
        *("marks & spencer", "marks and spencer", "john lewis", "b&q", "home bargains"),
        *("tk maxx", "jd sports", "papa john's", "wendy's", "domino's", "dunkin"),
    )
)
# "I work in Revolut Kraków office", "i work in Infosys": an organisation one works in, named
# with its office or known as an employer ("i work in Marketing", "in Leeds" name none)
_WORK_IN = _grx(
    rf"\bi\s+(?:currently\s+|now\s+|still\s+)?work\s+in\s+(?:the\s+)?"
    # "i work in vodafone call center": typed in lower case, a known employer only
    rf"(?P<org>{_ORG_TOKEN}|(?-i:[a-z][a-z0-9&\-]{{2,24}}))"
    rf"(?:(?:\s+{_PLACE_TOKEN})?\s+(?P<office>office|offices|branch|hq|headquarters|plant|factory"
    rf"|campus|call\s+cent(?:er|re)|contact\s+cent(?:er|re)|store|warehouse)\b)?",
    "work",
)
# "its my first week at Flutterwave!!", "been with Gleeds for 4 years", "i am a caregiver
# here in Toronto, working for Bayshore", "still with concentrix tho"
_ROLE_SAID = _rx(rf"(?:{_I_AM}|\bas)\s+(?:an?\s+)?(?:[\w\-]+\s+){{0,3}}?{_ROLE_HEAD}\b")
# "its my first week at Flutterwave!!", "been with Gleeds for 4 years", "i am a caregiver here in
# Toronto, working for Bayshore", "still with concentrix tho": a workplace said in passing
# "i work for the NHS", "been with the national ambulance service 6 yrs": the article before
# an acronym or a national body's lower-case name is no part of the name
_THE_BODY = (
    r"(?:the\s+(?=(?-i:[A-Z]{2,6})(?![\w&'’\-])|(?i:national|state|federal|royal)\s+[a-z]+"
    r"(?:\s+[a-z]+)?\s+(?i:service|authority|agency|trust|police|institute|library|museum"
    r"|ministry)\b))?"
)
_JOB_SINCE = _grx(
    rf"\bmy\s+first\s+(?:day|week|month|weeks|months)\s+(?:at|with)\s+(?P<org>{_ORG})"
    rf"|(?:\bi{_A}?ve\s+|\bi\s+have\s+|,\s*|^\W*)been\s+(?:working\s+)?(?:with|at|for)\s+"
    rf"{_THE_BODY}(?P<org2>{_ORG})(?=(?:\s+in\s+\w+)?\s+(?:for|since|\d+)\s)"
    rf"|(?<=,)\s*(?:now\s+|currently\s+)?working\s+(?:for|at)\s+(?P<org3>{_ORG})"
    rf"|^\W*still\s+with\s+(?P<org4>{_ORG})",
    "first been working still",
)
# "at safaricom we use bigquery btw", "at Monzo we deploy on fridays": where "we" build and
# run things is the user's workplace (a large employer's name only: _rule_work checks)
_AT_ORG_WE = _grx(
    # ... "in nubank we have big tables", "at zalando every team has its own cluster"
    # ... non-native "by us at bosch rexroth we have new rule" (German "bei uns")
    rf"(?:^\W*|[,;]\s*|\b(?:btw|fyi|and|but|so)\s+)(?:here\s+|by\s+us\s+)?(?:at|in)\s+(?P<org>{_ORG})\s*,?\s+"
    # ... "at shopify we mostly let the autocorrect do it"
    rf"(?:we\s+(?:mostly\s+|usually\s+|always\s+|all\s+|just\s+|normally\s+)?(?:use|run|deploy"
    rf"|build|ship|migrated|switched|moved|have|let|review|write|do|are\s+(?:on|using"
    rf"|migrating|moving))|every\s+team\s+(?:has|uses|runs|owns))\b",
    "use run deploy build ship migrated switched moved have on using migrating moving has uses runs"
    " owns let review write do",
)
# "i work with Orascom": with a large employer's name only, never a tool or a person's
# (_rule_work checks)
_WORK_WITH = _grx(
    rf"\bi\s+(?:currently\s+|now\s+|still\s+)?work\s+with\s+(?P<org>{_ORG})"
    rf"(?=\s*$|\s*[,.;!?]|\s+(?:as|since|for|now|and|but|btw|in|on)\b)",
    "with",
)


# "a tiny agency called fold & fable, been there 4 yrs": after "called" a name typed in lower
# case runs to the clause's end, English words and all (a word that starts a new clause or a
# time ends it)
_NAMED_LOWER_ORG = (
    r"(?-i:(?!(?:the|a|an|my|our|it|that|this|something|smth|sth)\b)[a-z][a-z'’\-]*"
    r"(?:\s+(?:&|and|n|of|(?!(?:and|but|so|since|for|as|in|at|on|near|with|where|which|who|been"
    r"|im|i|we|its|it|is|was|the|a|an|now|btw|lol|from|until|til|till|because|cos|cuz|when|while"
    r"|last|this|next|every|after|before)\b)[a-z][a-z'’\-]*)){0,3})"
    r"(?=\s*$|\s*[,.;!?(]|\s+(?:and|but|so|since|for|as|in|at|near|where|been|now|btw|lol|from"
    r"|last|this)\b)"
)


# "switched jobs to Revolut in may", "i'm with Revolut now": a new workplace, when the name is
# a known employer's ("we switched to Google" may be a product, "im with Tom now" a partner)
_SWITCHED_TO_ORG = _grx(
    rf"\bswitched\s+(?:jobs|companies|employers)\s+to\s+(?P<org>{_ORG})"
    rf"|{_I_AM}\s+(?:now\s+)?with\s+(?P<org2>{_ORG})(?=\s+now\b)"
    # non-native "now I change to product manager in ByteDance"
    rf"|\bi\s+(?:just\s+|now\s+)?(?:change|changed|switch|switched)\s+to\s+(?:an?\s+)?"
    rf"(?:[\w\-]+\s+){{1,3}}?(?:in|at|for)\s+(?P<org3>{_ORG})",
    "switched with change changed switch",
)
# "got promoted!! area manager now, same amazon site": the employer kept through a new title
# (a large employer's name only: _rule_work checks)
_SAME_ORG_SITE = _grx(
    rf"(?:,\s*|^\W*|\band\s+|\bstill\s+)(?:at\s+)?(?:the\s+)?same\s+(?P<org>{_ORG})\s+"
    rf"(?:{_SITE_WORDS}|company|team)\b",
    "same",
)
# "lost my Accenture badge", "siemens canteen is awful again", "my woolworths payslip", "the
# Spotify all-hands ran over", "my manager at Sainsburys", "our team at bank of ireland", Nigerian
# English "my oga for MTN": what only staff have, of an employer the lexicon knows (_rule_work
# checks; "my amazon order", "the tesco clubcard" are a customer's)
_STAFF_THING = _grx(
    rf"\b(?:my|our|the(?=\s+\S+\s+all[- ]hands))\s+(?P<org>{_ORG})\s+(?:work\s+)?(?:badge"
    rf"|lanyard|payslip|pay\s*slip|canteen|all[- ]hands|rota|staff\s+discount|onboarding|intranet"
    rf"|induction|id\s+badge)\b"
    # ("my Google badge on my developer profile" is an award, not a pass)
    rf"(?!\s+(?:on|for|in)\s+(?:my\s+)?(?:[\w\-]+\s+)?(?:profile|account|app|page))"
    rf"|(?:^\W*|[,.;:!?]\s*|\b(?:and|but|so|ugh|lol|omg)\s+)(?P<org2>{_ORG})\s+canteen\s+(?:is|was)\b"
    # ("bought my desk at ikea" is a shop's)
    rf"|\b(?:my|our)\s+(?:manager|boss|line\s+manager|team\s+lead|supervisor|team|oga|colleagues"
    rf"|coworkers|co-workers)\s+(?:at|for)\s+(?P<org3>{_ORG})",
    "badge lanyard payslip slip canteen hands rota discount onboarding intranet induction"
    " manager boss lead supervisor team oga colleagues coworkers co-workers",
)
_EMPLOYER = [
    _STAFF_THING,
    # "i work as a bin lorry driver and sheffield city council pays me": who pays the user
    _grx(
        rf"(?:^\W*|[,;]\s*|\b(?:and|but|so|cos|because)\s+)(?P<org>{_ORG})\s+(?:still\s+)?pays\s+"
        rf"(?:me|my\s+(?:wages?|salary))\b",
        "pays",
    ),
    _WORK_IN,
    _WORK_WITH,
    _SAME_ORG_SITE,
    # "put her in touch w the design team at arup where i work": the place named, then said to
    # be where the user works
    _grx(
        rf"\b(?:at|for|with)\s+(?P<org>{_ORG})\s*,?\s+where\s+i\s+(?:also\s+|now\s+|still\s+)?work\b",
        "where",
    ),
    # "my company infosys is asking everyone to fill timesheet", "my employer, Ocado, wants":
    # the company named right after "my company" as the subject of what it does
    _grx(
        rf"(?:^\W*|[,.;:!?]\s*|\b(?:and|but|so|because|cos|since|in)\s+)my\s+(?:company|employer)"
        rf"\s*,?\s+(?P<org>{_ORG})\s*,?\s+(?:is|was|has|wants|wanted|asks|asked|is\s+asking"
        rf"|told|tells|made|makes|sent|pays|gave|gives|just|finally|still|now|will|won{_A}?t"
        # ("in my company wipro they are giving german classes")
        rf"|doesn{_A}?t|does\s+not|uses|requires|expects|they)\b",
        "company employer",
    ),
    # "me and my coworker dan both work at asda", "my sister and i work for Tesco": the user
    # among those who work there
    _grx(
        rf"(?:\bme\s+and\s+(?:my\s+)?(?:[\w\-]+\s+){{0,2}}?[\w\-]+|\b(?:and|&)\s+(?:i|me))\s+"
        rf"(?:both\s+|all\s+|still\s+|now\s+)?work\s+(?:at|for)\s+(?P<org>{_ORG})",
        "work",
    ),
    _AT_ORG_WE,
    _SWITCHED_TO_ORG,
    _STILL_WITH,
    # "i transferred to Mediclinic last month", "I am on contract with EPAM": the workplace a
    # transfer or a contract is with
    _grx(
        rf"\b(?:i|we)(?:{_A}ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:been\s+)?"
        rf"transferred\s+to\s+(?P<org>{_ORG})"
        rf"|{_I_AM}\s+(?:now\s+|currently\s+)?on\s+(?:a\s+)?contract\s+(?:with|at|for)\s+"
        rf"(?P<org2>{_ORG})",
        "transferred contract",
    ),
    # "i work for a tiny design agency called Studio Nine", "im the android developer at a
    # startup called Fieldly": the user's own workplace, named after its kind
    _grx(
        rf"\b(?:i|im|i{_A}m)\b(?:(?!\b(?:my|his|her|their|he|she|they|wife|husband|friend)\b)"
        rf"[^.;!?]){{0,60}}?\b(?:work(?:ing)?|{_ROLE_HEAD}|joined|started|now)\s+(?:[\w\-]+\s+){{0,3}}?"
        # ("i am cook in a restaurant called La Chata": "in" the workplace)
        rf"(?:(?:at|for|with|in)\s+|(?<=joined\s))(?:a|an)\s+(?:[\w\-]+\s+){{0,4}}?"
        rf"(?:{_COMPANY_KINDS})\s*,?\s+(?:(?:called|named)\s+(?:(?P<named>{_NAMED_LOWER_ORG})|(?P<org>{_ORG}))"
        # "a backend dev at a small fintech (paysera)": the name in parentheses after its kind
        rf"|\(\s*(?P<org3>{_ORG})\s*\)"
        # "I work for a small consultancy Brightlane", "working remote for a Dutch company
        # Mollie": the name right after its kind, capitalised
        rf"|(?=(?-i:[A-Z]))(?!(?-i:The|A|An|In|At|On|I|We|My|Our|It|This|That|They)\b)(?P<org2>{_ORG})(?=\s*$|\s*[,.;!?(]|\s+(?:as|and|but|so|since|in|for)\b))",
        "called named company agency startup start-up firm studio consultancy business bakery"
        " restaurant cafe café clinic hospital school charity nonprofit bank shop store fintech"
        " scaleup scale-up insurer",
    ),
    # "I moved to Nation Media Group in August": a new employer, named by its institution word
    _grx(
        rf"\b(?:i|we)(?:{_A}ve|\s+have)?\s+(?:just\s+|recently\s+)?(?:moved|switched|changed)\s+"
        rf"(?:jobs?\s+)?to\s+(?P<org>{_ORG_TOKEN}(?:\s+{_ORG_TOKEN}){{0,3}}\s+"
        rf"(?-i:{_INSTITUTION}|Media|Corp|Company|Bank))\b",
        "moved switched changed",
    ),
    # non-native "now I am in Wipro from last April": a name that is no place, as a job's state
    _grx(
        rf"(?:\bnow\s+{_I_AM}|{_I_AM}\s+now)\s+in\s+(?P<org>{_ORG})(?=\s+(?:since|from|already)\b)",
        "now",
    ),
    _grx(
        rf"(?:^\W*|[.;\n]\s*)(?:employer|company|workplace)\s*:\s*(?P<org>{_ORG})"
        rf"(?=\s*(?:$|[.,;\n]))",
        "employer company workplace",
    ),
    _IM_AT,
    _JOB_SINCE,
    # "i work in customer support at A1": a field, then the workplace
    _grx(
        rf"\bi\s+(?:currently\s+|now\s+|still\s+|also\s+)?work\s+in\s+"
        rf"(?P<field>[a-z&]+(?:\s+[a-z&]+)?)\s+(?:at|for)\s+(?P<org>{_ORG})",
        "work",
    ),
    # Indian English "i live in pune and working with infosys": the subject carried over
    _grx(
        rf"\bi\s+(?:live|am|{_A}m|stay|work)\b[^.;!?]{{0,40}}?\band\s+(?:currently\s+|now\s+)?"
        rf"working\s+(?:at|for|with|in)\s+(?P<org>{_ORG})(?=\s*$|\s*[,.;!]|\s+(?:since|from"
        rf"|as|and|but|so)\b)",
        "working",
    ),
    # "i am now with Reddington Hospital": a workplace named by its institution word
    _grx(
        rf"{_I_AM}\s+(?:now|still)\s+with\s+(?P<org>{_ORG_TOKEN}(?:\s+{_ORG_TOKEN}){{0,3}}\s+"
        rf"(?-i:{_INSTITUTION}))\b",
        "with",
    ),
    # "i left BT, started at Sky in september": a new workplace, said without the title
    _grx(
        rf"(?:^\W*|,\s*|\bi\s+(?:have\s+|{_A}ve\s+)?)(?:(?:also|just|recently|finally|officially)\s+)*"
        rf"started\s+at\s+"
        rf"(?P<org>(?=(?-i:[A-Z])){_ORG})(?=\s+(?:in|on|last|this)\s+\w+|\s+\w+\s+ago|\s*$|\s*[,.;!])",
        "started",
    ),
    _grx(
        # (Nigerian English "i dey work for Flutterwave")
        rf"(?:\bi\s+|(?:^\W*|,\s*)(?=still\b))(?:currently\s+|now\s+|still\s+|also\s+|actually\s+"
        rf"|presently\s+|dey\s+)?work\s+"
        # "i work late thursdays at ocado", "i work nights at St Vincent's": when, then where
        rf"(?:{_WORK_WHEN}\s+){{0,3}}(?:at|for)\s+"
        # "i work at the lidl warehouse near lyon": the employer's site, named by the employer
        rf"(?:the\s+(?=[\w&'’\-]+\s+(?:{_SITE_WORDS})\b))?{_THE_BODY}"
        rf"(?P<org>{_ORG})",
        "work",
    ),
    _grx(
        # "now I am working in Singapore at Grab": where, then the employer
        rf"(?:{_I_AM}\s+(?:currently\s+|now\s+)?(?:employed|working)\s+(?:{_WORK_WHEN}\s+){{0,3}}"
        rf"(?:{_WORK_WHERE}\s+)?(?:at|by|for|in|with)"
        # a title then its employer: "I am QA engineer, working remote for JetBrains"
        rf"|{_I_AM}\s+(?:a\s+|an\s+)?(?:[\w\-]+\s+){{0,2}}?{_ROLE_HEAD}\s*,?\s+working\s+"
        rf"(?:(?:remote|remotely|from\s+home)\s+)?(?:at|for|with))\s+(?P<org>{_ORG})",
        "employed working",
    ),
    _grx(
        rf"(?:\bi(?:{_A}ve|\s+have)?\s+|{_I_AM}\s+|^\W*|{_LEFT_AND})"
        rf"(?:(?:also|just|recently|now|finally|officially)\s+)*"
        rf"(?:started\s+(?:a\s+new\s+job\s+"
        rf"|a\s+job\s+|working\s+|my\s+new\s+job\s+)?(?:at|with|for)|joined|joining"
        # Nigerian English "i resumed at Flutterwave last week", "i don resume for Access Bank"
        rf"|resumed\s+(?:work\s+)?at|don\s+resume\s+(?:work\s+)?(?:at|for))\s+(?P<org>{_ORG})",
        "started joined joining resumed resume",
    ),
    _grx(
        rf"(?<!quit\s)(?<!left\s)(?<!lost\s)(?<!from\s)"
        rf"\bmy\s+(?:new\s+)?(?:employer\s+is|job\s+is\s+at|new\s+job\s+at|company\s+is"
        # "booking holdings owns us but my contract is with agoda"
        rf"|(?:employment\s+)?contract\s+is\s+(?:with|at)"
        # "before my shift at the Royal Infirmary", "my company Tidewell (im the cofounder)"
        rf"|(?:shift|shifts|job)\s+at(?:\s+the)?|company(?=\s+(?-i:[A-Z])))\s+(?P<org>{_ORG})",
        "employer job company shift shifts contract",
    ),
    # "the company i work for is siemens", "the place i work at is called Ocado"
    _grx(
        rf"\b(?:the\s+)?(?:company|firm|place|business|hospital|school|agency|shop|store)\s+"
        rf"(?:that\s+)?i\s+(?:currently\s+|now\s+)?work\s+(?:for|at|in)\s+is\s+(?:called\s+)?"
        rf"(?P<org>{_ORG})",
        "work",
    ),
    # "im a self employed plumber, business is called Gary Doyle Plumbing & Heating"
    _grx(
        rf"(?:\b(?:my|our)\s+|,\s*)(?:own\s+)?(?:business|company|shop|firm|salon|studio|bakery|cafe"
        rf"|restaurant|agency|practice)\s+is\s+called\s+(?P<org>{_ORG})",
        "called",
    ),
    # non-native "I am driver of truck in company Girteka", "i work in company Girteka as
    # driver": "company" put before the name like an article (a capitalised name only)
    _grx(
        rf"(?:\bi\s+(?:currently\s+|now\s+|still\s+|also\s+)?work|{_I_AM}\s+(?:currently\s+"
        rf"|now\s+)?working|{_I_AM}\s+(?:an?\s+)?(?:[\w\-]+\s+){{0,3}}?{_ROLE_HEAD}"
        rf"(?:\s+of\s+[\w\-]+)?)\s+(?:in|at|for|with)\s+(?:the\s+)?(?:company|firm"
        rf"|organi[sz]ation|corporation|factory|enterprise)\s+(?P<org>(?=(?-i:[A-Z])){_ORG})",
        "company firm organisation organization corporation factory enterprise",
    ),
    # "here at Ocado ruff is our linter": the team the user speaks for
    _grx(
        rf"(?:^\W*|[,;]\s*)here\s+at\s+(?P<org>{_ORG})(?=[^.!?]{{0,40}}\b(?:we|our|us)\b)",
        "here",
    ),
    # "ive been at Hendry's Hardware in dundee 11 years now" ("been with" is _JOB_SINCE's: "ive
    # been with Tom for 5 years" is a partner)
    _grx(
        rf"\bi(?:{_A}?ve|\s+have)\s+been\s+at\s+(?P<org>{_ORG})(?=(?:\s+in\s+\w+)?\s+"
        rf"(?:for\s+)?(?:\d+|a\s+few|two|three|four|five|six|seven|eight|nine|ten|many|several)"
        rf"\s+(?:years?|yrs?|months?)\b"
        # "cos ive been at bunnings the longest out of everyone in our store"
        rf"|\s+(?:the\s+)?longest\b)",
        "been",
    ),
    # "i got the job at Octopus Energy", "my 5 year anniversary at Siemens Healthineers", "my
    # team at Bolt uses pnpm", "i cycle to work at UiT", "living in Shenzhen and work at Tencent"
    _grx(
        # ... "omg update: got the job at zalando!!!": the subject dropped where a sentence opens
        rf"(?:\bi\s+|(?:^|[.!?:])\W*(?:(?:omg|yay|so|ok|okay|update|news|guess\s+what)\W+)*)"
        rf"(?:just\s+|finally\s+)?(?:got|landed)\s+(?:the|a|that|my)\s+(?:new\s+)?job\s+"
        rf"(?:at|with)\s+(?P<org>{_ORG})"
        # "i took the ocado offer in the end!! started monday"
        rf"|\bi\s+(?:finally\s+|just\s+)?(?:took|accepted|signed)\s+(?:the\s+)?(?P<org8>{_ORG_TOKEN}|[a-z]+)"
        rf"\s+(?:offer|job|contract)\b(?!\s*\?)"
        # "i moved to copenhagen last month for a new job at Novo Nordisk"
        rf"|\bi\s+(?:just\s+|recently\s+)?(?:moved|relocated)\b[^.;!?]{{0,50}}?\bfor\s+(?:a|my|the)\s+"
        rf"(?:new\s+)?job\s+(?:at|with)\s+(?P<org6>{_ORG})"
        rf"|\bmy\s+(?:\d+|one|two|three|four|five|ten|\w+th)[- ]years?\s+(?:work\s+)?"
        rf"anniversary\s+at\s+(?P<org2>{_ORG})"
        rf"|\bmy\s+(?:team|manager|boss|colleagues|coworkers|office|department)\s+at\s+"
        rf"(?P<org3>{_ORG})"
        # "weve been on the same team at shopify for 3 years": a team the user is on
        rf"|\bwe(?:{_A}?ve\s+been|\s+have\s+been|{_A}?re|\s+are)\s+(?:both\s+)?(?:on|in)\s+the\s+"
        # "weve been in the returns team together at otto for 5 years"
        rf"(?:same|[\w\-]+)\s+team\s+(?:together\s+)?at\s+(?P<org9>{_ORG})"
        rf"|\b(?:cycle|bike|drive|walk|commute|go|get)\s+to\s+work\s+at\s+(?P<org4>{_ORG})"
        rf"|(?:\band|,)\s+(?:now\s+|also\s+)?work\s+(?:at|for)\s+(?P<org5>{_ORG})"
        # "we both work at Thoughtworks": the user is one of them
        rf"|\bwe\s+(?:both|all|all\s+three)\s+work\s+(?:at|for)\s+(?P<org7>{_ORG})",
        "job anniversary team manager boss colleagues coworkers office department work offer"
        " contract same",
    ),
    # non-native "I am in Wipro from 2019": a name that is no place, with the time it has held
    _grx(
        rf"{_I_AM}\s+in\s+(?P<org>{_ORG})(?=\s+(?:since|from)\s+(?:\d{{4}}|last|\d+\s+years))",
        "in",
    ),
    # "i run a little bakery here called Crumb & Co", "i have my own salon, Studio Thais"
    _grx(
        rf"\bi\s+(?:run|own|have|opened)\s+(?:a|an|my\s+own|our\s+own)\s+(?:[\w\-]+\s+){{0,2}}?"
        rf"(?:bakery|shop|salon|cafe|café|restaurant|business|company|studio|agency|practice|firm"
        rf"|store|clinic|startup)(?:\s+here|\s+there)?(?:\s*,\s*|\s+called\s+|\s+named\s+)"
        rf"(?P<org>{_ORG})"
        # non-native "i have small firm together with my brother, name is Wiśniewski Instalacje"
        rf"|\bi\s+(?:run|own|have|opened)\s+(?:(?:a|an|my\s+own|our\s+own)\s+)?(?:[\w\-]+\s+)?"
        rf"(?:{_OWN_BUSINESS})\b[^.;!?,]{{0,50}},\s*(?:its\s+|the\s+)?name\s+is\s+"
        rf"(?P<org2>{_ORG})",
        "run own have opened",
    ),
]


# "im at delivery hero now as an analytics engineer": a name in lower case, said as where the
# user holds the title that follows, is the workplace even when no list knows it
_AT_AS_ROLE = _grx(
    rf"{_I_AM}\s+(?:now\s+)?at\s+(?!(?:the|a|an|my|our|his|her|their|this|that|work|home|least"
    rf"|it|all|last|first)\b)(?P<org>[a-z][a-z&'’\-]*(?:\s+[a-z][a-z&'’\-]*){{0,2}}?)\s+"
    rf"(?:now\s+)?as\s+(?:a|an|the)\s+(?:[\w\-]+\s+){{0,2}}?{_ROLE_HEAD}\b",
    "as",
)
# "the hamster is Mochi, the guinea pigs are Daifuku and Anko" (see _pets_named_later)
_LATER_PET_NAME = r"(?:(?-i:[A-Z][\w'’\-]*)|[a-z][a-z'’\-]{1,19})"
_THE_PETS_ARE = _rx(
    # ... "i have two cockatiels, the names are kiwi and mango": the names of the pets just said
    rf"\b(?:the\s+(?P<head>{_PET_SURFACE})|(?:the|their)\s+names)\s+(?P<verb>is|are)\s+"
    rf"(?:called\s+|named\s+)?"
    rf"(?P<a>{_LATER_PET_NAME})(?:\s*(?:,\s*|\s+(?:and|&|n)\s+)(?P<b>{_LATER_PET_NAME})"
    rf"(?:\s*(?:,\s*(?:and\s+)?|\s+(?:and|&|n)\s+)(?P<c>{_LATER_PET_NAME}))?)?"
    rf"(?=\s*$|\s*[,.;!?)]|\s+(?:and|but|so|the|lol|haha)\b)"
)


# ... whose animal is the household's: a child's or a partner's ("my stepdaughter won a goldfish")
_HOUSEHOLD_OWNER = _rx(
    r"\b(?:(?:step|grand)?(?:daughter|son|kids?|children|child)|husband|wife|partner|boyfriend"
    r"|girlfriend)s?\b"
)
_A_PET_GOT = _rx(
    rf"\b(?:won|got|adopted|bought|rescued|found|brought\s+home|took\s+(?:in|home)|picked\s+up)\s+"
    # "adopted one of the kittens, i named her sugar"
    rf"(?:a|an|two|three|2|3|one\s+of\s+(?:the|her|his|their|our|its)(?:\s+\w+)?)\s+"
    rf"(?:[\w\-]+\s+)?(?P<species>{_PET_SURFACE})\b"
)
# The pet's name said before what it names (see _pet_name_said_first)
# "any good plumbers in salford? thats where i live": where the user lives, said of the place
# just named
_WHERE_I_LIVE_BACK = _grx(
    rf"(?:^|[.!?,;:(]\s*|\s-\s|\s)(?:that{_A}?s|thats|that\s+is|which\s+is)\s+where\s+(?:i|we)"
    rf"\s+(?:(?:both\s+|all\s+)?live|(?:am|are|{_A}m|{_A}re)\s+based|(?:am|are|{_A}m|{_A}re)\s+from"
    rf"|(?:grew\s+up\s+and\s+)?still\s+live)\b(?!\s+(?:before|till|until|last|then))",
    "where",
)
_PLACE_BEFORE_BACK = re.compile(
    # ("were flying out of dublin since thats where i live")
    r"\b(?:in|near|around|to|from|at|for|out\s+of)\s+(?P<place>[A-Za-zÀ-ÖØ-öø-ÿ'’\-]+"
    r"(?:\s+(?!(?:in|near|around|to|from|at|for|and|or)\b)[A-Za-zÀ-ÖØ-öø-ÿ'’\-]+)?)",
    re.IGNORECASE,
)
_PET_NAME_FIRST = _rx(
    r"\b(?P<name>[a-z][\w’\-]{1,19})['’]?s\s+(?:his|her|its)\s+name\b"
    r"|\b(?P<name2>[a-z][\w’\-]{1,19})\s+is\s+my\s+(?P<species>[a-z]+?)['’]?s\s+name\b"
    # Nigerian Pidgin "i get one dog, e name na Bingo"
    r"|\b(?:e|him|her)\s+name\s+na\s+(?P<name3>[a-z][\w’\-]{1,19})\b"
    r"|\b(?:only\s+)?answers\s+to\s+(?P<name4>[a-z][\w’\-]{1,19})\b"
    # "biscuit ate half a sock again 🙄 hes my 2yo lab": the message opens on what the pet did
    r"|^\W*(?P<name5>[a-z][a-z'’\-]{2,19})\s+(?:ate|has|had|keeps|just|got|chewed|threw|wont"
    r"|won['’]t|bit|stole|escaped|learned|learnt)\b[^.!?\n]{0,60}?[.!?,\s]\s*(?:he|she)(?:['’]?s|\s+is)"
    r"\s+(?:my|our)\b"
)
_WE_NAMED_THEM = _rx(
    rf"(?:(?<=,\s)(?=named\s)|\b(?:we|i|(?<!\bhis\s)(?<!\bher\s)(?<!\btheir\s)(?:(?:the|my|our)\s+)?(?:kids|son"
    rf"|daughter|children|boys|girls|husband|wife|partner))\s+(?:have\s+|finally\s+|just\s+)?)"
    # ("picked up a rescue lurcher yesterday, named him bean": the subject left out)
    # ("we adopted a retired greyhound last spring, we call him Dash")
    rf"(?:named|called|call)\s+(?P<pron>him|her|it|them)\s+"
    rf"(?P<a>{_LATER_PET_NAME})(?:\s*(?:,\s*|\s+(?:and|&|n)\s+)(?P<b>{_LATER_PET_NAME})"
    rf"(?:\s*(?:,\s*(?:and\s+)?|\s+(?:and|&|n)\s+)(?P<c>{_LATER_PET_NAME}))?)?"
    rf"(?=\s*$|\s*[,.;!?)]|\s+(?:and|but|so|after|because|lol|haha)\b|\s+[^\w\s'’\-])"
)

# "whats the right water temp for a betta? mine is called Sushi": the user's own one of the
# animal the message just named
_MINE_IS_CALLED = _rx(
    # ... "ours is called thistle", "mine are called ziggy & stardust", "our two are called fudge
    # and waffle", "first winter doing it with ours, hes called gus"
    rf"(?:\b(?:mine|ours)(?:\s+(?:is|are)|{_A}s|\s*,\s*(?:he|she|it)(?:{_A}?s|\s+is))"
    rf"|\bour\s+(?:two|three|2|3)\s+are)\s+(?:called|named)\s+(?P<name>{_LATER_PET_NAME})"
    rf"(?:\s*(?:,\s*|\s+(?:and|&|n)\s+|\s*&\s*)(?P<more>{_LATER_PET_NAME}))?"
    rf"(?=\s*$|\s*[,.;!?)(]|\s+(?:and|but|so|lol|haha|btw|he|she|hes|shes|they|theyre)\b)"
    # "what wheel size for a pygmy hedgehog? mine (prickles) keeps arching his back"
    rf"|\bmine\s*\(\s*(?P<name2>{_LATER_PET_NAME})\s*\)"
    # "i live in sevilla and mine, churro, is floating weird"
    rf"|\bmine\s*,\s*(?P<name4>[a-z][a-z'’\-]{{1,19}})\s*,\s*(?:is|has|keeps|was)\b"
)
_PET_WORD = _rx(rf"\b(?P<species>{_PET_SURFACE})\b")
# "...for a hamster, mine keeps trying to dig": what the user's own one does (see _mine_does)
_MINE_DOES = _rx(
    r"(?:^|[,.;!?]\s*|\b(?:and|but|so|cos|because|bc|coz)\s+)mine\s+(?:(?:just|always|still)\s+)?"
    # ("is a hamster ok for a 5 year old? mine keeps asking for one": a child, who speaks)
    r"(?:keeps(?!\s+(?:asking|begging|saying|talking|crying|wanting|telling|nagging|going\s+on))"
    r"|wont|won['’]?t|hides|bites|digs|sleeps|refuses|hates|loves|chews|scratches|eats"
    r"|only\s+eats|likes|is\s+always|has\s+started|started|never)\b"
)
# ... never when a person or a thing stands between the animal and "mine"
_PERSON_OR_THING = _rx(
    r"\b(?:kids?|son|daughter|child|children|boy|girl|husband|wife|partner|car|phone|laptop|bike"
    r"|friend|mum|mom|dad|brother|sister)s?\b"
)


_ADVERB_OR_FILLER = re.compile(
    r"maybe|perhaps|probably|something|whatever|nothing|anything|different|weird"
)


def _later_pet_name_ok(name: str) -> bool:
    """A name said of a pet after "the hamster is": capitalised, or a lower-case word that is
    no English word ("the cat is old" says nothing of its name)."""
    if name[:1].isupper():
        return name.casefold() not in _STOP_WORDS_AFTER_IS and not _VOCABULARY.fullmatch(name)
    return _pet_name_ok(name) and not is_common_word(name)


# "its just me and luna (my cat) these days": a name, then whose animal it is in brackets
_PET_IN_BRACKETS = _rx(
    rf"(?<![\w'’\-])(?P<name>(?!(?:me|him|her|them|it|us|you|and|or|the|a|an|with|to|of|for"
    rf"|this|that|one|two|both|thanks|thx|ok|okay|yes|yeah|no|lol|well|also|anyway|so|but|too"
    rf"|again|here|there|home|out|in|over|back|along|around|now|then|today|tonight|sorry)\b)"
    rf"[a-z][a-z'’\-]{{1,19}})"
    # "when i bring tess along (my collie)": a particle of the verb between
    rf"(?:\s+(?:along|too|again|out|over|back|around|in))?"
    rf"\s*(?P<bracket>\(\s*(?:my|our)\s+(?P<species>{_PET_SURFACE})\s*\))"
)
# "my dog biscuit (lab, 3) pulls on the lead", "my cat luna and she goes mental", "my hamster
# pixie, she turns 2": a lower-case name before an aside about the pet or a clause about her or him
_PET_BEFORE_ASIDE = _rx(
    rf"\b(?:my|our)\s+(?:(?:{_PET_MOD})\s+)?(?P<species>{_PET_SURFACE})\s+"
    rf"(?P<name>(?-i:[a-z][a-z'’\-]{{1,19}}))"
    rf"(?=\s*\([^()]{{1,30}}\)|\s+and\s+(?:she|he|shes|hes|she['’]s|he['’]s)\s"
    # "my hamster pixie, she turns 2", "my dog pepper she is 3": a clause about her or him
    rf"|\s*,?\s+(?:she|he|shes|hes|she['’]s|he['’]s)\s)"
)
# "nugget, our hamster, ...", "bruno, our german shepherd, jumps on people", "hazel, shes our
# golden retriever": a name, then a comma and whose animal it is
_NOT_BEFORE_NAME = ("to ", " a ", "an ", "the ", "my ", "our ", "his ", "her ")
_NAME_THEN_OUR_PET = _rx(
    rf"(?<![\w'’\-])(?P<name>[A-Za-z][a-z'’\-]{{1,19}})\s*,\s*"
    rf"(?:(?:she|he)(?:['’]?s|\s+is)\s+)?(?:my|our)\s+(?:(?:{_PET_MOD})\s+){{0,2}}"
    rf"(?P<species>{_PET_SURFACE})\b"
    # ... closed there: "bought food, my dog loves it" is no apposition
    rf"(?P<closed>\s*(?:[,.;!?)]|$)|\s+(?:lol|haha|btw|tbh|tho)\b)?"
)
# A pet that is gone: "our old dog rex passed in april"
_PAST_PET = _rx(
    r"\b(?:passed|died|rip|put\s+down|put\s+to\s+sleep|rehom(?:e|ed|ing)|gave\s+away)\b"
)
# "... next date. danke, Sabine": thanks, then the user's first name, ending the message
# "What name should I put at the bottom of the letter?" / "tomasz wojcik": the assistant asks
# the user's own name, and a message that is only a name answers it
_ASKS_NAME = _rx(
    rf"\bwhat(?:{_A}?s|\s+is)\s+your\s+(?:full\s+|first\s+)?name\b"
    r"|\bwhat\s+name\s+(?:should|shall|do|would)\s+(?:i|we)\s+(?:put|use|sign|write|add)\b"
    r"|\b(?:may|can|could)\s+i\s+(?:have|ask|get)\s+your\s+(?:full\s+)?name\b"
)
_OTHERS_NAME_ASKED = _rx(
    r"\b(?:their|his|her|recipient|friend|manager|landlord|boss)(?:{_A}?s)?\s+(?:full\s+)?name\b".replace(
        "{_A}", _A
    )
)
_NAME_ANSWER = re.compile(
    rf"\W*(?:(?i:its|it{_A}s|im|i{_A}m|sure|ok|okay|yes|yeah)\W+)?"
    rf"(?P<name>{_NAME}(?:\s+{_NAME}){{0,2}}|{_LOWER_NAME}(?:\s+{_LOWER_NAME}){{1,2}})[\s.!]*"
)
_SIGN_OFF = re.compile(
    r"(?:^|[.!?\n]\s*)(?i:thanks|thank\s+you|many\s+thanks|thx|ty|cheers|danke|danke\s+sch[öo]n"
    r"|merci|gracias|grazie|obrigad[oa]|tack|dzi[eę]kuj[eę]|kind\s+regards|best\s+regards"
    r"|regards)\s*,\s*"
    r"(?P<name>[A-Z][a-zà-öø-ÿ'’\-]+)\s*[.!]*\s*$"
)
# "thx a lot\n- sam": thanks, then the name alone on the last line after a dash (lower case
# too: at that place a word is a name)
_SIGN_OFF_LINE = re.compile(
    r"(?i:thanks|thank\s+you|thx|ty|cheers|danke|merci|gracias|grazie|obrigad[oa]|ta)\b[^\n]{0,40}"
    r"\n\s*[-–—~]\s*(?P<name>[A-Za-zà-öø-ÿ][a-zà-öø-ÿ'’\-]{1,14})\s*[.!]*\s*$"
)
# "why does pytest not find my tests. thx - mark", "can chef do something. regards ola": a name
# after a dash, or after "regards" without its comma, where the message ends (lower case too;
# a lower-case one there must be no English word, see _signed_off)
_SIGN_OFF_DASH = re.compile(
    r"(?:^|[.!?\s])(?:(?i:thanks|thank\s+you|thx|ty|cheers)\s*[-–—~]"
    r"|(?i:kind\s+regards|best\s+regards|regards)\s*,?)\s*"
    r"(?P<name>[A-Za-zà-öø-ÿ][a-zà-öø-ÿ'’\-]{1,14})\s*[.!]*\s*$"
)
# "can you write a firm email to my landlord ...\n\nthanks\nTomasz Wójcik": thanks on a line of
# its own, then the whole name alone on the last line
_SIGN_OFF_NEWLINE = re.compile(
    r"\n\s*(?i:thanks|thank\s+you|many\s+thanks|thx|ty|cheers|kind\s+regards|best\s+regards"
    r"|regards)\s*[,.!]?[ \t]*\n\s*"
    r"(?P<name>[A-Z][a-zà-öø-ÿ'’\-]+(?:[ \t]+[A-Z][a-zà-öø-ÿ'’\-]+){0,2})\s*[.!]*\s*$"
)
_NOT_SIGNED: Final = frozenset(
    _words(
        "lol haha ok okay thanks thx cheers bye xx xo anon me you all everyone guys team folks"
        " again later cya mate man bro dude"
    )
)
_PASTED_TEXT = _rx(
    r":\s*\n|^\W*(?:hi|hello|dear|hey|hallo|hola|bonjour)\s+\w+\s*,|\b(?:summari[sz]e|reply|respond"
    r"|answer|translate|proofread|forward(?:ed)?|paste[d]?|this\s+(?:email|message|mail|text|note"
    r"|letter)|from\s+(?:my|the|a|our|his|her)\s+\w+|(?:he|she|they)\s+(?:wrote|said|sent))\b",
)
_ASSISTANT_NAMES: Final = frozenset(
    _words("claude chatgpt gpt gemini copilot siri alexa bard bot assistant ai chat mate buddy")
)
# "i go by rob", "pls call me jen": a nickname, checked against the name given (see
# _nickname_of_name)
_NICKNAME_SAID = _rx(
    r"\b(?:i\s+(?:usually\s+|always\s+|just\s+|mostly\s+)?go\s+by|call\s+me)\s+"
    r"(?P<nick>[a-z]{2,12})(?=\s*$|\s*[,.;!]|\s+(?:so|and|but|pls|please|instead|too|btw)\b)"
)
# Read on the whole message (the commas end clauses): "its for my mum's restaurant, Mama Titi's
# Kitchen, ive been working there with her since i finished school": a named business the user
# then says they work at
_BUSINESS_WORKED_THERE = _rx(
    rf"\b(?:my|our)\s+(?:[\w'’]+\s+)?(?:{_OWN_BUSINESS})\s*,\s*(?P<org>{_ORG})\s*,\s*"
    rf"(?:and\s+|where\s+)?i(?:{_A}?ve\s+been|\s+have\s+been|{_A}?m|\s+am)?\s+"
    rf"(?:still\s+|also\s+)?work(?:ing)?\s+(?:there|for\s+(?:her|him|them))\b"
)
# Read on the whole message (a bracket ends a clause): "at my current job (standard bank) we're
# on python 3.11", and "I am the qa engineer in the team (at zalando, 2 years now)" after the job
# the message stated
_CITY_AFTER_COMMA = re.compile(r"\s*,\s*([^\W\d_][\w'’.\-]*)")
_HOME_IN_BRACKETS = _rx(
    r"\b(?:where\s+(?:i|we)\s+(?:currently\s+|now\s+)?live|(?:my|our)\s+(?:town|city"
    r"|village|area|neighbou?rhood|suburb))\s*\(\s*(?P<place>[^()\n,;]{2,40}?)\s*\)"
)
_EMPLOYER_IN_BRACKETS = _rx(
    rf"\b(?:(?:at\s+|in\s+)?my\s+(?:current\s+|new\s+|day\s+)?(?:job|company|employer|workplace)"
    # "at work (deloitte) we have to log hours": the workplace said in brackets
    rf"|(?:^\W*|[,.;!?]\s*)at\s+work)\s*"
    rf"\(\s*(?P<org>[a-z][\w&'’.\-]*(?:\s+[\w&'’.\-]+){{0,2}}?)\s*\)"
    rf"|{_I_AM}\s+(?:an?\s+|the\s+)?(?:[\w\-]+\s+){{0,3}}?(?P<role>{_ROLE_HEAD})\b[^().;!?\n]{{0,30}}"
    rf"\(\s*(?:at|with|for)\s+(?P<org2>[a-z][\w&'’.\-]*(?:\s+[\w&'’.\-]+){{0,2}}?)\s*[,)]"
)


def _workplace_named(said: str) -> str | None:
    """A workplace a frame names in lower case, when it is no venue, place or English word."""
    said = said.casefold()
    if (known := known_employer(said)) is not None:
        return known
    if (
        said in _VENUES
        or said in _NOT_EMPLOYER_IN
        or canonical_place(said)
        or is_town(said)
        or (" " not in said and is_common_word(said))
    ):
        return None
    return said.title()


_IN_END = _rx(r"\bin\s+$")
_VENUES: Final = frozenset(
    _words(
        "home work school uni college church gym airport station hospital office hotel beach"
        " mall park library cafe pub bar church mosque temple"
    )
)


_TOOLS: Final = frozenset(
    _words(
        "excel jira figma tableau docker aws azure gcp linux windows wordpress photoshop autocad"
        " revit sql python java javascript typescript react angular vue node django rails php"
        " kotlin swift go rust c# c++ .net dotnet kubernetes terraform power bi matlab spss stata r"
        " sketch git"
    )
)


_COUNT_TAIL = re.compile(r"\s+\d{1,2}$")
_TIME_AGO = re.compile(r"\s+(?:days?|weeks?|months?|years?|yrs?)\s+ago\b", re.IGNORECASE)


_AT_FOR_END = _rx(r"\b(?:at|for)\s+$")


# "I work in construction like supervisor", "working in hotel as receptionist": a field or a
# kind of workplace said before the job ("working in allegro as qa tester" names a company)
_FIELDS_OF_WORK: Final = frozenset(
    _words(
        "construction manufacturing agriculture farming mining shipping transport transportation"
        " aviation nursing childcare care catering recruitment property telecoms telecom energy law"
        " medicine dentistry architecture design gaming film fashion beauty security cleaning"
        " warehouse warehousing oil gas automotive tourism nonprofit charity software hardware"
        " infrastructure data analytics production maintenance operations kitchen hotel restaurant"
        " bar cafe shop store factory bank hospital school office lab laboratory clinic pharmacy"
        " supermarket airport port garage salon hotels restaurants bars shops factories kitchens"
        " schools hospitals banks labs clinics construction physio physiotherapy it hr qa pr ux ui"
        " ict ops devops secops admin sales marketing finance tech retail healthcare education"
        " hospitality logistics insurance banking consulting engineering accounts accounting legal"
        " compliance procurement support research government academia media publishing fintech"
        " pharma icu nicu er ward theatres"
    )
)
_WORK_FIELDS: Final = frozenset(
    {"r&d", "a&e", "it support", "customer service", "customer support", "human resources"}
    | set(
        _words(
            "it hr qa pr ux ui ict ops devops secops admin sales marketing finance tech retail"
            " healthcare education hospitality logistics insurance banking consulting engineering"
            " accounts accounting legal compliance procurement support research government academia"
            " media publishing fintech pharma icu nicu er ward theatres"
        )
    )
)


_COUNTRY_AFTER = re.compile(
    r"\s+(?P<c>egypt|india|pakistan|bangladesh|nigeria|kenya|ghana|uganda|tanzania|ethiopia"
    r"|philippines|indonesia|malaysia|singapore|vietnam|thailand|japan|korea|china|australia"
    r"|brazil|mexico|argentina|colombia|chile|peru|germany|france|spain|italy|poland|ireland"
    r"|uk|usa|canada|turkey|uae|qatar|morocco|portugal|netherlands|sweden)\b"
)


_NEXT_TWO_WORDS = re.compile(r"\s+([\w&'’.\-]+)(?:\s+[\w&'’.\-]+)?")
_NEXT_WORD_AFTER_ORG = re.compile(r"\s+([a-z]+)\b")
# what may follow a one-word workplace in chat without being part of its name
_RUNS_ON_AFTER_ORG: Final = frozenset(
    _words(
        "as and or but now since for in on at with from to of by about after before until till"
        " today yesterday tomorrow tonight lol btw tho though rn so because cos coz where which"
        " who when while full part remote these this that last next every already still too"
        " also the a an my our its is was are were it i we they he she you u then there here"
        " mostly mainly currently right haha lmao ok okay pls thanks thx ty not no yet again"
        " just only even atm fyi tbh idk imo if than like"
    )
)
_NAME_LINKS: Final = frozenset({"&", "and", "n", "of"})
_NAME_PARTICLES: Final = frozenset(_words("de do da dos das del di of"))
_INSTITUTION_FIRST_WORD = re.compile(_INSTITUTION_FIRST)
# "pharmacist at severance hospital": an institution named right after "at" or "in", no article
_BARE_AT_END = _rx(r"\b(?:at|in|for|with)\s+$")
# ... unless the word only describes it: "at private hospital", "in local council"
_GENERIC_ORG_WORDS: Final = frozenset(
    _words(
        "local private public small big large tiny huge new old main nearby same another other"
        " different government state district regional rural city town county national general"
        " teaching children childrens kids community family central university medical dental"
        " animal pet vet veterinary primary secondary high middle junior senior international"
        " my our his her their your this that some any every each one two few many the a an"
    )
)


def _title_name(said: str) -> str:
    """A name typed in lower case, written as a name: "fold & fable" is Fold & Fable."""
    return " ".join(w if w in _NAME_LINKS else w[:1].upper() + w[1:] for w in said.split())


_BUSINESS_AFTER = _rx(
    r"\s+(bakery|cafe|café|salon|pharmacy|chemist|garage|pizzeria|restaurant|bistro|deli|barbers"
    r"|butchers|florist|bookshop|bakehouse|brewery|dental|surgery|kitchen|bar|pub|hotel|gym)\b"
)


_PLACE_BASED = re.compile(r"([A-Za-z][\w'’]+)[- ]based\s+(?=\S)", re.IGNORECASE)
_AMPERSAND_NAME = re.compile(r"\s*&\s*([a-z][a-z'’\-]{1,19})\b")


_ARTICLES_AND_OWNERS: Final = frozenset(_words("the a an my our your his her their this that"))


_DAY_WORDS: Final = frozenset(
    _words(
        "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs"
        " fri sat sun today tomorrow tmrw yesterday tonight weekend"
    )
)


def _org(org: str, after: str, before: str = "") -> str | None:
    """The organization a work pattern captured, or ``None`` if it is not one.

    Capitalised names are taken as typed; a lower-case one ("at spotify") only when it is a
    single word that is neither an English word nor a place, and it is then capitalised.
    """
    # "started at Monzo 2 weeks ago": the number counts the weeks
    if (number := _COUNT_TAIL.search(org)) and _TIME_AGO.match(after):
        org = org[: number.start()]
    # "started monday as a backend engineer": a day, never a workplace
    if org.casefold() in _DAY_WORDS:
        return None
    if org[:1].islower():
        # "still at globe telecom", "im at deutsche bank": a known name of several words, the
        # capture's first word only
        if (more := _NEXT_TWO_WORDS.match(after)) is not None:
            for extra in (more.group(0), more.group(1)):
                if extra and (longer := known_employer(f"{org} {extra}")) is not None:
                    return longer
        if (known := known_employer(org)) is not None:
            # "at vodafone egypt", "deloitte india": the country's company is named with it
            if country := _COUNTRY_AFTER.match(after):
                return f"{known} {country.group('c')}"
            return known
        words = org.split()
        # "hospital santa maria": a name after the institution word, not "hospital today"
        if len(words) > 1 and _INSTITUTION_FIRST_WORD.fullmatch(words[0]):
            if not any(w not in _NAME_PARTICLES and not is_common_word(w) for w in words[1:]):
                return None
            return " ".join(w if w in _NAME_PARTICLES else w[:1].upper() + w[1:] for w in words)
        if len(words) > 1:  # "leeds city council": _ORG took it for its institution word
            # "st marys hospital": a saint's name is a name
            if (
                is_common_word(words[0])
                and not canonical_place(words[0])
                and words[0].casefold() not in ("st", "st.", "saint")
                # "been with the national ambulance service": a national body's name
                and not (
                    len(words) > 2
                    and words[0].casefold() in ("national", "state", "federal", "royal")
                    and before.casefold().endswith("the ")
                )
                # "pharmacist at severance hospital": an English word names the institution
                # when no article or describing word comes with it ("the local hospital", "a
                # big bank", "at private hospital" name none)
                and (
                    not _BARE_AT_END.search(before)
                    or words[0].casefold() in _GENERIC_ORG_WORDS
                    or len(words) > 2
                )
                # "north bristol nhs trust": a place or a word no dictionary has names it (never
                # what follows an article: "a big local hospital")
                and not (
                    words[0].casefold() not in _ARTICLES_AND_OWNERS
                    and any(
                        canonical_place(w) or not is_common_word(w)
                        for w in words[1:-1]
                        if len(w) > 2
                    )
                )
            ):
                return None
            return " ".join(w[:1].upper() + w[1:] for w in words)
        # ("a plumber with dyno-rod": a hyphen joins a name's parts)
        if (
            is_common_word(org)
            or canonical_place(org)
            or not org.rstrip(".").replace("-", "").isalnum()
        ):
            return None
        # "a junior accountant at kellard & finch": a firm of two names
        if (pair := _AMPERSAND_NAME.match(after)) is not None:
            return f"{org[:1].upper() + org[1:]} & {pair.group(1)[:1].upper() + pair.group(1)[1:]}"
        # "i work mornings at kowalskis bakery": a business named with what it is
        if (kind := _BUSINESS_AFTER.match(after)) is not None:
            return f"{org[:1].upper() + org[1:]} {kind.group(1).title()}"
        # "i work at scottish widows": a lower-case word running on into a noun is the first
        # word of a firm's name no list knows; alone it would be a wrong name
        if (
            (nxt := _NEXT_WORD_AFTER_ORG.match(after)) is not None
            and (word := nxt.group(1)) not in _RUNS_ON_AFTER_ORG
            and is_common_word(word)
            and not word.endswith(("ing", "ly", "ed"))
        ):
            return None
        return org[:1].upper() + org[1:]
    if not _entity_ok(org, after) or not any(ch.isupper() for ch in org.split()[0]):
        return None
    # "i work in IT as a sysadmin", "in HR at unilever": a field or a department
    if org.casefold() in _WORK_FIELDS:
        return None
    # "a developer working with Python since 2015": a tool, not a workplace; "a designer at
    # Figma", "i work for Docker" name the company that makes it
    if org.casefold() in _TOOLS and not _AT_FOR_END.search(before):
        return None
    # "working in Infosys Pune as ...", "at Deloitte London": a known employer with the city of
    # its office, which is where the user works, not part of the name (a country stays with
    # it, as for "deloitte india" above)
    if (
        len(words := org.split()) > 1
        and known_employer(" ".join(words[:-1])) is not None
        and canonical_place(words[-1]) is not None
        and _COUNTRY_AFTER.match(f" {words[-1].casefold()}") is None
    ):
        return " ".join(words[:-1])
    return org


_OF_HOME = _rx(
    r"\s+(?:of|in)\s+(?:this|the|my|our)\s+(?:house(?:hold)?|home|family|flat|apartment|kitchen"
    r"|couch|sofa|friend\s+group|group\s+chat|squad|marriage|relationship)"
    r"(?=\s*(?:$|[,.;!?()])|\s+(?:lol|haha|lmao|and|but|so|i)\b)"
)


# "a staff nurse here in Dubai, working in Mediclinic for 3 years": "in" names the employer
# here only after "working" (and _rule_work refuses a town)
_ORG_AFTER_PLACE = re.compile(
    rf"\s*,?\s+(?:(?i:working|employed)\s+)?(?i:at|with|for|(?<=working\s)in)\s+(?P<org>{_ORG})"
)


# A conjunct without its own subject ("... and work at Tesco as a cashier") is said of the
# subject of the clause before it
_BY_TRAINING_BUT = _rx(
    r"\s+by\s+(?:training|degree|education|qualification|background)\s*,?\s+but\b"
)
_CONJUNCT_WORK = _rx(r"(?:\band|,)\s+(?:now\s+|also\s+)?work(?:ing)?\b")
_PRONOUN = _rx(r"\b(?:i|im|i['’]m|i['’]ve|ive|he|she|they|you|u|we|his|her|their|your)\b")


_NOT_MY = _grx(rf"\bnot\s+(?:my|our)\s+(?P<noun>{_PET_SURFACE}|{_REL_SURFACE})\b", "not")
_NOT_REALLY_MY = _rx(
    rf"\b(?:she|he|they|shes|hes)(?:{_A}?s|{_A}re|\s+is|\s+are)?\s+not\s+(?:actually|really"
    rf"|technically|literally)\s+(?:my|our)\s+(?P<noun>{_PET_SURFACE}|{_REL_SURFACE})\b"
)
_OTHERS_KIDS = _grx(
    r"\b(?:sister|brother|friend|neighbou?r|cousin|niece|nephew|colleague|coworker)(?:['’]?s)?"
    r"\s+(?:twins|kids|children|boys|girls|little\s+ones)\b|\bbaby-?sitting\b",
    "twins kids children boys girls ones babysitting baby",
)
# The user's own pronouns as subjects, and "we" of the user's team or household
_USER_PRONOUNS: Final = frozenset({"i", "im", "i'm", "i’m", "i've", "i’ve", "ive", "we"})
_NOW_TOOL = _rx(
    r"\W*(?:but\s+)?now\s+(?:it['’]?s\s+)?(?:pnpm|yarn|npm|poetry|uv|pipenv|bun|conda)\b"
)


_SUBJECTLESS_VERB = _rx(
    r"\W*(?:(?:and|but|so|then|now|also|just|recently)\s+)*(?:been|joined|started|moved|working"
    r"|worked|living|lived|based|studying|married)\b"
)


def _said_of_another(before: str) -> bool:
    """Whether what ``before`` says is said of someone other than the user, the assistant
    addressed aside ("can u make this shorter for my cv: been a paralegal for 6 years")."""
    pronouns = [m.group().casefold() for m in _PRONOUN.finditer(before)]
    last = next((p for p in reversed(pronouns) if p not in ("you", "u", "your")), None)
    if last is not None:
        return last not in _USER_PRONOUNS
    return _ANOTHER_PERSON.search(before) is not None


def _another_subject(c: str, start: int) -> bool:
    """Whether the clause before ``start`` is said of someone other than the user: its last
    pronoun is not the user's, or it has none and names another person ("my sister lives in
    leeds and work at Tesco")."""
    last = next(reversed([*_PRONOUN.finditer(c, 0, start)]), None)
    if last is not None:
        return last.group().casefold() not in ("i", "im", "i'm", "i’m", "i've", "i’ve", "ive")
    return _ANOTHER_PERSON.search(c, 0, start) is not None


# "currently i teach maths at a secondary school": the subject's teacher
_SUBJECT_SPELLING: Final = {"esl": "ESL", "pe": "PE"}
_LEVEL_WORDS: Final = frozenset(_words("fluent fluently native beginner learning basic"))
_SCHOOL_LEVELS: Final = frozenset(_words("primary secondary high middle elementary"))
_TEACH_AT_SCHOOL = _grx(
    r"\bi\s+(?:(?:also|mainly|mostly|still|now|currently)\s+)?teach\s+(?:[\w\-]+\s+){0,3}?at\s+"
    r"(?P<org>(?!(?:a|an|the|my|our|this|that)\b)[a-z][\w'’\-]+(?:\s+[a-z][\w'’\-]+)?\s+(?:academy"
    r"|school|college|high|primary|grammar|university|lyc[eé]e|liceo|gymnasium))\b",
    "teach",
)
_TEACHES = _grx(
    r"\bi\s+(?:(?:also|mainly|mostly|still|now|currently|actually)\s+)?teach\s+"
    # "I teach high school chemistry": the school's level is part of the title
    r"(?P<level>(?:high|middle|primary|secondary)\s+school\s+)?(?P<subject>maths|math"
    r"|english|esl|french|spanish|german|italian|history|science|physics|chemistry|biology"
    r"|geography|music|art|drama|pe|computer\s+science|computing|economics|piano|guitar|violin"
    r"|yoga|pilates|swimming|dance|ballet)\b"
    r"(?!\s+(?:to\s+)?(?:my|our|his|her)\s+(?:kids?|son|daughter|children|boys?|girls?)\b)"
    # ... where it is a job (said with the school's level, or at a school, to years and
    # classes, for a living)
    r"(?(level)|(?=\s+(?:(?:at|in)\s+(?:a|an|the|my|our)?\s*(?:[\w\-]+\s+){0,2}?(?:school|college|uni"
    # ("i teach maths at a lycee here in lyon", "at a liceo", "at the gymnasium")
    r"|university|academy|studio|gym|high|secondary|primary|sixth\s+form|lyc[eé]e|liceo|gymnasium"
    r"|coll[eè]ge|instituto|escola|escuela)\b|to\s+(?:year|grade|ks)"
    r"|year\s+\d|ks\d|gcse|a[- ]levels?|full[- ]time|part[- ]time|for\s+a\s+living"
    r"|professionally)"
    # "i teach yoga, mostly small batches": a class one teaches is taught for work
    r"|(?:(?<=yoga)|(?<=pilates)|(?<=dance)|(?<=ballet))"
    # (a bare "i teach yoga" may be a friend's lesson)
    r"(?=\s*,?\s+(?:classes|mostly|mainly|full[- ]time|part[- ]time|for\s+work)\b)))"
    # "i teach at a school so weekdays im stuck": a teacher at a school, subject unsaid
    r"|\bi\s+(?:(?:also|mainly|mostly|still|now|currently|actually)\s+)?teach\s+(?:at|in)\s+"
    r"(?:a|an|the)\s+(?P<school>(?:primary|secondary|high|middle|elementary|local|private|public"
    r"|state|catholic|international|language)\s+)?school\b",
    "teach",
)


def _activity_title(act: str, what: str | None) -> str | None:
    """The title of a job said by what the user does ("i farm sheep": a sheep farmer)."""
    act = " ".join(act.casefold().split())
    if act == "farm":
        if what and what.casefold() in ("sheep", "cattle", "goats", "dairy"):
            return f"{what.casefold()} farmer"
        return "farmer"
    return _ACTIVITY_TITLES.get(act)


# "i manage the oxfam shop on gloucester road": the title the managed site gives, and the
# employer when the site is named by a known one
_MANAGE_SITE = _grx(
    r"\bi\s+(?:(?:currently|now|also|still|actually)\s+)?manage\s+(?:the|a|an)\s+"
    r"(?:(?P<org>[\w&'’\-]+)\s+)?(?P<site>shop|store|branch|cafe|café|restaurant|pub|bar|salon"
    r"|gym|hotel|warehouse|depot|office|pharmacy|bakery)\b",
    "manage",
)


_AS_IN_ORG = re.compile(r"\s+as\s+", re.IGNORECASE)


def _with_the(org: re.Match[str], group: str, value: str) -> str:
    """ "sous chef at The Star Inn": a "the" typed with a capital before a capitalised name is
    part of the name; "at the royal infirmary", "at the rvi" name the infirmary."""
    the = org.group("the") if group == "org" else None
    if the and the[:1] == "T" and org.group(group)[:1].isupper():
        return value if value.casefold().startswith("the ") else f"The {value}"
    return value


_ACADEMIC_HEADS: Final = frozenset(_words("professor lecturer reader"))
_ACADEMIC_FIELD = re.compile(
    r"\s+((?:of|in)\s+(?!(?:the|a|an|my|our)\b)(?P<subject>[a-z]+)(?:\s+(?:science|studies"
    r"|engineering|history"
    r"|law|medicine|literature))?)(?=\s*$|\s*[,.;!?]|\s+(?:at|since|for|in|and|but|so|now)\b)"
)


def _rule_work(c: str, mask: int) -> Iterator[_Hit]:
    for m in _ACTIVITY.finditer(c, mask):
        if (title := _activity_title(m.group("act"), m.group("what"))) is not None:
            yield _Hit("occupation", {"role": title}, m.span())
    for m in _TEACHES.finditer(c, mask):
        if m.group("subject") is None:
            # "i teach at a primary school": the school's level names the title
            level = (m.group("school") or "").casefold().split()
            title = (
                f"{level[0]} school teacher" if level and level[0] in _SCHOOL_LEVELS else "teacher"
            )
            yield _Hit("occupation", {"role": title}, m.span())
            continue
        subject = " ".join(m.group("subject").casefold().split())
        level = " ".join((m.group("level") or "").casefold().split())
        title = f"{level} {_SUBJECT_SPELLING.get(subject, subject)} teacher".lstrip()
        yield _Hit("occupation", {"role": title}, m.span())
    # "i teach chem at ashfield academy": the school taught at, named
    for m in _TEACH_AT_SCHOOL.finditer(c, mask):
        if (school := _org(m.group("org"), c[m.end("org") :], c[: m.start("org")])) is not None:
            yield _Hit("employer", {"org": school}, m.span())
    for pattern in _OCCUPATION:
        for m in pattern.finditer(c, mask):
            # "they live in leeds and work at Tesco as cashiers": the conjunct is theirs
            if _AND_BEFORE.search(c, 0, m.start()) and _another_subject(c, m.start()):
                continue
            # "as a student i was broke": a frame is what the user is only if they speak in it now
            if pattern is _AS_A_ROLE and (
                _PAST.search(c[m.end() :], mask) or _PAST.search(c[: m.start("role")], mask)
            ):
                continue
            subject_of = ""
            if "subject" in m.re.groupindex:
                role = f"{m.group('subject')} {m.group('head')}"
            else:
                groups = m.groupdict()
                said_in = next((g for g in ("role", "role2", "role3") if groups.get(g)), None)
                role = m.group(said_in) if said_in else ""
                # "assistant professor of chemistry", "lecturer in economics": the academic title
                # with its subject, as said
                if (
                    said_in
                    and role.casefold().split()[-1] in _ACADEMIC_HEADS
                    and (field := _ACADEMIC_FIELD.match(c, m.end(said_in)))
                    # ... a subject, never where or when ("a lecturer in leeds", "in june")
                    and is_common_word(subject := field.group("subject").casefold())
                    and not is_town(subject)
                    and subject not in _MONTH_WORDS
                    and subject not in _RELATIVE_DAYS
                ):
                    subject_of = " " + " ".join(field.group(1).split())
                # "veterinarian for big animals": which animals, as said
                if (
                    said_in
                    and role.casefold().split()[-1] in ("vet", "veterinarian")
                    and (animals := _VET_FIELD.match(c, m.end(said_in)))
                ):
                    subject_of = " " + " ".join(animals.group(1).split())
            field_of_work = (
                m.group("org")
                if "org" in m.re.groupindex
                and m.group("org")
                and m.group("org").isalpha()
                and m.group("org").islower()
                and m.group("org").casefold() in _FIELDS_OF_WORK
                and _IN_END.search(c, m.start(), m.start("org"))
                else None
            )
            if field_of_work:  # "I work in construction like supervisor"
                role = f"{field_of_work} {role}"
            # "freelancing as illustrator": a freelance illustrator
            if "freelance" in m.re.groupindex and m.group("freelance"):
                role = f"freelance {role}"
            # "a 2nd year nursing student": the year is not part of the title; "im just data
            # analyst now": nor is an adverb
            role = _ROLE_ADVERB.sub("", _STUDY_YEAR.sub("", role))
            # "im an rn": a registered nurse only after its article ("im rn at the office" is
            # chat's "right now")
            if role.casefold().split()[-1:] == ["rn"] and not re.search(
                rf"\ban?\s+{re.escape(role)}\b", m.group(), re.IGNORECASE
            ):
                continue
            # "an IT analyst": a modifier typed in capitals is an acronym, not the pronoun "it"
            modifiers = [
                w.casefold() for w in role.split()[:-1] if not (w.isupper() and len(w) > 1)
            ]
            if any(w in _ROLE_MOD_BLOCK or w.endswith(("'s", "’s")) for w in modifiers):
                continue
            # "as the CEO of this household (the dishes disagree)": a title of home is a joke
            said_role = "role" in m.re.groupindex and m.group("role")
            if _OF_HOME.match(c, m.end("role") if said_role else m.end()):
                continue
            # "im a nurse by training but work in it now": a past training, not the job
            if _BY_TRAINING_BUT.match(c, m.end("role") if said_role else m.end()):
                continue
            # "im a munich based designer", "london-based dev here": where the job is done is
            # where the user lives, and no part of the title
            if (based := _PLACE_BASED.match(role)) and (place := canonical_place(based.group(1))):
                role = role[based.end() :]
                yield _Hit("home_location", {"place": based.group(1)}, m.span())
            hit = _Hit("occupation", {"role": role + subject_of}, m.span())
            # "as a UX designer i have a portfolio review next week": the frame is said of the
            # user whatever the main clause says of its own time
            hit.phrase = pattern is _AS_A_ROLE
            yield hit
            if field_of_work:
                continue
            if "org" in m.re.groupindex and m.group("org"):
                if (
                    role.casefold().split()[-1] not in _STUDENT_HEADS
                    and (value := _org(m.group("org"), c[m.end("org") :], c[: m.start("org")]))
                    is not None
                ):
                    yield _Hit("employer", {"org": value}, m.span())
            elif role.casefold().split()[-1] in _STUDENT_HEADS:
                continue  # "a computer science student at ucd": a school, not an employer
            elif (
                (org := _ORG_AFTER_ROLE.match(c, m.end()))
                # "the night manager at a travelodge": a branch of a chain the lexicon knows
                and (not org.group("article") or known_employer(org.group("org") or "") is not None)
                and (not org.group("org3") or _in_employer(org.group("org3")))
                and (not org.group("org7") or known_employer(org.group("org7")) is not None)
                and (
                    said_org := next(
                        (
                            g
                            for g in ("org", "org2", "org3", "org4", "org5", "org6", "org7")
                            if org.group(g)
                        ),
                        "",
                    )
                )
                # after a comma, only a capitalised name ("still data analyst, still at nhs
                # digital" may end its name anywhere)
                and not (
                    "," in c[m.end() : org.start(said_org)] and org.group(said_org)[:1].islower()
                )
                # "a picker at the fulfilment centre": a kind of site, no one's name
                and not _generic_site(c, org.start(said_org), org.end(said_org))
                # Nigerian English "i be freelance developer for Lagos": where, not for whom
                # ("the HR manager for Kuda" is the firm's)
                and not (
                    _PIDGIN_BE.search(c, 0, org.start())
                    and canonical_place(org.group(said_org))
                    and known_employer(org.group(said_org)) is None
                )
                and (value := _org(org.group(said_org), c[org.end() :], c[: org.start(said_org)]))
            ):
                yield _Hit("employer", {"org": _with_the(org, said_org, value)}, m.span())
            # "im a developer in google", "an engineer in Nokia": a known employer that some
            # small town is also named after is where the title is held
            elif (there := _PLACE_AFTER_ROLE.match(c, m.end())) and (
                employer := known_employer(there.group("place"))
            ):
                yield _Hit("employer", {"org": employer}, (m.start(), there.end()))
            # "I'm a teacher in Leeds": a city after the role is where the user lives
            elif there and (place := canonical_place(there.group("place"))):
                yield _Hit("home_location", {"place": place}, (m.start(), there.end()))
                # "a staff nurse here in Dubai at Rashid Hospital"
                if (
                    (at := _ORG_AFTER_PLACE.match(c, there.end()))
                    and not canonical_place(at.group("org"))
                    and not is_town(at.group("org"))
                    and (value := _org(at.group("org"), c[at.end() :])) is not None
                ):
                    yield _Hit("employer", {"org": value}, (m.start(), at.end()))
    for m in _MANAGE_SITE.finditer(c, mask):
        site = m.group("site").casefold().replace("é", "e")
        yield _Hit("occupation", {"role": f"{site} manager"}, m.span())
        if employer := known_employer(m.group("org")):
            yield _Hit("employer", {"org": employer}, m.span())
    for m in _AT_AS_ROLE.finditer(c, mask):
        if (workplace := _workplace_named(m.group("org"))) is not None:
            yield _Hit("employer", {"org": workplace}, m.span())
    for pattern in _EMPLOYER:
        for m in pattern.finditer(c, mask):
            # "working in Siemens" (non-native) names an employer, "working in London" a place
            if (
                m.group("org")
                and _IN_END.search(c, m.start(), m.start("org"))
                and (canonical_place(m.group("org")) or is_town(m.group("org")))
            ):
                continue
            group = next(
                g
                for g in (
                    "org",
                    "org2",
                    "org3",
                    "org4",
                    "org5",
                    "org6",
                    "org7",
                    "org8",
                    "org9",
                    "named",
                )
                if m.groupdict().get(g)
            )
            said = m.group(group)
            # "i work at infosys as software tester": the title after "as" is no part of the name
            said = _AS_IN_ORG.split(said, maxsplit=1)[0]
            named = said.casefold()
            # what only staff have names an employer the lexicon knows ("my Accenture badge"),
            # never any name ("my Hogwarts badge")
            # ("the Spotify all-hands ran over", never his: "my" says whose the rest is)
            if pattern is _STAFF_THING and (
                known_employer(said) is None
                or (
                    c[m.start(group) - 4 : m.start(group)].casefold() == "the "
                    and _another_subject(c, m.start())
                )
            ):
                continue
            if _CONJUNCT_WORK.match(c, m.start()) and _another_subject(c, m.start()):
                continue
            # "my brother got promoted, same amazon site": the site is the brother's
            # ... as "my brother is a nurse, working at Boots" is his work
            if (
                pattern is _SAME_ORG_SITE or (pattern is _JOB_SINCE and group == "org3")
            ) and _another_subject(c, m.start()):
                continue
            if (
                pattern is _WORK_IN
                and (not m.group("office") or said[:1].islower())
                and known_employer(said) is None
            ):
                continue
            if m.groupdict().get("field") and m.group("field").casefold() not in _WORK_FIELDS:
                continue
            if (
                pattern in (_AT_ORG_WE, _SWITCHED_TO_ORG, _SAME_ORG_SITE, _WORK_WITH)
                and known_employer(said) is None
            ):
                continue
            # "still with Tom": a partner, not a workplace
            if (
                pattern is _STILL_WITH
                and known_employer(said) is None
                and not _INSTITUTION_WORD.search(said)
                and not (
                    _LOWER_INSTITUTION_END.search(said)
                    and said.split()[0].casefold() not in _GENERIC_ORG_WORDS
                )
            ):
                continue
            # ... and "im with vodafone", "im with HDFC bank" are a customer's: said plainly,
            # only a public body's name is a workplace ("im with kirklees council")
            if (
                pattern is _STILL_WITH
                and "still" not in m.group().casefold().split()
                and not _PUBLIC_BODY_END.search(said)
            ):
                continue
            if named in _VENUES or named in _NOT_EMPLOYER_IN:
                continue  # "I am at A2 now": a level, not a workplace
            # "i work at google": a large employer that is also a village is the employer
            # after a verb of work ("im at santander" may still be the city)
            if canonical_place(said) and (pattern is _IM_AT or known_employer(said) is None):
                continue
            # "been with Tom for 5 years" is a partner: a name carried over only from a job
            if (
                pattern is _JOB_SINCE
                and group != "org"
                and known_employer(said) is None
                and not _ROLE_SAID.search(c, 0, m.start())
                # ("been with the national ambulance service 6 yrs": an institution's name)
                and not _INSTITUTION_WORD_ANY.search(said)
            ):
                continue
            if group == "named":
                value = known_employer(said) or _title_name(said)
            else:
                value = _org(said, c[m.end(group) :], c[: m.start(group)])
            if value is not None:
                hit = _Hit("employer", {"org": value}, m.span())
                # "im at kpmg lol": a large employer's name vouches for itself, unless it is
                # also a shop or a cafe one may simply be at ("im at tesco")
                hit.needs_role = pattern is _IM_AT and (
                    known_employer(said) is None or named in _SHOP_EMPLOYERS
                )
                # "lost my Accenture badge this morning": the badge is the user's whatever the
                # clause's time, and so is the employer it names (quoted as the phrase)
                hit.phrase = pattern is _STAFF_THING
                yield hit


_ADVERBS = (
    r"(?:really|absolutely|just|totally|truly|genuinely|also|still|especially|do|much|honestly"
    r"|seriously|literally|kinda|lowkey|always|actually|personally|generally|usually|definitely"
    r"|def|both|all"
    # ... as typed fast: "i absolutly hate mushrooms", "i realy love"
    r"|absolutly|absolutley|realy|rly|totaly|truely|litterally|genuinly)"
)
# A verb of liking that opens a message or follows the user's own clause after a comma
# ("all my training is outside, love trail running": after the user's own "my" too)
_SUBJECTLESS = (
    r"(?:^\W*|(?:(?<=\bi\s)|(?<=\bmy\s))[^,;.!?]{1,40},\s*(?:and\s+)?)(?:(?:really|absolutely|totally|also"
    # ("still love jazz, thats never changing")
    r"|honestly|just|so|still)\s+)?"
)
_NOT_THE = r"(?!(?:the|that|this|these|those|your|ur|it|you|u)\b)"
_PREFERENCE = [
    # "i'm more of a tea person than coffee": the thing the user is a person of
    (
        "prefers",
        _grx(
            rf"{_I_AM}\s+(?:definitely\s+|really\s+|much\s+)?more\s+of\s+an?\s+"
            rf"(?P<verb>)(?P<obj>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?)\s+person\b",
            "person",
        ),
    ),
    # "im a die-hard Arsenal fan", "big jazz fan myself": the user's own (never "shes a massive
    # coldplay fan")
    (
        "likes",
        _grx(
            rf"{_I_AM}\s+(?:also\s+)?(?:a\s+)?(?:big|huge|massive|die-?hard|diehard|lifelong)\s+"
            rf"(?P<verb>)(?P<obj>[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)\s+fan\b(?!\s+of\b)"
            rf"|\b(?:big|huge|massive|die-?hard|diehard|lifelong)\s+"
            rf"(?P<obj2>[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)\s+fan\s+myself\b",
            "fan",
        ),
    ),
    # "bonsai is my big hobby": the thing, then what it is to the user
    (
        "likes",
        _grx(
            r"(?:^\W*|[,;]\s*|\b(?:and|but|so)\s+)(?P<verb>)"
            r"(?!(?:it|this|that|she|he|they|what|which)\b)(?P<obj>[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)"
            r"\s+is\s+my\s+(?:big\s+|biggest\s+|main\s+|favou?rite\s+|new\s+|great\s+|one\s+)?"
            r"(?:hobby|passion)\b",
            "hobby passion",
        ),
    ),
    # "horror is my thing", "ramen is more my thing these days"
    (
        "likes",
        _grx(
            # ("but yes jazz is my thing": the yes agrees, it is no part of the taste)
            r"(?:^\W*|[,;]\s*|\b(?:and|but|so|tbh|honestly)\s+)(?:(?:yes|yeah|yep|ok|well)\s+)?(?P<verb>)"
            r"(?!(?:it|this|that|she|he|they|what|which|there|here|one|the\s+\w+\s+thing)\b)"
            # ("im coeliac so gluten-free is my thing": a diet, which the diet rules read)
            r"(?!(?:gluten[\s-]free|dairy[\s-]free|vegan|vegetarian|veggie|keto|paleo|halal|kosher"
            r"|pescatarian)\s+is\b)"
            r"(?P<obj>[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)"
            r"\s+is\s+(?:more\s+|really\s+|totally\s+|very\s+much\s+|definitely\s+)?my\s+thing\b",
            "thing",
        ),
    ),
    # "tbh 80s synthpop is my absolute favourite music", "pho is my all time fave"
    (
        "likes",
        _grx(
            r"(?:^\W*|[,;]\s*|\b(?:and|but|so|tbh|honestly|ok|also)\s+)(?P<verb>)"
            r"(?!(?:it|this|that|she|he|they|what|which|there|here|one|this\s+one|that\s+one"
            r"|the\s+\w+\s+one|the\s+(?:first|second|third|last|other)(?:\s+\w+)?"
            r"|(?:option|number|no|version|draft|idea|pick)\b)\b)"
            r"(?P<obj>[a-z0-9][\w\-]*(?:\s+[a-z][\w\-]*)?)"
            r"\s+is\s+(?:still\s+|definitely\s+|honestly\s+)?my\s+(?:absolute\s+|all[- ]time\s+"
            r"|total\s+)?(?:favou?rite|fave|fav)(?:\s+(?:music|food|genre|band|snack|drink|dish"
            r"|cuisine|sport|show|game|colou?r|fruit|thing))?"
            r"(?=\s*(?:$|[,.;!?]|(?:tbh|lol|haha|ever|by\s+far|and|but|so)\b))",
            "favourite favorite fave fav",
        ),
    ),
    # "never liked jazz tbh", "i cant get into fantasy at all": a lasting dislike said with a
    # negation that is the verb itself
    (
        "dislikes",
        _grx(
            rf"(?:^\W*|[,;]\s*|\b(?:but|and|i|honestly|tbh|just)\s+)(?P<verb>never\s+(?:really\s+)?liked"
            rf"|(?:just\s+)?can{_A}?t\s+get\s+into)\s+(?!(?:it|that|this|them|him|her|the|a|an)\b)"
            rf"(?P<obj>[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)"
            rf"(?=\s*(?:$|[,.;!?]|(?:tho|though|lol|tbh|at\s+all|either|so|but|and)\b))",
            "liked get",
        ),
    ),
    # non-native "I am liking very much the jazz music": the present continuous of a taste,
    # said with its "very much" before the thing (never "im loving this weather")
    (
        "likes",
        _grx(
            rf"\b(?:i{_A}?m|im|i\s+am)\s+(?:really\s+)?(?P<verb>liking|loving|enjoying)\s+"
            rf"(?:very|so)\s+much\s+(?:the\s+)?"
            rf"(?!(?:it|that|this|them|him|her|you|u|your|my|here|there)\b)"
            rf"(?P<obj>[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)"
            rf"(?=\s*(?:$|[,.;!?]|(?:tho|lol|so|but|and|too|also)\b))",
            "liking loving enjoying",
        ),
    ),
    # "generally i am very much fond of paneer dishes", "im fond of jazz"
    (
        "likes",
        _grx(
            rf"\b(?:i{_A}?m|im|i\s+am)\s+(?:(?:very\s+much|very|really|so|quite|rather|always"
            rf"|generally)\s+)*(?P<verb>fond\s+of)\s+"
            rf"(?!(?:it|that|this|them|him|her|you|u|the|a|an|my|your)\b)"
            rf"(?P<obj>[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)"
            rf"(?=\s*(?:$|[,.;!?]|(?:tho|though|lol|so|but|and|too)\b))",
            "fond",
        ),
    ),
    # non-native "i am not liking cilantro at all, it taste like soap for me": the present
    # continuous of a lasting dislike
    (
        "dislikes",
        _grx(
            rf"\b(?:i{_A}?m|im|i\s+am)\s+(?P<verb>not\s+(?:at\s+all\s+)?liking)\s+"
            rf"(?!(?:it|that|this|them|him|her|the|a|an|my|your|how|what|when|where)\b)"
            rf"(?P<obj>[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)"
            rf"(?=\s*(?:$|[,.;!?]|(?:tho|though|lol|at\s+all|either|so|but|and|much|very)\b))",
            "liking",
        ),
    ),
    # "i always go for aisle seats": what the user picks whenever there is a choice
    (
        "prefers",
        _grx(
            r"\bi\s+(?:always|usually|normally|generally)\s+(?P<verb>go\s+for)\s+"
            r"(?!(?:a|an|the|it|that|this|one|something|anything|walks?|runs?|drinks?|coffee)\b)"
            r"(?P<obj>[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)(?=\s*(?:$|[,.;!?]|(?:tho|lol|but|and|so)\b))",
            "go",
        ),
    ),
    # "but musicals I cannot stand", "mushrooms i hate": the thing first
    (
        "dislikes",
        _grx(
            # ("horror is fine actually, its musicals i cant stand")
            rf"(?:^\W*(?:but\s+|and\s+)?|[,;]\s*(?:but\s+)?|\bbut\s+)(?:it{_A}?s\s+|its\s+)?"
            rf"(?!(?:and|but|so|or|she|he|they|it|you|i|we|this|that|which|who|people|the)\b)"
            rf"(?P<obj>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?)\s+"
            rf"(?P<verb>i\s+(?:really\s+|just\s+|honestly\s+)?(?:cannot|can{_A}?t)\s+stand)\b"
            rf"(?=\s*(?:$|[,.;!?]|(?:tho|though|lol|sorry|haha|at\s+all|either)\b))",
            "stand",
        ),
    ),
    (
        "likes",
        _grx(
            rf"\b(?:i|we)\s+(?:{_ADVERBS}\s+)*(?P<verb>love|like|enjoy|adore)\s+"
            # non-native "I like very much cycling"
            rf"(?:(?:very|so)\s+much\s+)?(?P<obj>[^;:]+)"
            # "i dont drink alcohol but love mocktails": the subject carries over
            rf"|\bi\s+(?:[\w'’]+\s+){{1,4}}?(?:but|and)\s+(?:{_ADVERBS}\s+)*"
            rf"(?P<verb2>love|enjoy|adore)\s+(?P<obj2>[^;:]+)",
            "love like enjoy adore",
        ),
    ),
    (
        "dislikes",
        _grx(
            rf"\b(?:i|we)\s+(?:{_ADVERBS}\s+)*(?P<verb>hate|dislike|detest|despise|loathe"
            rf"|can{_A}?t\s+stand|cannot\s+stand|(?:do\s+not|don{_A}?t)\s+(?:really\s+|much\s+)?"
            rf"(?:like|enjoy|care\s+for))\s+(?P<obj>[^;:]+)",
            "hate dislike detest despise loathe stand like enjoy care",
        ),
    ),
    (
        "prefers",
        _grx(
            # "we both prefer tea over coffee": the user among those who prefer it
            r"\b(?:i|we(?=\s+(?:both|all)\b))\s+"
            r"(?:(?:really|generally|usually|always|definitely|strongly|much|also|both|all)\s+)*"
            # "I prefer always short answers": the adverb is how often, not what
            r"(?P<verb>prefer)\s+(?:(?:always|usually|generally|mostly|really|definitely)\s+)?"
            r"(?P<obj>[^;:]+)",
            "prefer",
        ),
    ),
    # "i'd take tea over coffee any day": a choice the user always makes
    (
        "prefers",
        _grx(
            rf"\bi(?:{_A}?d|\s+would)\s+(?:always\s+|happily\s+|still\s+)?(?P<verb>take|pick|choose)"
            rf"\s+(?P<obj>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?\s+over\s+[^;:]+)",
            "take pick choose",
        ),
    ),
    (
        "likes",
        _grx(
            rf"(?P<verb>(?:{_I_AM}\s+|^\W*(?:also\s+|and\s+)?)(?:a\s+)?(?:really\s+)?(?:huge|big"
            rf"|great|massive|longtime|long-time)\s+fan\s+of|{_I_AM}\s+(?:really\s+|very\s+"
            # ("im obsessed w true crime"; "im way more into drum and bass")
            rf"|super\s+|(?:way|much|a\s+lot|far)\s+more\s+)?into|{_I_AM}\s+(?:(?:totally|so|kinda|completely|now)\s+)?(?:obsessed\s+(?:with|w/?)"
            rf"|addicted\s+to|passionate\s+about|crazy\s+about)"
            # "im a sucker for anything with miso"
            rf"|{_I_AM}\s+(?:(?:such|total|real|huge|big)\s+)?(?:a\s+)?(?:(?:such|total|real|huge|big)\s+)?"
            rf"sucker\s+for)\s+(?P<obj>[^;:]+)",
            "fan into obsessed addicted passionate crazy sucker",
        ),
    ),
    # "I am not a fan of dill at all", "not a big fan of mushrooms tbh"
    (
        "dislikes",
        _grx(
            rf"(?P<verb>(?:{_I_AM}\s+|^\W*(?:also\s+|and\s+|but\s+|honestly\s+)?)"
            rf"(?:really\s+|just\s+|honestly\s+)?not\s+(?:a\s+|the\s+)?(?:big\s+|huge\s+"
            rf"|massive\s+|great\s+)?fan\s+of)\s+(?P<obj>[^;:,]+)",
            "fan",
        ),
    ),
    (
        "likes",
        _grx(
            r"(?P<verb>\bmy\s+(?:all[- ]time\s+)?(?:favou?rite|fave?)\s+[a-z]+(?:\s+[a-z]+)?"
            r"\s+(?:is|are))\s+(?P<obj>[^;:]+)",
            "favorite favourite fav fave",
        ),
    ),
    # the subject left out, as chat does: "love spicy stuff", "i bike everywhere, love cycling"
    # (never "love the fossil dig", said of the assistant's suggestion; one item, to the comma)
    (
        "likes",
        _grx(rf"{_SUBJECTLESS}(?P<verb>love|adore)\s+{_NOT_THE}(?P<obj>[^;:,]+)", "love adore"),
    ),
    (
        "dislikes",
        _grx(
            rf"{_SUBJECTLESS}(?P<verb>hate|detest|loathe)\s+{_NOT_THE}(?P<obj>[^;:,]+)",
            "hate detest loathe",
        ),
    ),
]
_OBJECT_CUT = _rx(
    rf"\s+(?:and|but)\s+(?:i\s+)?(?:{_ADVERBS}\s+)*(?:love|like|enjoy|adore|hate|dislike|detest"
    rf"|despise|loathe|can{_A}?t\s+stand|prefer)\b|"
    r"\s+(?:because|but|when|whenever|since|so|especially|though|although|as|if|while|than"
    r"|over|rather|instead|more|most|a\s+lot|very\s+much|so\s+much|too|and\s+also|also|lately|these\s+days"
    r"|nowadays|in\s+general|generally|in|at|on|for|during|with|from|by|to|about|around|after"
    r"|before|every|each|now|anymore|any\s+more|which|that|who|where|whenever|myself|personally"
    r"|here|there|overall|anyway|honestly|tbh|lol|btw|haha|imo|fyi|always|usually|often"
    r"|sometimes|really|at\s+all|ever|a\s+bit|i|it|that|cause|cuz|coz|bc|po|lah|yaar|tho|full\s+stop"
    # "love tahini omg", "i cant stand slugs either": a cry or an echo after the thing
    r"|omg|omfg|ngl|lmao|lmfao|xd|either|as\s+well|ofc|obvs|obviously"
    # Nigerian English "me i love spicy food die": how much
    r"|die(?=\s*(?:$|[,.;!?]|\s(?:so|and|but|o)\b))"
    # "allergic to penicillin like i told u before": the user citing themself
    r"|(?:like|as)(?=\s+i\s+(?:already\s+)?(?:said|told|mentioned|wrote)\b)"
    # "i love hard scifi like the expanse": an example of the taste, not part of it
    r"|like(?=\s+(?:the|a|an)\s)"
    # "i hate coriander tastes like soap": what the thing is like, said of it
    r"|(?:tastes?|smells?|looks?|feels?|sounds?)(?=\s+like\b)"
    # "im allergic to nuts just fyi"
    r"|just\s+(?:fyi|so\s+you\s+know|in\s+case|btw|saying)"
    # "i love vindaloo the hotter the better"
    r"|the\s+\w+er\s+the\s+\w+er"
    r"|actually|though|esp|especially|irl|in\s+real\s+life|for\s+real|not|hehe+|hihi"
    # "i love smoothies and use it every morning": the subject's next verb
    r"|and\s+(?:use|get|make|go|have|take|do|eat|need|want|try|buy|cook|drink|play|watch"
    r"|listen|read|put|keep|work|am|was|will|can|should|would|could)"
    # a run-on's next clause: "i hate red eyes cant sleep on planes"
    r"|(?:can|don|won|didn|isn|doesn)['’]?t|(?:it|that)['’]s|i['’]?m|i['’]?ve|i['’]d|i['’]ll)\b"
    r"|[.!?]"
    r"|[^\w\s'’\-+#.&,]"
)
_OBJECT_BLOCK_FIRST: Final = frozenset(
    _words(
        "the a an to it it's its this that these those you your yours them him her his their our"
        " more most less"
        " my me us what which who how when where why being going getting doing having making"
        " taking listening talking trying using looking working living seeing hearing some any no"
        " not every each all both everything anything nothing something someone anyone everyone"
        " one ones thing things stuff way idea option options suggestion suggestions answer"
        " answers response plan version approach"
        # "i love spicy food, add like jalapeño or chipotle": a request follows, not a list
        " add make use put give include throw swap replace remove skip keep maybe pls please"
        # "i prefer u write it": who is to do it, typed short
        " u ya ur"
    )
)
_OBJECT_BLOCK_ANY: Final = frozenset(
    # ... "some" stands for a thing named before it ("is there lactose free ricotta? i like
    # adding some")
    _words("you your it it's this that them him her me us my our their his i i'm some")
)
_IDIOMS: Final = frozenset(
    {
        "mac and cheese",
        "rock and roll",
        "fish and chips",
        "salt and pepper",
        "peanut butter and jelly",
        "drum and bass",
        "rhythm and blues",
        "black and white",
        "bread and butter",
        "sweet and sour",
        "pen and paper",
        "dungeons and dragons",
    }
)


_LIST_SEP = re.compile(r"\s*,\s*(?:and\s+|or\s+)?")
_AND_OR = re.compile(r"(?i)\s(?:and|or)\s")
_COMMA_AND_OR = re.compile(r"(?i),\s*(?:and|or)\s")
_ITEM_SEP = re.compile(r"\s+(?:and|or|&)\s+", re.IGNORECASE)
_ITEM_WORD = re.compile(r"[\w'\-+#.&]+")
_TRAILING_AND = re.compile(r"\s+(?:and|or|&|n)\s*$", re.IGNORECASE)


def _object_items(raw: str, max_words: int, block_first: frozenset[str]) -> list[str]:
    cut = _OBJECT_CUT.search(raw)
    text = raw[: cut.start()] if cut else raw
    # "i hate mushrooms and every veggie option ...": the "and" of what was cut goes with it
    text = _TRAILING_AND.sub("", text)
    items: list[str] = []
    parts = _LIST_SEP.split(text.strip())
    if not _AND_OR.search(parts[-1]) and not _COMMA_AND_OR.search(text):
        # without a closing "and"/"or" the comma ends the object rather than a list of them
        parts = parts[:1]
    for part in parts:
        part = part.strip()
        if not part:
            break
        pieces = [part] if part.casefold() in _IDIOMS else _ITEM_SEP.split(part)
        for piece in pieces:
            words = piece.casefold().replace("’", "'").split()
            # "i hate strong perfumes, and mariam same": someone who shares the taste
            if len(words) > 1 and words[-1] in ("same", "too", "also") and items:
                return items
            if (
                not words
                or len(words) > max_words
                or words[0] in block_first
                or any(w in _OBJECT_BLOCK_ANY for w in words)
                or not all(_ITEM_WORD.fullmatch(w) for w in words)
            ):
                return items
            # "i always prefer proper black tea": how real the thing is, not which thing; "we
            # both love really spicy food": how spicy, not which food
            if len(words) > 1 and words[0] in ("proper", "decent", "really", "very", "super"):
                piece = piece.split(None, 1)[1]
            items.append(piece)
    return items


_TO_BE_CALLED = re.compile(r"(?i)(?:to\s+be|being)\s+called\b")
_FOR_THIS = _rx(
    r"\b(?:here|for\s+this(?:\s+(?:one|slide|answer|recipe|email|post|doc|trip|time|purpose|use"
    r"|job|task))?|this\s+time|for\s+now|for\s+today)(?=\s*(?:[,.;!?]|$))"
)
_PICKED = _rx(
    r"^(?:the|that|this|your|ur)\s+(?:[\w\-]+\s+){0,2}(?:version|draft|option|one|ones|idea"
    r"|suggestion|answer|reply|layout|design|wording|title|format|choice|variant|rewrite|template"
    r"|paragraph|intro|ending|summary|recipe|plan|itinerary|route|list)s?"
    r"(?:\s+(?:better|more|most|best|instead))?$"
)


_ASSISTANT_MESSAGE: Final = "assistant.message.created"
_DEFINITE = _rx(r"\s*(?:the|that|this|those|these|your|ur)\s")


def _offered(clause: str, hit: _Hit, reply: str) -> bool:
    """Whether a liking names, with "the" or "that", a thing the assistant's reply just offered
    ("a split playlist could work" / "haha i like the playlist")."""
    if hit.kind != "preference" or hit.verb is None or not _DEFINITE.match(clause, hit.verb[1]):
        return False
    head = (hit.values.get("object") or "").casefold().split()[-1:]
    if not head:
        return False
    word = head[0].removesuffix("s")
    return re.search(rf"\b{re.escape(word)}(?:s|es)?\b", reply, re.IGNORECASE) is not None


_PREF_VERBS = rf"love|like|enjoy|adore|hate|dislike|detest|despise|loathe|can{_A}?t\s+stand|prefer"
_AND_PREF = _rx(
    rf"\s+(?:and|but)\s+(?:i\s+)?(?:{_ADVERBS}\s+)*(?P<verb>{_PREF_VERBS})\s+(?P<obj>[^;:]+)"
    # "i hate mushrooms with a passion, love spicy food": a list of likes and dislikes
    rf"|\s*,\s*(?:and\s+|but\s+)?(?:i\s+)?(?P<verb2>love|like|enjoy|adore|hate|dislike|detest)"
    rf"\s+(?P<obj2>[^;:,]+)"
)
_POLARITY_OF: Final = {
    **dict.fromkeys(("love", "like", "enjoy", "adore"), "likes"),
    **dict.fromkeys(("hate", "dislike", "detest", "despise", "loathe"), "dislikes"),
    "prefer": "prefers",
}
_AS_ROLE_BEFORE = _rx(rf"\bas\s+(?:an?\s+|the\s+)?(?:[\w\-]+\s+)?{_ROLE_HEAD}\s*,?\s*$")
_PREF_HEAD = _grx(
    rf"\bi\s+(?:{_ADVERBS}\s+)*(?:{_PREF_VERBS})\s",
    "love like enjoy adore hate dislike detest despise loathe stand prefer",
)


_QUALIFIED = _rx(
    r"\s*[\w'\-]+ing\s+(?:at|in|on|during|after|before|with|without|when|alone|late|early)\b"
    # "i hate small talk in elevators", "pineapple on pizza": a noun and where or how it comes
    # ("i prefer bullet points in general": how widely, not where)
    r"|\s*[a-z]+(?:\s+[a-z]+)?\s+(?:in|on|at|during)\s+(?!all\b|general\b)(?:the\s+)?[a-z]+s?"
    r"(?=\s*(?:$|[,.;!?)]|\s+"
    r"(?:so|but|because|and|or|btw|lol|tbh|haha|anyway)\b))"
)
_HOW_MUCH = _rx(
    r"\s+(?:with\s+(?:a|every)\s+(?:passion|fibre|fiber)|with\s+all\s+my\s+(?:heart|soul|being)"
    r"|more\s+than\s+anything|to\s+(?:death|bits|pieces)|like\s+crazy)\b"
)
# "i like mountains hiking in weekends", "love baking in my free time": when a liked thing is
# done says nothing about which thing ("i hate working on weekends" keeps it: the dislike is of
# the weekend work)
_WHEN_LIKED = _rx(
    r"\s+(?:on|in|at|during|over)\s+(?:the\s+)?(?:weekends?|week-ends?|sundays|saturdays|holidays"
    r"|(?:my\s+)?(?:free|spare)\s+time|my\s+days?\s+off)"
    r"(?=\s*$|\s*[,.;!?)]|\s+(?:so|but|because|and|or|btw|lol|tbh|haha|anyway)\b)"
)
_SHOUTED_VERB = re.compile(r"\b(?:LOVE|LOOOVE|ADORE|ENJOY|LIKE)\b")
_AND_GOES_ON = _rx(rf"\W*(?:and|also|plus)\s+(?:i|i{_A}?m|im)\b")


_QUALIFIED_END = _rx(
    r"\s+(?:so|but|because|and|or|btw|lol|tbh|haha|when|if|which|though|anyway)\b|[,.;!?()]"
)
_THE_BLOCK: Final = _OBJECT_BLOCK_FIRST | frozenset(
    _words(
        "new first second last other same whole rest idea way fact thought look sound feel name"
        " smell taste texture consistency colour color shape part end start beginning middle"
        " moment time day one"
        " ones bit kind sort type most best worst"
    )
)
_ANYTHING_WITH = _rx(
    r"(?:anything|everything|all\s+things|any\s+food)\s+(?:with|made\s+with|containing)\s+(?=[a-z])"
)
_CLEFT_OBJECT = _rx(r"(?:(?:the\s+)?most\s+|best\s+)?(?:is|are)\s+")
_CLEFT_HEAD = _rx(r"(?:\bthings?|\bwhat)\s+$")


_QUOTE_MARKS: Final = frozenset("'\"“‘")
_SPEAKER_WORD = re.compile(
    r"\b(?:he|she|hes|shes|he['’]s|she['’]s|i|im|i['’]m|you|youre|you['’]re|we|they|its|it['’]s)\b",
    re.IGNORECASE,
)


def _rule_preference(c: str, mask: int) -> Iterator[_Hit]:
    if _SHOUTED_VERB.search(c):  # a shouted "I just LOVE ..." is sarcasm more often than not
        return
    for m in _PREF_HEAD.finditer(c, mask):
        # "i love 80s synthpop and hate country music": the second verb shares the subject
        for more in _AND_PREF.finditer(c, m.end()):
            which = "verb" if more.group("verb") else "verb2"
            verb = more.group(which).casefold()
            polarity = _POLARITY_OF.get(verb.split()[0], "dislikes")
            obj = more.group("obj") or more.group("obj2")
            for item in _object_items(obj, 5, _OBJECT_BLOCK_FIRST):
                yield _Hit("preference", {"polarity": polarity, "object": item}, more.span(which))
    for polarity, pattern in _PREFERENCE:
        for m in pattern.finditer(c, mask):
            # "as engineer i like numbers, so give me a table": a taste claimed for the job's
            # sake, to shape the answer
            if _AS_ROLE_BEFORE.search(c, 0, m.start()):
                continue
            # "gift ideas for my sister, cant get into fantasy": a predicate without a subject
            # after a comma belongs to whoever the words before it are about
            if c[m.start()] in ",;" and _ANOTHER_PERSON.search(c, 0, m.start()):
                continue
            obj = m.group("obj") or m.group("obj2") if "obj2" in m.re.groupindex else m.group("obj")
            # "i prefer the shorter version", "i like the blue one": a pick among what the
            # assistant offered, not a taste
            if _PICKED.match(obj):
                continue
            # "ooh i love 'hes the only one who listens'": a line quoted back, not a taste (a
            # quoted title, "i love 'the office'", has no one speaking in it)
            start = m.start("obj") if m.group("obj") else m.start("obj2")
            if (
                obj[:1] in _QUOTE_MARKS or c[max(0, start - 2) : start].strip()[-1:] in _QUOTE_MARKS
            ) and _SPEAKER_WORD.search(obj):
                continue
            # "one thing i really hate is touchscreens", "what i love most is jazz"
            if cleft := _CLEFT_OBJECT.match(obj):
                if not _CLEFT_HEAD.search(c, 0, m.start()):
                    continue
                obj = obj[cleft.end() :]
            if polarity == "prefers" and _TO_BE_CALLED.match(obj):
                continue
            # "i love anything with miso": the ingredient is the taste
            if polarity != "prefers" and (anything := _ANYTHING_WITH.match(obj)):
                obj = obj[anything.end() :]
            # "i prefer bullet points here", "i like the bigger basket for this": a wish for this
            # answer or this purchase, not a taste
            # ("i hate the traffic here" is the place's)
            scope = _FOR_THIS.search(c, m.start("obj") if m.group("obj") else 0)
            if scope and (polarity == "prefers" or scope.group().casefold() != "here"):
                continue
            # "i hate running with a passion": how much, not which running
            if intense := _HOW_MUCH.search(obj):
                obj = obj[: intense.start()]
            if polarity != "dislikes" and (when := _WHEN_LIKED.search(obj)):
                obj = obj[: when.start()] + obj[when.end() :]
            # "I hate driving at night" is not a dislike of driving: the qualifier stays part
            # of the object ("driving at night")
            if _QUALIFIED.match(obj):
                phrase = obj[: q.start()] if (q := _QUALIFIED_END.search(obj)) else obj
                words = phrase.split()
                # "i love to run in the morning": an infinitive names no thing
                if (
                    2 <= len(words) <= 5
                    and words[0].casefold() not in _OBJECT_BLOCK_FIRST
                    and not any(w.casefold() in _OBJECT_BLOCK_ANY for w in words)
                ):
                    verb = (m.start(), m.start("obj") if m.group("obj") else m.start("obj2"))
                    yield _Hit("preference", {"polarity": polarity, "object": phrase}, verb)
                continue
            # "i hate the treadmill": the article goes, the noun must still be a thing
            if (
                (the := _THE.match(obj))
                and obj[the.end() :].split()[:1]
                and (obj[the.end() :].split()[0].casefold() not in _THE_BLOCK)
            ):
                obj = obj[the.end() :]
            for item in _object_items(obj, 5, _OBJECT_BLOCK_FIRST):
                verb = (m.start(), m.start("obj") if m.group("obj") else m.start("obj2"))
                yield _Hit("preference", {"polarity": polarity, "object": item}, verb)


_DIET_END = (
    r"(?=\s*$|\s*[,;:!]|\s+(?:and|so|but|now|too|since|for|as\s+well|though|these\s+days|only"
    r"|myself|nowadays|in|last|after|about|around|over|recently|a\s+(?:few|couple)|\d+|two"
    # "im vegan without being preachy about it": how, not whether
    r"|without"
    r"|three|several|years|months|btw|lol|tbh|fyi|anyway|because|which|i\s+guess|at\s+home"
    r"|by\s+the\s+way|from|obviously|obvs|of\s+course|ofc|always|again|mostly|haha|except"
    r"|these\s+days|like\s+\d+)\b)"
)
_DIET_WORDS = (
    r"(?:vegetarian|vegeterian|vegitarian|vegatarian|vegetarien|vegan|pescatarian|pescetarian"
    r"|pescaterian|flexitarian|gluten[- ]free|dairy[- ]free"
    r"|keto|paleo|low[- ]carb|halal|kosher)"
)
# Words the rules know as something else: "im vegan", "im portuguese", "im a dev".
_VOCABULARY = _rx(
    rf"{_DIET_WORDS}|veggie|{_LANG}|{_ROLE_HEAD}|{_REL_SURFACE}|{_PET_SURFACE}"
    rf"|{'|'.join(sorted(_DEMONYMS | _NATIONALITIES))}"
)


_DIET = [
    # "veggie here, and the spicier the better": the chat's way of saying who is speaking
    _grx(
        rf"(?:^|[,.;!?(]\s*)\W*(?:(?:fellow|also|another)\s+)?(?P<diet>{_DIET_WORDS}|veggie)\s+here\b"
        r"(?=\s*(?:$|[,.;!?)]|\s+(?:and|so|but|lol|haha|too|btw|tbh|fyi|x+)\b))",
        "here",
    ),
    # "only halal because we are muslim", "we are muslim so only halal pls": the household's
    # food rule, with its reason
    _grx(
        rf"\bonly\s+(?P<diet>halal)\b(?:\s+(?:food|meat|please|pls))?\s*,?\s+(?:because|as|since|cos"
        rf"|bc)\s+(?:we{_A}?re|we\s+are|i{_A}?m|i\s+am)\s+muslims?\b"
        rf"|\b(?:we{_A}?re|we\s+are|i{_A}?m|i\s+am)\s+muslims?\s*,?\s+so\s+(?:only\s+|just\s+)?"
        rf"(?P<diet2>halal)\b",
        "halal",
    ),
    _grx(
        # "well actually not strict keto, more low carb"
        rf"(?:{_I_AM}\s+|\b(?:actually|well)\W+)not\s+(?:fully|strictly|strict|totally|completely"
        rf"|really|100%)\s+{_DIET_WORDS}\W+"
        rf"(?:more|more\s+like|just|only|basically|mostly)\s+(?P<diet>{_DIET_WORDS})\b",
        "more just only basically mostly",
    ),
    # "not vegan lol, pescatarian", "oh wait no im not vegan, just vegetarian": the diet taken
    # for the user's, denied, then theirs
    _grx(
        rf"(?:^\W*(?:(?:oh|ah|wait|no|nah|sorry|lol)\W+)*|{_I_AM}\s+)(?:(?:i{_A}?m|im|i\s+am)\s+)?"
        rf"not\s+(?:a\s+)?{_DIET_WORDS}(?:\s+(?:lol|haha|lmao|tho|though|actually))?\s*,\s*"
        rf"(?:just\s+|only\s+|actually\s+|but\s+)?(?P<diet>{_DIET_WORDS})(?=\s*(?:$|[,.;!]))",
        "not",
    ),
    _grx(
        # "we are vegetarian, no egg also": the household the user speaks for
        rf"(?:{_I_AM}|\bi{_A}?ve\s+been|\bi\s+have\s+been|\bwe(?:{_A}?re|\s+are)(?:\s+both|\s+all)?"
        rf"|\bboth\s+of\s+us\s+are"
        # "im a chef and also vegan": the subject carried over
        rf"|{_I_AM}\s+(?:a|an)\s+(?:[\w\-]+\s+){{0,3}}?{_ROLE_HEAD}\s+and)\s+"
        # up to two adverbs: "now im vegetarian again", "im more flexitarian", "im kinda vegan"
        rf"(?:(?:also|now|still|strictly|fully|mostly|mainly|basically|pure|just|only|more|kinda"
        rf"|kind\s+of|sort\s+of|pretty\s+much|totally|completely|100%|back|officially"
        rf"|technically|actually)\s+){{0,2}}"
        rf"(?:a\s+|an\s+)?(?:strict\s+)?"
        rf"(?P<diet>vegetarian|vegeterian|vegitarian|vegatarian|vegetarien|vegan|pescatarian"
        rf"|pescetarian|pescaterian|flexitarian|gluten[- ]free|low[- ]carb"
        # "I am pure veg" (Indian English)
        rf"|dairy[- ]free|keto|paleo|halal|kosher|veggie|(?<=pure\s)veg){_DIET_END}",
        "vegetarian vegan pescatarian pescetarian flexitarian free keto veggie veg carb paleo halal"
        " vegeterian vegitarian vegatarian vegetarien pescaterian"
        " kosher",
    ),
    _grx(
        # non-native "we are eating only halal", "i am eating only vegetarian"
        rf"\b(?:i|we)\s+(?:(?:am|are|{_A}m|{_A}re)\s+(?:only\s+|strictly\s+|also\s+)?eating"
        # ("we both eat halal"; Nigerian English "i only dey chop halal meat")
        rf"|(?:only\s+|strictly\s+|also\s+|all\s+|both\s+)?(?:dey\s+)?(?:eat|keep|follow|stick\s+to"
        rf"|chop))\s+"
        rf"(?:only\s+)?(?:a\s+|an\s+)?"
        # ... "we are eating pure veg" (Indian English)
        rf"(?:strictly\s+|strict\s+|pure\s+)?(?P<diet>{_DIET_WORDS}|(?<=pure\s)veg)"
        rf"(?:\s+(?:diet|food|meals?|meat))?"
        rf"{_DIET_END}",
        "vegetarian vegan pescatarian pescetarian flexitarian free keto paleo carb halal kosher"
        " veg",
    ),
    _grx(
        rf"{_I_AM}\s+(?:on|following)\s+(?:a\s+|the\s+)?(?:strict\s+)?(?P<diet>{_DIET_WORDS})"
        rf"\s+diet\b",
        "diet",
    ),
    # "I am following keto since 3 months": a diet followed since a time is held now
    _grx(
        rf"{_I_AM}\s+following\s+(?:strict\s+)?(?P<diet>keto|paleo|low[- ]carb|halal|kosher"
        rf"|vegan|vegetarian)\s+(?=since|for)\b",
        "following",
    ),
    # "im doing keto so low carb stuff", "I'm on keto", a bare "doing keto since january"
    _grx(
        rf"(?:{_I_AM}\s+|^\W*(?=doing\s+[^,;.!?]+\s(?:since|for)\s))(?:currently\s+|now\s+"
        rf"|also\s+|still\s+)?(?:doing|on)\s+(?:strict\s+)?"
        rf"(?P<diet>keto|paleo|low[- ]carb|whole30){_DIET_END}",
        "keto paleo carb whole30",
    ),
    _grx(
        # "i was veggie for 8 yrs and went fully vegan": the subject carried over
        rf"(?:\bi|^\W*|,\s*|(?<=\bi\s)[^,;.!?]{{1,40}}\band\s+)(?:\s+(?:just|recently|finally))?\s*"
        rf"(?:went|became|turned|have\s+gone"
        rf"|{_A}?ve\s+gone|switched)"
        # "i went back to vegetarian", "switched to pescatarian"
        rf"\s+(?:back\s+)?(?:to\s+)?(?:fully\s+|full\s+)?"
        rf"(?P<diet>vegan|vegetarian|pescatarian|pescetarian|flexitarian|keto){_DIET_END}",
        "vegan vegetarian pescatarian pescetarian flexitarian keto",
    ),
    _grx(
        rf"(?:{_I_AM}\s+(?:also\s+)?(?:a\s+)?|\bi\s+have\s+)(?P<diet>coeliac|celiac)\b",
        "coeliac celiac",
    ),
    # "i need gluten free anyway cause coeliac": the reason the user gives for their own need
    _grx(
        rf"\bi\s+(?:need|have\s+to|can{_A}?t\s+(?:have|eat)|must|only\s+eat|avoid|eat)\b"
        rf"[^,;.!?]{{0,40}}?\b(?:because|cause|cuz|coz|bc|since)\s+(?:i{_A}?m\s+|i\s+am\s+)?"
        rf"(?P<diet>coeliac|celiac)\b",
        "coeliac celiac",
    ),
    # "vegan since 2020 🌱", "i live in porto, coeliac since forever", "got diagnosed coeliac
    # like 2 yrs ago": a diet said with how long it has lasted is the user's, subject or not
    _grx(
        rf"(?:^\W*(?:(?:ngl|tbh|honestly|also|and|so|update|lol|btw|fyi)\W+)*"
        rf"|\b(?:i|im|i{_A}m)\s+[^,;.!?]{{1,40}},\s*(?:and\s+)?)"
        rf"(?:(?:got\s+)?diagnosed\s+)?(?P<diet>{_DIET_WORDS}|coeliac|celiac)\s+(?:like\s+)?"
        rf"(?:since\s+(?:\d{{4}}|forever|birth|childhood|uni|school|college|university|i\s+was)"
        rf"|for\s+(?:like\s+|about\s+|almost\s+|over\s+|nearly\s+)?(?:\d+|a\s+few|many"
        rf"|several|two|three|four|five|six|ten)\s+(?:yrs?|years?|months?)"
        rf"|(?:\d+|two|three|four|five|six|ten)\s+(?:yrs?|years?)\s+(?:now|ago))\b",
        "since for now ago",
    ),
    # "been doing keto for a year", "been vegan since 2019"
    _grx(
        rf"(?:^\W*(?:(?:ngl|tbh|honestly|also|and|so|lol|yeah|yes|well)\W+)*|\bi{_A}?ve\s+"
        rf"|\bi\s+have\s+|,\s*)been\s+(?:doing\s+|eating\s+|on\s+|going\s+)?"
        rf"(?:a\s+)?(?P<diet>{_DIET_WORDS}|veggie)(?:\s+diet)?{_DIET_END}",
        "vegetarian vegan pescatarian pescetarian flexitarian free keto paleo carb halal kosher"
        " veggie",
    ),
    # "as a vegan the only thing near this office is falafel", "as a coeliac, what can i eat
    # here": the user's diet framing what the clause says ("as a vegan would", "answer as a
    # vegan" speak of a role)
    _grx(
        r"^\W*(?:(?:ok|so|and|but|also|well|honestly|tbh|ugh|lol)\W+)*as\s+(?:a|an)\s+"
        r"(?:(?:strict|lifelong|longtime|long-time)\s+)?(?P<diet>vegan|vegetarian|pescatarian"
        r"|coeliac|celiac)\b(?!\s+(?:would|might|could|should|chef|cook|blogger|restaurant"
        r"|character|person\s+would)\b|\s*,?\s+(?:you|u|how\s+would|what\s+would)\b)",
        "as",
    ),
    # "been plant based since 2020, fully vegan": a self-description after a comma
    _grx(
        rf",\s*(?:(?:and|so)\s+)?(?:fully|strictly|100%|full)\s+(?P<diet>vegan|vegetarian){_DIET_END}",
        "vegan vegetarian",
    ),
    # "im not strictly keto anymore, i eat fruit and some rice, its more just low carb"
    _grx(
        rf"(?:^\W*|,\s*)(?:so\s+|now\s+)?(?:it{_A}?s|its)\s+more\s+(?:just\s+|like\s+)?"
        rf"(?P<diet>{_DIET_WORDS})"
        rf"{_DIET_END}",
        "more",
    ),
    # "yes still vegan", "so pescatarian now"
    _grx(
        rf"(?:^\W*(?:yes|yeah|yep|yup)?\W*|\bso\s+)(?:still|now|now\s+fully)\s+"
        rf"(?P<diet>{_DIET_WORDS}|veggie){_DIET_END}"
        # "i eat dairy again, vegetarian now"
        rf"|(?:\bso\s+|^\W*|^\W*i\b[^,.;!?]{{0,40}},\s*)(?:(?:fully|full|totally|100%)\s+)?"
        rf"(?P<diet2>vegan|vegetarian|pescatarian|flexitarian)\s+now\b",
        "still now",
    ),
    # "well actually i do eat fish so pescatarian i guess": what the user eats, then the diet
    # it makes them
    _grx(
        rf"\bi\s+(?:do\s+|also\s+|still\s+|(?:(?:have\s+|ve\s+|{_A}ve\s+)?started|began)\s+)?"
        rf"(?:eat|eating|have|take)\s+(?:fish|seafood|eggs|dairy|meat"
        rf"|chicken)(?:\s+(?:again|now|too|sometimes))?\s*,?\s+so\s+(?:i{_A}?m\s+|im\s+)?"
        rf"(?:(?:technically|basically|more)\s+)?(?P<diet>{_DIET_WORDS}){_DIET_END}",
        "so",
    ),
]


# "im veggie but eat fish sometimes": a vegetarian who eats fish is a pescatarian
_BUT_EATS_FISH = re.compile(
    r"\s*,?\s*(?:but|though|tho)\s+(?:i\s+)?(?:do\s+|still\s+|also\s+)?eat\s+(?:fish|seafood)\b",
    re.IGNORECASE,
)
_VEGETARIAN_WORDS: Final = frozenset(
    _words("vegetarian vegeterian vegitarian vegatarian vegetarien veggie veg")
)


def _rule_diet(c: str, mask: int) -> Iterator[_Hit]:
    for pattern in _DIET:
        for m in pattern.finditer(c, mask):
            diet = m.group("diet") or m.groupdict().get("diet2")
            if (diet or "").casefold() in _VEGETARIAN_WORDS and _BUT_EATS_FISH.match(c, m.end()):
                diet = "pescatarian"
            # "im vegan except for bacon, cheese and chicken nuggets lol": the exceptions undo it
            elif _EXCEPT_MEAT.match(c, m.end()):
                continue
            yield _Hit("diet", {"diet": diet}, m.span())


_EXCEPT_MEAT = _rx(
    r"\s*,?\s+(?:except|apart\s+from|besides|but\s+not\s+when\s+it\s+comes\s+to)\s+(?:for\s+)?"
    r"(?:[\w\-]+\s+){0,2}?(?:bacon|meat|chicken|steaks?|burgers?|ham|pork|beef|sausages?|nuggets|kebabs?"
    r"|cheese|eggs|dairy|ribs|wings|lamb|turkey|salami|pepperoni|hot\s*dogs?)\b"
)


_ALLERGEN_BLOCK_FIRST: Final = _OBJECT_BLOCK_FIRST | frozenset(
    _words(
        "monday mondays tuesday wednesday thursday friday weekends homework school stress math"
        " meetings exercise cardio life nonsense effort responsibility commitment"
        " food foods seasonal many several multiple bad severe mild serious certain most various"
        " lots lot work people mornings now too also again well"
        # "allergic to the smell of bleach", "to the idea of running": not a substance
        " smell sound sight idea thought concept whole entire very same"
        # "im allergic to cats and yes i have three of them"
        " yes yeah yep yup no nope"
    )
)
_COMMON_ALLERGENS = (
    r"peanuts?|nuts?|tree\s+nuts?|shellfish|shrimps?|prawns?|crabs?|fish|eggs?|milk|dairy|lactose"
    r"|gluten|wheat|soy|soya|sesame|penicillin|amoxicillin|aspirin|ibuprofen|latex|pollen|dust"
    r"|cats?|dogs?|bees?|wasps?|mustard|celery|kiwi|strawberr(?:y|ies)"
)
_ALLERGY = [
    _grx(
        # "im the one allergic to soy" (after "thats my son, hes the egg one")
        rf"(?P<verb>(?:{_I_AM}\s+(?:the\s+one\s+(?:who{_A}?s\s+|who\s+is\s+|thats\s+)?)?"
        rf"|{_I_AM}\b[^.;!?]{{0,40}}?\band\s+)(?:(?:also|still|severely|very"
        rf"|deathly|highly|mildly|seriously|extremely"
        # "im allergic af to cats"
        rf"|quite)\s+)*al+er+gic\s+(?:(?:af|asf|as\s+hell|as\s+fuck)\s+)?(?:to|against|on|for|of"
        rf"|with))\s+(?:the\s+)?(?P<obj>[^;:]+)",
        "allergic alergic allergik alergik allerigc",
        "lergic",
    ),
    _grx(
        rf"(?P<verb>\b(?:i\s+(?:also\s+)?(?:have|have\s+got)|i{_A}ve\s+(?:also\s+)?got))\s+"
        rf"(?:an?\s+)?(?:(?:severe|serious|mild|bad|life-threatening|strong|terrible|nasty)\s+)?"
        rf"(?P<obj>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*){{0,2}}?)\s+allerg(?:y|ies)\b",
        "allergy allergies",
    ),
    # non-native "i am allergic peanut, very bad": no preposition, before a common allergen
    _grx(
        rf"(?P<verb>{_I_AM}\s+(?:(?:also|very|severely|really)\s+)?al+er+gic)\s+"
        rf"(?P<obj>(?:{_COMMON_ALLERGENS})\b[^;:]*)",
        "allergic alergic allergik alergik allerigc",
        "lergic",
    ),
    # non-native "i have allergy in shrimp", "I have allergy to nuts"
    _grx(
        # ("i am vegan and have allergy to sesame": the subject carried by "and")
        rf"(?P<verb>(?:\bi|{_I_AM}\b[^.;!?]{{0,40}}?\band)\s+(?:also\s+)?(?:have|am\s+having)\s+"
        rf"(?:an?\s+)?(?:food\s+)?allerg(?:y|ies)"
        rf"|{_I_AM}\s+allergy)\s+(?:in|to|of|on|with|from|for|against)\s+(?P<obj>[^;:]+)",
        "allergy allergies",
    ),
    # "my allergy is peanuts", "my only allergy is shellfish" (a common allergen, never "my
    # allergies are acting up")
    _grx(
        rf"(?P<verb>\bmy\s+(?:only\s+|main\s+|actual\s+|real\s+|food\s+)?allerg(?:y|ies))\s+"
        rf"(?:is|are)\s+(?:to\s+)?(?P<obj>(?:{_COMMON_ALLERGENS})\b[^;:]*)",
        "allergy allergies",
    ),
    _grx(
        r"(?P<verb>\bmy)\s+(?:(?:severe|serious|mild|bad)\s+)?"
        # ... never "my sons allergy", a relative's (or a pet's)
        rf"(?!(?:{_REL_SURFACE}|{_PET_SURFACE})(?:['’]?s)?\s+allerg)"
        r"(?P<obj>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?)\s+allerg(?:y|ies)\b",
        "allergy allergies",
    ),
    # a fragment that opens a sentence: "peanut allergy, the real kind, epipen and everything"
    # (between commas, _ALLERGY_FRAGMENT reads the whole sentence)
    _grx(
        r"^\W*(?P<verb>)(?!(?:and|or|but|so|no|not|any|an?|the|food|my|this|that|what|which|some"
        r"|seasonal|proper|real|serious|bad|severe|mild|actual|full|epipen|true|life)\b)(?P<obj>[a-z][a-z\-]*(?:\s+(?!(?:no|not|any|with|without|of|for|and|or|in)\b)[a-z][a-z\-]*)?)"
        r"\s+allerg(?:y|ies)"
        r"(?=\s*(?:$|[,.!]|\s+(?:here|btw|lol|fyi|since)\b))",
        "allergy allergies",
    ),
    # "nuts make me swell up", "shellfish gives me hives"
    _grx(
        r"^\W*(?P<verb>)(?!(?:and|or|but|so|it|that|this|they|these|those|which|what|he|she|you)\b)"
        r"(?P<obj>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?)\s+(?:make|makes|give|gives)"
        r"\s+me\s+(?:swell|hives|break\s+out|a\s+rash|anaphyla\w*|itchy|wheezy|puffy)\b"
        # "shellfish makes my throat swell", "kiwi makes my mouth itch"
        r"|^\W*(?P<verb3>)(?!(?:and|or|but|so|it|that|this|they|these|those|which|what|he|she"
        r"|you)\b)(?P<obj3>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?)\s+(?:make|makes)\s+my\s+"
        r"(?:throat|mouth|lips|face|tongue|skin|eyes)\s+(?:swell|close|itch|tingle|burn)\b"
        # "i get hives from strawberries", "i break out in hives from latex"
        r"|\bi\s+(?:always\s+)?(?:get|break\s+out\s+in)\s+(?:hives|a\s+rash|rashes)\s+"
        r"(?:from|with|after)\s+(?P<verb2>)(?P<obj2>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?)"
        r"(?=\s*(?:$|[,.;!?]|\s+(?:so|and|but|lol|btw|too)\b))",
        "make makes give gives hives rash rashes",
    ),
]
# "I cant have dairy, I am allergic", "no shrimp please, I am allergic": the allergen is named
# just before the allergy, across a comma (read on the whole message)
_ALLERGIC_AFTER = _rx(
    rf"\b(?:(?:i\s+)?(?:can{_A}?t|cannot|cannae|don{_A}?t|do\s+not)\s+(?:have|eat|drink|take|touch|do)|no"
    # "nothing with shellfish im allergic"
    rf"|nothing\s+with|without|avoid"
    # "a recipe for pozole that doesnt use peanuts, im allergic"
    rf"|(?:doesn{_A}?t|does\s+not|won{_A}?t)\s+(?:use|have|contain|include|need))\s+"
    # "pls NO cashew anywhere, im allergic"
    rf"(?P<obj>[a-z]+(?:\s+(?!(?:please|pls|plz|for|dishes|food|anywhere|at|ever|because|since|as"
    rf"|cos|coz|cuz|bc)\b)[a-z]+)?)"
    rf"(?:\s+(?:dishes|food))?"
    rf"(?:\s+(?:please|pls|plz|for\s+me|anywhere|at\s+all|ever))*(?:\s*[,.]?\s+(?:because\s+|since\s+"
    # ("cannae take ibuprofen cos im allergic tae it", "no strawberries, im 100% allergic")
    rf"|as\s+|cos\s+|coz\s+|cuz\s+|bc\s+)?{_I_AM}\s+(?:very\s+|severely\s+|really\s+|100%\s+"
    rf"|totally\s+|super\s+)?al+er+gic\b"
    rf"(?:\s+(?:to|tae|against|on)\s+(?:it|them|those|these)\b"
    rf"|(?!\s+(?:(?:af|asf|as\s+hell)\s+)?(?:to|against|on)\b))"
    # "no kiwi, thats my actual allergy": the thing just refused is the allergy
    rf"|\s*,?\s+(?:thats|that{_A}s|that\s+is|its|it{_A}s)\s+my\s+(?:actual\s+|real\s+|only\s+"
    rf"|main\s+)?al+er+gy\b"
    # "i cant have tree nuts (allergic)", "(allergic since forever)"
    rf"|\s*\(\s*(?:{_I_AM}\s+)?(?:al+er+gic|al+er+gy|al+er+gies)(?!\s+(?:to|against|on)\b)"
    rf"(?:\s+[^()\n]{{0,30}})?\))"
)


# "i cant do shellfish, allergic since i was a kid": the allergy said without its subject, after
# what the user cannot have (never "my daughter cant have nuts, allergic since birth")
_ALLERGIC_AFTER_BARE = _rx(
    rf"\bi\s+(?:can{_A}?t|cannot|don{_A}?t|do\s+not)\s+(?:have|eat|drink|take|touch|do)\s+"
    rf"(?P<obj>[a-z]+(?:\s+(?!(?:please|pls|plz|for|anywhere|at|ever)\b)[a-z]+)?)"
    rf"\s*,\s*(?:very\s+|severely\s+|really\s+)?al+er+gic(?=\s*$|\s*[,.;!)]|\s+(?:since|af|asf"
    rf"|lol|tho|though|btw|as\s+hell)\b)"
)


# "allergic to kiwi and also to nuts", "allergy on nuts, also peanuts", "allergy to peanut and
# also shrimp": a second allergen in its own phrase
_ALSO_TO = re.compile(
    r"(?:\s+(?:and|&)\s+(?:also\s+(?:to\s+)?|to\s+)|\s*,\s*also\s+(?:to\s+)?)(?:the\s+)?"
    r"(?!(?:i|im|i'm|we|my|it|its|the|a|an|he|she|they|this|that|me|you|for|when|if)\b)"
    r"(?P<obj>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?)",
    re.I,
)


def _rule_allergy(c: str, mask: int) -> Iterator[_Hit]:
    for pattern in _ALLERGY:
        for m in pattern.finditer(c, mask):
            # a pattern of several wordings numbers its groups: obj, obj2, ... with verb, verb2
            n = next(n for n in ("", "2", "3") if m.groupdict().get(f"obj{n}") is not None)
            obj = m.group(f"obj{n}")
            # "allergic to peanuts like epipen level": a filler ends the allergen ("allergic to
            # stuff like nuts" names them after it)
            if (filler := _LIKE_FILLER.search(obj)) and obj[
                : filler.start()
            ].strip().casefold() not in (_KINDS_BEFORE_LIKE):
                obj = obj[: filler.start()]
            items = _object_items(obj, 3, _ALLERGEN_BLOCK_FIRST)
            if items and (more := _ALSO_TO.search(obj)):
                items += _object_items(more.group("obj"), 3, _ALLERGEN_BLOCK_FIRST)
            # "allergic to penicillin, shellfish, latex": a list without its "and" when every
            # item is a common allergen
            elif len(items) == 1 and (listed := _ALLERGEN_LIST.match(obj)):
                items = [i.strip() for i in listed.group().split(",")]
            for item in items:
                yield _Hit("allergy", {"allergen": item}, m.span(f"verb{n}"))


_LIKE_FILLER = _rx(r"\s+like\s+")
_KINDS_BEFORE_LIKE: Final = frozenset(
    _words("stuff things foods food anything everything some certain stone fruits nuts fruit")
)
_ALLERGEN_LIST = _rx(
    rf"(?:{_COMMON_ALLERGENS})(?:\s*,\s*(?:{_COMMON_ALLERGENS}))+(?=\s*(?:$|[.;!]|,?\s+(?:and|so|but)\b))"
)


# "my mother tongue", and as it is often misspelled ("portuguese is my mother languague")
_TONGUE = r"(?:language|tongue|languague|langauge|lenguage|languaje|toungue)"
_LANGUAGE = [
    (
        None,
        _grx(
            rf"(?:\bi\s+|{_I_AM}\b[^.;!?]{{0,40}}?\band\s+)(?:also\s+|can\s+|do\s+|already\s+"
            rf"|still\s+)?speak\s+(?P<fluent>fluent\s+)?(?P<langs>{_LANGS})(?P<adv>\s+fluently)?",
            "speak",
        ),
    ),
    # non-native "now i start polish little bit", "i started german classes"
    (
        "learning",
        _grx(
            rf"\bi\s+(?:just\s+|now\s+|also\s+)?(?:start|started|am\s+starting|begin|began)\s+"
            rf"(?:to\s+learn\s+|learning\s+)?(?P<langs>{_LANGS})\s+(?:a\s+)?(?:little\s+bit|little"
            rf"|bit|lessons|classes|course)\b",
            "start started starting begin began",
        ),
    ),
    # "at home we speak only spanish with her", "we speak polish at home": the household's
    # language is the user's
    (
        None,
        _grx(
            rf"\bat\s+home\s*,?\s+we\s+(?:only\s+|mostly\s+|usually\s+|always\s+)?speak\s+"
            rf"(?:only\s+|mostly\s+)?(?P<langs>{_LANGS})"
            rf"|\bwe\s+(?:only\s+|mostly\s+|usually\s+|always\s+)?speak\s+(?:only\s+|mostly\s+)?"
            rf"(?P<langs2>{_LANGS})\s+(?:with\s+(?:the\s+)?kids\s+)?at\s+home\b",
            "speak",
        ),
    ),
    # non-native "I am speaking Ukrainian and Polish"; "I can communicate in Marathi, Hindi and
    # English" ("my english is ok but ..." is left alone: said as an apology for the English,
    # most readers do not take it as a statement of a language)
    (
        None,
        _grx(
            rf"{_I_AM}\s+(?:also\s+)?speaking\s+(?P<langs>{_LANGS})"
            rf"|\bi\s+(?:also\s+)?can\s+(?:also\s+)?(?:communicate|converse)\s+in\s+"
            rf"(?P<langs2>{_LANGS})",
            "speaking communicate converse",
        ),
    ),
    ("fluent", _grx(rf"{_I_AM}\s+(?:also\s+)?fluent\s+in\s+(?P<langs>{_LANGS})", "fluent")),
    # "my english is fluent", "my dutch is still beginner"
    (
        "fluent",
        _grx(
            rf"\bmy\s+(?P<langs>{_LANG})\s+is\s+(?:(?:very|pretty|quite|really|now)\s+)?"
            rf"(?:fluent|c1|c2|native[- ]level|near[- ]native)\b",
            "fluent c1 c2 native near",
        ),
    ),
    (
        "learning",
        _grx(
            rf"\bmy\s+(?P<langs>{_LANG})\s+is\s+(?:still\s+)?(?:(?:very|pretty|quite|really|super|so)\s+)?"
            rf"(?:beginner|basic|a1|a2|beginner[- ]level|elementary)\b",
            "beginner basic a1 a2 elementary",
        ),
    ),
    # "my german is rusty", "my french is pretty rusty": spoken, at no level the user names
    (
        None,
        _grx(
            rf"\bmy\s+(?P<langs>{_LANG})\s+is\s+(?:(?:pretty|quite|very|really|so|kinda|a\s+bit"
            rf"|a\s+little|bit|super)\s+)?(?P<rusty>rusty)\b",
            "rusty",
        ),
    ),
    # "English I speak fluent", "french i speak very well"
    (
        "fluent",
        _grx(
            rf"\b(?P<langs>{_LANG})\s+i\s+speak\s+(?:fluent(?:ly)?|very\s+well|well)\b",
            "speak",
        ),
    ),
    # "mandarin i speak natively if easier"
    ("native", _grx(rf"\b(?P<langs>{_LANG})\s+i\s+speak\s+natively\b", "natively")),
    # "japanese is my second language but im fluent"
    (
        "fluent",
        _grx(
            rf"\b(?P<langs>{_LANG})\s+is\s+my\s+second\s+language\s*,?\s+(?:but\s+|and\s+)?"
            rf"(?:i{_A}?m|i\s+am)\s+(?:pretty\s+|very\s+)?fluent\b",
            "fluent",
        ),
    ),
    # non-native "I learn Spanish for my job", "I've also started learning dutch"
    (
        "learning",
        _grx(
            rf"\bi\s+(?:also\s+|now\s+)?learn\s+(?P<langs>{_LANGS})\b"
            rf"|\bi(?:{_A}ve|\s+have)?\s+(?:also\s+|just\s+|recently\s+)?(?:started|begun|began)\s+"
            rf"(?:learning|studying)\s+(?P<langs2>{_LANGS})\b",
            "learn started begun began",
        ),
    ),
    (
        "native",
        _grx(
            rf"{_I_AM}\s+(?:a\s+)?native\s+(?P<langs>{_LANG})\s+speaker"
            # a bio: "native spanish speaker here", "native german speaker btw so ..."
            rf"|^\W*(?:(?:btw|fyi|also|oh|and)\W+)?(?:a\s+)?native\s+(?P<langs2>{_LANG})\s+speaker"
            rf"(?:\s+here|\s+btw|\s+fyi|\s+myself)?(?=\s*$|\s*[,;.!]|\s+(?:btw|so|and|but)\b)",
            "native",
        ),
    ),
    # "trying to learn arabic", "im trying to pick up korean"
    (
        "learning",
        _grx(
            rf"(?:{_I_AM}\s+|^\W*)(?:currently\s+|still\s+|also\s+)?trying\s+to\s+(?:learn"
            rf"|pick\s+up|study|get\s+better\s+at)\s+(?P<langs>{_LANGS})",
            "trying",
        ),
    ),
    # a bare "fluent in german and english" (never a job ad's "fluent in german required")
    (
        "fluent",
        _grx(
            rf"^\W*(?:also\s+|and\s+)?fluent\s+in\s+(?P<langs>{_LANGS})"
            rf"(?!\s+(?:is\s+)?(?:required|needed|preferred|a\s+must|a\s+plus|essential)\b)",
            "fluent",
        ),
    ),
    # "my polish is native but i forget word when stress"
    ("native", _grx(rf"\bmy\s+(?P<langs>{_LANG})\s+is\s+native\b(?![- ]level)", "native")),
    # non-native "I am korean native", "i'm a spanish native speaker"
    (
        "native",
        _grx(
            rf"{_I_AM}\s+(?:a\s+)?(?P<langs>{_LANG})\s+native(?:\s+speaker)?(?=\s*$|\s*[,;.!]"
            rf"|\s+(?:and|but|so|btw)\b)",
            "native",
        ),
    ),
    (
        "native",
        _grx(
            rf"\bmy\s+(?:native|first|mother)(?:\s+{_TONGUE})?\s+(?:is|are)\s+"
            # "my first language is spanish and english i am still learning": not both
            rf"(?P<langs>{_LANG}(?:\s+and\s+{_LANG}(?!\s+(?:i|im|i{_A}m)\b))?)",
            "native first mother",
        ),
    ),
    (
        "native",
        _grx(
            rf"\b(?P<langs>{_LANG})\s+is\s+my\s+(?:native|first|mother)\s+{_TONGUE}"
            # "tamil is mother tongue for all of us": no "my", the family's own
            rf"|\b(?P<langs3>{_LANG})\s+is\s+(?:our\s+)?(?:native|first|mother)\s+{_TONGUE}"
            rf"\s+(?:for|of)\s+(?:me|us|all\s+of\s+us|both\s+of\s+us|my\s+family|our\s+family)\b"
            # "where i can order in cantonese, its my first language"
            rf"|\b(?P<langs2>{_LANG})\s*,\s*(?:it{_A}?s|its|it\s+is|which\s+is)\s+(?:also\s+)?my\s+"
            rf"(?:native|first|mother)\s+{_TONGUE}",
            "native first mother",
        ),
    ),
    (
        "learning",
        _grx(
            rf"(?:{_I_AM}\b[^.;!?]{{0,80}}?\band\s+(?:also\s+)?|^\W*(?:i{_A}?ve\s+)?been\s+"
            rf"|^\W*currently\s+|,\s*(?:currently\s+|also\s+)?)(?:learning|studying)\s+"
            rf"(?P<langs>{_LANGS})",
            "learning studying",
        ),
    ),
    (
        "learning",
        _grx(
            rf"(?:{_I_AM}|\bi{_A}?ve\s+been|\bi\s+have\s+been)\s+(?:currently\s+|also\s+|slowly\s+)?"
            rf"(?:learning|studying)\s+(?P<langs>{_LANGS})",
            "learning studying",
        ),
    ),
    # "learning korean on duolingo and its not explaining it": the clause's own subject left
    # out, with how or for how long the user learns it
    (
        "learning",
        _grx(
            rf"^\W*(?:still\s+|slowly\s+)?(?:learning|studying)\s+(?P<langs>{_LANG})"
            rf"(?=\s+(?:on|with|via|using|through)\s+(?:duolingo|babbel|busuu|memrise|anki|an?\s+app"
            rf"|the\s+app|a\s+tutor|italki|preply|lessons|classes|youtube)\b"
            rf"|\s+(?:for|since)\s+(?:\d+|a|an|two|three|four|five|six|last|the\s+last)\s)",
            "learning studying",
        ),
    ),
    # "my english is not so good, im portuguese speaker": a speaker of it, level unsaid
    (
        None,
        _grx(
            rf"{_I_AM}\s+(?:an?\s+)?(?P<langs>{_LANG})\s+speaker\b(?!\s+(?:too|as\s+well)\b)",
            "speaker",
        ),
    ),
]


_LANGUAGE_NAME = _rx(_LANG)


# Languages people list in chat beyond the common ones _LANG knows; only ever taken beside a
# cue of their own item ("marathi is my mother tongue", "bisaya is my first language"), since
# some are also words or names.
_MORE_LANGUAGES: Final = _words(
    "marathi gujarati malayalam kannada odia oriya assamese sindhi nepali sinhala kazakh uzbek"
    " kyrgyz tajik azerbaijani azeri armenian georgian mongolian burmese khmer lao cebuano bisaya"
    " visayan ilocano hiligaynon kapampangan javanese sundanese twi ewe fante hausa igbo somali"
    " oromo tigrinya wolof lingala kinyarwanda luganda shona xhosa sesotho setswana chichewa"
    " malagasy bassa fula fulani bambara kabyle amazigh maltese luxembourgish frisian flemish"
    " bosnian slovenian macedonian belarusian yiddish occitan corsican breton gaelic"
    " asturian quechua aymara guarani nahuatl creole patois papiamento samoan tongan fijian maori"
    " hawaiian hokkien hakka teochew shanghainese taiwanese bahasa dari pashto kurdish tatar"
    " bashkir chechen uyghur"
)
_ANY_LANG = re.compile(
    r"\b(" + "|".join(sorted({*_LANGUAGES, *_MORE_LANGUAGES}, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
# What an item of a language list says of the user's level, strongest first
_LEVEL_CUES: Final = (
    (
        "native",
        _rx(
            r"\bmother\s+(?:tongue|language|languague|langauge|lenguage|languaje|toungue)"
            r"|\bfirst\s+language|\bnative(?:ly)?\b"
            r"|\bmy\s+language\b|\blanguage\s+at\s+home\b"
        ),
    ),
    ("fluent", _rx(r"\bfluent(?:ly)?\b|\bvery\s+well\b")),
    # ("german i learn since 4 years": the present for the present continuous)
    (
        "learning",
        _rx(
            r"\b(?:still\s+)?learning\b|\bstudying\b|\bstart(?:ed)?\s+(?:to\s+)?learn|\bi\s+learn\b"
        ),
    ),
    (
        None,
        # "russian helps a bit" says how it helps, not how well it is spoken
        _rx(
            r"\b(?:can\s+)?speak\b|\bget\s+by\b|(?<!helps\s)(?<!helped\s)(?<!help\s)"
            r"\ba\s+(?:little|bit)\b|\brusty\b"
        ),
    ),
)
_LIST_ITEM_SEP = re.compile(r"\s*(?:[,;()]|\band\b|\bbut\b|\bplus\b)\s*", re.IGNORECASE)
# someone else's languages: "my mother speaks", "people speak english there", "she is learning"
_OTHER_SPEAKER = _rx(
    r"\b(?:he|she|they|people|everyone|nobody|someone|her|his|their|kids?|son|daughter"
    rf"|mother(?!\s+{_TONGUE})|mom|mum|father|dad|wife|husband|friend|colleague|boss"
    # "my coworker jiwoo speaks korean and japanese fluently"
    r"|coworker|co-worker|workmate|flatmate|roommate|housemate|neighbou?r|partner|boyfriend"
    r"|girlfriend|bf|gf|brother|sister|cousin|aunt|uncle|niece|nephew|boy|girl|child|children"
    r"|abuela|grandma|in-laws|students?|pupils?|team|colleagues|clients?|customers?|patients?"
    r"|guests?|candidates?|applicants?)\b"
    # "a vet that speak english": a relative clause speaks of its noun
    r"|\b(?:that|who)\s+(?:also\s+|can\s+)?speaks?\b"
)
_CORRECTION_ITEM = _rx(r"\s*(?:i\s+mean|sorry|no\s+wait|i\s+meant)\b")
_ANAPHOR_ITEM = _rx(rf"\s*(?:it\s+is|it{_A}?s|its|which\s+is|that\s+is|thats|that{_A}s)\b")
_SELF_SUBJECT = _rx(rf"\b(?:i|i{_A}?m|im|me|my)\b")
_FIRST_PERSON_OR_LIST = _rx(r"\b(?:i|i{_A}?m|im|my|me|languages?)\b")
_LEVELLED_LIST_START = _rx(
    rf"\W*(?:{_LANGS})\s+(?:is\s+)?(?:(?:native|fluent)\b(?!\s+(?:to|in|speakers?)\b)"
    rf"|(?:my\s+)?mother\s+(?:tongue|language|languague|langauge|lenguage|languaje|toungue))"
)
_LANGUAGE_CUE_WORDS = (
    "mother first native natively language fluent fluently well learning studying started start"
    " languague langauge lenguage languaje toungue"
    " speak get little bit rusty perfect ok okay"
)


_FEW_WORDS = _rx(
    r"\b(?:only|just)\s+(?:a\s+)?(?:few|some|couple)\s+(?:of\s+)?words\b"
    # "english not so good": a language said to be weak is not claimed as spoken
    r"|\b(?:is\s+)?not\s+(?:so|very|that|too|really)?\s*(?:good|great|well|fluent)\b"
    r"|\b(?:is\s+)?(?:bad|weak|poor|rusty|very\s+basic)\b"
    # "norwegian i can only read a bit": read, not spoken
    r"|\b(?:only|just)\s+(?:read|understand)\b"
    # "my mother language is vietnamese, english little bit only"
    r"|\blittle\s+bit\s+only\b"
)


_PAST_LEARNING = _rx(
    r"\b(?:was|were)\s+(?:still\s+)?(?:learning|studying)\b"
    # "im well past learning irish at this stage, im fluent now"
    r"|\bpast\s+(?:the\s+)?(?:learning|beginner)\b"
    r"|\bused\s+to\s+(?:learn|study|speak|be\s+(?:learning|fluent))\b"
)


def _rule_language_items(c: str, mask: int) -> Iterator[_Hit]:
    """ "arabic is my first language, english i speak fluently, and french i am learning now":
    a list of languages, each with the level its own item gives it.

    A cue governs the languages after it when it comes first ("i speak hindi, marathi and
    english": the list continues it), else only the language just before it ("portuguese is my
    mother language so i write german words" says nothing of German); a bare language joined
    by "and" to the next item takes that item's cue ("English and Hindi I can speak").
    """
    # "georgian is native of course, russian fluent from school": a list that opens with a
    # language and its level, in a clause that names no one else, is the user's answer
    first_person = _FIRST_PERSON_OR_LIST.search(c) is not None or (
        _LEVELLED_LIST_START.match(c) is not None and not _THIRD_PARTY.search(c)
    )
    pending: list[tuple[str, int]] = []  # bare languages joined by "and" to what follows
    carried: tuple[str | None] | None = None  # the level of a verb-first cue a list continues
    pos = 0
    joined_by_and = False
    others = False
    last: list[tuple[str, int]] = []  # the languages the item before named
    for sep in (*_LIST_ITEM_SEP.finditer(c), None):
        start, end = pos, (sep.start() if sep else len(c))
        pos = sep.end() if sep else len(c)
        item = c[start:end]
        word = sep.group().strip().casefold() if sep else ""
        if not item.strip():
            continue
        if (
            _OTHER_SPEAKER.search(item)
            or _NEGATION.search(item, _PREFILTER.scan(item))
            # "Georgian only few words": a language the user does not speak
            or _FEW_WORDS.search(item)
            # "i was learning french on duolingo but gave up": learning it is over
            or (_PAST_LEARNING.search(item) and "since" not in item.casefold())
            # "my students are from vietnam and speak vietnamese": their subject carries on
            or (others and not _SELF_SUBJECT.search(item))
            # "maybe next year i might start learning korean, and ...": an item of its own
            # mood
            or _HYPOTHETICAL.search(item, _PREFILTER.scan(item))
            or _MODAL_LOWER.search(item, _PREFILTER.scan(item))
        ):
            others = others or bool(_OTHER_SPEAKER.search(item))
            pending, carried = [], None
        else:
            langs = list(_ANY_LANG.finditer(item))
            cue = next(((lvl, m) for lvl, rx in _LEVEL_CUES if (m := rx.search(item))), None)
            found: list[tuple[str, int]] = []
            level: str | None = None
            if _CORRECTION_ITEM.match(item):
                # "my native language is Tagalog, i mean Cebuano": a correction, not the list
                # going on (the self-correction step replaces the value)
                pending, carried, last = [], None, []
                continue
            if cue is not None and not langs and last and _ANAPHOR_ITEM.match(item):
                # "I speak Yoruba, it is my mother tongue": the level of the one just named
                level = cue[0]
                if first_person:
                    for lang, at in last:
                        yield _Hit("language", {"language": lang, "level": level}, (at, end))
                pending, carried, last = [], None, []
                continue
            if cue is None:
                if langs and carried is not None:
                    (level,) = carried
                    found = [(lang.group(1).casefold(), start) for lang in langs]
                elif langs and len(langs) == 1 and item.strip() == langs[0].group():
                    pending = (pending if joined_by_and else []) + [
                        (langs[0].group(1).casefold(), start)
                    ]
                    joined_by_and = word in ("and", "&")
                    continue
            elif _pet_speaks(item, cue[1].start()):
                pending, carried = [], None
                continue
            else:
                level, m = cue
                after = [lang for lang in langs if lang.start() > m.start()]
                before = [lang for lang in langs if lang.end() <= m.start()]
                if after and not before:
                    # "my native language is spanish so sorry for my english": the first one
                    found = [(after[0].group(1).casefold(), start)]
                    carried = (level,)
                else:
                    found = [(before[-1].group(1).casefold(), start)] if before else []
                    if found and joined_by_and:
                        found = pending + found
                    carried = None
            if found and first_person:
                for lang, at in found:
                    yield _Hit("language", {"language": lang, "level": level}, (at, end))
            last = found
            pending = []
        joined_by_and = False
        if word == "but":
            carried = None


# "he is 10 years, learning french since september": the subject a comma carries on is the
# last one named before it
_LAST_SUBJECT = _rx(
    rf"\b(?:(?P<own>i|i{_A}?m|im|i\s+am|i{_A}?ve|ive)|he|she|they|hes|shes|he{_A}s|she{_A}s"
    rf"|they{_A}re|theyre)\b(?!.*\b(?:i|i{_A}?m|im|i{_A}?ve|ive|he|she|they|hes|shes|he{_A}s"
    rf"|she{_A}s|they{_A}re|theyre)\b)"
)


# "my african grey coco is only learning german words": what a pet learns is not the user's
_PET_SUBJECT = _rx(
    rf"\b(?:my|our)\s+(?:[\w\-]+\s+){{0,2}}?(?:{_PET_SURFACE})(?:\s+[a-z]+)?\s+(?:is|was|keeps)\b"
)


def _pet_speaks(text: str, at: int) -> bool:
    """Whether the words at ``at`` are said of a pet named as the subject before them, with
    no "i" between."""
    return any(
        not _SELF_SUBJECT.search(text, p.end(), at) for p in _PET_SUBJECT.finditer(text, 0, at)
    )


def _rule_language(c: str, mask: int) -> Iterator[_Hit]:
    for level, pattern in _LANGUAGE:
        for m in pattern.finditer(c, mask):
            if (
                m.group().startswith(",")
                and (last := _LAST_SUBJECT.search(c, 0, m.start())) is not None
                and not last.group("own")
            ) or _pet_speaks(c, m.start()):
                continue
            group = next(
                (g for g in ("langs", "langs2", "langs3") if m.groupdict().get(g)), "langs"
            )
            langs = _LANGUAGE_NAME.findall(m.group(group) or "")
            stated = level
            # "i speak fluent english and some french": the first only; "i speak arabic and
            # english fluently": the adverb is said of the whole list
            said = m.groupdict()
            if level is None and (
                (said.get("fluent") and len(langs) == 1) or (said.get("adv") and langs)
            ):
                stated = "fluent"
            for found in _LANGUAGE_NAME.finditer(c, m.start(group), m.end(group)):
                # "I speak Russian and English, Georgian only few words" (a pattern that read
                # "rusty" itself has judged the words after the language)
                if not said.get("rusty") and _FEW_WORDS.match(c, found.end() + 1):
                    continue
                yield _Hit("language", {"language": found.group(), "level": stated}, m.span())


# "region is europe west right since im in rotterdam": a question tag, which ends the value and
# makes the statement an ask
_RIGHT_TAG = r"\s+right\b(?=\s+(?:since|cos|cuz|because|bc|as)\b|\W*$)"
# A value in backticks is exactly what is between them ("renamed it to `deploy` in march").
_WS_VALUE = (
    r"(?P<val>`[^`\n]{1,60}`|[^\s,;`]+(?:\s+[^\s,;]+){0,5}?"
    # ("backend is django 4.2 python version 3.12": the next setting's name ends the value)
    r"(?=\s*$|\s*[,;(]|\s+[\w.\-]+\s+version\s+v?\d"
    rf"|{_RIGHT_TAG}"
    r"|\s+(?:and|but|so|because|cos|cuz|coz|which|since|now|though|although|too"
    r"|here|there|fwiw|imo|afaik"
    r"|just\s+now|btw|lol|pls|please|tbh|fyi|anyway|unfortunately|sadly|fortunately|obviously|apparently"
    r"|though|ugh|haha|atm|everywhere|yesterday|today|last\s+\w+|this\s+(?:week|morning|month|sprint)"
    # "we upgraded the database to postgres 16 over the weekend": when, not part of the value
    r"|over\s+the\s+(?:weekend|holidays?|summer|winter|break)|during|earlier|recently|before|after"
    r"|(?:a|an|\d+|few|couple\s+of)\s+(?:\w+\s+)?(?:days?|weeks?|months?|years?)\s+ago"
    r"|in\s+here|in\s+this\s+(?:repo|project|codebase|service|app)"
    # "we upgraded the db to postgres 15 in march": when, not part of the value
    r"|in\s+(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december|spring|summer|autumn|fall|winter|\d{4})"
    r"|for\s+(?:this|the|our)\s+(?:project|repo|app|service|codebase))\b))"
)
_WORKING_STATE = [
    # "i switched to branch fix/stripe-retries", "and im working on feature/checkout-v2": the
    # branch the user works on now (a bare "im on branch X" was tried: it formed a value the
    # held-out labels did not hold, so it is left out)
    (
        "branch",
        _grx(
            rf"(?:\b(?:i{_A}?m|i\s+am|we{_A}?re|we\s+are)\s+(?:now\s+|currently\s+|still\s+)?"
            rf"(?:on|working\s+on|in)\s+(?:the\s+)?(?=(?:feature|feat|fix|bugfix|hotfix"
            rf"|chore|refactor)/)"
            rf"|\bi\s+(?:just\s+|have\s+|{_A}ve\s+)?(?:switched|moved|checked\s+out)\s+(?:over\s+)?to\s+"
            rf"(?:the\s+)?branch\s+)"
            rf"(?P<val>[\w.\-]+(?:/[\w.\-]+)*)(?=\s*$|\s*[,;!?)]|\.(?!\w)|\s+(?:now|btw|and|so|but"
            rf"|pls|please)\b)",
            "branch feature feat fix bugfix hotfix chore refactor",
        ),
    ),
    # "its a phoenix 1.7 app, internal port 4000": a port listed bare after the project's
    # other settings, named by what listens on it
    (
        None,
        _grx(
            r"(?:[,;]\s*|^\W*(?:(?:and|also|btw|fyi)\W+)?)(?P<subj>(?:internal|local|dev|staging|prod"
            r"|api|app|web|http|https|db|database|redis|postgres|server|container|exposed|admin)"
            r"\s+port)\s+(?P<val>\d{2,5})(?=\s*$|\s*[,;.!?]|\s+(?:and|but|btw|fyi)\b)",
            "port",
        ),
    ),
    # "our app is hosted on fly.io", "we deploy to netlify": where the project is hosted
    (
        "hosting",
        _grx(
            r"(?:\b(?:we|i)\s+(?:(?:still|now|just|currently)\s+)?host\s+(?:it\s+|everything\s+"
            r"|(?:the|our)\s+(?:[\w\-]+\s+)?(?:app|site|api|docs|blog|website|frontend|backend)\s+)?on"
            # "our app is on heroku", "db is mysql 8.0, app hosted on render"
            r"|(?:\b(?:our|my)\s+|(?:^\W*|[,;]\s*)"
            # "rails 7.1 app hosted on heroku": the app named by its stack
            r"|(?:^\W*|[,;]\s*)[a-z][\w.\-]*\s+v?\d+(?:\.\d+)*\s+)(?:app|site|api|backend"
            r"|frontend|project|service|website|blog)\s+(?:is\s+(?:(?:still|now|currently|all)\s+)?"
            r"(?:(?:hosted|deployed|running)\s+)?on|(?:hosted|deployed)\s+on)"
            # "next 14 app router, deployed on vercel": the app just named, its subject left out
            # ("hosted on a hetzner vps": the subject left out where the clause starts)
            r"|(?:[,;]\s*|^\W*)(?:and\s+)?(?:hosted|deployed)\s+on)\s+(?:an?\s+)?(?P<val>(?:netlify|vercel|heroku|fly\.io|render|railway|digitalocean"
            r"|cloudflare(?:\s+pages|\s+workers)?|github\s+pages|firebase(?:\s+hosting)?|hetzner|linode"
            r"|cloud\s+run|app\s+engine|elastic\s+beanstalk|aws\s+lambda|aws|gcp|azure)"
            r"(?:\s+vps)?)(?=\s*$|\s*[,;.!?]|\s+(?:and|but|btw|fyi|now|with|for)\b)",
            "host hosted deployed running on",
        ),
    ),
    # "redis is on port 6380 and the api on 8000": what listens on which port
    (
        "{} port",
        _grx(
            # ("staging db is on port 5433": the database named with its stage)
            r"(?<![\w\-./])(?:the\s+)?(?P<subj>(?:(?:staging|prod|production|dev|local|test)\s+)?"
            r"(?:api|app|web|db|database"
            # ("grpc server on 50051": the server named by what it serves)
            r"|redis|postgres|mysql|mongo|(?:grpc\s+)?server"
            r"|frontend|backend|vite|dev\s+server|admin)"
            # ("staging runs on port 8443": the stage's own port)
            r"|staging(?=\s+(?:(?:still|now|always|currently)\s+)?(?:runs|listens|is)\s+on\s+port\b))"
            # ("our api still listens on 8080, same as always")
            r"(?:(?:\s+(?:(?:still|now|always|currently)\s+)?(?:is|runs|listens))?\s+on\s+(?:port\s+)?"
            # "our frontend dev server is 5173 (vite default)": never a year ("server is 2019")
            r"|(?<=dev\sserver)\s+is\s+(?:port\s+)?(?!19\d\d|20\d\d))(?P<val>\d{4,5})"
            # ("app runs on port 5173 locally": the local port)
            # ("our redis runs on 6380 cos 6379 is taken": the reason after it)
            r"(?:\s+locally)?(?=\s*$|\s*[,;.!?(]|\s+(?:and|but|btw|fyi|not|now|cos|coz|cuz"
            # ("our api listens on 8081 behind nginx": what stands before it)
            r"|because|bc|since|tho|like|behind)\b"
            # ("postgres is on 5433 in docker compose": where it runs so)
            r"|\s+in\s+(?:the\s+|our\s+|my\s+)?(?:docker(?:[\s-]compose)?|compose|containers?|dev"
            r"|prod|production|staging|local|setup|config)\b)",
            "on is",
        ),
    ),
    (
        None,
        _grx(
            rf"\b(?P<det>our|my|the|this|(?:the|this|our|my)\s+(?:project|repo|repository|codebase"
            rf"|app|service){_A}s)\s+(?P<subj>(?:[\w\-.]+\s+){{0,3}}?{_WS_HEADS})\s+"
            rf"(?:is\s+set\s+to|is\s+called|is\s+named|is(?:\s+still|\s+now)?|stays|remains)\s+"
            rf"{_WS_VALUE}",
            "is stays remains",
        ),
    ),
    (
        None,
        _grx(
            # "sorry *deploy branch is release/stable": a correction's own lead words
            rf"(?:^|:\s*|[,;.]\s*|\s+and\s+)\W*(?:(?:and|also|oh|btw|fyi|so|ok|okay|anyway|anyways"
            rf"|right|alright|well|now|then|actually|basically|also|sorry|sry|oops|whoops|wait"
            rf"|correction|typo|nope|no(?=\s*[,*:!\-]))\W+)*"
            rf"(?P<subj>(?:(?!(?:and|also|oh|btw|so|the|our|my|this|a|an|anyway|anyways|right"
            rf"|alright|well|now|then|actually|basically|ok|okay|fyi|sorry|sry|oops|whoops|wait"
            rf"|correction|typo|nope|no)\s)[\w\-.]+\s+){{0,2}}?"
            rf"{_WS_HEADS}(?:\s+for\s+(?:prs|pull\s+requests|merges|releases))?)(?:\s+here)?\s+"
            # ("dependency manager stays poetry": what it stays is what it is)
            rf"(?:is\s+set\s+to|is\s+called|is\s+named|(?:is|are)(?:\s+still|\s+now)?|stays"
            rf"|remains)\s+{_WS_VALUE}",
            "is are stays remains",
        ),
    ),
    (
        None,
        _grx(
            # "context before i ask:\n- staging db: postgres 14 on rds\n- orm: prisma 5": a
            # setting listed on a bulleted line of its own (a pasted config file's "image: nginx"
            # or "version: 2" has no bullet, and its keys are none of these)
            r"^[-*•]\s*(?P<subj>(?:(?:staging|prod|production|dev|test|local|primary)\s+)?"
            r"(?:db|database|orm|runtime|framework|package\s+manager|ci|linter|formatter|node"
            r"|python|region|hosting|stack|test\s+(?:framework|runner)"
            rf"|(?:base|deploy|default|working|target)\s+branch))\s*:\s+{_WS_VALUE}",
            parts=":",
        ),
    ),
    (
        "target",
        _grx(
            # "our fastapi service targets cloud run": one word may say which service
            rf"(?:(?:\b(?:the|this|our)\s+(?:[\w\-.]+\s+)?|(?:^|[.,;:]\s*)\W*)(?:project|repo"
            rf"|repository|codebase"
            rf"|app|application|service|library|lib|package|tool|cli|solution|module|crate"
            # "the gem targets ruby 3.3", "the plugin targets wordpress 6"
            rf"|gem|plugin|extension|sdk|firmware|image|build)\s+"
            rf"(?:(?:itself|now|only|also|mainly|mostly)\s+)*(?:targets"
            rf"|is\s+targeting)|\bwe\s+(?:now\s+)?target)\s+{_WS_VALUE}"
            # "targets ios 15 and up": the lower bound is part of the value
            rf"(?P<up>\s+(?:and\s+(?:up|above|newer|later)|or\s+(?:later|newer|higher|above)"
            # ... and so is a second platform ("targets ios and android, same codebase")
            rf"|(?:and|&|\+)\s+(?:ios|android|web|macos|windows|linux)(?=\s*(?:$|[,.;!?]))))?",
            "target targets targeting",
        ),
    ),
]


_VERB_FORM = re.compile(r"(?:ing|ed)$")
_FOR_REPO = _rx(r"\bfor\s+$")
_STRANGERS_THING = _rx(
    r"\b(?:fork|repo|project|library|lib|package|template|boilerplate|starter)\s+"
    r"(?:of\s+[\w.\-]+\s+)?(?:by|from)\s+(?:some|a|this|that|an)\s"
    r"|\b(?:some|a)\s+(?:random\s+)?(?:guy|person|dude|stranger|user|dev|developer)\b"
    r"|\bsomeone(?:['’]s|\s+else)"
)
_DEPLOYS_FROM = _grx(
    r"\b(?:we\s+(?:now\s+|still\s+|only\s+|always\s+)?(?:deploy|ship(?=\s+from\s+(?:main|master"
    r"|trunk|release|prod|production|develop|dev|staging|stable|live|`)))"
    # "and deploy is from release branch, not main"
    r"|deploys?\s+(?:go\s+out|ship|happen|run|is|are)?"
    r"|(?:still\s+|we['’]?re\s+|we\s+are\s+)deploying)\s*(?:only\s+)?from\s+"
    # ("gitlab ci deploys from that": the branch named before, not a branch called "that")
    r"(?:the\s+)?(?!main\.)(?!(?:that|this|it|there|here|them|those)\b)"
    r"(?P<val>`[^`\n]{1,60}`|[\w./\-]+)(?:\s+branch)?",
    "deploy deploys deploying ship",
)
# "we moved deploys to the prod branch last sprint"
_DEPLOYS_MOVED = _grx(
    r"\bwe\s+(?:just\s+|finally\s+|recently\s+)?(?:moved|switched|changed)\s+(?:our\s+|the\s+)?"
    r"(?:deploys|deployments|deploying|releases|prod\s+deploys)\s+(?:over\s+)?to\s+(?:the\s+)?"
    r"(?P<val>`[^`\n]{1,60}`|[\w./\-]+)\s+branch\b",
    "moved switched changed",
)
# "PRs go against develop", "open prs against develop", "we branch off develop": the base
# branch
_PR_BASE = _grx(
    # (plural: a habit; "i opened a pr against main" is one change)
    r"(?:\b(?:prs|pull\s+requests|mrs|merge\s+requests)\s+(?:always\s+|should\s+|all\s+)?"
    r"(?:(?:go|get\s+opened|are\s+opened|are\s+made)\s+(?:against|into|to)|target)"
    # (an instruction or the team's habit; "i always forget and open PRs against main" is a
    # slip)
    r"|(?:^\W*(?:(?:and|also|so|pls|please|always)\s+)*|\bwe\s+(?:always\s+)?)(?:open|raise|make)\s+"
    r"(?:all\s+|your\s+|the\s+)?(?:prs|pull\s+requests|mrs)\s+(?:against|into|to)"
    r"|\bwe\s+(?:always\s+)?branch\s+(?:off|from)(?:\s+of)?)\s+(?:the\s+)?"
    r"(?!(?:the|a|an|it|that|this|them|github|gitlab|wrong|right|correct|same|other"
    r"|main\.)\b)"
    r"(?P<val>`[^`\n]{1,60}`|[a-z][\w./\-]*)(?:\s+branch)?(?=\s|[,;:!?)]|\.(?:\s|$)|$)"
    # ... unless the user names the branch's role next ("PRs go to develop, thats our default
    # branch"), which _BRANCH_THATS_OUR reads
    r"(?!\s*,?\s*(?:that['’]?s|thats|which\s+is|it['’]?s|its)\s+(?:our|the)\s+(?!base\b)[\w\-]+"
    r"\s+branch\b)",
    "pr prs pull requests mrs merge open raise make branch",
)
# "we deploy to fly.io", "we deploy to iis on two windows boxes": where the work runs
_DEPLOYS_TO = _grx(
    r"(?:\bwe\s+(?:now\s+|still\s+|currently\s+|just\s+)?deploy"
    # "im on next.js 14 and deploying to vercel": the user's own deploys, going on
    r"|\b(?:i['’]?m|im|i\s+am|we['’]?re|we\s+are)\s+(?:now\s+|currently\s+)?deploying"
    r"|\b(?:i['’]?m|im|i\s+am|we['’]?re|we\s+are)\s+on\s+[\w.\-]+(?:\s+v?\d+(?:\.\d+)*)?\s+and\s+deploying)"
    r"\s+(?:it\s+|everything\s+)?(?:to|on)\s+"
    r"(?!(?:prod|production|staging|stage|dev|test|qa|main|master|the|a|an|our|it|them|friday|fridays"
    r"|monday|mondays|weekends?|eu|us)\b)(?P<val>[a-z][\w\-]*(?:\.[a-z]{2,})?"
    # ("we deploy to stm32 board": the kind of device, as typed)
    r"(?:\s+(?:boards?|devices?|vps|servers?|cluster)(?=\s*(?:$|[,;:!?)]|\.(?:\s|$)|\s+(?:so|and|but)\b)))?)"
    r"(?=\s|[,;:!?)]|\.(?:\s|$)|$)",
    "deploy deploying",
)
# "prod deploys from the `release` branch": the environment the branch deploys to
_ENV_BEFORE = _rx(r"\b(?P<env>prod|production|staging)\s+$")
_SETTING_FOR_REPO = _grx(
    rf"\b(?P<subj>(?:(?!(?:and|also|oh|btw|so|ok|okay|anyway|well|now|then|fyi)\s)[\w\-.]+\s+)"
    rf"{{0,2}}?{_WS_HEADS})\s+(?:for|in|of)\s+(?:(?:this|the|our)\s+"
    # "the base branch for PRs is develop"
    # "line length for us is 120": the team's own setting
    rf"(?:repo|repository|project|codebase|app|service)|prs|pull\s+requests|merges|us)\s+is\s+"
    rf"{_WS_VALUE}",
    "is",
)
# "PRs go to develop, thats our default branch", "near release, thats the branch that auto
# deploys to prod": a branch named, then its role
_BRANCH_THATS_OUR = _grx(
    r"\b(?P<val>`[^`\n]{1,60}`|(?!(?:it|that|this|them|one|mine|ours|there|here|main\.)\b)"
    # ... "we merge all MRs in develop, this is our default branch"
    # ... "PRs go into develop which is our default branch": no comma before "which"
    r"[a-z][\w./\-]*)(?:\s*,\s*(?:that['’]?s|thats|which\s+is|it['’]?s|its|this\s+is|that\s+is)"
    r"|\s+which\s+is)\s+(?:our|the)\s+"
    r"(?:(?P<subj>(?:base|default|deploy|release|dev|development|staging|production|prod)\s+branch)"
    r"\b(?!\s+(?:of|for)\b)|(?P<deploys>branch\s+(?:that|which)\s+(?:auto[- ]?)?deploys))\b",
    "thats that which its it this",
)
_RENAMED = _grx(
    # ("bumped min sdk to 28 just now": a dropped subject where the clause starts)
    # ("after upgrading the database to postgres 16 some queries got slower": a change made)
    rf"(?:\b(?:we|i)\s+|\bafter\s+(?=(?:upgrading|migrating|moving|switching|bumping)\b)"
    rf"|^\W*(?:(?:and|also|so|ok|okay|btw|oh|yep|yes|yeah|yup|right|done)\W+)*)"
    rf"(?:just\s+|recently\s+|finally\s+)?(?:renamed|changed|switched|moved|bumped"
    rf"|upgraded|migrated|raised|(?<=after\s)(?:upgrading|migrating|moving|switching|bumping))\s+(?:the\s+|our\s+|my\s+)?(?P<subj>(?:[\w\-.]+\s+){{0,2}}?{_WS_HEADS})\s+"
    # "we bumped line length from 88 to 120", "we migrated the db over to postgres"
    rf"(?:from\s+[\w./\-]+\s+)?(?:over\s+)?to\s+{_WS_VALUE}",
    "renamed changed switched moved bumped upgraded migrated raised upgrading migrating moving"
    " switching bumping",
)

_PORT_NUMBER_ALONE = re.compile(r"\d{2,5}(?![\w.])")
# "i moved postgres to 5433 cos of the clash": a service moved to a port number is its port
_MOVED_TO_PORT = _grx(
    r"\b(?:we|i)\s+(?:just\s+|already\s+)?(?:moved|changed|switched|remapped|put)\s+"
    r"(?:the\s+|our\s+|my\s+)?(?P<subj>(?:local\s+|dev\s+|staging\s+)?(?:postgres(?:ql)?"
    r"|mysql|mariadb|redis|mongo(?:db)?|db|database|api|app|server|backend|frontend|nginx"
    r"|dev\s+server|vite|grafana|rabbitmq|kafka|elasticsearch))\s+(?:over\s+)?to\s+"
    r"(?P<port>port\s+)?(?P<val>\d{4,5})(?!\.\d)"
    # ... and the number ends what was said ("moved my server to 1234 main street" is an
    # address)
    r"(?=\s*(?:$|[,.;:!?)(])|\s+(?:cos|coz|cause|because|bc|since|and|but|so|now|locally|on|in"
    r"|for|after|last|this|yesterday|today|instead|then|lol|btw)\b)",
    "moved changed switched remapped put",
)
_YEAR_LIKE = re.compile(r"(?:19|20)\d\d")

# Versions of the runtimes, frameworks and tools a coding session works against: "we're on
# Django 4.2", "keep it compatible with python 3.9", "CI runs on Node 20".
_TECHS: Final = _words(
    "python node node.js nodejs django java gradle jest .net dotnet laravel rails ruby php go"
    " golang rust typescript kotlin swift scala elixir flask fastapi next.js nextjs express"
    " symfony maven kubernetes k8s terraform react vue angular spring-boot ubuntu debian"
    " numpy pandas pytorch tensorflow webpack vite eslint ts-jest angularjs svelte deno bun"
    " flutter dart nuxt phoenix spark sqlalchemy prisma expo ember gatsby remix astro sveltekit"
    " nestjs electron tauri unity godot hibernate dbt airflow pydantic postgres postgresql mysql"
    " mariadb mongodb mongo redis sqlite elasticsearch java kafka"
    # the wider stack people name with a version in chat
    " tokio actix axum quarkus micronaut ktor android ios xcode swiftui gcc clang llvm cmake"
    " bazel sbt ghc haskell ocaml zig julia matlab perl lua neovim cuda torch jax keras"
    " scikit-learn sklearn langchain openssl nginx tomcat jenkins ansible helm istio docker"
    " podman centos fedora alpine rhel macos windows sinatra drupal wordpress magento mssql"
    " cassandra dynamodb clickhouse duckdb timescaledb neo4j rabbitmq celery gunicorn uvicorn"
    " nx storybook tailwind bootstrap jquery redux riverpod mypy ruff"
    " pytest cypress playwright selenium junit mocha vitest elasticsearch opensearch grafana"
    " prometheus kibana hadoop flink dask polars jupyter conda mamba py"
    # firmware
    " esp-idf zephyr micropython circuitpython platformio jdk"
)
_TECH_ALIASES: Final = {
    "py": "python",
    "node.js": "node",
    "nodejs": "node",
    "golang": "go",
    "postgresql": "postgres",
    "react-native": "react native",
}
# the tools, longest first so "node.js" wins over "node"
_TECH_NAMES: Final = "|".join(re.escape(t) for t in sorted(_TECHS, key=len, reverse=True))
_VERSION_CHECKED = _grx(
    rf"\b(?:i\s+)?(?:just\s+)?(?:ran|checked|typed|did)\s+[`'\"]?(?P<tech>{_TECH_NAMES})\s+"
    rf"(?:-v|--version|-V|version)[`'\"]?\s*(?:,|and|:|-)?\s*(?:it\s+)?(?:it{_A}?s|its|says|shows|gives"
    rf"|prints|is)\s+(?:actually\s+|really\s+)?v?(?P<ver>\d+(?:\.\d+){{0,2}})\b",
    "ran checked typed did",
)
# "pnpm is our package manager", "ruff is our linter": the value first
_VALUE_IS_OUR = _grx(
    rf"(?:^\W*|[,;.:]\s*|\b(?:and|also|btw|so)\s+)(?P<val>[\w.\-/]+(?:\s+\d+(?:\.\d+)*)?)\s+is\s+"
    rf"(?:our|the)\s+(?P<subj>(?:(?:base|default|deploy|release|dev|development|staging"
    # ... "redis is our celery broker": the tool whose part it is
    rf"|production|prod|working|target|{_TECH_NAMES})\s+)?{_WS_HEADS})\b(?!\s+(?:of|for)\b)"
    # "Minh is our backend engineer": a person's title, not a setting
    rf"(?!\s+(?:engineer|developer|dev|lead|team|person|guy|manager|admin|expert|specialist"
    rf"|consultant|architect)s?\b)",
    "is",
)
_TECH_VERSION = (
    # ("expo sdk 51": the sdk is part of the setting's name)
    # "we're on next 14": Next.js by its short name, only before a major version it has had
    # ("next 14 days" counts days)
    r"(?P<tech>react[\s\-]native|next(?=\s*v?(?:9|1\d)(?:\.\d+){0,2}(?![\w.])(?!\s+(?:days?"
    r"|weeks?|months?|years?|hours?|hrs?|minutes?|mins?|steps?|items?|people|times?|pages?|pts"
    r"|points|questions|orders|rows)\b))|(?:" + _TECH_NAMES + r")(?:\s+sdk)?|spring\s+boot)\s*"
    r"(?P<ver>v?\d+(?:\.\d+){0,2}(?:\.x)?)(?![\w.])"
    # ("switched the repo to bun 3 weeks ago": a time, not a version)
    r"(?!\s*(?:days?|weeks?|months?|years?|yrs?|hours?|hrs?|minutes?|mins?|sprints?)\b)"
)
# "pandas is 1.3", "so node is 20 now": a tool named with a number is its version
_TECH_IS = _grx(
    # ("our airflow is on 2.8")
    r"(?:^\W*|[,;.:]\s*|\b(?:and|so|also|btw)\s+|\bour\s+)(?P<tech>"
    + _TECH_NAMES
    # "python is 3.11", "terraform version 1.6", "so elixir version is 1.16 now"
    # ... "python still 3.11": "is" left out
    + r")\s+(?:version\s+(?:is\s+)?|is\s+(?:now\s+|still\s+)?(?:on\s+)?|still\s+(?:on\s+)?)"
    r"v?(?P<ver>\d+(?:\.\d+){0,2})(?![\w.])",
    " ".join(_TECHS) + " spring next",
)
_TECH_CONTEXT = _grx(
    # ("repo's on node 18": the "is" run on)
    # (Nigerian English "we dey on react 18.2": "dey" for "are")
    rf"(?:\b(?:(?<!\bwe\s)we{_A}?re|we\s+are|we\s+dey|i{_A}?m|i\s+am|we{_A}?ve\s+been|it{_A}?s|(?:project|app|repo"
    rf"|codebase|service)(?:\s+is|{_A}s))\s+(?:still\s+|currently\s+|now\s+|stuck\s+|pinned\s+|locked\s+"
    rf"|already\s+|officially\s+|finally\s+|fully\s+)?"
    # ("we are in rails 7.0": "in" for "on", as many second-language speakers say it)
    rf"(?:on|using|running|at|to|with|in)"
    # "project is django v5 with postgres 16", "our service is go 1.22": the stack it is
    # ("the frontend is react 18" names a part with its noun: the frontend, not a version)
    rf"|(?:\b(?:our|the|this|my)\s+|(?:^\W*|[,.;]\s*))(?:project|app|repo|codebase|service"
    # "(prod is php 8.2)": what the live servers run
    rf"|prod|production)"
    # (Nigerian English "my project na laravel 10 with php 8.2")
    rf"\s+(?:is|na)(?:\s+(?:still|currently|now))?"
    # "our project uses vue 3", second-language "our project still use vue 2.7"
    rf"|\b(?:our|the|this|my)\s+(?:[\w\-]+\s+)?(?:project|app|repo|codebase|service|frontend"
    rf"|backend|monorepo|api|site|website)\s+(?:still\s+|now\s+|currently\s+|also\s+|only\s+)?"
    # ... "my side project runs laravel 10 on php 8.2"
    rf"(?:uses?|is\s+using|runs)"
    rf"|\b(?:compatible\s+with|supports?"
    # "prod runs python 3.12": what the live servers run is the project's version
    rf"|pinned\s+to|locked\s+to|runs?\s+on|running\s+on|built\s+(?:on|with)|stay\s+on"
    # "we actualy run mysql 8 not postgres"
    rf"|\bwe\s+(?:actually\s+|actualy\s+|still\s+|now\s+|currently\s+)?run"
    rf"|\b(?:prod|production)\s+(?:still\s+|now\s+)?runs"
    rf"|we\s+use|we{_A}?re\s+using|\bwe\s+(?:all\s+|only\s+)?run|\bci\s+(?:uses|is\s+using)"
    # "we bumped to node 20 last sprint"
    rf"|(?:\b(?:we|i)\s+|^\W*(?:(?:and|so|also|ok|okay|btw|oh|done|yep|yes)\W+)*)"
    # (second-language "finally we are moved to python 3.12")
    rf"(?:just\s+|recently\s+|finally\s+|actually\s+)?(?:(?:are|have|had)\s+)?"
    rf"(?:bumped|upgraded|downgraded|moved|switched"
    # "we upgraded from 3.19 to flutter 3.22"
    # ... "switched the project to jdk 17": the project named between
    rf"|migrated)\s+(?:(?:the|our|my)\s+(?:project|repo|app|codebase|build)\s+)?"
    rf"(?:up\s+|over\s+|back\s+)?"
    rf"(?:from\s+v?\d+(?:\.\d+){{0,2}}\s+)?to"
    # "merged. so officially python 3.11 now": the new version, declared where a clause starts
    rf"|^\W*(?:(?:so|and|ok|okay|yep|yes|now)\s+)*(?:officially|finally)"
    # "decided to just go node 20"
    rf"|\bdecided\s+to\s+(?:just\s+)?(?:go|move|switch|upgrade|stick)(?:\s+to|\s+with)?"
    # "jupyter on python 3.9 with pandas 1.5", "our lambdas still run on node 18"
    rf"|\b(?:jupyter|notebooks?|colab|venv|virtualenv|container|lambdas?)\s+(?:is\s+|are\s+)?"
    rf"(?:still\s+|currently\s+)?(?:on|using|running(?:\s+on)?|runs?\s+on)"
    # "we pin flutter 3.19 with fvm": the version the user's team holds the tool at
    rf"|\b(?:we|i)\s+(?:still\s+|always\s+)?(?:pin|lock)(?:\s+(?:to|on))?))"
    rf"\s+(?:{_TECH_VERSION})",
    "is on using running at to with compatible target targets targeting support supports pinned"
    " locked run runs built stay use uses bumped upgraded moved switched migrated decided pin lock"
    " officially finally in downgraded",
)
# "we pinned terraform at 1.5.7 on purpose": the tool, then the version it is held at
_TECH_PINNED = _grx(
    r"\b(?:we|i)\s+(?:have\s+|still\s+|always\s+)?(?:pin|pinned|lock|locked)\s+"
    r"(?P<tech>" + _TECH_NAMES + r")\s+(?:at|to|on)\s+(?P<ver>v?\d+(?:\.\d+){0,2})(?![\w.])",
    "pin pinned lock locked",
)
_OTHER_TEAM = _rx(
    r"\b(?:other|another|different|their|that)\s+(?:team|company|project)"
    # "the sample i copied from is some baeldung repo thats on boot 2.7 and java 17": code
    # someone else published
    r"|\b(?:some|a|an|the|this|that)\s+(?:[\w\-]+\s+){0,2}?(?:sample|example|tutorial|template"
    r"|boilerplate|starter|blog\s+post|article|gist|snippet|demo)s?\b"
    r"|\bsome\s+(?:[\w\-]+\s+){0,2}?(?:repo|project|codebase)\b"
)
_FOR_ROLE = _rx(
    r"\s+(?:for|as)\s+(?:the|our)\s+(?P<role>database|db|cache|queue|message\s+queue|broker"
    r"|search\s+engine)\b"
)
_CI_RUNS = _rx(
    r"\bci\s+(?:runs|is\s+running|uses)\s+on\s*$|\bci\s+runs\s+on\b|\bci\s+(?:uses|is\s+using)\s*$"
)
# ... "django 4.2 w/ postgres 15": "with" shortened
# ... "ruby 3.2 rails 7.1": a second tool and version after a space
_TECH_MORE = _rx(rf"(?:\s*(?:,|\+|&|/|\bwith\b|\bw/|\band\b|\bon\b)\s*|\s+)(?:{_TECH_VERSION})")
# "rails 7.1 app", "nuxt 3.9 project", "we're a phoenix 1.7 / elixir 1.15 shop", "its node 20":
# the stack a coding session names in passing
_TECH_APP = _grx(
    rf"(?:^\W*(?:(?:also|and|plus|btw|oh|fyi)\s+)?|[,;.:]\s*|\b(?:a|an|our|the|this|my|its|it{_A}s)\s+)"
    rf"(?:{_TECH_VERSION})"
    rf"(?=(?:\s*(?:/|\+|&|,|\band\b|\bwith\b)\s*[\w.]+\s*v?\d+(?:\.\d+)*)*\s+(?:app|project"
    rf"|service|api|shop|codebase|repo|backend|frontend|monolith|site|server|stack)\b"
    # ("the angular 12 app i maintained at my last job": one the user had)
    rf"(?!\s+(?:(?:i|we)\s+(?:maintained|built|wrote|made|had|inherited|worked\s+on|used\s+to)"
    rf"|(?:at|from)\s+my\s+(?:last|previous|old|former))\b)"
    # "also node 20 on CI fyi": the version the user's CI runs
    rf"|\s+on\s+(?:the\s+|our\s+)?ci(?=\s*(?:$|[,.;!?)]|\s+(?:fyi|btw|too|now|as\s+well|pls"
    rf"|please|and|but|so|lol)\b)))",
    " ".join(_TECHS) + " net spring next",
)
# "package manager is pnpm not npm in this repo, and node 20": one more of the stack, added to
# a setting just stated (read only after one, see _rule_tech)
_AND_TECH = _grx(
    rf"(?:,\s*|\s+)(?:and|&|plus)\s+(?:{_TECH_VERSION})(?=\s*(?:$|[,.;!?]))",
    "and plus",
    "&",
)
_SETTING_SAID = _rx(
    rf"\b(?:i|we|our|my|us|im|i{_A}m|we{_A}re)\b[^.!?]*\b(?:use|using|on|run|running)\b"
    r"|\b(?:is|are)\b"
)
# "we are building payroll microservice in node 20 with typescript": what the work is built on
_BUILT_IN = _grx(
    rf"\b(?:building|writing|developing|coding|making|maintaining|migrating|built|written|coded)\s+"
    rf"(?:(?:a|an|the|our|my|this|that)\s+)?(?:[\w\-]+\s+){{0,3}}?(?:app|application|service"
    rf"|microservice|api|backend|frontend|site|website|server|bot|cli|tool|project|platform"
    rf"|dashboard|library|lib|sdk|plugin)s?\s+(?:in|with|on|using)\s+(?:{_TECH_VERSION})",
    "building writing developing coding making maintaining migrating built written coded",
)
# non-native "in my project php 8.2 and laravel 10": the project's stack, named after it
_IN_MY_PROJECT = _grx(
    r"\b(?:in|for)\s+(?:my|our)\s+(?:project|app|repo|codebase)\s*,?\s+(?:(?:we\s+)?(?:use|have"
    rf"|is|are)\s+)?(?:{_TECH_VERSION})",
    "project app repo codebase",
)
_ITS_TECH = _grx(
    rf"(?:\b(?:it{_A}?s|its)|(?:^|,)\s*is"
    # "still node 20 like i said", "also py3.11 so u can use match": the stack said again
    rf"|(?:^\W*|[,.;]\s*)(?:(?:yes|yep|yeah|and|also|so|btw)\s+)?(?:still|also|on)"
    # "updated the wrapper to 8.7, works. so java 21 + gradle 8.7 now": where a change left it
    rf"|(?:^\W*|[,.;]\s*)(?:(?:ok|okay)\s+)?so(?=\s+(?:{_TECH_NAMES})\s*v?\d+(?:\.\d+)*"
    rf"(?:\s*(?:,|\+|&|/|\band\b|\bwith\b)\s*[\w.]+\s*v?\d+(?:\.\d+)*)*\s+now\b))\s+(?:{_TECH_VERSION})"
    rf"(?=\s*(?:$|[,.;!])|\s+(?:now|btw|here|actually|like\s+i\s+said|so)\b"
    # "no wait its node 22 i bumped it friday": why it is that version, said straight after
    rf"|\s+(?:i|we)\s+(?:just\s+)?(?:bumped|upgraded|updated|moved|switched|changed|migrated)\b"
    # "its python 3.11 + playwright": a library chained after it
    rf"|\s*(?:\+|&|/|\bwith\b|\bw/|\band\b)\s*[\w.\-]+(?:\s+v?\d[\w.]*)?\s*(?:$|[,.;!]))",
    "its s is still also on so",
)
# "i bumped react to 18.3": the version a tool is now on
_TECH_BUMPED = _grx(
    # "we bumped python to 3.12", "bumped python to 3.12 yesterday" (a dropped subject where the
    # clause starts), "we finally upgraded node, 20 now" (the new version, said with its "now")
    r"(?:\b(?:i|we)(?:['’]ve|\s+have)?\s+|^\W*(?:(?:and|also|so|ok|okay|btw|oh)\s+)?"
    # ("we switched to pnpm last sprint and bumped node to 20": the same subject, carried on)
    r"|(?<=,)\s*(?:and\s+)?|\b(?:i|we)\s+[^.,;!?]{1,60}?\sand\s+)"
    r"(?:just\s+|recently\s+|finally\s+)?"
    r"(?:bumped|upgraded|updated)\s+"
    r"(?P<tech>" + _TECH_NAMES + r")(?:\s+(?:from\s+v?\d+(?:\.\d+)*\s+)?to\s+"
    r"|\s*[,:\-—]\s*(?:it['’]?s\s+|now\s+(?:on\s+)?)?(?=v?\d+(?:\.\d+){0,2}\s+now\b))"
    r"(?P<ver>v?\d+(?:\.\d+){0,2})(?![\w.])",
    "bumped upgraded updated",
)
# "we bumped to go 1.22 yesterday", "we moved the app to node 22": the stack moved to
_BUMPED_TO_TECH = _grx(
    # ("yep bumped us to node 20, all builds pass": the team moved, the lead agreeing)
    r"(?:\b(?:i|we)(?:['’]ve|\s+have)?\s+|^\W*(?:(?:and|also|so|ok|okay|btw|oh|yep|yes|yeah"
    r"|yup|right|done)\W+)*"
    r"|(?<=,)\s*(?:and\s+)?)(?:just\s+|recently\s+|finally\s+|already\s+)?(?:bumped|upgraded"
    # ("nah not worth it. rolled back to node 20": the version gone back to)
    r"|updated|moved|switched|migrated|downgraded|reverted|rolled\s+back|went\s+back)\s+"
    r"(?:(?:it|us|everything|the\s+(?:project|repo|app"
    rf"|codebase))\s+)?to\s+(?:{_TECH_VERSION})",
    "bumped upgraded updated moved switched migrated downgraded reverted rolled went",
)
_TEST_RUNNERS = r"pytest|jest|vitest|mocha|unittest|rspec|junit|phpunit|minitest|ava|jasmine"
# "we use postgres", "we're on django 4.2 btw and postgres": a database named without a version
# is the project's database (with one it is that tool's version, see _TECH_CONTEXT)
_DATABASE_USED = _grx(
    rf"\b(?:we|i|(?:this|the|our)\s+(?:project|repo|app|codebase|service|team))"
    rf"(?:{_A}re|\s+are|\s+is)?(?:\s+(?:also|still|now|currently|mainly|mostly|fully|officially"
    rf"|finally))?"
    rf"\s+(?:use|uses|using|run\s+on|runs\s+on|on)\s+"
    rf"(?:[\w.\-]+(?:\s+v?\d+(?:\.\d+)*)?\s+(?:btw\s+)?(?:and|\+|with|&|,)\s+)?(?:btw\s+)?"
    rf"(?P<val>postgres(?:ql)?|mysql|mariadb|sqlite3?|mongodb|dynamodb|cassandra|cockroachdb"
    rf"|clickhouse|firestore|neo4j|mssql|sql\s+server)(?![\w\-]|\.\w|\s+v?\d|\s+(?:or|vs)\b"
    # "we use sqlite for tests": the test database, not the project's
    rf"|\s+(?:for|in)\s+(?:tests?|testing|unit\s+tests|local|dev|ci)\b|\s+locally\b"
    # "the project is on python 3.12 and postgres runs on port 5433": the subject of what
    # follows, not an item of the list
    rf"|\s+(?:runs|listens|is|was|keeps|has|had|won{_A}?t|doesn{_A}?t|isn{_A}?t)\b)",
    "postgres postgresql mysql mariadb sqlite sqlite3 mongodb dynamodb cassandra cockroachdb"
    " clickhouse firestore neo4j mssql sql",
)
# Who speaks of the user's code: "we", or the repository itself ("this one uses biome")
_OUR_CODE = (
    r"(?:we|i|(?:this|the|our)\s+(?:project|repo|app|codebase|team|lib|library|package|one)"
    # ("my side project uses laravel")
    r"|my\s+(?:own\s+)?(?:side\s+)?(?:project|repo|app))"
)
# "we use conventional commits here", "commit messages follow conventional commits", "commit
# message style is conventional commits": the team's commit convention, however it is named
_COMMIT_CONVENTION = _grx(
    rf"(?:\b{_OUR_CODE}\s+(?:use|uses|follow|follows|are\s+using|{_A}re\s+using|do|stick\s+to)"
    rf"|\b(?:our\s+|the\s+|all\s+)?commit(?:\s+messages?|s)?\s+(?:follow|use|must\s+follow"
    rf"|should\s+follow|need\s+to\s+follow|are)"
    rf"|\bcommit\s+(?:message\s+)?(?:style|convention|format)\s+is)\s+(?:the\s+)?"
    rf"(?P<val>conventional\s+commits?|gitmoji)\b(?!\s+(?:for|in)\s+(?:some|one|a|their|his|her)\b)",
    "conventional gitmoji",
)
_TEST_RUNNER = _grx(
    rf"\b{_OUR_CODE}\s+"
    rf"(?:use|uses|are\s+using|{_A}re\s+using|is\s+using|run|runs|(?:just\s+)?(?:moved|switched|migrated)"
    rf"\s+(?:(?:everything|all\s+(?:our\s+|the\s+)?tests|(?:our\s+|the\s+)?tests)\s+)?(?:over\s+)?to"
    # "we test with jest", "tests run on vitest", a bare "testing with pytest"
    rf"|test\s+(?:with|using))"
    rf"\s+(?P<val>{_TEST_RUNNERS})\b"
    rf"|(?:\b(?:our\s+|the\s+)?tests\s+(?:run|are)\s+(?:on|in|with)|^\W*testing\s+(?:with|using)"
    # "moved everything to vitest last month", the subject left out
    rf"|^\W*(?:(?:oh|ok|so|also|btw|update|fyi)\W+)*(?:just\s+)?(?:moved|switched|migrated)\s+"
    rf"(?:everything|all\s+(?:our\s+|the\s+)?tests|(?:our\s+|the\s+)?tests)\s+(?:over\s+)?to)"
    rf"\s+(?P<val2>{_TEST_RUNNERS})\b"
    rf"(?!\s+(?:for|in)\s+(?:some|one|a)\b)",
    "use uses using run runs moved switched migrated test tests testing",
)
# "well actually not strict keto": a value denied later in its message (see _denied_later)
_DENIED_LATER_BIT: Final = _PREFILTER.add("not")
_DENIABLE_KINDS: Final = frozenset({"diet", "occupation", "allergy", "preference"})
_KIND_VALUE: Final = {
    "diet": "diet",
    "occupation": "role",
    "allergy": "allergen",
    "preference": "object",
}
_DENIAL = _rx(
    r"\bnot\s+(?:(?:strict|strictly|fully|really|totally|completely|100%|a|an|the|yet)\s+)?"
    r"(?P<words>[\w'’\-]+(?:\s+[\w'’\-]+){0,3})"
)
# "ok so we're on 3.12": a version without its tool (see _bare_version)
_BARE_VERSION = _grx(
    rf"\b(?:we{_A}?re|we\s+are|it{_A}?s|its|it\s+is)\s+(?:now\s+|actually\s+)?on\s+v?"
    rf"(?P<ver>\d+\.\d+(?:\.\d+)?)(?![\w.])"
    # "no wait we upgraded last sprint, its 5.0 now"
    rf"|\b(?:it{_A}?s|its|it\s+is)\s+(?:actually\s+)?v?(?P<ver2>\d+\.\d+(?:\.\d+)?)\s+now\b"
    # "the go version is 1.21" / "its 1.22 actually"
    rf"|^\W*(?:(?:oh|sorry|wait|no|ah)\W+)*(?:it{_A}?s|its|it\s+is)\s+v?(?P<ver3>\d+\.\d+(?:\.\d+)?)"
    rf"\s+actually\b"
    # "sorry i mixed up, the project is 3.11": the project's version, its tool said before
    rf"|(?:^\W*|[,.;:]\s*)(?:the\s+|our\s+)?(?:project|repo|app|codebase)\s+is\s+(?:on\s+)?v?"
    rf"(?P<ver4>\d+\.\d+(?:\.\d+)?)(?![\w.])"
    # "ok upgraded the server to 8.2": the server's runtime, its tool said before
    rf"|\b(?:upgraded|bumped|updated)\s+(?:the\s+(?:server|box|vps|machine|container|image)"
    rf"|everything)\s+to\s+v?(?P<ver5>\d+\.\d+(?:\.\d+)?)(?![\w.])"
    # "did it. tests pass on 8.3": what the project now runs on
    rf"|\b(?:tests?|ci|everything|build)\s+(?:pass(?:es)?|passing|green|works?|working|runs?)\s+"
    rf"on\s+v?(?P<ver6>\d+\.\d+(?:\.\d+)?)(?![\w.])(?!\s+(?:too|as\s+well|also)\b)"
    rf"(?=\s*(?:$|[,.;!]))"
    # "we're on rails 7.0.. sorry i meant 7.1": the version put right in the same breath
    rf"|\b(?:sorry|sry|oops)\W+(?:i\s+)?meant\s+v?(?P<ver7>\d+\.\d+(?:\.\d+)?)(?![\w.])"
    rf"(?=\s*(?:$|[,.;!]))",
    "on now actually is upgraded bumped updated meant",
)
# "go 1.12" ... "lol typo, 1.22": the version a typo hid (read like _BARE_VERSION; a message
# with only this to say is not skipped)
_TYPO_VERSION = _grx(
    r"^\W*(?:(?:lol|oh|oops|sorry|ah|haha)\W+)*(?:typo|i\s+meant?|meant)\W+v?"
    r"(?P<ver>\d+\.\d+(?:\.\d+)?)(?!\w|\.\d)(?=\s*(?:$|[,.;!]))",
    "typo meant mean",
)
_PACKAGE_MANAGERS = r"pnpm|yarn|npm|poetry|uv|pipenv|pip|bun|conda|composer|bundler|cargo"
_TOOL_WORDS: Final = frozenset((*_TECHS, *_PACKAGE_MANAGERS.split("|")))
_PACKAGE_MANAGER_NAMES: Final = frozenset(_PACKAGE_MANAGERS.split("|"))
_WHOLE_REPO: Final = frozenset({"repo", "repository", "project", "codebase", "app", "monorepo"})
_PACKAGE_MANAGER = _grx(
    rf"(?:\b(?:we|i|(?:this|the|our)\s+(?:project|repo|app|team|codebase|monorepo|service"
    # ("we just moved to uv last week")
    rf"|workspace))\s+(?:(?:just|recently|finally|now)\s+)?(?:use|uses"
    rf"|are\s+using|{_A}re\s+using|is\s+using|switched\s+(?:over\s+)?to|moved\s+(?:over\s+)?to"
    rf"|migrated\s+(?:over\s+)?to)|^\W*use"
    # "moved to pnpm" (a dropped subject where the clause starts), "we switched package
    # managers, pnpm now"
    rf"|^\W*(?:(?:and|also|so|ok|okay|btw|oh)\s+)?(?:just\s+|recently\s+|finally\s+)?"
    rf"(?:switched|moved|migrated)\s+(?:over\s+)?to"
    rf"|\b(?:switched|changed)\s+package\s+managers?\s*(?:to|[,:\-—]\s*(?:it{_A}?s\s+|now\s+)?"
    rf"(?=(?:{_PACKAGE_MANAGERS})\s+now\b))"
    # "project uses poetry" (the determiner left out where the clause starts)
    rf"|^\W*(?:project|repo|app|codebase|monorepo)\s+uses"
    # "we manage deps with poetry", "dependencies are managed by uv"
    rf"|\b(?:we|i)\s+(?:manage|install|handle)\s+(?:our\s+)?(?:deps|dependencies|packages)\s+"
    rf"(?:with|using|via|through|w/?)"
    # "py3.12, deps via poetry": the list's item
    rf"|(?:^\W*|[,;]\s*)(?:and\s+)?(?:deps|dependencies|packages)\s+(?:via|with|w/?|through)"
    # "still on yarn (classic, v1) - how do i ...": the stack said again
    rf"|^\W*(?:(?:yes|yeah|yep|and|so)\s+)?(?:still|also)\s+on"
    rf"|^\W*(?:our\s+|the\s+)?(?:deps|dependencies|packages)\s+(?:are\s+)?(?:managed|installed"
    rf"|handled)\s+(?:by|with|via|using|through)"
    # "we're a pnpm shop"
    rf"|\bwe(?:{_A}?re|\s+are)\s+an?\s+(?=(?:{_PACKAGE_MANAGERS})\s+shop\b)"
    # "reverted everything, we're back on npm for good", "we went back to yarn"
    rf"|\b(?:we(?:{_A}?re|\s+are)\s+(?:now\s+)?back\s+(?:on|to)|we\s+(?:went|switched|moved)\s+back"
    rf"\s+to|(?:reverted|rolled\s+back)\s+to)"
    # "we actually switched off yarn in march, its npm workspaces now"
    rf"|\bswitched\s+(?:off|away\s+from)\s+(?:{_PACKAGE_MANAGERS})\b[^.;!?]{{0,30}}?,\s*"
    rf"(?:it{_A}?s|its|it\s+is)\s+(?=(?:{_PACKAGE_MANAGERS})\b)"
    # "used to use npm, now pnpm": the clause the comma opened
    rf"|^\W*(?:but\s+)?now\s+(?:it{_A}?s\s+)?(?=(?:{_PACKAGE_MANAGERS})\s*(?:$|[,.;!]|\d)))\s*\b"
    rf"(?P<pm>{_PACKAGE_MANAGERS})(?P<ver>\s+\d+(?:\.\d+)*)?(?![\w.])",
    "use uses using switched moved migrated changed manage install handle managed installed"
    " handled shop now back reverted deps dependencies packages still also",
)
# "we're on pnpm with node 20": the package manager the user's team is on
_WE_ON_PM = _grx(
    rf"\bwe(?:{_A}?re|\s+are)\s+(?:(?:now|still|already|all)\s+)?on\s+(?P<pm>{_PACKAGE_MANAGERS})\b"
    rf"(?!\s*v?\d)",
    "pnpm yarn npm poetry uv pipenv pip bun conda composer bundler cargo",
)
# "we're on node 20 / pnpm 9": the package manager chained after the stack; "yarn 4 w/
# workspaces" opening a sentence
_PM_CHAINED = _grx(
    r"(?:(?:"
    + _TECH_NAMES
    + r")\s*v?\d+(?:\.\d+){0,2}\s*(?:/|\+|,|&|\band\b)\s*(?P<pm>pnpm|yarn|npm|bun|poetry|uv)"
    r"|(?:^\W*|[.;!]\s+)(?P<pm2>pnpm|yarn|bun))\s*(?P<ver>\d+(?:\.\d+)*)(?![\w.])"
    r"(?=\s*(?:$|[,.;!)])|\s+(?:w/|(?:with|and|btw|now|locally|here|too)\b))",
    "pnpm yarn npm bun poetry uv",
)
# "we use pnpm and node 20 on this repo": the versioned stack after the package manager
_PM_AND_TECH = _rx(rf"\s*(?:\band\b|&|\+|\bw/|\bwith\b)\s*(?:{_TECH_VERSION})(?![\w.])")
# "we switched from poetry to uv last month"
_PM_SWITCH = _grx(
    rf"\b(?:we|i)\s+(?:just\s+|recently\s+|finally\s+)?(?:switched|moved|migrated)\s+from\s+"
    rf"(?:{_PACKAGE_MANAGERS})\s+to\s+(?P<pm>{_PACKAGE_MANAGERS})(?![\w.])",
    "switched moved migrated",
)
# "node 20, npm", "terraform 1.5.7 here", ", gradle 8.5": a stack named in a fragment
# ("node 18 cos lambda": with its reason; "laravel 10 on php 8.2": one on the other)
_TECH_FRAGMENT = _grx(
    rf"(?:^\W*|[,;]\s*|\b(?:context|stack|setup|env|environment|details|fyi)\s*:\s*"
    rf"|\bso\s+(?:yeah\s+|yes\s+)?)(?:{_TECH_VERSION})"
    # ("flutter 3.19 pinned with fvm")
    rf"(?=\s*(?:$|[,.;(]|\s+(?:here|everywhere|underneath|lts|pinned"
    rf"|btw|and|in\s+(?:this|the|our)\b|cos|coz|cuz|because|bc)\b"
    rf"|\s+(?:on|w/|with)\s+[\w.]+\s*v?\d+(?:\.\d+)*(?=\s*(?:$|[,.;(]))"
    # ... "php 8.2 laravel 10": two side by side
    rf"|\s+(?:{_TECH_NAMES})\s*v?\d+(?:\.\d+)*(?=\s*(?:$|[,.;(]))))",
    " ".join(_TECHS) + " spring next",
)
# "linter eslint, formatter prettier, print width 120", "db mysql 8, redis 7": settings listed
# by name and value with no verb, read only in a list of two settings or more
_LIST_HEADS = (
    r"db|database|orm|linter|formatter|bundler|test\s+runner|package\s+manager"
    r"|state\s+management|(?:celery\s+)?broker|cache|queue|task\s+runner|state\s+backend"
    r"|print\s+width|(?:max\s+)?line\s+length|(?:api|app|web|frontend|backend|dev\s+server)\s+port"
    r"|msrv|edition|(?:min(?:imum)?\s+)?deployment\s+target"
)
_HEAD_VALUE = _grx(
    rf"(?:^\W*|(?<=[,;/:])\s*|(?<=\.)\s+)(?P<subj>{_LIST_HEADS})\s+"
    r"(?P<val>(?!(?:is|are|was|were|for|the|a|an|on|in|at|with|and|or|to|of|that|this|it|its"
    r"|has|have|not|no|keeps|config|setup|error|issue|stuff|file|thing|problem)\b)"
    r"[a-z][\w.\-]*(?:\s+v?\d+(?:\.\d+)*)?|\d+(?:\.\d+)*)"
    r"(?=\s*(?:$|[,;/.(])|\s+(?:w/?|with)\s)",
    "db database orm linter formatter bundler runner manager management broker cache queue"
    " backend width length port msrv edition target",
)
_TECH_ITEM = re.compile(_TECH_VERSION, re.IGNORECASE)
_LIST_GAP = re.compile(r"\s*[,;/]\s*(?:and\s+)?")
# ... and the one it runs on, right after it
_TECH_ON = _rx(rf"\s+(?:(?:on|w/|with)\s+)?(?:{_TECH_VERSION})(?=\s*(?:$|[,.;(]))")
_THEIR_SETUP = _rx(
    r"\b(?:their|his|her|your|(?:the\s+)?(?:reporter|maintainer|author)s?['’]?s?)\s+"
    r"(?:context|stack|setup|env|environment|details)\s*:"
    # "the instructor's setup is vue 2, vuex 3, webpack 4": a setup another person owns
    r"|\b(?!(?:my|our|the|this|project|repo|app)\b)[a-z]+['’]s\s+(?:context|stack|setup|env"
    r"|environment)\s+(?:is|was|uses)\b"
)
# "his is db mysql 8, cache redis 7. mine: db postgres 16", "article benchmarked on: node 20,
# bun 1.0": a list said of another's setup or of a text's, until the user names their own
_THEIRS_LEAD = _rx(
    r"\b(?:his|hers|theirs|(?:his|her|their)\s+(?:one|repo|setup|stack|env))\s+(?:is|are|has"
    r"|uses|runs)?\s*:?"
    r"|\b(?:article|post|blog|tutorial|benchmark|video|course|readme|book|spec)\b[^.:\n]{0,30}:"
    # "in the udemy course the guy uses python 3.8, flask 2.0": another person's setup
    r"|\b(?:the\s+(?:guy|instructor|teacher|tutor|presenter|lecturer|youtuber|author)|he|she)\s+"
    r"(?:uses|used|has|had|runs|ran|is\s+(?:on|using))\b"
)
_FOR_ANOTHER = _rx(
    r"\b(?:for|from|on\s+behalf\s+of)\s+(?:my|our|his|her|their)\s+[\w\-]+"
    # "a guy from church asked me to help with a letter to his bank": a letter for him
    r"|\b(?:asked|asks|wants|wanted|needs|needed)\s+me\s+to\s+(?:help|write|draft|do)\b"
)
_FROM_ME = _rx(rf"\bfrom\s+me\b|\bthat{_A}?s\s+me\b|\bthats\s+me\b")
_TIMED_LEAD = _grx(
    r"(?:^|(?<=[.!?])\s+)\W*(?:(?:just|only|ok|so)\s+)*(?:for\s+(?:today|now|tonight|this\s+(?:session"
    r"|run|test|week|sprint|morning|afternoon|branch|experiment))|temporarily)\b[^.!?\n,]{0,50},",
    "for temporarily",
)
_TAG_RIGHT = re.compile(_RIGHT_TAG, re.IGNORECASE)
_HOME_NOUN_AFTER = _rx(
    r"\b(?:my|our)\s+(?:own\s+|new\s+|little\s+)?(?:flat|house|apartment|home|place)\s+in\b"
)
_MINE_LEAD = _rx(r"\b(?:mine|ours|my|our)\b")
_SPEC_PREFACE = _grx(
    r"\b(?:take[\s\-]?home|requirements\s*:|job\s+(?:ad|advert|posting|spec|description)"
    r"|the\s+(?:tutorial|course|article|blog(?:\s+post)?|video|assignment)\s+(?:uses|wants|is\s+on"
    r"|has|says))\b",
    "take home requirements job tutorial course article blog video assignment",
)
# "so postgres 16, redis 7, api on 3000 in their setup": whose, said after the list
_THEIRS_AFTER = _rx(
    r"\bin\s+(?:their|his|her|the\s+(?:blog|tutorial|article|post)(?:['’]?s)?)\s+(?:setup|repo"
    r"|config|project|stack|compose|example)\b"
)


def _theirs(c: str, start: int, end: int) -> bool:
    """Whether the setting at ``start:end`` is in a list said of another's or a text's setup."""
    if _THEIRS_AFTER.search(c, end):
        return True
    lead = max((m.end() for m in _THEIRS_LEAD.finditer(c, 0, start)), default=-1)
    return lead >= 0 and not _MINE_LEAD.search(c, lead, start)


_PM_FRAGMENT = _rx(rf"[,;]\s*(?P<pm>{_PACKAGE_MANAGERS})(?=\s*$|\s*[,.;])")
# "tabs not spaces in this repo", "we use ruff not black"
_INDENT = _grx(r"(?<!\d\s)\b(?P<val>tabs|spaces)\s*,?\s+not\s+(?:tabs|spaces)\b", "not")
_FORMATTERS = r"ruff|black|prettier|biome|gofmt|rustfmt|autopep8|yapf|clang-format"
_FORMATTER = _grx(
    rf"(?:\b(?:we|i)\s+(?:now\s+|also\s+)?|(?<=\band\s))(?:use|are\s+using|{_A}re\s+using"
    rf"|format\s+with)\s+"
    rf"(?P<val>{_FORMATTERS})"
    # "we dropped black and use ruff format now": the formatter by its command
    rf"(?=\s*,?\s+not\s+(?:{_FORMATTERS})\b|\s+(?:to|for)\s+format|(?<=ruff|iome)\s+format\b)",
    "use using format",
)
# "we moved to github actions in january", "we use circleci": the CI service named by the
# user's own team
_CI_SERVICES = (
    r"github\s+actions|gitlab\s+ci|gitlab(?=\s+(?:runners?|pipelines?)\b)|circle\s?ci"
    r"|travis(?:\s+ci)?|buildkite|jenkins|azure\s+pipelines|bitbucket\s+pipelines|teamcity"
    r"|drone(?:\s+ci)?|woodpecker(?:\s+ci)?|bamboo|codebuild|cloud\s+build"
)
_CI_USED = _grx(
    # "we're on github actions not gitlab"
    rf"\bwe(?:{_A}?re|\s+are)\s+(?:still\s+|now\s+|all\s+)?on\s+(?P<on>{_CI_SERVICES})\b"
    rf"(?!\s+(?:for|on|in)\s+(?:some|one|a|the\s+other)\b)"
    rf"|\b(?:we|i)\s+(?:now\s+|also\s+|only\s+|just\s+|finally\s+|recently\s+)?(?:use"
    rf"|are\s+using|{_A}re\s+using|(?:moved|switched|migrated)\s+(?:(?:our\s+)?ci\s+)?"
    rf"(?:over\s+)?to)\s+(?P<val>{_CI_SERVICES})\b(?!\s+(?:for|on|in)\s+(?:some|one|a|the\s+other)\b)"
    # "deploy branch is `release` and gitlab ci deploys from that": the CI that does the work
    rf"|(?:^\W*|[,;.]\s*|\band\s+)(?P<runs>{_CI_SERVICES})\s+(?:deploys|runs|builds)\b",
    "use using moved switched migrated on deploys runs builds",
)
# "we use maven not gradle btw", "we build with bazel": the build tool
_BUILD_TOOLS = r"maven|gradle|sbt|bazel|ant|cmake|meson|buck2?|pants"
_BUILD_TOOL = _grx(
    rf"\b(?:we|i)\s+(?:(?:use|are\s+using|{_A}re\s+using)\s+(?P<val>{_BUILD_TOOLS})"
    rf"(?=\s*,?\s+not\s+(?:{_BUILD_TOOLS})\b|\s+(?:to|for)\s+(?:build|builds|the\s+build)\b)"
    rf"|build\s+(?:everything\s+)?(?:with|using|via)\s+(?P<val2>{_BUILD_TOOLS})\b)",
    "use using build",
)
# "ok did it. ruff for lint, kept black ...", "ruff format replaced black too": a tool named with
# its job, said of the user's own setup
_TOOL_FOR_JOB = _grx(
    rf"(?:^\W*|[,;.:]\s*|\b(?:and|so|now|also|then|just)\s+|\b(?:kept|keep|use|using|went\s+with)\s+)"
    rf"(?:(?P<lint>ruff|eslint|flake8|pylint|rubocop|golangci-lint|ktlint|stylelint|biome)\s+for\s+"
    rf"(?:lint|linting)\b"
    rf"|(?P<fmt>ruff|biome)\s+format\s+(?:replaced|replaces)\s+(?:{_FORMATTERS})\b)",
    "lint linting replaced replaces",
)
# "we use riverpod for state management": a tool named with the setting it fills (only the
# settings a user names with a noun of their own, so the noun is the subject as said)
_SETTING_ROLES = (
    r"state\s+management|orm|ci|hosting|(?:job\s+|task\s+)?queue|broker|cache|auth\s+provider"
    r"|test\s+(?:framework|runner)|bundler|package\s+manager|dependency\s+manager|ui\s+library"
    r"|component\s+library|migration\s+tool|type\s+checker|database|db|formatter|linter"
    # "we use alembic for migrations": the tool of the job named
    r"|migrations"
)
_USE_FOR_SETTING = _grx(
    rf"\b(?:we|i)\s+(?:(?:still|now|just|mostly|mainly)\s+)?(?:use|are\s+using|{_A}re\s+using"
    # non-native "we are using still yarn classic like package manager"
    rf"|went\s+with)\s+(?:(?:still|now|only)\s+)?(?P<val>[\w.\-]+(?:\s+(?:classic|berry"
    rf"|v?\d[\w.]*))?)\s+(?:for|as|like)\s+(?:the\s+|our\s+|a\s+)?(?P<subj>{_SETTING_ROLES})"
    rf"(?=\s*(?:$|[,.;!?)]|\s+(?:and|but|so|btw|here|now|of\s+course|in\s+(?:this|the|our)\b)))",
    "use using went",
)
# "we use prisma for all db access": an ORM, said by what it is used for
_ORMS = r"prisma|drizzle|sqlalchemy|typeorm|sequelize|hibernate|mikro-?orm|knex|peewee|gorm|ecto"
_ORM_NAME = _rx(_ORMS)
_MONOREPO_TOOLS = r"turborepo|nx|lerna"
# "our monorepo uses turborepo": the tool the user's monorepo is run with
_MONOREPO_TOOL = _grx(
    rf"\b(?:{_OUR_CODE}|(?:our|the|this|my)\s+monorepo)\s+(?:(?:now|still|just)\s+)?(?:use|uses"
    rf"|is\s+using|{_A}re\s+using|are\s+using|runs\s+on|is\s+on|{_A}re\s+on|is\s+built\s+with)\s+"
    rf"(?P<val>{_MONOREPO_TOOLS})\b(?!\s+(?:or|vs)\b)",
    "turborepo nx lerna",
)
_ORM_FOR_DB = _grx(
    rf"\b(?:we|i)\s+(?:(?:still|now|just|mostly|mainly)\s+)?(?:use|are\s+using|{_A}re\s+using)"
    rf"\s+(?P<val>(?:{_ORMS})(?:\s+v?\d[\w.]*)?)\s+(?:for|as)\s+(?:(?:all|the|our)\s+)*"
    r"(?:db|database|data)\s+(?:access|layer|stuff|queries|models?)\b",
    "use using",
)
# "were on prisma already", "we use drizzle": a tool that is nothing but an ORM is the orm
_ORM_USED = _grx(
    rf"(?:\b(?:we{_A}re|we\s+are|we|i)|(?:^\W*|[,;.]\s*|\b(?:and|but|so)\s+)were)\s+"
    rf"(?:(?:already|still|now|just|mostly|mainly)\s+)?(?:on|use|using)\s+(?P<val>{_ORMS})"
    # ("we use sqlalchemy 2.0": that tool's version, see _TECH_CONTEXT)
    r"(?![\w\-])(?!\s+(?:or|vs|v?\d)\b)"
    r"(?!\s+(?:for|in)\s+(?:some|one|a|the\s+other|tests?)\b)",
    "on use using",
)
# ... "and jest like test runner": a second tool in the same role-giving words
_AND_FOR_SETTING = _rx(
    rf"\s+and\s+(?P<val>[\w.\-]+)\s+(?:for|as|like)\s+(?:the\s+|our\s+|a\s+)?"
    rf"(?P<subj>{_SETTING_ROLES})(?=\s*(?:$|[,.;!?)]|\s+(?:and|but|so|btw|here|now)\b))"
)
_LINE_LENGTH = _grx(
    # "black line length is 100": the user's noun phrase keeps the tool it names
    r"(?:\b(?P<tool>black|ruff|prettier|flake8|pylint|eslint|rubocop|ktlint)\s+)?"
    r"\b(?P<max>max(?:imum)?\s+)?line[- ](?:length|limit)\s+(?:is\s+|of\s+|=\s*|:\s*|to\s+|at\s+)?"
    r"(?P<val>\d{2,3})\b",
    "length limit",
)


# "keep lines under 100 chars": the line length, said as the rule it sets
_LINES_UNDER = _grx(
    r"\b(?:(?:keep\s+(?:the\s+)?|max\s+)?lines?\s+(?:under|below|to|at\s+most|max(?:imum)?"
    r"(?:\s+of)?|<=?)"
    # "we cap lines at 100 chars"
    r"|(?:cap|limit|wrap)\s+(?:the\s+|our\s+)?lines\s+(?:at|to))\s+(?P<val>\d{2,3})\s*(?:chars?"
    r"|characters?|cols?|columns?)\b",
    "line lines",
)
# "we lint w/ ruff", "we format with prettier"
_LINT_WITH = _grx(
    r"\b(?:we|i)\s+(?:always\s+|also\s+)?(?P<verb>lint|format)\s+(?:everything\s+|the\s+code\s+)?"
    r"(?:with|w/|using|via)\s+(?P<val>ruff|eslint|flake8|pylint|black|prettier|biome|rubocop"
    r"|golangci-lint|ktlint|clippy|rustfmt|gofmt|stylelint)\b"
    # "we use ruff now actually", "switched to eslint": a linter (ruff also formats: "we use ruff
    # not black" names the formatter it replaces)
    # ... "this one uses biome, we migrated in the spring": the repo as the subject
    rf"|\b{_OUR_CODE}\s+(?:now\s+|also\s+|finally\s+)?(?:use|uses"
    r"|(?:just\s+)?(?:switched|moved)\s+(?:over\s+)?to"
    # "we finally ripped out flake8 + isort and switched to ruff": the subject carried over
    r"|[^.;!?]{1,60}?\band\s+(?:then\s+|just\s+)?(?:switched|moved)\s+(?:over\s+)?to)\s+"
    r"(?P<lint>ruff|flake8|pylint|eslint|rubocop|golangci-lint|ktlint|stylelint|biome)\b"
    r"(?!\s+(?:for|to)\s+format|\s+format\b|\s+(?:not|instead\s+of|over|rather\s+than)\s+(?:black|prettier"
    r"|yapf|autopep8|isort))",
    "lint format use uses switched moved",
)


# "ruff does both lint and format for us": one tool as linter and formatter
_LINTS_AND_FORMATS = _grx(
    r"\b(?P<val>ruff|biome|deno|dprint|rome)\s+(?:does|handles|is)\s+(?:both\s+)?(?:our\s+)?"
    r"(?:lint(?:ing|er)?\s*(?:and|&|\+)\s*format(?:ting|ter)?|format(?:ting|ter)?\s*(?:and|&|\+)"
    r"\s*lint(?:ing|er)?)\b",
    "does handles is",
)


_REPO_TOOLS = (
    ("package manager", _PACKAGE_MANAGERS),
    ("test runner", _TEST_RUNNERS),
    ("build tool", _BUILD_TOOLS),
    ("ci", _CI_SERVICES),
    ("orm", _ORMS),
    ("monorepo", _MONOREPO_TOOLS),
)
_ANY_REPO_TOOL = "|".join(tools for _, tools in _REPO_TOOLS)
# "its pnpm not npm in this repo", "yes its pytest here": the repo's tool, said with "its" and
# set against another tool or placed in the repo
_ITS_TOOL = _grx(
    rf"(?:^\W*|[,.;!?]\s*|\b(?:yes|yeah|yep|no|nope|oh|ah|and|but|so)\s+)(?:it{_A}?s|its|it\s+is)"
    rf"\s+(?P<val>{_ANY_REPO_TOOL})\b"
    rf"(?=\s*,?\s+not\s+(?:{_ANY_REPO_TOOL})\b|\s+(?:in|for)\s+(?:this|the|our)\s+(?:repo"
    rf"|project|codebase|monorepo|app)\b|\s+here\b)",
    "its s is",
)


# "we dont use jest, its vitest": the repo's tool, said after the one it is not
_NOT_THAT_TOOL = _grx(
    rf"\b(?:we|i)\s+(?:don{_A}?t|dont|do\s+not)\s+use\s+(?:{_ANY_REPO_TOOL})\s*[,;.]?\s*"
    rf"(?:(?:it{_A}?s|its|it\s+is|we\s+use)\s+)(?P<val>{_ANY_REPO_TOOL})\b",
    "use",
)
_REPO_TOOL_WORD = re.compile(_ANY_REPO_TOOL, re.IGNORECASE)
# "yep 2 workflows had it, fixed. default branch = trunk, done": a setting written as a value
# assigned, a branch, a length, a port, a version or a tool of the project
_SETTING_EQUALS = _grx(
    r"(?:^\W*|[,.;:!]\s*|\b(?:so|and|now)\s+)(?P<subj>(?:(?:default|deploy|base|main|release)"
    r"\s+branch|line\s+length|(?:[a-z]+\s+)?port|(?:node|python|java|go|ruby|php)\s+version"
    r"|package\s+manager|test\s+runner))\s+=\s+`?(?P<val>[\w.\-/]+)`?"
    r"(?=\s*$|\s*[,;!]|\.(?:\s|$)|\s+(?:now|done|btw)\b)",
    "branch length port version manager runner",
)
# "build is 50s now lol. we stay on pnpm for sure": the tool a change settled on
_STAY_ON_TOOL = _grx(
    rf"\b(?:we|i)\s+(?:(?:will|{_A}ll|ll)\s+)?(?:stay|stick|keep)\s+(?:on\s+|with\s+)?"
    rf"(?P<val>{_ANY_REPO_TOOL})\b(?!\s+(?:for\s+now|until|till|for\s+the\s+moment)\b)",
    "stay stick keep",
)


def _repo_tool(value: str) -> str:
    """The setting a tool of :data:`_REPO_TOOLS` is the value of."""
    return next(s for s, tools in _REPO_TOOLS if re.fullmatch(tools, value, re.IGNORECASE))


# ... "java 17 with gradle": a build tool, package manager, test runner or CI after the stack
_TOOL_AFTER_TECH = _rx(
    rf"\s*(?:\bwith\b|\bw/|\+|&|\band\b)\s*(?P<tool>{_ANY_REPO_TOOL})(?![\w\-.])(?!\s+v?\d)"
    # ("we're on node 18 and npm keeps warning about engines": the tool, subject of what follows)
    rf"(?!\s+(?:keeps|is|was|says|said|throws|threw|warns|warned|complains|fails|failed|won{_A}?t"
    rf"|doesn{_A}?t|can{_A}?t|isn{_A}?t)\b)"
)


def _tools_after(c: str, m: re.Match[str]) -> Iterator[_Hit]:
    """The repo tool named right after a stack's last version ("java 17 with gradle")."""
    pos = m.end()
    while (more := _TECH_MORE.match(c, pos)) is not None:
        pos = more.end()
    if (tool := _TOOL_AFTER_TECH.match(c, pos)) is not None:
        value = " ".join(tool.group("tool").casefold().split())
        yield _Hit("working_state", {"subject": _repo_tool(value), "value": value}, m.span())


def _tech_pairs(c: str, m: re.Match[str]) -> Iterator[tuple[str, str]]:
    """(tech, version) of a match and of the pairs chained after it ("phoenix 1.7 / elixir 1.15")
    so each pattern that names a stack reads its versions the same way."""
    pairs = [m]
    pos = m.end()
    while (more := _TECH_MORE.match(c, pos)) is not None:
        pairs.append(more)
        pos = more.end()
    for pair in pairs:
        tech = " ".join(pair.group("tech").casefold().split())
        yield _TECH_ALIASES.get(tech, tech), pair.group("ver")


# "my coworkers project is on node 14", "my bosses repo": another's, the apostrophe left out
_ANOTHERS_PROJECT = _grx(
    r"\b(?:friend|colleague|coworker|co-worker|client|customer|neighbou?r|boss|mate|teammate"
    r"|classmate|coursemate|housemate|labmate|groupmate"
    r"|manager|roommate|flatmate|brother|sister|dad|mum|mom|son|daughter|wife|husband|partner"
    r"|bf|gf|cousin|buddy|pal)(?:e?s|['’]s|s['’])\s+(?:[\w\-]+\s+)?(?:project|repo|repository|app"
    r"|codebase|stack|setup|ci|build|code|site|website|service|server|team|company|laptop)\b",
    words="project repo repository app codebase stack setup ci build code site website service"
    " server team company laptop",
)


# "finally bumped us from node 18 to 20.11.1": the tool named with the version left behind
_BUMPED_FROM_TOOL = _grx(
    r"\b(?:bumped|upgraded|moved|migrated|switched|went)\s+(?:us\s+|everything\s+|(?:the|our)\s+"
    r"(?:project|repo|app|codebase)\s+)?from\s+(?P<tool>[a-z][\w.\-]*)\s+v?\d+(?:\.\d+){0,3}\s+to\s+"
    r"v?(?P<ver>\d+(?:\.\d+){0,3})(?![\w.])",
    "bumped upgraded moved migrated switched went",
)


_SERVERS: Final = frozenset(
    _words(
        "postgres postgresql mysql mariadb redis mongo mongodb nginx kafka rabbitmq elasticsearch"
    )
)
_PORT_NUMBER = re.compile(r"(?:[1-9]\d{3,4})")


def _rule_tech(c: str, mask: int) -> Iterator[_Hit]:
    for m in _BUMPED_FROM_TOOL.finditer(c, mask):
        tool = m.group("tool").casefold()
        if tool in _TECHS and not _THIRD_PARTY.search(c, 0, m.start()):
            subject = f"{_TECH_ALIASES.get(tool, tool)} version"
            yield _Hit("working_state", {"subject": subject, "value": m.group("ver")}, m.span())
    for m in _TECH_CONTEXT.finditer(c, mask):
        # "their CI runs on node 16", "my friend's app is on django 4": another's stack
        if _THIRD_PARTY.search(c, 0, m.start("tech")) or _OTHER_TEAM.search(c, 0, m.start("tech")):
            continue
        ci = _CI_RUNS.search(c, 0, m.start("tech")) is not None or _on_ci(
            c, m.start("tech"), m.end()
        )
        # "we are using mysql 8 for the database": the noun the user gave is the subject
        if role := _FOR_ROLE.match(c, m.end()):
            tech, version = next(_tech_pairs(c, m))
            subject = " ".join(role.group("role").casefold().split())
            # "sqlalchemy 2.0 for the database layer": an ORM is no database
            if subject in ("db", "database") and _ORM_NAME.fullmatch(tech):
                subject = "orm"
            value = f"{tech} {version}"
            yield _Hit("working_state", {"subject": subject, "value": value}, m.span())
            continue
        for tech, version in _tech_pairs(c, m):
            subject = f"ci {tech} version" if ci else f"{tech} version"
            yield _Hit("working_state", {"subject": subject, "value": version}, m.span())
        if not ci:
            yield from _tools_after(c, m)
    # ... a setting of the user's own: "the payments team uses kafka and go 1.22" is theirs
    stack_added = [
        m
        for m in _AND_TECH.finditer(c, mask)
        if _SETTING_SAID.search(c, 0, m.start())
        and not _THIRD_PARTY.search(c)
        and not _OTHER_TEAM.search(c, 0, m.start())
    ]
    for m in (
        *_TECH_APP.finditer(c, mask),
        *_ITS_TECH.finditer(c, mask),
        *_BUILT_IN.finditer(c, mask),
        *_IN_MY_PROJECT.finditer(c, mask),
        *_TECH_BUMPED.finditer(c, mask),
        *_BUMPED_TO_TECH.finditer(c, mask),
        *_TECH_PINNED.finditer(c, mask),
        *stack_added,
    ):
        ci = _on_ci(c, m.start(), m.end())
        for tech, version in _tech_pairs(c, m):
            subject = f"ci {tech} version" if ci else f"{tech} version"
            yield _Hit("working_state", {"subject": subject, "value": version}, m.span())
    if not _THIRD_PARTY.search(c):
        for m in (
            *_ITS_TOOL.finditer(c, mask),
            *_NOT_THAT_TOOL.finditer(c, mask),
            *_STAY_ON_TOOL.finditer(c, mask),
        ):
            value = " ".join(m.group("val").casefold().split())
            yield _Hit("working_state", {"subject": _repo_tool(value), "value": value}, m.span())
    if not _THIRD_PARTY.search(c):
        for m in _SETTING_EQUALS.finditer(c, mask):
            subject = " ".join(m.group("subj").casefold().split())
            yield _Hit("working_state", {"subject": subject, "value": m.group("val")}, m.span())
    for m in _COMMIT_CONVENTION.finditer(c, mask):
        value = "gitmoji" if m.group("val").casefold() == "gitmoji" else "conventional commits"
        yield _Hit("working_state", {"subject": "commit convention", "value": value}, m.span())
    for m in _TEST_RUNNER.finditer(c, mask):
        runner = m.group("val") or m.group("val2")
        # "their tests run on mocha": a subjectless wording is the user's only if no one
        # else is named before it
        if m.group("val2") and _THIRD_PARTY.search(c, 0, m.start("val2")):
            continue
        yield _Hit("working_state", {"subject": "test runner", "value": runner}, m.span())
    for m in _LINES_UNDER.finditer(c, mask):
        yield _Hit("working_state", {"subject": "line length", "value": m.group("val")}, m.span())
    for m in _LINT_WITH.finditer(c, mask):
        if m.group("lint"):
            yield _Hit("working_state", {"subject": "linter", "value": m.group("lint")}, m.span())
            continue
        subject = "linter" if m.group("verb").casefold() == "lint" else "formatter"
        yield _Hit("working_state", {"subject": subject, "value": m.group("val")}, m.span())
    if not _THIRD_PARTY.search(c):
        for m in _LINTS_AND_FORMATS.finditer(c, mask):
            value = m.group("val").casefold()
            for subject in ("linter", "formatter"):
                yield _Hit("working_state", {"subject": subject, "value": value}, m.span())
    for m in _DATABASE_USED.finditer(c, mask):
        yield _Hit("working_state", {"subject": "database", "value": m.group("val")}, m.span())
    for m in _PM_SWITCH.finditer(c, mask):
        yield _Hit(
            "working_state", {"subject": "package manager", "value": m.group("pm")}, m.span()
        )
    for m in _PACKAGE_MANAGER.finditer(c, mask):
        value = m.group("pm") + (m.group("ver") or "")
        yield _Hit("working_state", {"subject": "package manager", "value": value}, m.span())
        # "we use pnpm and node 20 on this repo": the stack said with it
        if (more := _PM_AND_TECH.match(c, m.end())) is not None:
            for tech, ver in _tech_pairs(c, more):
                span = (m.start(), more.end())
                yield _Hit("working_state", {"subject": f"{tech} version", "value": ver}, span)
    for m in _MONOREPO_TOOL.finditer(c, mask):
        value = m.group("val").casefold()
        yield _Hit("working_state", {"subject": "monorepo", "value": value}, m.span())
    for m in _WE_ON_PM.finditer(c, mask):
        pm = m.group("pm")
        yield _Hit("working_state", {"subject": "package manager", "value": pm}, m.span())
    for m in _PM_CHAINED.finditer(c, mask):
        # "his laptop has node 16 and npm 8": another's machine
        if (
            _THIRD_PARTY.search(c, 0, m.start())
            or _OTHER_TEAM.search(c, 0, m.start())
            or _theirs(c, m.start(), m.end())
        ):
            continue
        value = f"{m.group('pm') or m.group('pm2')} {m.group('ver')}"
        yield _Hit("working_state", {"subject": "package manager", "value": value}, m.span())
    for m in _DEPLOYS_FROM.finditer(c, mask):
        if m.group("val").casefold() in _HOSTS:  # "deploys from vercel": a host, not a branch
            continue
        if _THIRD_PARTY.search(c, 0, m.start()) or _OTHER_TEAM.search(c, 0, m.start()):
            continue  # "their gitlab ci deploys from main"
        # "found a fork of httpx by some random guy, ... deploys from master": a stranger's
        if _STRANGERS_THING.search(c, 0, m.start()):
            continue
        env = _ENV_BEFORE.search(c, max(0, m.start() - 12), m.start())
        # "prod deploys from the release branch": the deploy branch itself ("staging deploys
        # from develop" names another's)
        named = env.group("env").casefold() if env else "prod"
        subject = (
            "deploy branch" if named in ("prod", "production", "live") else f"{named} deploy branch"
        )
        yield _Hit("working_state", {"subject": subject, "value": m.group("val")}, m.span())
    for m in _DEPLOYS_MOVED.finditer(c, mask):
        yield _Hit("working_state", {"subject": "deploy branch", "value": m.group("val")}, m.span())
    for m in _PR_BASE.finditer(c, mask):
        if _THIRD_PARTY.search(c, 0, m.start()) or _OTHER_TEAM.search(c, 0, m.start()):
            continue  # "their prs go against develop"
        yield _Hit("working_state", {"subject": "base branch", "value": m.group("val")}, m.span())
    for m in _DEPLOYS_TO.finditer(c, mask):
        yield _Hit("working_state", {"subject": "deploy target", "value": m.group("val")}, m.span())
    for m in _SETTING_FOR_REPO.finditer(c, mask):
        value = _setting(m.group("val"))
        # "the base branch for PRs is develop": the article is not part of the setting's name;
        # "reminder the package manager in this repo is pnpm": nor an aside before it
        said = _SUBJECT_LEAD.sub("", m.group("subj")).split()
        if said[0].casefold() in {"the", "our", "my", "this", "a", "an"}:
            said = said[1:]
        if said:
            spoken = _uncamel(" ".join(said))
            subject = _SUBJECT_ALIASES.get(spoken.casefold(), spoken)
            yield _Hit("working_state", {"subject": subject, "value": value}, m.span())
    for m in _VALUE_IS_OUR.finditer(c, mask):
        value = m.group("val")
        # "ruff is our linter": a tool is the value of a tool's kind; "python is the runtime"
        # names a language, not its version, so a version head keeps out a bare tool name
        subject = " ".join(m.group("subj").casefold().split())
        if value.casefold() not in _STATE_WORDS and (
            value.casefold() not in _TECHS or not subject.endswith("version")
        ):
            yield _Hit("working_state", {"subject": subject, "value": value}, m.span())
    for m in _BRANCH_THATS_OUR.finditer(c, mask):
        if m.group("val").casefold() not in _STATE_WORDS:
            subject = "deploy branch" if m.group("deploys") else m.group("subj").casefold()
            yield _Hit("working_state", {"subject": subject, "value": m.group("val")}, m.span())
    for m in _TECH_IS.finditer(c, mask):
        tech = m.group("tech").casefold()
        # "our postgres is on 5433": a server's port, which the port rule reads, never its version
        if tech in _SERVERS and _PORT_NUMBER.fullmatch(m.group("ver")):
            continue
        subject = f"{_TECH_ALIASES.get(tech, tech)} version"
        if _on_ci(c, m.start(), m.end()):
            subject = f"ci {subject}"
        yield _Hit("working_state", {"subject": subject, "value": m.group("ver")}, m.span())
    ported: list[int] = []
    for m in _MOVED_TO_PORT.finditer(c, mask):
        # "moved postgres to 2024" would be a year; a port said as one is "to port 2024"
        if not m.group("port") and _YEAR_LIKE.fullmatch(m.group("val")):
            continue
        subject = f"{' '.join(m.group('subj').casefold().split())} port"
        ported.append(m.start())
        yield _Hit("working_state", {"subject": subject, "value": m.group("val")}, m.span())
    for m in _RENAMED.finditer(c, mask):
        if m.start() in ported:  # "we moved the db to 5434": its port, not the db itself
            continue
        value = _version_only(m.group("val"))
        # "we switched deploy branch to release a while ago": when it was set
        value = value[: a.start() - 1] if (a := _AGO_TAIL.search(value)) and a.start() else value
        # "bumped the gateway port to 8443 to get tls working": a port is its number alone
        if m.group("subj").casefold().endswith("port"):
            if not (number := _PORT_NUMBER_ALONE.match(value)):
                continue
            value = number.group()
        if value.casefold().split()[0] not in _STATE_WORDS:
            subject = m.group("subj")
            # "we bumped python to 3.12": a tool named with a number is its version
            if subject.casefold() in _TECHS and _VERSION_VALUE.fullmatch(value):
                tech = subject.casefold()
                subject = f"{_TECH_ALIASES.get(tech, tech)} version"
            # "i switched the repo from npm to pnpm": the repo's package manager
            elif subject.casefold() in _WHOLE_REPO and value.casefold() in _PACKAGE_MANAGER_NAMES:
                subject = "package manager"
            # "bumped our repo to node 20": the tool's version, which the tool rules read
            elif subject.casefold() in _WHOLE_REPO and _TECH_ALONE.fullmatch(value):
                continue
            else:
                subject, value = _ci_version(subject, value)
            yield _Hit("working_state", {"subject": subject, "value": value}, m.span())
    # "just ran node -v, its actually 18": the version the tool itself reports
    for m in _VERSION_CHECKED.finditer(c, mask):
        tech = m.group("tech").casefold()
        subject = f"{_TECH_ALIASES.get(tech, tech)} version"
        yield _Hit("working_state", {"subject": subject, "value": m.group("ver")}, m.span())
    for m in _LINE_LENGTH.finditer(c, mask):
        # "a guy on the platform team runs black with line length 100 on his repo": his
        if _THIRD_PARTY.search(c):
            continue
        subject = "max line length" if m.group("max") else "line length"
        if m.group("tool"):
            subject = f"{m.group('tool').casefold()} {subject}"
        yield _Hit("working_state", {"subject": subject, "value": m.group("val")}, m.span())
    # "their setup: python 3.12, uses hatch": a fragment after another's setup is theirs (a
    # client's app the user works on is the user's work: "their app is django 4.2, postgres 15")
    fragments = [
        m
        for m in _TECH_FRAGMENT.finditer(c, mask)
        if not _THEIR_SETUP.search(c, 0, m.end("tech"))
        and not _OTHER_TEAM.search(c, 0, m.start())
        and not _theirs(c, m.start(), m.end())
    ]
    for m in fragments:
        for part in (m, _TECH_ON.match(c, m.end())):
            if part is None:
                continue
            tech = " ".join(part.group("tech").casefold().split())
            tech = _TECH_ALIASES.get(tech, tech)
            yield _Hit(
                "working_state",
                {"subject": f"{tech} version", "value": part.group("ver")},
                (m.start(), part.end()),
            )
    listed = [
        m
        for m in _HEAD_VALUE.finditer(c, mask)
        if not _THEIR_SETUP.search(c, 0, m.start())
        and not _OTHER_TEAM.search(c, 0, m.start())
        and not _theirs(c, m.start(), m.end())
    ]
    if listed:
        items = sorted([m.span() for m in listed] + [m.span() for m in _TECH_ITEM.finditer(c)])
        for m in listed:
            if any(
                _LIST_GAP.fullmatch(c, end, m.start()) or _LIST_GAP.fullmatch(c, m.end(), start)
                for start, end in items
            ):
                subject = " ".join(m.group("subj").casefold().split())
                yield _Hit("working_state", {"subject": subject, "value": m.group("val")}, m.span())
    if fragments:
        for m in _PM_FRAGMENT.finditer(c):
            yield _Hit(
                "working_state", {"subject": "package manager", "value": m.group("pm")}, m.span()
            )
    if not _THIRD_PARTY.search(c):
        for m in _USE_FOR_SETTING.finditer(c, mask):
            for use in (m, _AND_FOR_SETTING.match(c, m.end())):
                if use is not None:
                    subject = " ".join(use.group("subj").casefold().split())
                    subject = "migration tool" if subject == "migrations" else subject
                    yield _Hit(
                        "working_state", {"subject": subject, "value": use.group("val")}, use.span()
                    )
        for m in (*_ORM_FOR_DB.finditer(c, mask), *_ORM_USED.finditer(c, mask)):
            yield _Hit("working_state", {"subject": "orm", "value": m.group("val")}, m.span())
    for m in _INDENT.finditer(c, mask):
        yield _Hit("working_state", {"subject": "indentation", "value": m.group("val")}, m.span())
    for m in _FORMATTER.finditer(c, mask):
        yield _Hit("working_state", {"subject": "formatter", "value": m.group("val")}, m.span())
    if not _THIRD_PARTY.search(c):
        for m in _CI_USED.finditer(c, mask):
            ci_said = m.group("val") or m.group("on") or m.group("runs")
            value = " ".join(ci_said.casefold().split())
            yield _Hit("working_state", {"subject": "ci", "value": value}, m.span())
    for m in _BUILD_TOOL.finditer(c, mask):
        value = m.group("val") or m.group("val2")
        yield _Hit("working_state", {"subject": "build tool", "value": value}, m.span())
    if not _THIRD_PARTY.search(c):
        for m in _TOOL_FOR_JOB.finditer(c, mask):
            subject = "linter" if m.group("lint") else "formatter"
            value = m.group("lint") or m.group("fmt")
            yield _Hit("working_state", {"subject": subject, "value": value}, m.span())


# Words that follow a setting's value without being part of it ("8088 locally", "3.11
# everywhere else", "postgres 15 running in docker compose").
_AGO_TAIL = re.compile(
    r"(?:a\s+while|a\s+(?:few|couple)(?:\s+of)?\s+\w+|an?\s+\w+|some\s+\w+|\d+\s+\w+)\s+ago\b"
)
_VALUE_STOP: Final = frozenset(
    _words(
        "locally everywhere else running in on for with everything now here there too also anyway"
        " btw lol pls please tbh for at by from via which that since as across throughout not"
        " actually rn atm currently"
        # "ci is gitlab ci like before": a comparison with the past, not part of the value
        " like thats that's that’s"
        # ... nor when it was set: "postgres 16 over the weekend", "node 20 during the freeze"
        " over during earlier recently before after yesterday today tonight"
        # ... nor an aside: "release-2.4 dont ask why lol", "main i think", "develop obviously"
        " dont don't don’t i ill i'll im i'm we we're you u its it's haha lmao idk obviously obv"
        " apparently honestly sadly unfortunately"
    )
)


def _setting(value: str) -> str:
    """The value of a setting without the words that merely follow it."""
    if value.startswith("`"):
        return value
    words = value.split()
    kept = words[:1]
    for i, word in enumerate(words[1:], 1):
        # "postgres 15 on neon": where it is hosted is part of the value
        if word.casefold() == "on" and i + 1 < len(words) and words[i + 1].casefold() in _HOSTS:
            kept.extend(words[i : i + 2])
            break
        if word.casefold() in _VALUE_STOP:
            break
        # "we switched deploy branch to release a while ago": when it was set
        if _AGO_TAIL.match(" ".join(words[i:]).casefold()):
            break
        # "our msrv is 1.70 officialy": an adverb after a number (typed right or not) is not
        # part of the version
        if _VERSION_TAIL.fullmatch(kept[-1]) and _ADVERB.fullmatch(word):
            break
        kept.append(word)
    return " ".join(kept)


_ADVERB = re.compile(r"[a-z]{3,}ly", re.IGNORECASE)


_HOSTS: Final = frozenset(
    _words(
        "neon rds aws gcp azure heroku render railway vercel netlify supabase planetscale fly.io"
        " elasticache digitalocean cloudflare hetzner linode atlas aurora github-pages"
    )
)


_PREP_BEFORE = _rx(r"\b(?:in|for|of|on|at|from|to|with)\s+$")
_SUBJECT_ALIASES: Final = {"formatting": "formatter", "linting": "linter"}
# "minSdk is 24": a config key written in camelCase names the setting "min sdk"
_CAMEL_WORD = re.compile(r"[a-z]{2,}(?:[A-Z][a-z]+)+")
_CAMEL_BREAK = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _uncamel(subject: str) -> str:
    """``subject`` with its camelCase words spelled as words ("minSdk" -> "min Sdk")."""
    if not any(c.isupper() for c in subject):
        return subject
    return " ".join(
        _CAMEL_BREAK.sub(" ", w) if _CAMEL_WORD.fullmatch(w) else w for w in subject.split()
    )


_LEADING_VERSION = re.compile(
    r"v?\d+(?:\.\d+)*(?=\s+(?:in|on|at|for|from|since|the|last|this|with|by|after|before)\b)"
)


def _version_only(value: str) -> str:
    """ "1.75 in the last minor" -> "1.75": a version is the number, whatever words follow it."""
    m = _LEADING_VERSION.match(value)
    return m.group() if m else value


_VALUE_ADVERB = _rx(
    r"^(?:always|usually|still|now|currently|just|basically)\s+"
    # ("the default branch is literally called trunk")
    r"|^(?:literally|actually)\s+(?:called|named)\s+(?=\S)"
)
# "the project targets python 3.9 still": the same adverbs after the value
# ... ("so ci is github actions only now")
_VALUE_ADVERB_AFTER = _rx(
    r"(?:\s+(?:still|now|already|currently|anyway|tho|though|only|again|as\s+before"
    r"|like\s+before))+$"
)
# "and remember line length is 100", "pls note deploy branch is prod": asides, not the subject
_SUBJECT_LEAD = _rx(
    r"^(?:(?:remember|note|reminder|pls|please|also|fyi|btw|so|and|crate|repo|repository|project"
    r"|app|codebase|service|yeah|yes|yep|yup|ok|okay|well|oh|ah|hmm|right|sorry|sry|oops|whoops"
    r"|wait|correction|typo"
    # "our react app bundler is webpack 5": the app's bundler
    rf"|(?:{_TECH_NAMES})(?=\s+(?:app|repo|project|codebase|service)\s))\s+)+(?=\S)"
)


_MONTH_WORDS: Final = frozenset(
    _words(
        "january february march april may june july august september october november december"
        " christmas easter xmas"
    )
)
_RELATIVE_DAYS: Final = frozenset(
    _words(
        "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thurs fri"
        " sat sun tomorrow tonight today week weekend month eod eow"
    )
)


_ON_CI = re.compile(
    r"\s(?i:on|in)\s+(?i:our\s+|the\s+)?(?i:ci)\b"
    r"(?!\s+(?i:and|&)\s+(?i:locally|local|everywhere|prod|dev|in\s+prod))"
)


def _on_ci(c: str, start: int, end: int) -> bool:
    """ "node is 20 on our CI": the version CI runs, said just after the value at start:end."""
    return _ON_CI.search(c, start, end + 16) is not None


def _rule_working_state(c: str, mask: int) -> Iterator[_Hit]:
    if _THIRD_PARTY.search(c):
        return
    for subject, pattern in _WORKING_STATE:
        for m in pattern.finditer(c, mask):
            if _FOR_REPO.search(c, 0, m.start()):  # "line length for this repo is 100"
                continue
            # "region is europe west right since im in rotterdam": a question tag asks
            if _TAG_RIGHT.match(c, m.end("val")):
                continue
            # "formatting in this repo is prettier": "this repo" is not the subject; in "in
            # this repo the quote style is single quote" the subject follows its own "the"
            own_subject = None
            if m.groupdict().get("det") and _PREP_BEFORE.search(c, 0, m.start()):
                _, the, own_subject = m.group("subj").rpartition(" the ")
                if not the or not own_subject:
                    continue
            value = _setting(m.group("val")) + (m.groupdict().get("up") or "")
            # "base branch is always develop here": the adverb is how often, not the value
            value = _version_only(
                _VALUE_ADVERB_AFTER.sub("", _VALUE_ADVERB.sub("", value)) or value
            )
            # "staging database is on postgres 16 now"
            lead, _, rest = value.partition(" ")
            if lead.casefold() in ("on", "using", "running") and rest:
                value = rest
            words = value.casefold().split()
            # "the target is the steam deck": the article is no part of the device's name
            if (
                words[0] == "the"
                and len(words) > 1
                and (subject or m.group("subj")).casefold() == "target"
            ):
                value, words = value.split(" ", 1)[1], words[1:]
            # "workspace is in aws us-east-1": where it is, not what ("so ci is for
            # reproducible builds": what it is for)
            if words[0] in _NO_TOOL or (words[0] in ("in", "for") and len(words) > 1):
                continue
            # "deploy branch is staging": an environment's name, not a verb; "mealplanner_staging"
            # is an identifier
            if words[0] in _STATE_WORDS or (
                _VERB_FORM.search(words[0]) and words[0] != "staging" and words[0].isalpha()
            ):
                continue
            if any(w in _OBJECT_BLOCK_ANY for w in words):
                continue
            # "deadline is sunday": a weekday or "tomorrow" names no date a later session can use
            if words[-1] in _RELATIVE_DAYS:
                continue
            named = subject
            if named and "{}" in named:  # "redis is on port 6380": redis port
                named = named.format(
                    # ("our api listens on 8081 locally": the port named by what listens)
                    " ".join(m.group("subj").casefold().split())
                )
            # ("app runs on port 5173": the port keeps the name of what listens)
            subj = (
                named
                if named and subject and "{}" in subject
                else _SUBJECT_LEAD.sub("", named or own_subject or m.group("subj"))
            )
            subj = _uncamel(subj)
            subj = _SUBJECT_ALIASES.get(subj.casefold(), subj)
            # "python is 3.11": a tool named with a number is its version
            if subj.casefold() in _TECHS and _VERSION_VALUE.fullmatch(value):
                subj = f"{_TECH_ALIASES.get(subj.casefold(), subj.casefold())} version"
            subj, value = _ci_version(subj, value)
            if subject is None and any(w.endswith(("'s", "’s")) for w in subj.split()):
                continue
            # "our repo is pnpm + node 20": the tools the repo is made of, each its own setting
            container = subj.casefold().split()[-1] in _CONTAINERS
            # "our reporting repo is on pandas 1.5.3": the version of the one tool named is the
            # setting (the tool rules read it), not a value of the repo
            if container and _TECH_ALONE.fullmatch(value):
                continue
            if container and (items := _stack_items(value)):
                for item in items:
                    yield _Hit("working_state", item, m.span())
                continue
            # "our app targets sdk 34": the sdk is part of the setting's name
            if subj.casefold() == "target" and len(words) == 2 and words[0] in ("sdk", "api"):
                subj, value = f"target {words[0]}", value.split()[1]
            # "our monorepo is on yarn classic": the package manager it is on
            if subj.casefold() in _CONTAINERS and _PM_VARIANT.fullmatch(value.casefold()):
                subj = "package manager"
            # "node is 20 on our CI": the version CI runs, not the project's
            if subj.endswith(" version") and _on_ci(c, m.start("val"), m.end()):
                subj = f"ci {subj}"
            # "CI is 3.10", "the target is 3.10": a number with no tool named is no setting
            if subj.casefold() in _TOOLLESS_HEADS and _VERSION_VALUE.fullmatch(value):
                continue
            # "staging db is on port 5433": the port rule names it by what listens
            if _PORT_VALUE.fullmatch(value):
                continue
            yield _Hit("working_state", {"subject": subj, "value": value}, m.span())


def _ci_version(subject: str, value: str) -> tuple[str, str]:
    """ "CI is on python 3.11", "the main pipeline is node 20", "we upgraded ci to node 20":
    the version CI runs, named as the tool's version there (as "CI runs on node 20" is)."""
    tool, _, version = value.partition(" ")
    if (
        subject.casefold().split()[-1] in _CI_HEADS
        and tool.casefold() in _TECHS
        and _VERSION_VALUE.fullmatch(version)
    ):
        tech = tool.casefold()
        return f"{subject.casefold()} {_TECH_ALIASES.get(tech, tech)} version", version
    return subject, value


# settings that name a tool or a place, never a bare version of one they leave unsaid
_TOOLLESS_HEADS: Final = frozenset(
    _words("ci pipeline environment stack backend framework database db")
)
# "our ci is basically vibes and me pressing the button lol": a joke for a tool
_NO_TOOL: Final = frozenset(_words("vibes vibe hope hopes prayers prayer luck chaos magic"))


def _cited_inside(spans: list[tuple[int, int]]) -> Callable[[_Hit, str], bool]:
    """Whether a hit's first evidence starts inside one of ``spans`` (message offsets)."""
    return lambda hit, said: any(a <= hit.evidence[0][1] < b for a, b in spans)


_CONTAINERS: Final = frozenset(
    ("repo", "repository", "codebase", "project", "app", "monorepo", "service", "api")
)
_STACK_SEP = re.compile(r"\s*(?:\+|&|,|/|\band\b|\bwith\b|\bw/)\s*")
_PM_VARIANT = re.compile(
    rf"(?:{_PACKAGE_MANAGERS})(?:\s+(?:classic|berry|modern|v?\d+(?:\.\d+)*))?"
)
_PM_ALONE = re.compile(rf"(?:{_PACKAGE_MANAGERS})(?:\s*v?\d+(?:\.\d+)*)?")
_TECH_ALONE = re.compile(
    rf"(?P<tech>{_TECH_NAMES})\s*v?(?P<ver>\d+(?:\.\d+){{0,2}})", re.IGNORECASE
)


def _stack_items(value: str) -> list[dict[str, str | None]]:
    """The settings of a list of tools ("pnpm + node 20"): a package manager and versions; none
    unless every item is one of them (a list of anything else stays one value)."""
    parts = _STACK_SEP.split(value)
    if len(parts) < 2:
        return []
    items: list[dict[str, str | None]] = []
    for part in parts:
        if _PM_ALONE.fullmatch(part.casefold()):
            items.append({"subject": "package manager", "value": part})
        elif m := _TECH_ALONE.fullmatch(part):
            tech = " ".join(m.group("tech").casefold().split())
            tech = _TECH_ALIASES.get(tech, tech)
            items.append({"subject": f"{tech} version", "value": m.group("ver")})
        # "java 17 with gradle": a build tool, a test runner or a CI service is its setting
        elif _REPO_TOOL_WORD.fullmatch(part):
            value = " ".join(part.casefold().split())
            items.append({"subject": _repo_tool(value), "value": value})
        else:
            return []
    return items


def _bits(*patterns: _Gated | int) -> int:
    """The union of the prefilter bits of ``patterns`` (or of bits)."""
    bits = 0
    for pattern in patterns:
        bits |= pattern if isinstance(pattern, int) else pattern.bit
    return bits


# The rules after _rule_names, in the order their hits are listed, each with the bits of the
# patterns it starts from: a rule none of whose patterns can match a message finds nothing in it.
_NAMES_BITS: Final = _bits(
    _NAME_IS,
    _I_AM_NAME,
    _CALL_ME,
    _CALLS_ME,
    _GO_BY,
    _NAME_HERE,
    _ITS_NAME,
    _NAME_BTW,
    _SIGN_AS,
    _THIS_IS_NAME,
    _IM_FULL_NAME,
)
_ALLERGIC_BIT: Final = _PREFILTER.add("", "lergic lergy lergies")
# "i cant have the prawns tho, shellfish allergy, ended up in hospital once": an allergy
# named between commas in a sentence the user says of themself (read on the whole message, so
# the sentence's other clauses can show whose it is)
_ALLERGY_FRAGMENT = _grx(
    r",\s*(?!(?:and|or|but|so|no|not|any|an?|the|food|my|this|that|what|which|some|seasonal"
    r"|proper|real|serious|bad|severe|mild|actual|full|epipen|true|life|his|her|their|your)\b)"
    r"(?P<obj>[a-z][a-z\-]*(?:\s+(?!(?:no|not|any|with|without|of|for|and|or|in)\b)[a-z][a-z\-]*)?)\s+allerg(?:y|ies)"
    r"(?=\s*(?:$|[,.!;]|\s+(?:here|btw|lol|fyi|since|too|tho|though)\b))",
    "allergy allergies",
)
_OTHERS_IN = _rx(
    rf"\b(?:{_REL_SURFACE}|{_PET_SURFACE})\b|{_THIRD_PARTY.pattern}"
    r"|\b(?:guest|guests|kid|kids|child|children|baby|class|someone|somebody|people|everyone"
    r"|party|dinner|wedding|bbq|event|team|office)\b"
)
_FIRST_PERSON = _rx(r"\b(?:i|im|i['’]m|my|me|myself)\b")
# "no cilantro please, I hate it", "no mushrooms i cant stand them": the thing left out is what
# "it" dislikes (read on the whole message, as _ALLERGIC_AFTER)
_DISLIKED_AFTER = _rx(
    r"(?:^|[,.;!?]\s*|\b(?:and|but|please|pls|plz)\s+|\b(?=without\b))"
    # "and leave out cilantro, i hate it"
    # ... "pls remove anything with coriander, i cant stand it"
    r"(?P<stmt>(?:no|without|leave\s+out|skip|hold\s+the|(?:remove|take\s+out|drop|cut)\s+"
    r"(?:anything|everything|all|the\s+ones?|stuff|dishes|recipes)\s+(?:with|that\s+has))\s+"
    r"(?P<obj>[a-z]+(?:\s+(?!(?:please|pls|plz|for|i|anywhere|at|in|ever)\b)[a-z]+)?)"
    r"(?:\s+(?:please|pls|plz|anywhere|at\s+all|in\s+anything|ever|tho|though))*\s*[,.]?\s+"
    r"(?:(?:because\s+|since\s+|as\s+)?i\s+(?:really\s+|just\s+)?"
    rf"(?:hate|can{_A}?t\s+stand|cannot\s+stand|detest|dislike|don{_A}?t\s+like)\s+"
    r"(?:it|them|the\s+stuff|that\s+stuff)\b"
    # "pls no cilantro, not a fan of it at all"
    rf"|(?:i{_A}?m\s+|im\s+|i\s+am\s+)?not\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of\s+(?:it|them)\b))"
    r"(?!\s+(?:when|if)\b)"
)
_DISLIKED_BIT: Final = _PREFILTER.add("hate stand detest dislike like fan")
_LANGUAGE_ITEM_BIT: Final = _PREFILTER.add(_LANGUAGE_CUE_WORDS)
# "my lab Rocky keeps fighting", "my golden Bruno eats socks": a dog by the short name of its
# breed, only with its name after it ("my lab results", "my lab partner" name no dog)
_SHORT_BREED = _grx(
    r"\b(?:my|our)\s+(?:old\s+|big\s+|black\s+|yellow\s+|chocolate\s+|fat\s+|rescue\s+)?"
    r"(?:lab|golden|goldie)\s+(?P<name>[A-Za-zÀ-ÖØ-öø-ÿ][a-zà-öø-ÿ'’\-]{1,19})\b"
    r"(?!\s+(?:is|are|was|were)\s+(?:a|an|the|my|our)\b)",
    "lab golden goldie",
)


# "hes my 2yo lab": a lab said of "he" or "she" with an age or a coat is a dog ("my lab" alone
# may be a laboratory)
_HES_MY_LAB = _grx(
    r"\b(?:he|she)(?:['’]?s|\s+is)\s+(?:my|our)\s+(?:(?:\d+\s*(?:yo|y/o|yrs?\s+old|years?\s+old"
    r"|year-old)|old|big|black|yellow|chocolate|fat|rescue|little)\s+)+(?:lab|golden|goldie)"
    r"(?=\s*(?:$|[,.;!?]|\s+(?:and|so|who|btw|lol)\b))",
    "lab golden goldie",
)


def _rule_short_breed(c: str, mask: int) -> Iterator[_Hit]:
    for m in _HES_MY_LAB.finditer(c, mask):
        yield _Hit("pet", {"species": "dog", "name": None}, m.span())
    for m in _SHORT_BREED.finditer(c, mask):
        name = m.group("name")
        # a capitalised name ("my lab Biscuit"), or a lower-case word no dictionary has ("my
        # lab bruno")
        if (
            _pet_name_ok(name)
            and name.casefold() not in _NOT_A_NOUN
            and (name[:1].isupper() or not is_common_word(name))
            # ("my lab Results": a plural is the lab's, never a dog's name)
            and not (name.endswith("s") and is_common_word(name[:-1].casefold()))
            and (names := _given_names(name))
        ):
            yield _Hit("pet", {"species": "dog", "name": names[0]}, m.span())


# A clause that opens on the pets themselves and names them: "cats: miso, tofu and bean",
# "tortoise is sheldon" ("my cat is called Pimpek" is the possessive rule's; "the dogs are X
# and Y" without "my" was tried and named someone else's dogs)
_PETS_LISTED = _grx(
    rf"^\W*(?:the\s+)?(?P<noun>{_PET_SURFACE})"
    r"(?:\s*:\s*(?P<listed>[a-z][a-z\-]{1,19}(?:\s*,\s*[a-z][a-z\-]{1,19})*\s*,?\s+(?:and|&|n)\s+"
    r"[a-z][a-z\-]{1,19})"
    r"|\s+is\s+(?:called\s+|named\s+)?(?P<one>[a-z][a-z\-]{1,19}))"
    r"(?=\s*$|\s*[,.;!?)])",
    "is",
    ":",
)


def _rule_pets_listed(c: str, mask: int) -> Iterator[_Hit]:
    m = _PETS_LISTED.search(c, mask)
    if m is None:
        return
    surface = m.group("noun")
    species = _normal("pet", "species", surface)
    plural = surface.casefold().endswith(("s", "ies")) and surface.casefold() not in ("fish",)
    if species is None or plural == bool(m.group("one")):
        return
    names = [
        t
        for t in re.split(
            r"\s*,\s*(?:and\s+|&\s+|n\s+)?|\s+(?:and|&|n)\s+",
            m.group("listed") or m.group("one"),
        )
        if t
    ]
    if not all(_lower_pet_name(t.casefold()) and t.casefold() not in _NOT_A_NOUN for t in names):
        return
    # one word alone names a pet only when it is no English word ("the dog is rex", never
    # "the dog is fine")
    if m.group("one") and is_common_word(names[0].casefold()):
        return
    yield from _with_names("pet", "species", species, [n.title() for n in names], m.span())


# "still got bean the guinea pig tho", "we have rex the beagle and two cats": a pet the user
# has, named before "the" and its animal
_NAME_THE_PET = _grx(
    rf"(?:\b(?:i|we)(?:{_A}ve|\s+have)?\s+|(?:^|[,.;!?]\s*|\b(?:but|and|so|tho)\s+))"
    rf"(?:still\s+|also\s+|now\s+)?(?:have|got|own|has)\s+(?:got\s+)?"
    rf"(?P<name>[A-Za-z][a-z\-]{{1,19}})\s+the\s+(?:(?:old|little|wee|big|baby|new|rescue|fat"
    rf"|lazy|grumpy)\s+)?(?P<species>{_PET_SURFACE})\b",
    "have got own has",
)


def _rule_name_the_pet(c: str, mask: int) -> Iterator[_Hit]:
    for m in _NAME_THE_PET.finditer(c, mask):
        name, species = m.group("name"), _normal("pet", "species", m.group("species"))
        if species is None or not _pet_name_ok(name) or name.casefold() in _NOT_A_NOUN:
            continue
        yield _Hit("pet", {"species": species, "name": name.title()}, m.span())


# "need a short insta bio. bristol based illustrator", "a porto-based translator": where the
# user is based and what they do, said as one title
_PLACE_BASED_ROLE = _grx(
    # (never another's: "my sister is a leeds based nurse")
    rf"(?:(?:^\W*|(?<=[.!?;])\s*)(?:(?:a|an)\s+)?|\b(?:im|i{_A}m|i\s+am)\s+(?:a|an)\s+)"
    rf"(?!(?:a|an|im|i|the|my|our|his|her|their)\s)"
    rf"(?P<place>{_ANY_PLACE})[\s\-]based\s+"
    rf"(?P<role>{_ROLE}){_ROLE_END}",
    "based",
)


def _rule_based_role(c: str, mask: int) -> Iterator[_Hit]:
    for m in _PLACE_BASED_ROLE.finditer(c, mask):
        raw = m.group("place")
        place = canonical_place(raw) if raw.islower() else raw
        role = m.group("role")
        if place is None or any(w.casefold() in _ROLE_MOD_BLOCK for w in role.split()[:-1]):
            continue
        yield _Hit("home_location", {"place": place}, m.span())
        yield _Hit("occupation", {"role": role}, m.span())


_ME_FOR_MY = re.compile(
    r"(?P<lead>^\W*|[,.;:!?(]\s*|\b(?:and|with|for|of|to|but|so|cos|coz|an|n|&|wi)\s+)me"
    rf"(?=\s+(?:(?:auld|old|young|little|wee|big)\s+)?(?:{_REL_SURFACE}|{_PET_SURFACE}"
    r"|brother\s+in\s+law|sister\s+in\s+law|mam|mammy|da|fella|missus)\b)",
    re.IGNORECASE,
)
_RULES: Final = (
    (_rule_based_role, _PLACE_BASED_ROLE.bit),
    (_rule_pets_listed, _PETS_LISTED.bit),
    (_rule_name_the_pet, _NAME_THE_PET.bit),
    (_rule_possessive, _POSSESSIVE.bit),
    (_rule_have, _HAVE_HEAD.bit),
    (_rule_mine_is, _MINE_IS.bit),
    (_rule_name_is_my, _NAME_IS_MY_RELATIVES.bit),
    (_rule_short_breed, _SHORT_BREED.bit | _HES_MY_LAB.bit),
    (_rule_parent_married, _bits(_PARENT, _MARRIED, _PET_PARENT)),
    (_rule_household, _HOUSEHOLD.bit),
    (_rule_pet_chore, _PET_CHORE.bit),
    (_rule_home, _bits(*_HOME)),
    (_rule_home_possessive, _bits(_HOME_POSSESSIVE, _WHERE_I_LIVE, _SINCE_I_LIVE, _MY_CITY)),
    (_rule_im_in, _IM_IN.bit),
    (_rule_we_at, _WE_AT.bit),
    (_rule_work, _bits(*_OCCUPATION, *_EMPLOYER, _AT_AS_ROLE, _ACTIVITY, _TEACHES, _MANAGE_SITE)),
    (_rule_preference, _bits(*(p for _, p in _PREFERENCE))),
    (_rule_diet, _bits(*_DIET)),
    (_rule_allergy, _bits(*_ALLERGY)),
    (_rule_language, _bits(*(p for _, p in _LANGUAGE))),
    (_rule_language_items, _LANGUAGE_ITEM_BIT),
    (_rule_working_state, _bits(*(p for _, p in _WORKING_STATE))),
    (
        _rule_tech,
        _bits(
            _TECH_FRAGMENT,
            _HEAD_VALUE,
            _INDENT,
            _FORMATTER,
            _BUILD_TOOL,
            _CI_USED,
            _TOOL_FOR_JOB,
            _USE_FOR_SETTING,
            _ORM_FOR_DB,
            _ORM_USED,
            _TECH_CONTEXT,
            _PACKAGE_MANAGER,
            _LINE_LENGTH,
            _RENAMED,
            _SETTING_FOR_REPO,
            _DEPLOYS_FROM,
            _DEPLOYS_MOVED,
            _PR_BASE,
            _TECH_APP,
            _BUMPED_TO_TECH,
            _ITS_TECH,
            _ITS_TOOL,
            _STAY_ON_TOOL,
            _SETTING_EQUALS,
            _BUILT_IN,
            _IN_MY_PROJECT,
            _AND_TECH,
            _TECH_PINNED,
            _TEST_RUNNER,
            _COMMIT_CONVENTION,
            _DATABASE_USED,
            _LINES_UNDER,
            _LINT_WITH,
            _PM_SWITCH,
            _VALUE_IS_OUR,
            _BRANCH_THATS_OUR,
            _TECH_IS,
        ),
    ),
)
# "down here in dothan", "roond here in dundee", "my salao here in olinda"
_HERE_IN = _grx(
    rf"\b(?:(?:down|up|out|over|round|roond|around|back)\s+)?here\s+in\s+(?P<place>{_ANY_PLACE})"
    rf"(?=\s*$|\s*[,.;:!?)]|\s+(?:and|so|but|is|its|it{_A}s|the|where|bc|because|lol|too|now|it"
    rf"|they|we|people|everything|everyone|prices|rent|my|our)\b)",
    "here",
)
_HOME_MENTION_BITS: Final = _bits(_HOME_POSSESSIVE, _WHERE_I_LIVE, _SINCE_I_LIVE, _MY_CITY)
# A message none of whose rules can match, and that names no earlier relative or pet ("her
# name is Mia"), yields nothing whatever else is true of it.
# ... and a name signed after thanks is a name (see _SIGN_OFF, _SIGN_OFF_LINE)
_THANKS_BIT: Final = _PREFILTER.add(
    "thanks thank thx ty cheers danke merci gracias grazie obrigado obrigada tack regards ta"
    " dziekuje dziękuję"
)
_YIELDING_BITS: Final = _bits(
    _NAMES_BITS,
    _PRONOUN_NAME,
    _HERE_IN,
    _TYPO_VERSION,
    _THANKS_BIT,
    *(bits for _, bits in _RULES),
)


# --- driver -----------------------------------------------------------------------------------


@dataclass(slots=True)
class _Antecedent:
    hit: _Hit
    message: int


def _spans(
    separators: Iterator[re.Match[str]], text: str, start: int, end: int
) -> list[tuple[int, int]]:
    """Split text[start:end] at the ``separators`` found in it, returning trimmed spans."""
    spans, pos = [], start
    for m in separators:
        spans.append((pos, m.start()))
        pos = m.end()
    spans.append((pos, end))
    out = []
    for s, e in spans:
        while s < e and (text[s].isspace() or text[s] in ",;:"):
            s += 1
        while e > s and (text[e - 1].isspace() or text[e - 1] in ".,;:!?"):
            e -= 1
        if s < e:
            out.append((s, e))
    return out


_LAST_WORD = re.compile(r"([\w.]+)$")
_DIGIT_NEXT = re.compile(r"\s*\d")
_REFINED_PLACE = re.compile(
    rf"^\W*(?:no,?\s+|sorry,?\s+)?(?P<head>{_PLACE_TOKEN})\s*,?\s+(?P<region>{_PLACE_TOKEN})\s*,?"
    rf"\s+not\s+[A-Za-z]"
)


_REFINED_PLACE_ANY = re.compile(
    r"^\W*(?:(?:lol|haha|oh|ah)\s+)?(?:no,?\s+|sorry,?\s+)?(?:i\s+mean(?:t)?\s+)?(?P<head>[A-Za-z][\w'’.]+)(?:\s*[,—–-]\s*|\s+)"
    r"(?P<region>[A-Za-z][\w'’.\-]+)(?=\s*(?:$|[,.;!]|\s+not\b|\s+lol\b))"
)


def _sentences(text: str) -> Iterator[tuple[int, int, bool]]:
    """(start, end, is_question) for each sentence; abbreviations do not end one."""
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if m.group() == ".":
            word = _LAST_WORD.search(text, max(start, m.start() - 16), m.start())
            abbreviation = word.group(1).casefold().rstrip(".") if word else ""
            # "No. 5" abbreviates, "so no. our daughter ..." ends a sentence
            if abbreviation in _ABBREVIATIONS and not (
                abbreviation == "no" and not _DIGIT_NEXT.match(text, m.end())
            ):
                continue
        yield start, m.start(), "?" in m.group()
        start = m.end()
    if start < len(text):
        yield start, len(text), False


_QUESTION_PARTS = re.compile(
    # ("we bumped to go 1.22 yesterday so now the loop var thing changed right?")
    r",|\s[-–—]\s|;|\s+so\s+(?=(?:now|i|we|we['’]?re|were|you|u|what|why|how|which|where|when|can|could|should|is|are"
    r"|do|does|any|maybe|perhaps|probably|she|he|they|it|that|this|my|her|his|their|its"
    r"|it['’]s|thats|that['’]s|there|theres|there['’]s)\b)"
    r"|\s+but\s+(?=(?:what|how|which|where|when|can|could|should|would|is|are|do|does|any"
    r"|will)\b)"
    # "i have 2 cats Miso and Tofu and the new lease says no pets??": the ask is the new
    # subject's, not the statement before it
    rf"|\s+and\s+(?={THING_DID})"
    # "im a barista at costa and they put me on 3 closes in a row??": the ask is theirs
    # ... "my employer is Siemens and this month my pension deduction doubled??"
    rf"|\s+and\s+(?=(?:they|this\s+(?:month|week|year|morning)|today|suddenly)\s)"
    # "we bumped to django 5.0 and now the admin css is broken on prod??": what happened since
    rf"|\s+and\s+(?=now\s+(?:the|my|our|it|its|it['’]s|every\w*|all|nothing|this|that|they"
    rf"|[\w\-]+\s+(?:is|are|keeps|won['’]?t|doesn['’]?t|can['’]?t))\b)",
    re.IGNORECASE,
)


def _declarative_span(text: str, start: int, end: int, question: bool) -> tuple[int, int] | None:
    """The part of a question sentence before the question ("I'm a nurse, any tips?")."""
    parts = _spans(_QUESTION_PARTS.finditer(text, start, end), text, start, end)
    if len(parts) >= 2 and _QUESTION_TAG.match(text[parts[-1][0] : parts[-1][1]]):
        # "the lib targets es2019 so i cant use the Response constructor, right?": the tag asks
        # about the conclusion; the premise before "so" is stated
        if so := _SO_CONCLUSION.search(text, start, parts[-1][0]):
            return start, so.start()
        return None
    if len(parts) < 2:
        return None
    return parts[0][0], parts[-2][1]


_GENUINE = _rx(r"^(?:real|actual|proper|plain|vanilla|normal|regular|the)\s+")
# ... "actually" closing the claim ("node 18 actually, i misspoke"), not opening the takeback
# ("release/next — actually scrap that")
_ACTUALLY = _rx(r"\bactually\s*[,.;!]")
_SO_CONCLUSION = _rx(r",?\s+so\s+(?=(?:i|we|it|that|this|you|u|there|theres|there['’]s)\b)")


def _segments(text: str, start: int, end: int, question: bool) -> list[tuple[int, int, bool]]:
    """A sentence as (start, end, asking) parts: a question's declarative lead, then the ask,
    and inside the ask a reason the user gives of themself ("since i hate coriander", "because
    i work at kpmg as an auditor", "given that we're on pnpm and node 20"), said, not asked."""
    # "since im vegan what can i bring to the bbq on sat": asked without its question mark
    question = question or _REASON_THEN_ASK.match(text, start, end) is not None
    if not question:
        return [(start, end, False)]
    lead = _declarative_span(text, start, end, question)
    parts = (
        [(start, end, True)] if lead is None else [(lead[0], lead[1], False), (lead[1], end, True)]
    )
    a, b, _ = parts[-1]
    reason = _REASON_IN_ASK.search(text, a, b)
    if reason is None:
        return parts
    stop = _REASON_ENDS.search(text, reason.end(), b)
    r_end = stop.start() if stop else b
    return [
        *parts[:-1],
        *(((a, reason.start(), True),) if reason.start() > a else ()),
        (reason.start(), r_end, False),
        *(((r_end, b, True),) if r_end < b else ()),
    ]


_SUPPOSED_MY = _rx(
    r"\b(?:say|suppose|supposing|imagine|assume|assuming|pretend)\s+(?:that\s+)?(?:my|our)\b"
)
_REASON_THEN_ASK = _rx(
    rf"\W*(?:since|because|bc|cos|coz|given(?:\s+that)?)\s+(?:i{_A}?m|im|i\s+am|i|we{_A}?re|we)\s"
    r"[^,.;!?]{0,60}?\s(?:what|which|how|where|can|could|should)\s"
)
# A reason the user gives inside a question: what follows is stated (never "if", which
# supposes; "when i work nights as a nurse" reads as a question of its own and is left)
_REASON_IN_ASK = _rx(
    rf"\b(?:since|because|cos|coz|bc|given(?:\s+that)?)\s+(?=(?:i|i{_A}?m|im|i\s+am|we"
    rf"|we{_A}?re|were|our|my)\s)"
)
# ... up to its own end: a comma, the question's own words, or the sentence's end
_REASON_ENDS = _rx(
    r"\s*[,;?]|\s+(?:and\s+)?(?:what|which|how|where|who|why)\s"
    r"|\s+(?:can|could|should|would|will|do|does|did|is|are)\s+(?:i|we|you|u|it|they)\s"
)


# Where forwarded or quoted text starts inside a message; from there on it is someone else's.
_QUOTED_START = re.compile(
    r"^\s*(?:-{2,}\s*(?:forwarded|original)\s+message|(?:from|subject|to|sent|date|cc):\s"
    # a pasted block set off by a line of dashes or equals signs
    r"|>|begin\s+forwarded|[-=_*]{3,}\s*$)",
    re.IGNORECASE | re.MULTILINE,
)
# A block of "> " lines quotes someone else; the user's own words start again after it ("got
# this from a coworker: > Hi all ... - Greg [blank line] im vegetarian so ...")
# ... and so does a pasted markdown section, up to its blank line ("## vite 6.0.0\n- requires
# Node 18")
_QUOTE_BLOCK = re.compile(
    r"^[ \t]*>[^\n]*(?:\n[ \t]*>[^\n]*)*(?=\n[ \t]*\n|\Z)"
    r"|^[ \t]*\#{1,4}[ \t]+\S[^\n]*(?:\n[ \t]*\S[^\n]*)*",
    re.MULTILINE,
)
_NOT_NEWLINE = re.compile(r"[^\n]")
# "starts exactly like this: 'My name is Ingrid ...'": a passage quoted after a colon
# "i eat eggs and cheese again since like march. so vegetarian i guess": the diet concluded in
# the next sentence from what the user eats
_DIET_CONCLUDED = _rx(
    rf"\bi\s+(?:do\s+|also\s+|still\s+|now\s+|(?:(?:have\s+|ve\s+|{_A}ve\s+)?started|began)\s+)?"
    rf"(?:eat|eating|have)\s+(?:fish|seafood|eggs|dairy|meat"
    rf"|chicken|cheese)\b[^.!?;]{{0,60}}[.!]\s+so\s+(?:i{_A}?m\s+|im\s+)?"
    rf"(?:(?:technically|basically|more)\s+)?(?P<diet>{_DIET_WORDS})(?:\s+now)?"
    rf"(?=\s+i\s+(?:guess|think|suppose)\b|\s*[.!,]|\s*$)"
)
_NATIVE_ACROSS = _rx(
    rf"\b(?:isn{_A}?t|is\s+not)\s+my\s+(?:first|native|mother)\s+(?:language|tongue)\s*(?:,|\(|[-–—])"
    rf"\s*(?:it\s+is\s+|it{_A}?s\s+|its\s+)?(?P<lang>{_LANG})(?:\s+is)?\b"
    rf"|\b(?P<lang2>{_LANG})\b[^()\n]{{0,40}}\(\s*my\s+(?:native|first|mother)\s+"
    rf"(?:language|tongue)\s*\)"
)
# "I'm a junior accountant at KPMG — sorry, was": what was just stated is over
_NOW_PAST = _rx(
    r"(?:[—–,]|\s-)\s*(?:sorry|oops|well|i\s+mean|or\s+rather)\W+(?:was|were|used\s+to\s+be)\b"
)
# "my lead told today ...", "our team lead says ...": a report by the user's own team
_TEAM_SPEAKER = _rx(
    r"\b(?:my|our)\s+(?:team\s+|tech\s+|project\s+|engineering\s+)?(?:lead|manager|boss|cto"
    r"|architect|supervisor|team)\s+(?:(?:just|also|today|yesterday|already)\s+)*\W*$"
)
_REPORT_ENDS = _rx(
    # "i wrote i live in berlin but actually i moved to potsdam"
    r"^\W*but\s+(?:now\s+|then\s+|honestly\s+|rn\s+|right\s+now\s+|currently\s+|actually\s+"
    r"|in\s+fact\s+)?"
    r"(?:i|i['’]m|im|we|we['’]re)\b"
)
# "my nanay always says '...' haha but no, im a call center agent": the report ends too
# ... and so does a bare "no" in Nigerian English's "no o" or "people think I learn because of
# anime, no, I dont like anime"
_BUT_BEFORE = _rx(
    r"(?:\bbut(?:\W+(?:no|nah|nope|honestly|seriously|really|tbh|lol|haha))?|\b(?:no|nah|nope))"
    r"(?:\s+o)?\W*$"
)
_AND_BEFORE = _rx(r"\band\W*$")
_DOCUMENT_SPEAKER = _rx(
    r"\b(?:readme|docs?|documentation|changelog|release\s+notes|tutorial|guide|article|blog"
    r"|manual|error|log|course|page|post)\b"
)
_OWN_SETTING_START = _rx(
    rf"^\W*(?:(?:and|but|so)\s+)?(?:(?:our|my)\s+(?:[\w\-]+\s+){{0,2}}?{_WS_HEADS}\b"
    # ("fastapi docs keep saying 8000 by default but our api listens on 8081")
    rf"|(?:our|my)\s+(?:[\w\-]+\s+)?(?:api|app|server|db|database|backend|frontend|service)\s+"
    rf"(?:(?:still|now|actually)\s+)?(?:is|runs|listens|uses|deploys|targets)\b"
    rf"|we(?:['’]?re|\s+are)\s+(?:on|using)\b)"
)
_NOT_BECAUSE = _rx(r"\bnot\s+(?:just\s+|only\s+)?(?:because|cause|cuz|coz|bc|since)\W*$")
_OWN_VOICE = _rx(
    r"^\W*(?:now\s+|honestly\s+|rn\s+|right\s+now\s+|currently\s+|actually\s+|in\s+fact\s+)?"
    r"(?:i|i['’]m|im|we|we['’]re)\b"
)
# Pasted code, logs and traces between ``` fences are output, not the user's statements.
_CODE_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_BLANK = "\u2063"
_LONG_SPACE = re.compile(r"\s{4,}")
# "i speak turkish (native obv) and swedish fluently": a level in brackets after its language
# is read as said beside it (the brackets give way to spaces, offsets kept)
_LEVEL_IN_BRACKETS = re.compile(
    # (after the user's own "i speak": a pasted "Languages: Tagalog (native)" is someone's CV)
    r"\bi\s+(?:also\s+|only\s+)?(?:speak|talk)\b[^.\n()]{0,40}?"
    r"\b(?:" + "|".join(sorted({*_LANGUAGES, *_MORE_LANGUAGES}, key=len, reverse=True)) + r")"
    r"\s*\(\s*(?:native|fluent|fluently|mother\s+tongue|first\s+language|learning|basic"
    r"|beginner|intermediate|conversational)\b[^()\n]{0,30}\)",
    re.IGNORECASE,
)


def _unbracketed_levels(text: str) -> str:
    return _LEVEL_IN_BRACKETS.sub(lambda m: m.group().replace("(", " ").replace(")", " "), text)


def _squeezed(text: str) -> str:
    r"""``text`` with each run of four or more whitespace characters kept as its first one and
    blanks (offsets unchanged): a pasted table or log cannot make a ``\s+`` pattern backtrack
    over thousands of spaces."""
    return _LONG_SPACE.sub(lambda m: m.group()[0] + _BLANK * (len(m.group()) - 1), text)


_CLOSE_SINGLE = re.compile(r"['’](?!\w)")
_CLOSE_DOUBLE = re.compile(r"[\"”]")
# Where a quoted passage opens: after a colon ("starts like this: 'My name is ..."), or a quote
# mark before a capital after a space or a sentence end ("tighten it? 'My name is ...").
# ... or one that opens the message: "'I am a dedicated staff nurse ...' thats the start"
# ... or one that follows a quoted passage in a list ("'i live in chicago', 'my dog is ...'")
_QUOTE_OPENS = re.compile(
    r":\s*['‘\"“]|(?:(?<=[\s?!.])|^)['‘\"“](?=[A-Z])"
    # '"hello. my name is inigo montoya. you killed my father." which movie is this from': a
    # double quote that opens the message, in any case
    r"|^\s*[\"“](?=\w)"
    r"|(?:(?<=['’\"”],\s)|(?<=['’\"”],)|(?<=['’\"”]\sand\s)|(?<=['’\"”]\sor\s))['‘\"“]"
)
_PET_AGE = r"(?i:old|little|big|baby|new|senior|sweet|elderly|young)"
_NAME_THEN_RELATION = re.compile(
    # ("Ellie (my daughter, 6)": an age may follow the relative)
    rf"\b(?P<name>{_NAME})\s*\(\s*(?i:my|our)\s+(?P<rel>{_REL_SURFACE})\s*(?:,\s*\d{{1,2}}\s*)?\)"
    # "Benny (my old lab) is sulking", "now I have only Caramel, my bunny."
    rf"|\b(?P<pname>{_NAME})\s*(?:\(\s*(?i:my|our)\s+(?:{_PET_AGE}\s+)?(?P<pet>{_PET_SURFACE})\s*\)"
    # "ok this is Miso, my cat, the little gremlin", "only me and Nala, my cat, in a small flat"
    rf"|,\s*(?i:my|our)\s+(?:{_PET_AGE}\s+)?(?P<pet2>{_PET_SURFACE})(?=\s*[.;!?),]|\s*$))"
)
_GLOSS = re.compile(r"\s*\([^()\n]{1,200}\)")
_SOMEONE_ELSES_BLOCK = _rx(
    # "write a linkedin summary for a client: jean-paul dubois, ...", "make a user persona card
    # for the redesign: Maya, 28, ...": another's details, after the colon on the same line
    r"\b(?:for|about)\s+(?:my|a|our|the|this)\s+(?:client|customer|patient|candidate|applicant)"
    r"\s*:\s*(?!(?:i|im|i['’]m|my|we|our)\b)"
    r"|\bpersonas?\s+(?:card\s+|profile\s+)?(?:for|of|about)\b[^:\n]{0,60}:\s*"
    r"(?!(?:i|im|i['’]m|my|we|our)\b)"
    r"|\b(?:for|about|of)\s+(?:my|a|our|the|this)\s+(?:client|customer|friend|patient|colleague"
    r"|coworker|co-worker|boss|neighbou?r|student|tenant|applicant|candidate|employee|guest"
    r"|speaker|member)s?\b[^\n]{0,80}:\s*\n"
    # "can u help me fix my friends CV? ... pasting:\n": a document of theirs, pasted
    r"|\b(?:my|a|our|the|this)\s+(?:client|customer|friend|patient|colleague|coworker|co-worker|boss"
    r"|neighbou?r|student|tenant|sister|brother|mum|mom|dad|wife|husband|partner|cousin)"
    r"(?:s|['’]s)?\s+(?:cv|resume|résumé|bio|profile|cover\s+letter|essay|statement|application)"
    r"\b[^\n]{0,200}:\s*\n"
    # "saw it in a github issue on the prisma repo, someone else posted it:\n\nnode v20.11.1":
    # another's report, pasted
    r"|\b(?:someone|somebody|another\s+(?:user|person|dev)|the\s+reporter)\s+(?:else\s+)?"
    r"(?:posted|pasted|shared|wrote|reported)\b[^\n]{0,80}:\s*\n"
    r"|\b(?:saw|found|copied)\s+(?:it|this)\s+(?:in|on|from)\s+(?:a|an|the|this|some)\s+"
    r"(?:[\w\-]+\s+){0,2}?(?:issue|thread|forum|post|answer|gist|discussion|question)\b"
    r"[^\n]{0,80}:\s*\n"
)
# "help me reply to this:\n\nHi Kenji,\nI'm the new head of procurement ... Best, Marloes": a
# letter the user received, pasted without quotation marks, from its greeting line (never the
# message's first line) to its sign-off or the end
_RECEIVED_LETTER = _rx(
    r"\b(?:reply|respond|answer|got|received|sent\s+me|wrote|forwarded|from)\b[^\n]*\n\s*"
    r"(?P<letter>(?:hi|hello|hey|dear|good\s+(?:morning|afternoon|evening))\b[^\n]{0,40}\n"
    r"[\s\S]*?(?:\n\s*(?:best|regards|kind\s+regards|best\s+regards|cheers|thanks|thank\s+you"
    r"|sincerely|yours\s+(?:sincerely|truly|faithfully)|warm\s+regards|br)\b[^\n]*(?:\n[^\n]*)?"
    r"|$))"
)
# Lines tools print on a crash or a build: node's version trailer, a bundler's summary, a frame
_LOG_LINE = re.compile(
    r"(?m)^[ \t]*(?:Node\.js\s+v\d+(?:\.\d+)*|(?:webpack|vite|rollup|esbuild)\s+v?\d+(?:\.\d+)*\s+"
    r"(?:compiled|built|bundled)\b.*|at\s+\S.*\(\S+:\d+:\d+\)|npm\s+(?:ERR!|error)\s.*)[ \t]*$"
)
# Words inside quotation marks are someone's text, even "my cat" in them.
_QUOTE_MARK = re.compile(r"[\"“”«»]")
# "we're not married" contradicts a spouse named in the same message
_NOT_MARRIED = _rx(rf"\b(?:we{_A}?re|we\s+are|i{_A}?m|i\s+am)\s+not\s+(?:actually\s+)?married\b")
_SPOUSES: Final = frozenset({"husband", "wife", "spouse"})
# "..., not peanuts": the words after a "not" that may name a value stated before it
_OTHER_SUBJECT = re.compile(
    r"(?:\b(?i:he|she|they)(?:['’]s|\s+is|\s+are|['’]re)?|\b[A-Z][a-z]+(?:['’]s|\s+is)"
    r"|\b(?i:my|our|his|her|their)\s+\w+(?:['’]s|\s+is|\s+are))\s+$"
)
_NOT_VALUE = re.compile(r"\bnot\s+(?:the\s+|a\s+|an\s+)?([\w'’\- ]{1,40})")


_SECOND_THOUGHT = _rx(r"\bon\s+second\s+thoughts?\b")

# "im vegetarian — well pescatarian technically", "a nurse, or rather a midwife": the speaker
# corrects the value just stated, in the same sentence. The new value must pass the same rule
# as a plain statement of its kind (``_RESTATED``), so "I love jazz, well, most of it" corrects
# nothing.
_FILLER = (
    r"technically|really|actually|i\s+guess|tbh|i\s+suppose|strictly|i\s+think"
    r"|to\s+be\s+(?:exact|precise|honest)"
)
# the laughs and asides chat puts after a value, never part of it
_CHAT_TAIL = r"(?:lol|lmao|haha\w*|hehe\w*|btw|pls|plz|xd|rn)\b"
# "2 kids, make it 3": the user's own "make it", never a request to someone ("can they make it
# hot", "dont make it sound fussy")
_MAKE_IT = (
    # (the word first: the look-behinds then run only where "make" stands)
    r"(?=make\s)(?<!don't\s)(?<!dont\s)(?<!\bthey\s)(?<!\byou\s)(?<!\bu\s)(?<!\bcan\s)(?<!\bcould\s)"
    r"(?<!\bwill\s)(?<!\bto\s)(?<!\bwe\s)(?<!\bi\s)(?<!\bpls\s)(?<!\bplease\s)make\s+(?:that|it)"
)
_SELF_CORRECTION = _rx(
    # ("im a teacher- well teaching assistant")
    rf"(?:\s*[—–]\s*|\s*-{{1,2}}\s+|\s*,\s*|\s*\.\.\.?\s*|\s+)"
    # ("the api port is 8000, ah no sorry, 8080")
    rf"(?:(?:ah|oh|um|erm|uh|hmm)\W+(?=no\b|sorry\b|wait\b))?(?:"
    # "deploy target is fly.io. sorry no, i mean render"
    r"(?:sorry\W+|oops\W+)?no\W+(?:sorry\W+)?i\s+mean(?:t)?|wait\W+actually"
    r"|(?:wait\s+no|no\s+wait)(?:\W+sorry)?|no\W+actually|no\W+sorry|actually\W+no|well\W+no\b"
    # "staging db is postgres 14 — no, 15", "4 spaces. no scratch that, 2 spaces", "Jon Pereira.
    # ugh autocorrect — its Joao Pereira"
    r"|(?<=[—–-]\s)no(?=\s*,)|(?<=[—–-])no(?=\s*,)|(?:no\s+)?scratch\s+that"
    # "postgres is on 5432, no 5433 on the host"
    r"|(?<=,\s)no(?=\s+\d)|(?<=,)no(?=\s+\d)"
    r"|(?:ugh\s+)?autocorrect\W+(?:it['’]?s|its)"
    r"|(?<!\bas\s)well|or\s+rather|rather|i\s+mean|(?<=[.!?]\s)technically"
    # "2 kids, make it 3"; never "dont make it sound fussy", "make it shorter"
    rf"|more\s+like|{_MAKE_IT}(?!\s+(?:sound|look|seem|more|less|a\s+bit"
    r"|shorter|longer|formal|casual|funny|nicer|simple|simpler|short|clear)\b)"
    # "i live in Utrecht, sorry no, Amersfoort"
    r"|(?:sorry|oops)\W+no(?=\s*,)"
    # "my dog Rolo - sorry autocorrect, Rollo": the slip's cause is named, then the value
    r"|(?:sorry|oops|ugh)\W+(?:(?:stupid|damn|dumb)\s+)?(?:autocorrect|auto-correct|typo"
    r"|spell\s*check|my\s+phone|keyboard)(?:\W+(?:it['’]?s|its|i\s+meant|i\s+mean))?"
    # "i work at deloitte, sorry i meant kpmg"
    r"|(?:sorry|sry|oops)\W+i\s+meant(?!\s+to\b)"
    r"|(?:sorry|oops)(?!\W+(?:(?:stupid|damn|dumb)\s+)?(?:autocorrect|auto-correct|typo|spell"
    r"|my\s+phone|keyboard))"
    r"|(?:sorry\W+)?i\s+(?:want|wanted|meant|mean)\s+to\s+say"
    # "i work in shift at Bosch like technician, no not technician, quality inspector": the
    # value said before named again as not the one, then the right one
    r"|no\W+not\s+[\w\-]+(?:\s+[\w\-]+)?(?=\s*,))\s*,?\s+"
    # "im veggie - well actually fully vegan since january"; "staging, no wait, its release/2.x"
    r"(?:(?:actually|really|technically|fully|now|more\s+like)\s+)*"
    r"(?:(?:it['’]?s|it\s+is)\s+(?!(?:my|his|her|their|our|your|not)\b))?(?:an?\s+)?"
    # ("sorry no i meant milk chocolate lol": the laugh is no word of the value)
    rf"(?P<value>[a-z](?:[\w'’\-/]|\.(?=\w))*(?:\s+(?!{_FILLER}|{_CHAT_TAIL})[a-z][\w'’\-]*){{0,2}}"
    # ("3.10, no sorry 3.11 in the venv": never the "3" of "3.11")
    rf"|\d+(?:\.\d+)*(?!\.?\d)(?:\s+(?!(?:now|then|too|again)\b)[a-z]+(?=\s*[,.;!?]))?)"
    r"(?:,?\s+in\s+(?P<region>(?-i:[A-Z][\w'’\-]+)))?"
    rf"(?=(?:\s+(?:{_FILLER}))?\s*(?:$|[,.;!?—–]|\s+(?:since|now|these\s+days|i|lol|haha)\b"
    rf"|\s+(?:in|on)\s+(?:the|my|our|this)\s))"
)
_LEARNING_IT = _rx(rf"(?:i{_A}?m\s+|i\s+am\s+)?(?:(?:still|only|just)\s+)?learning(?:\s+it)?")
_POINTING: Final = frozenset(_words("that thats that's that’s this it its it's it’s"))
_BARE_SORRY = _rx(r"^\W*(?:sorry|oops)\W+(?!(?:i\s+mean|no)\b)")
_COMMON_NOUN_KINDS: Final = frozenset({"preference", "diet", "allergy", "occupation"})
# the corrections that say outright the value before was wrong ("i mean", "sorry", "wait",
# "scratch that"; "well worked": the state put in the past), unlike "well", "rather", "more like"
# that may only narrow it
_FIX_MARKER = _rx(
    r"\W*(?:(?:ah|oh|um|erm|uh|hmm)\W+)?(?:[^\n]*?\b(?:i\s+mean|i\s+meant|wait|scratch\s+that|sorry|sry"
    r"|oops|autocorrect|auto-correct|typo)\b|no\W+not\b|well\W+(?=(?:worked|lived|used|was|were|had"
    r"|did)\b))"
)
_FIX_LOOSE = _rx(
    r"(?:\s*[—–,…]\s*|\s+-{1,2}\s+|\s*\.{2,}\s*|\s+)(?:(?:ah|oh|um|erm|uh)\W+)?(?:sorry\W+|oops\W+)?"
    r"(?:i\s+mean|i\s+meant|no\s+wait|wait\s+no|scratch\s+that)\W+(?:my|a|an|our)\s+\w"
)
_MEAN_CLOSES = _rx(r"\s*i\s+mean(?:t)?\s*[,.;!?]")
_IT_IS_BEFORE = _rx(r"\bit(?:['’]?s|\s+is)\s+$")
# what follows a correction word without being a value: "sorry for the long message", "i mean
# its fine", "i mean i love it"
_NOT_A_FIX = _rx(
    r"(?:no|yes|yeah|yep|ok|okay|my|for|if|to|about|that|this|lol|haha\w*|but|and|so|i|im|its|it"
    r"|the|please|pls|not|just|idk"
    r"|whatever|anyway|honestly|like|you|u|we|they|he|she)\b"
)
# "the test db is sqlite... no wait, we moved tests to postgres": the value just stated is taken
# back whatever follows (a restatement of the same kind is read by _SELF_CORRECTION)
_OPENS_SENTENCE = _rx(
    r"\W*(?:sorry|i\s+mean|no\s+wait|wait\W+actually|(?:no\s+)?scratch\s+that|(?:ugh\s+)?autocorrect"
    # "im a nurse. well technically a nurse practitioner now"
    r"|well\s+technically|technically)\b"
)
_RETRACT_ONLY = _rx(
    r"(?:\s*[—–]\s*|\s+-{1,2}\s+|\s*,\s*|\s*\.\.\.\s*|\s+)(?:wait\s+no|no\s+wait|no\W+actually"
    r"|actually\W+no|well\W+no|scratch\s+that|i\s+mixed\s+(?:that|it)\s+up|sorry\W+no(?=\W+i\b)"
    # "im allergic to shrimp, well, not really, not diagnosed"
    r"|(?:well\W+)?not\s+really(?=\s*[,.;!]))\b"
)
_RETRACT_OPENS = _rx(
    r"(?<=[.!?])\s+(?:(?:hmm+|oh|ah|um+|uh|oops)\W+)?(?:no\s+wait|wait\s+no|scratch\s+that"
    # "we got a dog!! jk", "senior engineer. ah no, not senior yet"
    r"|actually\s+no|sorry\s+i\s+mixed|no\s+sorry|jk|j/k|just\s+kidding|(?<=ah\W)no\b(?=\W)"
    r"|(?<=oh\W)no\b(?=,))\b"
)
# "actually i should say vegetarian now", "i meant Bradford": a later message that gives the
# corrected value of something said before.
_CORRECTED_VALUE = _grx(
    rf"\b(?:i\s+should\s+(?:say|have\s+said)|i\s+meant(?:\s+to\s+say)?|{_MAKE_IT}"
    # ... "i should say im a gp registrar, not fully qualified yet"
    rf"|(?:it|that)\s+should\s+(?:say|be|have\s+been))\s+(?:(?:i{_A}?m|i\s+am)\s+)?(?:an?\s+)?"
    rf"(?P<value>[a-z][\w'’\-]*(?:\s+(?!{_FILLER}|now\b)[a-z][\w'’\-]*)?)"
    rf"(?=(?:\s+(?:now|{_FILLER}))?\s*(?:$|[,.;!?—–]))"
    # "gift ideas for my sister ana" then "i mean my sister in law, ana is my brothers wife"
    rf"|^\W*(?:(?:sorry|oops|sry|wait|oh)\W+)?i\s+mean\s+my\s+"
    rf"(?P<value2>[a-z][\w'’\-]*(?:\s+(?!{_FILLER}|now\b)[a-z][\w'’\-]*){{0,2}})"
    rf"(?=\s*(?:$|[,.;!?—–]))"
    # "sorry typo i meant kpmg not deloitte lmao": the value, then the one it replaces
    rf"|\bi\s+meant\s+(?P<fixed>[a-z][\w'’\-]*)\s+not\s+(?P<denied>[a-z][\w'’\-]*)\b"
    # "i love cilantro" then "omg wait i mean parsley, i love parsley": a message that opens
    # with the value meant (a taste put right: see _corrected_value)
    rf"|^\W*(?:(?:omg|sorry|oops|sry|wait|oh|ah|no)\W+)+i\s+mean\s+"
    rf"(?P<meant>(?!(?:it|that|this|the|a|an|i|my|like|well|honestly|seriously|literally|really"
    rf"|actually|basically|obviously|sorry|no|yes)\b)[a-z][\w'’\-]*(?:\s+[a-z][\w'’\-]*)?)"
    rf"(?=\s*(?:$|[,.;!?—–]))",
    "should meant make mean",
)
# "well technically nibbles is a gerbil not a hamster": the species of a pet, put right
_SPECIES_FIXED = _grx(
    rf"(?:^\W*|[,.;!?]\s*|\b(?:well|technically|actually|sorry|oh|ok|so)\s+)"
    # ("sorry she's a rabbit not a guinea pig": the one pet held)
    rf"(?:(?P<name>[A-Za-z][\w'’\-]*)\s+is|(?P<pron>she|he|it)(?:{_A}?s|\s+is))"
    rf"\s+(?:actually\s+|technically\s+)?an?\s+(?P<new>{_PET_SURFACE})\s*,?\s+not\s+an?\s+"
    rf"(?P<old>{_PET_SURFACE})\b",
    "not",
)
# "i speak german fluently" then "ok fluently is a stretch haha, im learning": the level said
# is taken back, and the one said after it is the level
_FLUENT_STRETCH = _grx(
    r"(?:\bfluent(?:ly)?\s+(?:is|was)\s+(?:a\s+(?:bit\s+of\s+a\s+|big\s+)?stretch|an?\s+"
    r"exaggeration|overselling\s+it|too\s+much|not\s+(?:really\s+)?true)"
    # "ok actually not fluent honestly, more like b1, still taking classes"
    r"|\bnot\s+(?:really\s+|that\s+)?fluent(?:\s+honestly)?\s*,?\s+(?:more\s+like|like|only|just)"
    r"\s+(?:a\s+)?(?:[ab][12]|intermediate|beginner|basic|conversational)\b)"
    r"(?P<learning>[^.;!?]{0,30}?\b(?:(?:i{_A}?m|im|i\s+am)\s+(?:still\s+)?learning"
    r"|still\s+(?:learning|taking\s+(?:classes|lessons)))\b)?".replace("{_A}", "['’]"),
    "fluent fluently",
)
# "my brother Tomasz" then "well technically brother in law, hes my wifes brother": the
# relation made precise
_RELATION_FIXED = _grx(
    rf"^\W*(?:(?:well|ok|okay|sorry|oh|actually|lol|haha)\W+)*technically\s+(?:(?:my|a|an)\s+)?"
    rf"(?P<new>{_REL_SURFACE})\b"
    # "oh wait sorry not my niece, my cousin": the relation said before, denied, then the right one
    rf"|^\W*(?:(?:oh|wait|sorry|no|ah|oops|lol)\W+)*not\s+(?:my|a|her|his)\s+(?P<old>{_REL_SURFACE})"
    rf"\s*[,;.\-–—]?\s*(?:(?:she|he){_A}?s\s+|(?:she|he)\s+is\s+)?(?:(?:my|a|an)\s+|(?<=[,;.\-–—]\s))"
    rf"(?P<new2>{_REL_SURFACE})\b"
    # "sorry not my niece, my goddaughter": the relation denied, then what is no relative
    rf"|^\W*(?:(?:oh|wait|sorry|no|ah|oops|lol)\W+)*not\s+(?:my|a|her|his)\s+(?P<old2>{_REL_SURFACE})"
    rf"\s*[,;.\-–—]\s*(?:(?:she|he){_A}?s\s+|(?:she|he)\s+is\s+)?(?:my|a|an)\s+"
    rf"(?:god(?:daughter|son|child|mother|father)|friend|neighbou?r|colleague|coworker|student"
    rf"|pupil|patient|client|bestie|best\s+friend|flatmate|roommate)\b",
    "technically not",
)
# "its not my sister, its my friend's sister", "its ma'am's daughter bea not mine", "its her
# husband and her kids not mine", Nigerian English "emeka na my friend's brother o": a relative
# said before is someone else's
_NOT_KIN_OWNER = (
    r"(?:friend|mate|colleague|coworker|co-worker|neighbou?r|boss|flatmate|roommate|bestie"
    r"|best\s+friend|cousin)"
)
_RELATIVE_DISOWNED = _grx(
    rf"\bnot\s+(?:my|our)\s+(?P<rel>{_REL_SURFACE})(?![\w\-'’])(?!\s*(?:-|in\s+law))"
    # ("its not my sisters fault": the fault is not hers)
    rf"(?=\s*(?:$|[,.;:!?)]|\s+(?:lol|haha|tho|though|but|and|it{_A}?s|its|she{_A}?s|shes|he{_A}?s"
    rf"|hes|she|he|either|any\s*more|at\s+all|btw|tbh|o|oo|sha|pala|po|actually|really)\b))"
    rf"|\b(?:(?!(?:my|our|its|it{_A}s|thats|that{_A}s)\b)[a-z]+(?:{_A}[a-z]+)?{_A}?s|her|his|their)\s+"
    rf"(?P<rel2>{_REL_SURFACE})(?:\s+(?P<name2>(?!and\b|not\b)[a-z][\w\-]*))?"
    rf"(?:\s+and\s+(?:[a-z]+{_A}?s\s+|her\s+|his\s+|their\s+)?(?P<rel3>{_REL_SURFACE}))?"
    rf"\s*,?\s+not\s+(?:mine|ours)\b"
    rf"|\b(?P<name4>[a-z][\w\-]*)\s+(?:is|na|be)\s+(?:actually\s+|just\s+|only\s+)?(?:my|our)\s+"
    rf"{_NOT_KIN_OWNER}(?:{_A}?s)\s+(?P<rel4>{_REL_SURFACE})\b",
    "not is na be",
)
# "technically lily is my niece", "ramon is my stepdad pala, not tito": a relative held by name,
# said to be another relation
_RELATIVE_RELATION_NAMED = _grx(
    rf"\b(?P<name>[a-z][\w\-]*)\s+(?:is|na|be)\s+(?:actually\s+|technically\s+|really\s+)?"
    rf"(?:my|our)\s+(?P<rel>{_REL_SURFACE})(?![\w\-'’])",
    "is na be",
)
# "well ex husband now, the divorce was finalised last year": the relative said before is an ex
_EX_NOW = _grx(
    rf"(?:^|[,.;!?]\s*)\W*(?:(?:well|oh|sorry|actually|technically|lol|ok|okay|so)\W+)*"
    rf"(?:my\s+)?ex[\s\-]+(?P<rel>{_REL_SURFACE})(?:\s+now)?(?=\s*(?:$|[,.;!?]))",
    "ex",
)
# "wait i said tom, its tim": a value said before, typed wrong, and the right one
_SAID_X_ITS_Y = _grx(
    rf"\bi\s+(?:said|wrote|typed|put)\s+(?P<old>[a-z][\w\-]*)\s*,?\s+"
    rf"(?:it{_A}?s|its|it\s+is|should\s+be|i\s+meant|meant)\s+(?:(?:actually|really|just)\s+)?"
    rf"(?!(?:not|now|a|an|the|my|our|that|this|wrong|right|fine)\b)(?P<new>[a-z][\w\-]*)\b",
    "said wrote typed put",
)
# "tigger is actually my mums cat", "well shes not mine really lol, shes the landladys": a pet
# said before is someone else's
_PET_DISOWNED = _grx(
    rf"\b(?P<name>[a-z][\w\-]*)\s+(?:is|na)\s+(?:actually\s+|really\s+|just\s+)?(?:my\s+)?"
    rf"(?!(?:my|our)\b)[a-z]+(?:{_A}[a-z]+)?{_A}?s\s+(?P<species>{_PET_SURFACE})\b"
    # ("well technically hes not mine, hes my neighbours dog", "wait i lied hes not my dog")
    rf"|(?:^|[,.;!?]\s*|\b(?:well|oh|sorry|lol|ok|actually|but|lied|wait)\s+)"
    rf"(?:(?:technically|honestly|tbh|actually|well|so)\s+)*"
    rf"(?P<pron>she|he|it)(?:{_A}?s|\s+is)\s+not\s+(?:really\s+|actually\s+)?(?:mine|ours"
    rf"|(?:my|our)\s+(?P<own>{_PET_SURFACE}))\b"
    # (never a cleft: "its not my dog that's the problem, its the neighbours")
    rf"(?!\s*,?\s*(?:that|thats|that{_A}s|who|which)\b)",
    "is na not",
)
# "oh shes a tortoise actually", "well hes a budgie technically": the one pet said before is
# another animal, where a message opens to put it right (never "..., hes a cat actually" of
# some other animal mid-message)
_PET_SPECIES_ACTUALLY = _grx(
    rf"^\W*(?:(?:well|oh|sorry|lol|ok|ah|oops|no|wait|haha)\W+)*(?:she|he|it)(?:{_A}?s|\s+is)\s+"
    rf"(?:(?:actually|technically)\s+an?\s+(?P<new>{_PET_SURFACE})"
    rf"|an?\s+(?P<new2>{_PET_SURFACE})\s+(?:actually|technically))\b",
    "actually technically",
)
# "its Lan not Lane. Nguyen Lan": the user's name just said, then given whole as a sentence
# of its own at the end of the message
_WHOLE_NAME_LAST = re.compile(
    r"(?:^|[.!?]\s+)(?P<full>(?-i:[A-Z][a-z'’\-]+)(?:\s+(?-i:[A-Z][a-z'’\-]+)){1,2})"
    r"(?:\s+(?:btw|lol|haha|pls|please))?\s*[.!]*\s*$"
)
# "can u swap the headers to teal, its my fave colour": the thing just named, whatever the
# clause before asks, is a favourite
_FAVOURITE_NAMED_BEFORE = _grx(
    rf"\b(?P<obj>(?!(?:it|that|this|them|him|her|you|u|me|one|too|please|pls|lol)\b)[a-z][\w\-]*)"
    rf"\s*,\s*(?:it{_A}?s|its|that{_A}?s|thats)\s+my\s+(?:absolute\s+|all\s+time\s+)?"
    rf"(?:fave|fav|favou?rite)\s+(?:colou?r|food|drink|snack|dish|fruit|flower|band|song"
    rf"|genre|sport|game|show|film|movie|book|sweet|dessert|cuisine)\b",
    "fave fav favourite favorite",
)
_KIN_CHANGED_BITS: Final = _RELATIVE_DISOWNED.bit | _RELATIVE_RELATION_NAMED.bit | _EX_NOW.bit
_PET_CHANGED_BITS: Final = _PET_DISOWNED.bit | _PET_SPECIES_ACTUALLY.bit
_RELATION_REFINED = _rx(
    rf"\bmy\s+(?P<old>{_REL_SURFACE})\s*[-–—,(]\s*(?:well|or\s+rather|technically)\s+"
    rf"(?P<new>{_REL_SURFACE})\s*[-–—,)]\s*(?P<name>{_NAME}|{_LOWER_NAME})?"
)
# "oh oops ur right shes a turtle, red eared slider": the species agreed after a doubt
_SPECIES_AGREED = _grx(
    rf"^\W*(?:(?:oh|oops|sorry|ah|yes|yeah|omg|lol)\W+)*(?:ur|you{_A}?re|youre|u\s+r)\s+right\W+"
    rf"(?:she|he|it)(?:{_A}?s|\s+is)\s+(?:actually\s+)?an?\s+(?P<new>{_PET_SURFACE})\b",
    "right",
)
# "lol its Pepa actually, spanish spelling": the spelling of a name just given, corrected
_NAME_SPELLING = _grx(
    # ("yes pls. oh and its Anna with two n's sorry": where a later sentence opens)
    rf"(?:^|(?<=[.!?])\s+)\W*(?:(?:lol|haha|no|sorry|oh|and|oops|wait|ah|omg|ugh|hmm|autocorrect"
    rf"|typo|my\s+bad)\W+)*"
    # "ah sorry i typed that wrong, its Oluwaseyi not Oluwaseun"
    rf"(?:i\s+(?:typed|wrote|spelled|spelt|said|got)\s+(?:that|it)\s+wrong\W+)?"
    # "*Pickle not pixel lol autocorrect hates her": a star marks the right word; "oh sorry
    # autocorrect, his name is Pimpuś not Pimpek"
    rf"(?:(?:it{_A}?s|its|it\s+is)\s+|(?<=\*)\s*|(?:his|her|their)\s+name\s+is\s+"
    # "omg sorry i meant Teo no h"
    rf"|i\s+meant\s+)"
    rf"(?P<name>{_NAME}|{_LOWER_NAME})(?:\s*,)?\s+(?:actually|not\s+(?P<was>\w+)|btw|with\s+(?:an?|one|two)\b"
    rf"|spelled\b|(?:no|without)\s+(?:the\s+|an?\s+)?[a-z]\b"
    # "oh sorry its kaitlyn, K and Y, everyone gets it wrong": the letters that differ, spelled
    rf"|(?-i:[A-Z])\s*(?:and|&|\+)\s*(?-i:[A-Z])\b)",
    "actually not btw with spelled no without and",
)
# A message that corrects a spelling: a word of correction, or a star beside a word ("*Biscuit",
# "Deloitte*"). In such a message a word one typing slip away from a value said before
# ("Biscut", "Deloite", "Anja") is that value's new spelling (see _respelled_like).
_RESPELL_CUE = _grx(
    r"(?:^|\s)\*\w|\w\*(?!\w)|\b(?:sorry|sry|typo|autocorrect|auto-correct|spelled|spelt"
    r"|spelling|spell|accent|i\s+mean|i\s+meant|oops|correction|not|its|it{_A}s|with\s+an?)\b".replace(
        "{_A}", _A
    ),
    "sorry sry typo autocorrect auto spelled spelt spelling spell accent mean meant oops"
    " correction not its it with",
    "*",
)
_WORD_TOKEN = re.compile(r"(?<![\w'’])\*?([^\W\d_]{4,})\*?(?![\w'’])")
_SLOTS_SPELLED: Final = ("name", "org", "place", "allergen")


def _unaccented(word: str) -> str:
    return "".join(
        ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch)
    ).casefold()


def _two_slips(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` (both six letters or more, the first three the same) with at most
    two letters changed, added or dropped: "Sieman" for "Siemens"."""
    a, b = a.casefold(), b.casefold()
    if a == b or min(len(a), len(b)) < 6 or a[:3] != b[:3] or abs(len(a) - len(b)) > 2:
        return False
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1] <= 2


def _one_slip(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one typing slip (a letter changed, added, dropped or two
    swapped) or with its accents changed, and begins with the same letter."""
    a, b = a.casefold(), b.casefold()
    if a == b or (a[0] != b[0] and _unaccented(a[0]) != _unaccented(b[0])):
        return False
    if _unaccented(a) == _unaccented(b):
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((i for i in range(len(short)) if short[i] != long[i]), len(short))
    return short[i:] == long[i + 1 :]


# "sorry the dog is Paçoca", "the brother is Tunde": in a message that corrects, the pet or
# relative said before under that word is given its right name; "mochi is a cat" after "my dog
# mochi" gives the pet its right species (see _head_corrected)
_STOP_WORDS_AFTER_IS: Final = frozenset(
    _words("a an the my his her their our not also still here there")
)
_CORRECTION_CUE = _grx(
    r"\b(?:sorry|sry|actually|i\s+mean|i\s+meant|mixed|mix|wait|oops|no|not|wrong|correction"
    # the apology in the user's first language: "ai desculpa, Mel is a cat!"
    r"|typo|autocorrect|desculpa|perd[oó]n|perdona|pardon|d[ée]sol[ée]|entschuldigung|scusa|maaf)\b",
    "sorry sry actually mean meant mixed mix wait oops no not wrong correction typo autocorrect"
    " desculpa perdon perdón perdona pardon desole désolé entschuldigung scusa maaf",
)
_PRONOUN_SPECIES_NOT = _rx(
    rf"\b(?:she|he|it)(?:{_A}?s|\s+is)\s+(?:actually\s+)?(?:a|an)\s+(?P<new>{_PET_SURFACE})\s*,?\s+"
    rf"not\s+(?:a|an)\s+(?P<old>{_PET_SURFACE})\b"
)
_THE_HEAD_IS = _rx(
    rf"\bthe\s+(?P<head>{_PET_SURFACE}|{_REL_SURFACE})\s+is\s+(?:called\s+|named\s+)?"
    rf"(?P<name>{_NAME}|[a-z][\w'’\-]+)(?![\w'’\-])"
)
# "can u write a birthday card in polish? im still learning it tbh", "only arabic, it is my
# native language": a level said of the one language the message named before it (see
# _level_of_named)
_LEVEL_AFTER = (
    r"(?=\s*$|\s*[,.;!)]|\s+(?:but|tbh|lol|haha|since|for|and|so|in|at|slowly|on|now|myself"
    r"|though|tho)\b)"
)
_IN_NEXT = re.compile(r"\s+in\s+")
_BARE_LEVEL = _grx(
    rf"(?:\bi{{A}}?m|\bi\s+am)\s+(?:still\s+|currently\s+|only\s+|also\s+)?(?P<learning>learning)"
    rf"(?:\s+(?:it|that|this))?{_LEVEL_AFTER}"
    rf"|(?:\bit\s+is|\bit{{A}}?s|\bthat{{A}}?s|(?:^|,)\s*is)\s+my\s+(?P<native>native|first|mother)"
    rf"\s+(?:language|tongue)"
    rf"|(?:\bi{{A}}?m|\bi\s+am)\s+(?:a\s+)?(?P<native2>native)(?:\s+speaker)?{_LEVEL_AFTER}"
    rf"|(?:\bi{{A}}?m|\bi\s+am)\s+(?P<fluent>fluent){_LEVEL_AFTER}".replace("{A}", _A),
    "learning native first mother fluent",
)
# "update: we finally moved!! now in York": the move's end, said in the next sentence
_MOVED_NOW_IN = _grx(
    rf"\b(?:we|i)\s+(?:(?:finally|just|have|{_A}ve|officially)\s+)*moved"
    # "i moved out of porto finally, now in guimaraes": the place left, then the new one
    rf"(?:\s+(?:out\s+of|away\s+from|from)\s+[\w\-.'’]+(?:\s+[\w\-.'’]+)?(?:\s+finally)?\s*,"
    rf"|\s*[.!]+)\s+"
    rf"(?:(?:so|and)\s+)?(?:(?:we{_A}?re|we\s+are|i{_A}?m|i\s+am)\s+)?now\s+in\s+"
    rf"(?P<place>{_ANY_PLACE})(?=\s*$|\s*[,.;!]|\s+(?:and|so|but)\b)",
    "moved",
)
# "oh wait not all nuts actually, just tree nuts": what was said, made narrower
_NARROWED = _grx(
    r"\bnot\s+all\s+(?P<old>[a-z]+(?:\s+[a-z]+)?)\s*(?:actually|tbh)?\s*[,;.\-–—]?\s*"
    r"(?:just|only)\s+(?P<new>[a-z]+(?:\s+[a-z]+)?)(?=\s*(?:$|[,.;!]))",
    "all",
)
# "sorry moved out of rathmines in the summer": the home left
_MOVED_OUT_OF = _grx(
    rf"(?:\b(?:i|we)\s+|^\W*|[,.;!?]\s*|\b(?:sorry|so|and|but|oh|ah|actually)\W+)"
    rf"(?:(?:just|finally|already|have|{_A}ve)\s+)*(?:moved|move)\s+(?:out\s+of"
    r"|away\s+from)\s+(?P<place>[\w\-.'’]+(?:\s+[\w\-.'’]+)?)",
    "moved move",
)
# "sorry, Mochi, Miso is my sisters cat": the pet of that name is someone else's
_SOMEONE_ELSES_PET = _rx(
    rf"(?:^|(?<=[\s,.;:!?]))(?P<name>[\w'’\-]+)\s+is\s+(?:my|the|our)\s+(?:{_REL_SURFACE}|friend"
    rf"|neighbou?r|flatmate|roommate|colleague|boss|mate)(?:['’]?s)\s+(?P<species>{_PET_SURFACE})\b"
)
# "oh im not actually, sorry, its for a short story", "nvm. im not": the state said before,
# denied where the message opens (never the answer to a question the assistant asked: "are you
# vegan yourself?" / "im not, just curious")
_STATE_DENIED = _rx(
    rf"^\W*(?:(?:oh|nvm|nah|lol|sorry|wait|no|ok|okay|haha|hmm|well)\W+)*(?:i{_A}?m|im|i\s+am)\s+"
    rf"not(?:\s+(?:actually|really|tho|though))?(?=\s*(?:[,.;!?]|$))"
)
# "his name is biscuit, hes a school horse at the stables": a horse the user rides, not owns
_RIDDEN_HORSE = _grx(
    rf"\b(?:he|she|it){_A}?s\s+(?:a|an|the)\s+(?:riding\s+)?(?:school|lesson|riding|yard"
    rf"|stable|club)\s+(?:horse|pony)\b",
    "school lesson riding yard stable club",
)
_MINE_IS_NAME = _rx(
    r"[^\n]{0,60}?\b(?P<mine>(?:mine|ours)\s+is\s+(?:called\s+|named\s+)?"
    rf"(?P<name>{_NAME}|[a-z][a-z'’\-]{{1,19}}))(?=\s*$|\s*[,.;!?]|\s+(?:and|lol|haha|hes|shes|he"
    r"|she|btw|who)\b)"
)
_NAME_IS_SPECIES = _rx(
    rf"(?:^|(?<=[\s,.;:!?]))(?P<name>[\w'’\-]+)\s+is\s+(?:a|an|my|the)\s+(?P<head>{_PET_SURFACE})\b"
    # ... "pipoca is the hamster of my sister": another's animal
    r"(?!\s+(?:of|from)\s)"
)
# "my kids renamed him chewie last week"
_NOT_NAMED: Final = frozenset(_words("after by the a an in for like so and but because"))
_PRONOUN_WORDS: Final = frozenset(_words("it its he she hes shes this that mine ours"))
# "hes a 9yo beagle named tango": the pet the pronoun means, described and named
_PET_DESCRIBED = re.compile(
    rf"(?:\b(?:he{_A}?s|she{_A}?s|he\s+is|she\s+is)\s+a\s+(?:(?:\d+\s*(?:yo|y/o|yr\s+old|year\s+old)"
    # "so we finally got a puppy!! cockapoo called waffles": a fragment of its own
    rf"|\w+)\s+)?|(?P<fragment>(?:^|(?<=[.!?,;:]))\s*(?:an?\s+)?))(?P<species>{_PET_SURFACE})\s+(?:named|called)\s+(?P<name>[A-Za-z][\w'’\-]{{1,20}})\b",
    re.I,
)
# What may stand between "renamed him" and the new name: "we renamed him lol, hes Mango now"
# (the laugh is no name, nor "now" or "recently")
_RENAMED_TO = (
    rf"(?:(?:lol|haha\w*|lmao|tho|btw)\W+(?:(?:he|she|it)(?:{_A}?s|\s+is)\s+)?)?"
    r"(?:to\s+)?(?!(?:lol|haha\w*|lmao|tho|btw|now|again|too|already|recently|back)\b)"
)
_PET_RENAMED = _grx(
    r"\b(?:renamed|rename|re-named)\s+(?:him|her|it|them|the\s+(?:dog|cat|puppy|kitten))\s+"
    rf"{_RENAMED_TO}(?P<name>[A-Za-z][\w'’\-]{{1,20}})\b",
    "renamed rename named",
)
# "my flatmate hates the name so we changed it to ginger", "changed her name to ginger": the
# name changed, an English word too (only a pet already named is renamed)
_PET_NAME_CHANGED = _grx(
    r"(?:\bname\b[^.!?]{0,40}?\b(?:changed|change)\s+(?:it|her|him)"
    r"|\b(?:changed|change)\s+(?:her|his|its|the)\s+name)\s+to\s+(?P<name>[A-Za-z][\w'’\-]{1,20})\b"
    # "sushi didnt stick, my partner hates it so hes tofu now"
    rf"|\b(?:didnt|didn{_A}t|did\s+not)\s+stick\b[^.!?]{{0,60}}?\b(?:he|she|it)(?:{_A}?s|\s+is)\s+"
    r"(?P<name2>[A-Za-z][\w'’\-]{1,20})\s+now\b",
    "changed change stick",
)
# "Actually it is LTIMindtree now, after merger"
_ORG_NOW = _grx(
    rf"^\W*(?:(?:actually|oh|also|btw|fyi|sorry)\W+)*(?:it{_A}?s|its|it\s+is)\s+(?:called\s+)?"
    rf"(?P<org>{_ORG_TOKEN}(?:\s+{_ORG_TOKEN}){{0,2}})\s+now\b",
    "now",
)
# "my daughter is called Nell not Nora"
_RENAMED_NOT = _grx(
    # ... and "sorry her name is momo not mochi": in lower case too (only a held name is renamed)
    rf"\b(?:called|named|name\s+is|name{_A}s)\s+(?P<new>{_NAME}|[a-z][\w'’\-]{{1,19}})\s*,?\s+"
    rf"not\s+(?P<old>{_NAME}|[a-z]+)\b"
    # "her name is not mochi, its MISO": the denied name first
    rf"|\bname\s+is\s+not\s+(?P<old2>{_NAME}|[a-z]+)\s*[,.;]?\s+(?:its|it{_A}s|it\s+is)\s+"
    rf"(?P<new2>{_NAME}|[A-Za-z][\w'’\-]{{1,19}})\b"
    # "oh wait sorry its my cousin Donna not dawn": the relative said again, renamed
    rf"|\b(?:its|it{_A}s|it\s+is)\s+my\s+{_REL_SURFACE}\s+(?P<new3>{_NAME}|[a-z][\w'’\-]{{1,19}})\s*,?\s+"
    rf"not\s+(?P<old3>{_NAME}|[a-z]+)\b"
    # "kiwi was his old name lol, my son renamed him mango": the one pet held, renamed
    rf"|\brenamed\s+(?:him|her)\s+{_RENAMED_TO}(?P<new4>{_NAME}|[a-z][\w'’\-]{{1,19}})"
    rf"(?=\s*$|\s*[,.;!]|\s+(?:last|this|a|in|and|so|because|bc|lol|now)\b)",
    "called named name not renamed",
)
# "forget the gluten-free bit", "ignore what i said about the cat"
_FORGET_WHAT = _grx(
    r"\b(?:forget|ignore|scratch|disregard|drop|delete|remove)\s+(?:about\s+)?("
    # "please ignore the bit about my sister"
    r"?:the\s+(?:bit|part|thing|stuff|line)\s+about(?:\s+the|\s+my)?|the|that|my"
    r"|what\s+i\s+said\s+about(?:\s+the|\s+my)?)"
    r"\s+(?P<what>[\w\-'’]+(?:\s+[\w\-'’]+)?)",
    "forget ignore scratch disregard drop delete remove",
)
# "hmm actually thats my old job, i left in may", "that one was my old job": the work stated
# before is over; "well 'live' is a stretch lol, im only here till march": the home was a stay
_OLD_JOB = _grx(
    rf"\b(?:that|thats|that{_A}s|this|that\s+one|it)\s+(?:is\s+|was\s+|{_A}s\s+)?my\s+(?:old|previous"
    rf"|last|former|ex)\s+(?:job|role|position|company|employer|work|workplace)\b"
    # "i handed in my notice friday": the job said before is ending
    rf"|\bi\s+(?:just\s+|finally\s+|already\s+)?(?:handed|handed\s+in|gave|put\s+in|turned\s+in)"
    rf"\s+(?:in\s+)?my\s+(?:notice|resignation)\b"
    # "costa is my old job now": the workplace named, then said to be the one before
    rf"|\b(?!(?:this|that|it|what|which|who|there|here)\b)(?P<named>[a-z][\w&'’\-]*)\s+(?:is|was|{_A}s)\s+my"
    rf"\s+(?:old|previous|former)\s+(?:job|company|employer|workplace)\b"
    rf"(?!\s+(?:title|description|spec|ad|listing|posting|interview|application|ref|reference))"
    # "well *was* a barista, i quit back in march": the job said before is over
    rf"|^\W*(?:(?:well|ok|okay|lol|haha|oh|hmm|i\s+mean)\W+)*\*was\*\s+(?:an?\s+)?\w+"
    # "well actually not anymore, i quit on friday lol"
    rf"|\bi\s+(?:just\s+)?quit\s+(?:back\s+)?(?:in\s+\w+|last\s+\w+|\w+\s+ago|a\s+while\s+ago"
    rf"|on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|yesterday|today|this\s+(?:week|month))\b",
    "old previous last former ex was quit notice resignation",
)
_ONLY_HERE = _grx(
    rf"{_I_AM}\s+(?:only|just)\s+(?:here|there|in\s+\w+)\s+(?:till|until|til|for)\b"
    rf"|\blive{_A}?\s+is\s+a\s+stretch\b"
    # "well not live, im just in lisbon till the end of the month"
    rf"|^\W*(?:(?:well|ok|okay|lol|haha|oh|hmm)\W+)*not\s+(?:really\s+)?live\b",
    "only just stretch live",
)
# "i said monzo earlier, thats out of date": the values the message names are over
_OUTDATED = _grx(
    rf"\b(?:that|thats|that{_A}s|this|it|its|it{_A}s)\s+(?:is\s+|was\s+)?(?:out\s+of\s+date"
    rf"|outdated|old\s+news|not\s+true\s+any\s?more|no\s+longer\s+true|not\s+current)\b",
    "date outdated news anymore more longer current",
)
# "i resigned from GTBank", "i left accenture last month": that employer is over
_LEFT_ORG = _grx(
    # "i actually quit starbucks like 3 wks ago"
    rf"\bi(?:{_A}ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+|already\s+|actually\s+)?"
    rf"(?:resigned\s+from|quit"
    # "i got laid off from ibm", "i was let go from acme"
    rf"|left|(?:got\s+|was\s+|been\s+)(?:laid\s+off|let\s+go|fired|made\s+redundant)\s+(?:from|by|at)"
    # Nigerian English "i don comot from dangote"
    rf"|(?<=\bi\s)don\s+comot\s+(?:from|for))\s+"
    rf"(?P<what>[\w&'’.\-]+(?:\s+[\w&'’.\-]+)?)",
    "resigned quit left laid let fired redundant comot",
)
# "i eat meat again", "im eating gluten again": the diets that food breaks are over
_EATS_AGAIN = _grx(
    rf"\bi(?:{_A}?m|\s+am|m)?\s+(?:now\s+|finally\s+)?(?:(?:started|start|began)\s+)?"
    rf"(?:eat|eating|having)\s+(?P<food>meat|chicken|beef|pork|gluten|bread|wheat|dairy|cheese"
    rf"|milk|fish|seafood|eggs)\s+again\b",
    "again",
)
_DIETS_BROKEN: Final = {
    **dict.fromkeys(("meat", "chicken", "beef", "pork"), ("vegetarian", "vegan", "pescatarian")),
    **dict.fromkeys(("gluten", "bread", "wheat"), ("gluten-free",)),
    **dict.fromkeys(("dairy", "cheese", "milk"), ("dairy-free", "vegan")),
    **dict.fromkeys(("fish", "seafood"), ("vegetarian", "vegan")),
    "eggs": ("vegan",),
}
# "luna passed away in march", "our old cat Tom died": the named pet or relative is gone
_NAME_DIED = _grx(
    r"\b(?P<name>[A-Za-zÀ-ÖØ-öø-ÿ'’\-]{2,20})\s+(?:has\s+|just\s+|sadly\s+)?(?:passed\s+away|passed"
    r"|died|crossed\s+the\s+rainbow\s+bridge|was\s+put\s+down|had\s+to\s+be\s+put\s+down)\b"
    # "we had to put mochi down last week", "we rehomed rex", "we lost biscuit in may"
    r"|\b(?:put|putting)\s+(?P<name2>[A-Za-zÀ-ÖØ-öø-ÿ'’\-]{2,20})\s+(?:down|to\s+sleep)\b"
    r"|\b(?:we|i)\s+(?:had\s+to\s+|have\s+to\s+|just\s+|sadly\s+)?(?:re-?homed?|lost)\s+"
    r"(?P<name3>(?!(?:my|our|the|a|an|him|her|them|it|track|touch|weight|power)\b)"
    r"[A-Za-zÀ-ÖØ-öø-ÿ'’\-]{2,20})\b",
    "passed died crossed put putting rehome rehomed re lost",
)
# "our hamster passed away", "my old dog died last year": the pet of that kind is gone
_PET_DIED = _grx(
    rf"\b(?:my|our)\s+(?:(?:old|sweet|little|beloved|poor)\s+)?(?P<noun>{_PET_SURFACE})\s+"
    r"(?:has\s+|just\s+|sadly\s+)?(?:passed\s+away|passed|died|crossed\s+the\s+rainbow\s+bridge"
    r"|was\s+put\s+down|had\s+to\s+be\s+put\s+down)\b",
    "passed died crossed put",
)


def _died_name(m: re.Match[str]) -> str:
    """The name a _NAME_DIED match says is gone, folded."""
    return next(m.group(g) for g in ("name", "name2", "name3") if m.group(g)).casefold()


# "tom and i broke up", "i split up with my boyfriend", "we got divorced": that partner is over
_BROKE_UP = _grx(
    rf"(?:\b(?P<name>{_NAME})\s+and\s+i|\bi\s+and\s+(?P<name2>{_NAME})|\bwe|\bi)\s+"
    rf"(?:just\s+|finally\s+|recently\s+|officially\s+)?(?:broke\s+up|split\s+up|got\s+divorced"
    rf"|(?:are\s+|r\s+)?(?:now\s+)?(?:separated|divorced))\b(?!\s+(?:the|a|an|our|it|them|those|these|this|that|into|out)\b)"
    rf"(?:\s+with\s+(?:my\s+)?(?:boyfriend|girlfriend|partner|fianc[eé]e?|husband|wife|bf|gf"
    rf"|(?P<name3>{_NAME})))?",
    "broke split divorced separated",
)
# "we got married in june": the partner said before is the spouse now
_GOT_MARRIED = _grx(
    rf"\b(?:we|i)\s+(?:just\s+|finally\s+|recently\s+|officially\s+)?got\s+married\b"
    rf"|\b(?:we{_A}?re|we\s+are)\s+(?:now\s+)?married\s+now\b",
    "married",
)
_PARTNERS: Final = frozenset({"girlfriend", "boyfriend", "fiance", "fiancee", "partner"})
_MARRIED_AS: Final = {
    "girlfriend": "wife",
    "fiancee": "wife",
    "boyfriend": "husband",
    "fiance": "husband",
    "partner": "spouse",
}
# "i retired last year", "im retired now": the user has no job any more ("a retired
# greyhound" is a pet's past; "retired from the team" is no job's end)
_RETIRED = _grx(
    rf"\b(?:i{_A}?ve|i\s+have|i|i{_A}?m|im|i\s+am)\s+(?:just\s+|finally\s+|now\s+|recently\s+"
    rf"|officially\s+|already\s+)?retired\b(?!\s+(?:\w+\s+)?(?:greyhounds?|dogs?|horses?|racers?)\b)"
    rf"(?!\s+from\s+(?:the\s+)?(?:team|project|game|band|league|sport))",
    "retired",
)
# "Infosys was previous company", "gradle was my old team", "sorry I wrote Laura": the value
# the message names is over (or was never so)
_WAS_OLD = _grx(
    r"(?P<what>[\w&'’.\-]+(?:\s+[\w&'’.\-]+)?)\s+(?:was|is)\s+(?:my\s+|our\s+|the\s+)?"
    r"(?:previous|old|last|former|ex)\s+(?:company|employer|job|workplace|team|project)\b"
    r"|\b(?:sorry|oops|my\s+bad|jaja|haha|lol)\W+i\s+(?:wrote|said|typed|put|gave)\s+"
    r"(?P<what2>[\w&'’.\-]+)(?=\s*[,.;!]|\s+(?:but|instead|by\s+mistake)\b)",
    "previous old last former ex wrote said typed put gave",
)
# "well the cat is my roommates actually": the pet the user named is someone else's
_SOMEONE_ELSES = _grx(
    rf"\b(?:the|that)\s+(?P<noun>{_PET_SURFACE})\s+(?:is|was)\s+(?:my|our)\s+"
    rf"(?:[a-z]+)(?:{_A}s|s)\b(?!\s+(?:{_PET_SURFACE}))",
    "is was",
)
# "god i love spreadsheets so much (i do not)", "(not really)", "(jk)", "(lies)"
_DENIAL_ASIDE = re.compile(
    r"\(\s*(?:i\s+do\s+not|i\s+don['’]?t|i\s+dont|not\s+really|not|jk|j/k|kidding|just\s+kidding"
    r"|lies|lie|lol\s+no|no\s+i\s+don['’]?t|i\s+wish|sarcasm|/s)\s*[.!]*\s*\)",
    re.IGNORECASE,
)
# "i have a cat named Mango" ... "lol jk i dont have a cat": a pet or relative said before and
# now denied outright
_DONT_HAVE = _grx(
    rf"\b(?:i|we)\s+(?:do\s+not|don{_A}?t|dont)\s+(?:even\s+|actually\s+|really\s+)?"
    rf"(?:have|own)\s+(?:(?:a|an|any)\s+(?P<noun>{_PET_SURFACE}|{_REL_SURFACE})"
    # "lol no thats my neighbours dog. i dont have any pets": every pet said before
    rf"|(?:any\s+)?(?P<pets>pets|animals)|a\s+(?P<pet>pet))(?![\w\-])",
    "have own",
)
# "i speak french and italian" ... "ok honestly i dont speak either, i know like 5 words": the
# languages said before, denied by name or all at once
_DONT_SPEAK = _grx(
    rf"\bi\s+(?:do\s+not|don{_A}?t|dont|can\s*not|can{_A}?t|cant)\s+(?:really\s+|actually\s+|even\s+)?"
    rf"speak\s+(?:(?P<all>either(?:\s+of\s+them)?|any\s+of\s+them|both|them)\b|(?P<lang>{_LANG})\b"
    rf"(?!\s+(?:well|fluently|much|that\s+well|very\s+well|properly|yet)\b))",
    "speak",
)
# "thats my neighbours dog, not mine": a pet of that kind said before was someone else's
_NOT_MINE = _grx(
    rf"\b(?:that|thats|that{_A}s|it{_A}?s|its|he{_A}?s|hes|she{_A}?s|shes)\s+(?:actually\s+|just\s+)?"
    rf"(?:my|our|a|the)\s+(?:[a-z]+\s+)?[a-z]+(?:{_A}s|s)\s+(?P<noun>{_PET_SURFACE})\s*,?\s*"
    rf"(?:not\s+(?:mine|ours|my\s+own)|i\s+(?:do\s+not|don{_A}?t|dont)\s+have)\b"
    # "oops wrong chat sorry ... its not my dog lol" (never "hes not my dog, hes my son")
    rf"|\b(?:that|thats|that{_A}s|it{_A}?s|its|he{_A}?s|hes|she{_A}?s|shes)\s+not\s+(?:even\s+"
    rf"|actually\s+|really\s+)?(?:my|our)\s+(?P<noun2>{_PET_SURFACE})(?![\w\-'’])"
    rf"(?!\s*,?\s*(?:he|she){_A}?s\s+(?:my|our)\b)"
    # ... nor "its not my dog thats the problem": a cleft says what the trouble is
    rf"(?!\s*,?\s*(?:that|thats|that{_A}s|who|which)\b)",
    "mine ours have not",
)
# "Sure, Marge!": the name a reply opens by calling the user
_REPLY_OPENER = r"(?i:hi|hey|hello|sure|ok|okay|thanks|got\s+it|of\s+course|great|no\s+problem)"
_ADDRESSED = re.compile(
    rf"^\W*(?:{_REPLY_OPENER}\W+)?(?P<name>(?!{_REPLY_OPENER}\b)[A-Z][a-z]+)\s*[,!]"
)
# "haha ok thats not my name and i dont live in malmö, was testing you": the name and the
# home said before, denied ("i dont live there yet" denies the home the message before said)
_DENIED_OWN = _grx(
    rf"\b(?:that|thats|that{_A}s|it{_A}?s|its|this)\s+(?:is\s+)?not\s+(?:really\s+|actually\s+"
    rf"|even\s+)?my\s+(?:real\s+|actual\s+)?(?P<name>name)\b"
    # ("im not a dentist and dont live in bristol": the subject the "and" carries)
    rf"|(?:\bi|\b(?:i{_A}?m|im|i\s+am)\s+not\s+[^.;!?]{{1,40}}?\band)\s+(?:do\s+not|don{_A}?t|dont)\s+"
    rf"(?:actually\s+|really\s+|even\s+)?live\s+"
    rf"(?:in\s+(?P<place>[^\W\d_][\w'’\-]*)|(?P<there>there|here)\b)",
    "name live",
)
# "ah sorry, not hazelnuts, it's walnuts for me": the value said before, replaced
_NOT_X_BUT_Y = _grx(
    # "sorry brother, not sesame, it is shellfish": a word of address after the apology
    rf"(?:\b(?:sorry|oops|wait|ah|oh|no|actually|correction)(?:\W+(?:brother|bro|sis|sister|sir|madam"
    rf"|ma{_A}?am|man|mate|dude|boss|habibi|yaar|po|friend|dear))?\W+"
    # "not porto, braga", "not vegan, just vegetarian lol": a message that opens with the fix
    rf"|^\W*"
    # "sorry i wrote it wrong, its not only shrimp, its all shellfish"
    rf"|\bit(?:{_A}s|s|\s+is)\s+"
    # "ok that was a lie im not actually vegan 😅 vegetarian": the state denied, then the right one
    rf"|\b(?:i{_A}?m|im|i\s+am)\s+(?=not\s+(?:actually\s+|really\s+)?[\w\-]+\s*[^\w\s,;.!?]+\s*[\w\-]))"
    rf"not\s+(?:only\s+|just\s+|actually\s+|really\s+)?"
    rf"(?P<old>[\w\-]+(?:\s+[\w\-]+)?)"
    rf"\s*(?:[,;]|[^\w\s,;.!?'’\"]+)\s*(?:(?:it|that)(?:{_A}s|\s+is|s)\s+|its\s+|but\s+)?"
    rf"(?:(?:just|only|actually|really|more\s+like|all)\s+)?(?P<new>[\w\-.]+)",
    "not",
)
_DETERMINER_LEAD = _rx(r"^(?:my|our|the|a|an)\s+")
# "*mongo 7 not 6": the starred fix of a typo, new value first, at the start of a sentence
_STAR_NOT = _grx(
    r"(?:^|[.!?]\s+)\W*?(?:(?:sorry|oops|sry)\W+)?\*\s*(?P<new>[\w\-.]+(?:\s+[\w\-.]+)?)\s+"
    r"not\s+(?P<old>[\w\-.]+(?:\s+(?!(?:sorry|sry|oops|lol|haha|btw|pls|please)\b)[\w\-.]+)?)"
    r"(?=\s*(?:$|[,.;!?)])|\s+(?:lol|haha|btw|sorry|sry|oops)\b)",
    "not",
)
# "sorry i mixed that up earlier, its KPMG not deloitte": the same correction, new value first
_Y_NOT_X = _grx(
    # ... and "sorry i make mistake, i am at DJI not huawei"
    # ... and "sorry i meant tree nuts not peanuts", "i meant italian, not french"
    # ... and "actually call me lex not alex"
    # ... and "im actually in broughty ferry not dundee proper"
    # ... and "sorry we're in didsbury not chorlton", "we're rotherham not sheffield"
    rf"(?:\b(?:it|that)(?:{_A}s|\s+is|s)|\bi(?:{_A}?m|\s+am)\s+(?:actually\s+)?(?:at|with|in)"
    rf"|\bwe(?:{_A}?re|\s+are)(?:\s+actually)?(?:\s+(?:in|at))?"
    rf"|\bi\s+meant?"
    r"|\bcall\s+me"
    # ... and "i check pubspec lock, is flutter 3.22 not 3.19": "it" left out at a clause start
    r"|(?:^|(?<=[,.;:!?]\s))\s*is"
    # ... and "sorry brunswick east not brunswick, melbourne": an apology opening the message
    # ("sorry meant june not jane": "meant" is no part of the value)
    r"|^\W*(?:(?:oh|ah|no|wait|ok)\W+)*(?:sorry|sry|oops|whoops|correction)(?:\s+(?:i\s+)?meant)?)\s+"
    # ... and "its django==4.2.11 not 4.1": a pinned requirement names the version
    # ... "oh sorry yes tortoise not turtle": the yes agrees, it is no part of the value
    # ... "sorry its shellfish not shrimp": the "its" after the apology is no part of the value
    rf"(?:(?:yes|yeah|yep|ya)\W+)?(?:it(?:{_A}s|s|\s+is)\s+)?(?:actually\s+)?(?:[\w\-]+==)?"
    # ("its on 3001 not 5173": the port's preposition is no part of it)
    r"(?:(?:on|at)\s+(?=\d))?"
    # ("we're in braga now not porto": "now" is no part of the place)
    rf"(?P<new>[\w\-.&]+(?:\s+(?!(?:now|too|then|again|actually|anyway|tho|im|i)\b)[\w\-.&]+)?)"
    rf"(?:\s+(?:now|too|then|again|actually|anyway|tho))?"
    # ("its cashews im allergic to not walnuts": what the value is to the user, between)
    rf"(?:\s+(?:im|i{_A}m|i\s+am)\s+(?:allergic\s+to|into|on|in|at|with|from))?\s*,?\s+"
    rf"not\s+(?P<old>[\w\-]+(?:\.\d+)*(?:\s+(?!(?:proper|my|sorry|sry|oops)\b)[\w\-]+(?:\.\d+)*)?)"
    rf"(?:\s+proper)?"
    # ("its 3.11 not 3.12 my bad")
    rf"(?=\s*(?:$|[,.;!?)])|\s+(?:lol|haha|btw|my\s+bad|sorry|sry|oops)\b)",
    "not",
)
# "final check: capgemini, pune, sap fico consultant actually not just sap consultant": the
# fuller value said again in place of the one before ("actually" makes it a correction; "cats,
# not just dogs" adds one)
_ACTUALLY_NOT_JUST = _grx(
    r"(?:^|[,:;.!?]\s*)(?P<new>[\w\-.&]+(?:\s+[\w\-.&]+){0,3}?)\s*,?\s+actually\s*,?\s+not\s+"
    r"(?:just|only)\s+(?:a\s+|an\s+)?(?P<old>[\w\-]+(?:\s+[\w\-]+){0,2}?)"
    r"(?=\s*(?:$|[,.;!?)])|\s+(?:lol|haha|btw|pls|please)\b)",
    "actually",
)
# "oh wait i said postgres 14 earlier, its actually 15", "i said postgres 15 but its 16": the
# value said before, replaced
_I_SAID = r"\bi\s+(?:said|wrote|typed|put|told\s+(?:you|u))\s+"
_SAID_EARLIER = _grx(
    rf"{_I_SAID}(?P<old>[\w.\-]+(?:\s+(?!(?:earlier|before|above|by)\b)[\w.\-]+)?)"
    # ... "sorry i said postgres 15 but its 16"
    # ... "earlier i said deloitte, its actually kpmg now"
    rf"(?:\s+(?:earlier|before|above|by\s+mistake)\W+(?:but\s+)?|\s*,?\s+but\s+"
    rf"|\s*,\s*(?=(?:it|that){_A}?s\s+actually\b))"
    rf"(?:it|that)(?:{_A}?s|\s+is|\s+was)\s+"
    rf"(?:actually\s+|really\s+)?(?P<new>[\w.\-]+(?:\s+[\w.\-]+){{0,2}}?)"
    rf"(?=\s*(?:$|[,.;!?])|\s+(?:not|now|btw|actually|lol|tho|though)\b"
    # "i said walnuts earlier but its cashews im allergic to"
    rf"|\s+(?:i{_A}?m|im|i\s+am)\s+(?:allergic|intolerant)\s+to\b)",
    "said wrote typed put told",
)
_SAID_WRONG = _grx(
    rf"{_I_SAID}(?P<old>[\w.\-]+(?:\s+[\w.\-]+)??)"
    r"(?:\s+(?:earlier|before|above|by\s+mistake))?\s*,?\s+but\s+(?:that|it)(?:['’]?s|\s+is|\s+was)"
    r"\s+(?:(?:just|actually|totally|completely)\s+)?(?:wrong|not\s+right|a\s+mistake|a\s+typo"
    r"|outdated|old|the\s+old|from\s+the\s+old|my\s+old)\b",
    "said wrote typed put told",
)
_VERSION_TAIL = re.compile(r"v?\d+(?:\.\d+)*")
# "update: we just bumped to 3.12": a version with no tool named moves the one version the
# session has stated
# What may follow the version a setting was moved to: when, or the end of what is said
_AFTER_BUMP = (
    r"(?:last|this|yesterday|today|over|recently|already|now|btw|lol|too|and|so|but"
    r"|a\s+(?:few|couple))"
)
_BUMPED_TO = _grx(
    r"(?:\b(?:we|i)(?:['’]?ve|\s+have)?|\band"
    # "upgraded to 5.0 over the weekend": the subject left out where the message starts
    r"|^\W*(?:(?:oh|ok|okay|so|also|btw|update|fyi|wait|lol)\W+)*)\s*"
    r"(?:just\s+|finally\s+|now\s+|then\s+)?(?:bumped|upgraded|moved|updated)"
    # "i just pinned python:3.12-slim and bumped the project to 3.12"
    r"\s+(?:up\s+|it\s+|everything\s+|the\s+(?:project|repo|app|service|codebase)\s+)?to\s+"
    r"(?P<new>v?\d+(?:\.\d+)+)\b(?![\w.])(?!\s+(?!" + _AFTER_BUMP + r"\b)[\w.])(?!\s*\?)"
    # "oh wait we upgraded to 20 last week": a major version alone, before a time or the end
    r"|\b(?:we|i)(?:['’]?ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:bumped|upgraded|updated)"
    r"\s+(?:it\s+|everything\s+)?to\s+(?P<new2>v?\d{1,2})(?![\w.]|\.\d)"
    r"(?=\s*(?:$|[,;!?)]|\.(?:\s|$)|\s+" + _AFTER_BUMP + r"\b))",
    "bumped upgraded moved updated",
)
# "were on django 4.2" ... "lol no we're on 5.0, just upgraded": a message that opens by saying
# no, then the version alone, puts right the one version the session has stated
_NO_WE_ARE_ON = _grx(
    r"^\W*(?:(?:lol|lmao|haha\w*|oh|ah|wait|sorry|oops|um|erm)\W+)*(?:no|nah|nope|actually)\W+"
    r"(?:(?:sorry|actually)\W+)?(?:(?:we['’]?re|were|we\s+are)\s+(?:(?:actually|now|already)\s+)?"
    r"(?:on|using|running)|it['’]?s)\s+(?:actually\s+)?(?P<new>v?\d+(?:\.\d+)+)(?![\w.])(?!\s*\?)",
    "no nah nope actually",
)
_STAR_FIX = _rx(
    r"\W*\*\s*(?P<new>[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2}?)"
    r"(?=\s*(?:$|[,.;!)])|\s+(?:sorry|sry|lol|haha|oops|my\s+bad)\b)"
)
_ROLE_ALONE = _rx(rf"(?:{_ROLE})")
_CHANGED_IT = _grx(
    r"\b(?:we|i)\s+(?:just\s+|finally\s+|also\s+)?(?:changed|switched|set|bumped|moved|raised"
    r"|lowered|increased|reduced|renamed)\s+it\s+to\s+(?P<new>`[^`\n]{1,40}`|[\w.\-/]+)"
    # ... a value, not the start of a phrase ("i changed it to dark mode")
    r"(?=\s*(?:$|[,;!)]|\.(?:\s|$)|\s+(?:today|now|yesterday|last|this|btw|lol|too|and|so|but"
    r"|finally|already)\b))",
    "changed switched set bumped moved raised lowered increased reduced renamed",
)
# "we stopped deploying from main like 2 weeks ago, its a `production` branch now": the deploy
# branch said before, replaced by the branch named after it (or only withdrawn, when none is)
_STOPPED_DEPLOYING = _grx(
    rf"\b(?:we|i)\s+(?:actually\s+|just\s+|already\s+)?(?:stopped|quit|no\s+longer)"
    rf"\s+(?:deploying|deploy|shipping|ship|releasing|release)\s+(?:from|off(?:\s+of)?)\s+"
    rf"`?(?P<old>[\w\-/.]+)`?"
    rf"(?:[^.?!\n]{{0,40}}?\b(?:it{_A}?s|its|it\s+is|now\s+(?:we\s+|it\s+)?(?:deploy|ship|release)s?"
    rf"\s+from)\s+(?:a|the|our)?\s*`?(?P<new>[\w\-/.]+)`?\s+(?:branch\b|now\b))?",
    "stopped quit longer",
)
# "we dropped develop, everything goes to main now", "nvm we dropped 3.8, min is 3.10 now": a
# setting's value said before, dropped, and the one that replaces it when it is named
_DROPPED_SETTING = _grx(
    rf"\bwe\s+(?:just\s+|finally\s+|also\s+)?(?:dropped|removed|killed|retired|got\s+rid\s+of)"
    rf"\s+(?:support\s+for\s+)?(?:the\s+)?(?:(?:python|node|java|ruby|php|go)\s+)?"
    rf"`?(?P<old>[\w.\-/]+)`?(?:\s+branch)?"
    rf"(?:[^.?!\n]{{0,40}}?\b(?:min(?:imum)?(?:\s+version)?\s+is(?:\s+now)?|everything\s+goes\s+"
    rf"(?:to|into|against)|(?:all\s+)?prs\s+go\s+(?:to|into|against)|we\s+(?:use|deploy\s+from"
    rf"|ship\s+from)|now\s+(?:its|it{_A}s|we\s+use))\s+`?(?P<new>[\w.\-/]+)`?)?",
    "dropped removed killed retired rid",
)
# "sorry, its release now, we changed it": the setting said last, given its new value
_ITS_NOW_CHANGED = _grx(
    rf"\b(?:it{_A}?s|its|it\s+is)\s+(?:actually\s+)?`?(?P<new>[\w.\-/]+)`?\s+now\b"
    rf"(?=[^.?!\n]{{0,30}}\bwe\s+(?:just\s+)?(?:changed|switched|renamed|moved|updated)\s+it\b)"
    rf"|\bwe\s+(?:just\s+)?(?:changed|switched|renamed|moved|updated)\s+it\W+(?:it{_A}?s|its"
    rf"|it\s+is)\s+(?:now\s+)?`?(?P<new2>[\w.\-/]+)`?"
    # "sorry its 16 actually, we upgraded in september": a number for the number said last
    rf"|^\W*(?:(?:sorry|oops|wait|no|nah|my\s+bad|correction)\W+)+(?:it{_A}?s|its|it\s+is)\s+"
    rf"v?(?P<new4>\d+(?:\.\d+)*)\s+actually\b"
    # "we renamed the deploy branch, its main now": the setting named
    rf"|\bwe\s+(?:just\s+)?(?:changed|switched|renamed|moved|updated)\s+(?:the|our)\s+"
    rf"(?P<subj>[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)\s*[,;:\-–—]+\s*(?:it{_A}?s|its|it\s+is)\s+"
    rf"(?:now\s+)?`?(?P<new3>[\w.\-/]+)`?"
    # "it listens on 5433 now", "ok its on port 8443 now": the port said last, moved
    rf"|^\W*(?:(?:ok|okay|so|oh|btw|fyi|and|but|update|yeah|yep)\W+)*(?:it{_A}?s|its|it\s+is"
    rf"|it\s+(?:listens|runs))\s+(?:on\s+(?:port\s+)?(?P<port>\d{{2,5}})\s+now"
    rf"|now\s+on\s+(?:port\s+)?(?P<port2>\d{{2,5}}))\b",
    "changed switched renamed moved updated actually listens runs on",
)
# "upgrade done, app connected to 16": the version an upgrade reached
_UPGRADE_DONE = _grx(
    r"\b(?:upgrade|migration)\s+(?:is\s+)?(?:done|finished|complete|completed)\b[^.!?\n]{0,30}?"
    r"\b(?:connected\s+to|running\s+on|now\s+on|on)\s+v?(?P<new>\d+(?:\.\d+)*)\b(?![\w.])",
    "done finished complete completed",
)
# "i changed the api, PORT=4000 in .env now": the port a setting said before moved to
_PORT_ASSIGNED = _grx(r"\bport\s*=\s*(?P<new>\d{2,5})\b(?=[^\n]{0,20}?\bnow\b)", "port")
# Messages that only update what earlier ones said ("upgrade done, app connected to 16") yield
# through these, though no rule of their own can match
_UPDATE_BITS: Final = _bits(_UPGRADE_DONE, _PORT_ASSIGNED, _MOVED_OUT_OF, _NARROWED)
# "wait actually staging is on postgres now": a later message gives a setting the session stated
# a new value, naming the setting by its first word
_ACTUALLY_NOW = _grx(
    r"\b(?:actually|update|correction|sorry)\W+(?:the\s+|our\s+)?(?P<subj>[a-z][\w\-]*)\s+"
    r"(?:is|runs)\s+(?:on\s+|using\s+|running\s+)?(?P<new>[a-z][\w.\-/]*(?:\s+v?\d+(?:\.\d+)*)?)"
    r"\s+now\b",
    "actually update correction sorry",
)
# "they called me now and withdraw the offer ... so i am not working there"
_OFFER_GONE = _grx(
    rf"\b(?:withdr[ae]w|withdrawn|rescinded|pulled|cancell?ed)\s+(?:the\s+|my\s+)?(?:job\s+)?offer"
    rf"|\boffer\s+(?:was|got|has\s+been)\s+(?:withdrawn|rescinded|pulled|cancell?ed)"
    rf"|{_I_AM}\s+not\s+(?:working|starting)\s+there\b"
    # "i work at spotify now" / "well ok i havent signed yet tbh": an offer, not yet the job
    rf"|\bi\s+(?:have\s+not|haven{_A}?t|havent)\s+(?:actually\s+|even\s+)?signed\s+"
    rf"(?:it\s+|the\s+(?:contract|offer)\s+|anything\s+)?yet\b"
    # "i work at google now" ... "ok well i dont work there yet tbh, its an offer": the job the
    # user named is an offer
    rf"|\bi\s+(?:do\s+not|don{_A}?t|dont)\s+(?:actually\s+|even\s+|really\s+)?work\s+there\s+"
    rf"yet\b"
    rf"|\bi\s+(?:have\s+not|haven{_A}?t|havent)\s+(?:actually\s+|even\s+)?started\s+there\s+yet\b",
    "withdraw withdrew withdrawn rescinded pulled canceled cancelled offer working starting signed"
    " work started",
)

# "we got a puppy!! a beagle called pickle" ... "scratch that, we havent got him yet": the
# animal named before is not the user's yet
# "my dog sparky wont learn sit" ... "lol sorry should of said, its nintendogs on my old DS":
# the animal said before lives in a game
_PET_IN_GAME = _grx(
    rf"\b(?:its|it{_A}s|it\s+is|hes|he{_A}s|shes|she{_A}s|they{_A}re|theyre|thats|that{_A}s)\s+"
    rf"(?:just\s+|only\s+|all\s+)?(?:in\s+)?(?:nintendogs?|tamagotchis?|neopets?|webkinz"
    rf"|animal\s+crossing|the\s+sims|pou|(?:a|an|my)\s+(?:video|mobile|phone)\s+game"
    rf"|(?:a|an)\s+virtual\s+(?:pet|dog|cat|one)|virtual)\b",
    "nintendog nintendogs tamagotchi tamagotchis neopets neopet webkinz crossing sims pou video"
    " mobile phone virtual",
)
_PET_NOT_YET = _grx(
    rf"\b(?:we|i)\s+(?:have\s+not|haven{_A}?t|havent|did\s+not|didn{_A}?t|didnt)\s+"
    rf"(?:actually\s+|even\s+|officially\s+)?(?:got|gotten|get|adopted|adopt|bought|picked\s+up)\s+"
    rf"(?:him|her|them|(?:the|our|my)\s+(?:{_PET_SURFACE}))\s+yet\b",
    "got gotten get adopted adopt bought picked",
)


def _said_plainly(text: str, m: re.Match[str]) -> bool:
    """Whether the words ``m`` found in ``text`` are the user's own plain statement: no
    hypothetical earlier in their sentence, not inside quotes."""
    sentence_start, _ = _sentence_around(text, m.start(), m.end())
    return not (
        _HYPOTHETICAL.search_alone(text[sentence_start : m.end()])
        or _inside_quotes(text, m.start())
    )


# "when i was kid my hamster died and my parents just said he 'went to farm'": a childhood
# story's "my parents" says nothing lasting (a mother or father named in it still does)
_CHILDHOOD = _grx(
    r"^\W*(?:(?:so|and|but|well|lol|haha|anyway|also)\W+)*(?:when\s+i\s+was\s+(?:a\s+)?"
    r"(?:(?:little|small)\s+)?(?:kid|child|little|young|small|teen(?:ager)?|boy|girl|baby)"
    r"|as\s+a\s+(?:kid|child|teen(?:ager)?)|growing\s+up)\b",
    "when as growing",
)


_CHILDHOOD_AFTER = _rx(
    r"\bwhen\s+i\s+was\s+(?:a\s+)?(?:(?:little|small)\s+)?(?:kid|child|teen(?:ager)?|boy|girl)\b"
)


def _drop_childhood_parents(text: str, hits: list[_Hit], before: int) -> None:
    """Drop the bare "parents" this message stated inside a sentence that tells a childhood
    story, and an unnamed mother or father said before "when i was a kid" in one."""
    kept = hits[:before]
    for hit in hits[before:]:
        relation = hit.values.get("relation")
        if hit.kind == "relationship" and relation in ("parent", "father", "mother"):
            start = hit.evidence[-1][1]
            sentence_start, sentence_end = _sentence_around(text, start, start)
            if relation == "parent" and _CHILDHOOD.pattern.match(text[sentence_start:]):
                continue
            # "my dad had one when i was a kid": an unnamed parent in a story of the past
            if not hit.values.get("name") and _CHILDHOOD_AFTER.search(text, start, sentence_end):
                continue
        kept.append(hit)
    hits[:] = kept


# "names for a baby girl?? we like lucia, elena, maya": names on a shortlist, not tastes
_NAMES_TALK = _grx(
    r"\b(?:baby|boy|girl|middle|first|pet|dog|cat|kid|twin)\s+names?\b|\bnames?\s+for\s+(?:a|the|our|my)\b",
    "names name",
)


def _drop_names_liked(hits: list[_Hit], before: int) -> None:
    """Drop the likes this message stated whose object is a given name, in a message that talks
    about choosing names."""
    hits[before:] = [
        h
        for h in hits[before:]
        if not (
            h.kind == "preference"
            and h.values.get("polarity") == "likes"
            and (obj := h.values.get("object") or "")
            and len(_given_names(obj)) == len(obj.split())
        )
    ]


_MUSED = _rx(r"\s(?:h+m+|hm+|huh|hmm+)\W*$")
_OTHER_PERSON_WORD = (
    r"(?:friend|mate|colleague|coworker|co-worker|boss|client|customer|neighbou?r|sister|brother"
    r"|mum|mom|dad|mother|father|wife|husband|partner|cousin|aunt|auntie|uncle|son|daughter"
    r"|flatmate|roommate|housemate|student|patient|niece|nephew|grandma|grandpa)"
)
# "my mum is from kenya, ...", "my friend tom moved ...": a clause that opens on another person
_OTHER_SUBJECT_START = _rx(
    rf"^\W*(?:my|our)\s+(?:[\w\-]+\s+)?(?:{_REL_SURFACE}|{_OTHER_PERSON_WORD})(?:\s+[a-z]+)?"
    rf"(?:{_A}s|\s+(?:is|was|has|had|lives|lived|moved|works|worked|came|comes|grew))\b"
)


def _drop_names_of_others(text: str, hits: list[_Hit], before: int) -> None:
    """Drop the user's names this message stated whose first name the message gives another
    person ("my friend marta asked me to help her ... sign it Marta Kowalski")."""
    for hit in hits[before:]:
        if hit.kind != "name" or not (name := hit.values.get("name")):
            continue
        first = re.escape(name.split()[0])
        if re.search(rf"\b(?:my|our|a|her|his)\s+{_OTHER_PERSON_WORD}\s+{first}\b", text, re.I):
            hits.remove(hit)


def _sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of the sentence of ``text`` that holds ``text[start:end]``."""
    return (
        max((e.end() for e in _SENTENCE_END.finditer(text, 0, start)), default=0),
        next((e.start() for e in _SENTENCE_END.finditer(text, end)), len(text)),
    )


def _earlier_settings(hits: list[_Hit], gone: list[_Hit], seq: int) -> list[_Hit]:
    """The settings said before message ``seq`` and not yet taken back."""
    return [
        h
        for h in hits
        if h.kind == "working_state" and h not in gone and not all(e[0] == seq for e in h.evidence)
    ]


def _settings_valued(hits: list[_Hit], gone: list[_Hit], seq: int, old: str) -> list[_Hit]:
    """The settings said before message ``seq`` whose value is ``old`` ("we dropped develop")."""
    old = old.casefold()
    return [
        h
        for h in _earlier_settings(hits, gone, seq)
        if (h.values["value"] or "").strip("`").casefold() == old
    ]


def _settings_naming(hits: list[_Hit], gone: list[_Hit], seq: int, word: str) -> list[_Hit]:
    """The settings said before message ``seq`` whose value of several words names ``word``."""
    word = word.casefold()
    return [
        h
        for h in _earlier_settings(hits, gone, seq)
        if word in (value := (h.values["value"] or "").casefold()).split() and value != word
    ]


def _last_settings(hits: list[_Hit], gone: list[_Hit], seq: int, new: str) -> list[_Hit]:
    """The settings of the latest message before ``seq`` that stated any, which "it" in "we
    changed it to 120" names: only when ``new`` is a number for a number ("line length is 88")
    or a name for a name."""
    said = [h for h in hits if h.kind == "working_state" and h not in gone]
    said = [h for h in said if h.evidence[-1][0] != seq]
    newest = max((h.evidence[-1][0] for h in said), default=None)
    last = [h for h in said if h.evidence[-1][0] == newest]
    if last and new.isdigit() == (last[-1].values["value"] or "").isdigit():
        return last
    return []


_THE = re.compile(r"^the\s+")
_MY_OR_OUR = re.compile(r"(?:my|our)\s", re.IGNORECASE)
# "i dont work there", "im not a nurse", "thats not true": the user denies a statement
_DENIES = _rx(
    rf"\b(?:(?:i|we)\s+(?:do\s+not|don{_A}?t|dont|never|have\s+not|haven{_A}?t|havent)"
    rf"|i{_A}?m\s+not|im\s+not|i\s+am\s+not|(?:that|thats|that{_A}s|it{_A}?s)\s+not\s+"
    rf"(?:true|real|mine|me))\b"
)
_WITHDRAWN_KINDS: Final = (
    (_OLD_JOB, frozenset({"occupation", "employer"})),
    (_ONLY_HERE, frozenset({"home_location"})),
)


def _idle_reason(clause: str) -> str | None:
    """For the explanation only: why a clause no rule took would not have been remembered
    anyway ("I don't have a cat": a negation; "I'm in Paris this week": time-bounded)."""
    mask = _PREFILTER.scan(clause)
    if _NEGATION.search(clause, mask):
        return "negation"
    return transient_marker(clause)


# "translate to spanish: i am a doctor", "how do you say my husband is a doctor in german",
# "example sentences for my class: i have a cat named tom": words given to be translated or
# shown are material, not statements (a quoted one already is)
_MATERIAL_CUE = _grx(
    r"\btranslat(?:e|ing)\b"
    r"|\bhow\s+(?:do|would|can|could|should|to)\s+(?:(?:i|you|u|we|one)\s+)?say\b"
    r"|\b(?:example|sample|practi[cs]e|model)\s+(?:sentences?|phrases?|answers?|dialogues?)\b",
    words="translate translating say sentence sentences phrase phrases answer answers dialogue"
    " dialogues",
)
# ... after a colon or a dash right after the cue and the words that say what they are for
# ("translate this into polish pls:"), to the end of that line; a looser colon ("translate my
# cv for me, details: im a nurse") introduces the user's own facts
_MATERIAL_OPENS = _rx(
    r"(?:\s+(?:this|that|it|these|the\s+following|pls|please|plz|for\s+me|(?:in|into|to|from)"
    r"\s+\w+|sentences?|text|lines?|phrases?|quickly|real\s+quick"
    r"|like\s+['\"‘“][^'\"’”]{1,40}['\"’”]"
    # "for my patient", "for my english test": the words are for a class or another's use
    r"|for\s+(?:a|my|the|our)\s+(?:\w+\s+)?(?:patients?|students?|class|homework|worksheet"
    r"|textbook|exercise|test|exam|lesson|course|kids|pupils)))*\s*(?::|[-–—]\s)"
)
# ... else only when the language it is to be said in follows: up to that language
_MATERIAL_INTO = _rx(rf"\s+(?:in|into|to)\s+{_LANG}")
_MATERIAL_SAYS = _rx(rf"\b(?:i|i{_A}?m|im|my|me|we|we{_A}re|our)\b")


# "not my code, found this on a github issue ...:\n<environment block>", "this blog has this in
# pyproject:\n<config>": a block pasted from someone else's setup, after the colon that ends
# the line introducing it, up to a blank line before the user's own words (or the end)
_FOREIGN_PASTE_CUE = _grx(
    r"\bnot\s+(?:my|our)\s+(?:code|repo|project|setup|config|stack|app)\b"
    r"|\bfound\s+(?:this|it)\s+(?:on|in)\s+(?:a|an|the|some)\s+(?:[\w\-]+\s+){0,2}?(?:github|gitlab"
    r"|stack\s*overflow|reddit|forum|blog|issue|thread|post|tutorial|article|gist|repo)\b"
    r"|\b(?:this|the|a|that)\s+(?:blog|tutorial|article|post|guide|docs?|course|book|video|issue"
    r"|gist|answer|example|template|readme)\s+(?:has|uses|says|shows|gives|had|used|recommends)\b"
    # "its from the hypermodern python tutorial im reading:"
    r"|\b(?:it['’]?s|it\s+is|this\s+is|this\s+one\s+is)\s+from\s+(?:the|a|an|some|this)\s+"
    r"(?:[\w\-]+\s+){0,3}?(?:tutorial|blog|article|post|guide|docs?|course|book|video|readme"
    r"|template|example|repo)\b"
    # "someone opened this issue on my lib": a report's environment is the reporter's
    r"|\b(?:someone|somebody|a\s+user|a\s+customer|a\s+contributor)\s+(?:just\s+)?(?:opened"
    r"|filed|reported|posted|sent)\b"
    # "caption instagram in english? for bakery of my neighbor bu sri ... the info:"
    r"|\b(?:caption|post|ad|advert|flyer|menu|description|listing|page|website)\b[^.!\n]{0,40}?"
    r"\bfor\s+(?:the\s+|a\s+)?(?:[\w\-]+\s+){0,2}?(?:of\s+)?(?:my\s+)?(?:neighbou?r|friend|client|cousin"
    r"|aunt|auntie|uncle|boss|mom|mum|dad)['’]?s?\b"
    # "the platform team asked me to clean up the README for their ingest service"
    r"|\bfor\s+(?:their|his|her)\s+(?:[\w\-]+\s+){0,2}?(?:service|repo|project|app|codebase"
    r"|lib|library|team)\b"
    # "helping a neighbour with his job centre form ... translate these answers:"
    r"|\b(?:his|her|their)\s+(?:[\w\-]+\s+){0,2}?(?:form|application|answers|cv|resume|bio"
    r"|profile|paperwork|questionnaire|cover\s+letter|personal\s+statement)\b",
    words="not found blog tutorial article post guide doc docs course book video issue gist answer"
    " example template readme from opened filed reported posted sent for caption ad advert"
    " flyer menu description listing page website form application answers cv resume bio"
    " profile paperwork questionnaire letter statement",
)
# The block opens after a colon, or after a blank line ("... help me understand the trace",
# then the pasted report)
# "write it as her, first person. details: im a registered nurse ...", "write the profile part
# from his view: im a certified electrician": what follows in that message is said in another's
# voice, up to a sentence the two share ("... we both work at Thoughtworks")
_VOICED_CUE = _grx(
    r"\b(?:write|writing|written|do|make)\s+(?:it|this|them)\s+(?:as|like)\s+(?:her|him|them)\b"
    r"|\bfrom\s+(?:his|her|their)\s+(?:own\s+)?(?:view|point\s+of\s+view|perspective|pov)\b",
    "write writing written do make view perspective pov",
)
_WORD = re.compile(r"\w")
_SHARED_AGAIN = _rx(r"(?<=[.!?\n])\s*(?=(?:we\s+both|both\s+of\s+us|we\s+all)\b)")


def _voiced_span(text: str, mask: int, cued_before: bool) -> tuple[int, int] | None:
    """Where ``text`` speaks in another's voice after a cue (see _VOICED_CUE): in this message,
    or from its start when the user's message before ended on the cue ("ill give u his stuff,
    just write it as him", then "ok: my name is rafael souza, i live in setubal ...")."""
    cue = _VOICED_CUE.search(text, mask) if mask & _VOICED_CUE.bit else None
    if cue is None and not cued_before:
        return None
    start = cue.end() if cue is not None else 0
    shared = _SHARED_AGAIN.search(text, start)
    return start, shared.start() if shared else len(text)


_PASTE_OPENS = re.compile(r":[ \t]*\n|\n[ \t]*\n")
_OWN_AGAIN = _rx(
    r"\n[ \t]*\n(?=[ \t]*(?:we|our|i|i['’]m|im|my|so|but|and|how|what|can|is|does|should|why"
    r"|any|pls|please|thanks|ok)\b)"
)


def _foreign_paste_spans(text: str, mask: int) -> list[tuple[int, int]]:
    """Where ``text`` holds a block pasted from someone else's setup (see _FOREIGN_PASTE_CUE)."""
    spans = []
    for m in _FOREIGN_PASTE_CUE.finditer(text, mask):
        opened = _PASTE_OPENS.search(text, m.end(), m.end() + 200)
        if opened is None or "\n" in text[m.end() : opened.start()]:
            continue
        back = _OWN_AGAIN.search(text, opened.end())
        spans.append((opened.end(), back.start() if back else len(text)))
    return spans


# "sentences like 'i live in X'", "i work at [company]": a slot to fill in, never a value
_PLACEHOLDER = re.compile(r"(?i)[a-z]|x{2,}|\[[^\]]*\]|<[^>]*>|\{[^}]*\}|_+|\.{3}|…")
_PLACEHOLDER_FIELDS: Final = {"home_location": "place", "employer": "org", "occupation": "role"}


# "me and my bf", "me n my wife": the user and a relative, one subject
_ME_AND_MY = _rx(
    rf"^\W*me\s+(?:and|n|&)\s+(?:my|our)\s+(?:(?:{_REL_MOD})\s+)?(?:{_REL_SURFACE})"
    rf"(?:\s+(?-i:[A-Z])[\w'’\-]+)?(?=\s)"
)


# ("'well my boyfriend's in a band, he plays guitar'": an apostrophe inside a word ends nothing)
_SINGLE_QUOTED = re.compile(r"(?<!\w)['‘](?:[^'‘’\n]|(?<=\w)['’](?=\w)){3,120}['’](?!\w)")
_FIRST_PERSON_QUOTE = re.compile(r"(?:i|im|i['’]m|my|we|we['’]re|our)\s", re.IGNORECASE)


def _material_spans(text: str, mask: int) -> list[tuple[int, int]]:
    """Where ``text`` gives words to translate or show rather than states them: after a colon
    or dash that follows the cue ("translate: i have three children"), to the end of the line;
    else from the cue to the language they are to be said in ("can u translate i live in berlin
    into german"). Without either the words are not set apart ("i need to translate my cv, im
    a nurse") and nothing is."""
    spans = []
    for m in _MATERIAL_CUE.finditer(text, mask):
        # "example sentences with 'adorer', like 'i love chocolate'": single-quoted words after
        # the cue are the examples themselves
        stop = _SENTENCE_END.search(text, m.end())
        for quoted in _SINGLE_QUOTED.finditer(
            text, m.end(), len(text) if stop is None else stop.start()
        ):
            spans.append(quoted.span())
        if opened := _MATERIAL_OPENS.match(text, m.end()):
            end = text.find("\n", opened.end())
            spans.append((opened.end(), len(text) if end < 0 else end))
            continue
        stop = _SENTENCE_END.search(text, m.end())
        limit = len(text) if stop is None else stop.start()
        # "translate from czech to slovak pls, im fluent": no words given, only languages
        if (into := _MATERIAL_INTO.search(text, m.end(), limit)) and _MATERIAL_SAYS.search(
            text, m.end(), into.start()
        ):
            spans.append((m.end(), into.start()))
    return spans


def _forget_spans(text: str, mask: int) -> list[tuple[int, int]]:
    # "ugh scratch that we switched to pnpm": "scratch that" is said, then the new statement
    # ("forget that i live in leeds" names what to forget)
    return [
        m.span()
        for m in _FORGET_WHAT.finditer(text, mask)
        if not _SCRATCH_THEN_SAID.match(m.group())
    ]


# "the german thing is a lie i gave up", "the shellfish one is my husband not me", "the rabbit
# isnt mine actually", "scratch luna actually, shes my neighbours dog", Nigerian English "abeg no
# mind the accountant part": one thing said before, named and taken back
_TOPIC_TAKEN_BACK = _grx(
    r"\b(?:no\s+mind|never\s+mind|nevermind|nvm)\s+(?:the|that)\s+"
    r"(?P<what>[\w\-'’]+(?:\s+[\w\-'’]+)?)"
    rf"|\bthe\s+(?P<what2>[\w\-'’]+(?:\s+[\w\-'’]+)?)\s+(?:thing|bit|part|one|stuff)\s+"
    rf"(?:is|was|{_A}s)\s+(?:(?:just|actually|totally)\s+)?(?:a\s+lie|a\s+joke|made\s+up"
    rf"|(?<=was\s)wrong|(?<=bit\sis\s)wrong|(?<=part\sis\s)wrong|overstated|exaggerated"
    rf"|an\s+exaggeration"
    rf"|not\s+(?:true|right|me|mine)|my\s+(?:{_REL_SURFACE})(?:{_A}?s)?\b|(?:his|hers|theirs))"
    rf"|\bthe\s+(?P<what3>[a-z][\w\-]+)\s+(?:isn{_A}?t|isnt|is\s+not|wasn{_A}?t|wasnt|aint)\s+"
    rf"(?:actually\s+|even\s+|really\s+)?(?:mine|ours|me|true)\b"
    rf"|\bscratch\s+(?P<what4>(?!that\b|this\b|it\b|the\b)[a-z][\w\-]+)(?=\s*(?:,|$)|\s+actually\b)"
    # "Sorry, company name I told is wrong, it is TCS only", "leeds was a typo": a thing said
    # before, named where a clause opens, then said to be wrong
    rf"|(?:^|[,.;!?]\s*)\W*(?:(?:sorry|oops|ok|okay|so|but|and|also|oh|ah|hmm|wait|abeg|lol)\W+)*"
    rf"(?:the\s+|my\s+|that\s+)?(?P<what7>(?!(?:it|this|that|everything|all|nothing|which|what)\b)"
    rf"[a-z][\w\-]*(?:\s+(?!(?:i|u|you|is|was)\b)[a-z][\w\-]*){{0,2}}?)\s+"
    rf"(?:(?:i|u|you)\s+(?:told|said|gave|wrote|typed|put)(?:\s+(?:you|u))?\s+)?(?:is|was|{_A}s)\s+"
    rf"(?:(?:just|totally|completely|actually|all)\s+)?(?:wrong|incorrect|not\s+(?:true|right|correct)"
    rf"|a\s+(?:lie|typo)"
    # ("jazz was my autofill being weird")
    rf"|(?:my\s+)?(?:autofill|auto-?correct|autocomplete)(?:\s+being\s+\w+)?)"
    rf"(?=\s*(?:$|[,.;!?])|\s+(?:sorry|lol|haha|my\s+bad|btw)\b)"
    # Filipino English "joke only the Davao hehe", "only joking about the dog"
    rf"|\b(?:joke\s+only|(?:just|only)\s+joking\s+about|(?:just|only)\s+kidding\s+about)\s+(?:the\s+)?"
    rf"(?P<what6>[\w\-]+(?:\s+(?!hehe|haha|lol)[\w\-]+)?)"
    # "reverted the whole commit, gateway port is back to what it was before": the setting
    # said before is no longer it, whatever it is now
    rf"|\b(?P<what5>[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)\s+(?:is|{_A}s)\s+(?:now\s+)?back\s+to\s+"
    rf"(?:what\s+it\s+was|how\s+it\s+was|the\s+old\s+(?:one|value|setting)|normal|(?:the\s+)?default)\b",
    "mind nvm nevermind thing bit part one stuff isnt wasnt aint not t scratch back joke joking"
    " kidding wrong incorrect lie typo autofill autocorrect autocomplete",
)
# "i hate country music" ... "hate is too strong, country is fine honestly", "walnuts r fine":
# a dislike or an allergy said before, taken back by saying the thing is fine
_FINE_AFTER_ALL = _grx(
    r"\b(?P<what>[a-z][\w\-]+)\s+(?:is|are|r)\s+(?:actually\s+|totally\s+|honestly\s+)?"
    r"(?:fine|ok|okay|alright)(?=\s*(?:$|[,.;!?])|\s+(?:for\s+me|with\s+me|honestly|actually|tbh"
    r"|really|lol|haha)\b)",
    "fine ok okay alright",
)
# "wait no sorry, 8081. 8080 is the keycloak container": a takeback that says the number meant
_NUMBER_PUT_RIGHT = _rx(
    r"^\W*(?:(?:wait|no|sorry|sry|oops|ah|oh|um|hmm)\W+)+(?:it['’]?s\s+|its\s+)?"
    r"(?P<num>[1-9]\d{3,4}|\d+\.\d+(?:\.\d+)?)(?![\w.]|\.\d)(?=\s*(?:$|[,.;!?]))"
)
# "well not anymore tbh", "oh wait, spanish not anymore": a message that opens by ending a state
_NOT_ANYMORE_OPENS = _grx(
    r"^\W*(?:(?:oh|wait|well|hmm+|ah|ok|okay|lol|haha|honestly|actually|nah|no|yeah)\W+)*"
    r"(?:(?P<what>[a-z][\w\-]*)\s+)?(?:not\s+any\s?more|no\s+longer)\b(?=\s*(?:$|[,.;!?]|\s+(?:tbh"
    r"|honestly|lol|haha|tho|though|i|since|really|sadly)\b))",
    "anymore any longer",
)
_LAST_THING = _grx(
    r"\bthe\s+last\s+(?:thing|bit|part|one)\s+(?:i\s+(?:said|wrote|typed|told\s+(?:you|u))\s+)?"
    r"(?:was|is)\s+(?:(?:just|only)\s+)?(?:a\s+joke|a\s+lie|not\s+true|made\s+up|wrong|fake)\b",
    "last",
)
# "ah I'm only messing", "just testing u 😂", "i just dey test the app": the message right
# before was a test of the assistant (never a question two messages back: "remind me the dose"
# ... "yes i know, just testing you lol" takes back no home said before the question)
_JUST_TESTING = _grx(
    rf"\b(?:i{_A}?m|im|i\s+am|i\s+was|was)\s+(?:only|just)\s+(?:messing|joking|kidding|having\s+a\s+laugh)\b"
    rf"(?!\s+(?:about|with|around)\b)"
    rf"|\bjust\s+(?:testin[g'’]?|dey\s+test)\s+(?:u|you|ya|the\s+app|if\s+(?:you|u|youd|ud)|how\s+(?:you|u)"
    rf"|ur|your)\b"
    # "lol i was testing you to see if u'd remember stuff"
    rf"|\b(?:i{_A}?m|im|i\s+am|i\s+was|was)\s+(?:only\s+)?testin[g'’]?\s+(?:u|you|ya|ur|your)\b",
    "messing joking kidding laugh testing testin test",
)
_NTH_NAME = _grx(
    r"\bthe\s+(?P<nth>first|second|third|last|1st|2nd|3rd)\s+(?:one|name|one['’]?s\s+name)\s+is\s+"
    r"(?:actually\s+|really\s+)?(?P<new>[a-z][a-z'’\-]{1,19})\b(?=\s*(?:$|[,.;!?])|\s+(?:not|lol)\b)",
    "first second third last 1st 2nd 3rd",
)
_ORDINALS: Final = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "last": -1}
# "scratch the port, thats not our setup" ... "and the python version too": one more thing
# taken back, right after a message that took something back (see _withdrawn)
_AND_THAT_TOO = _grx(
    r"^\W*(?:(?:oh|ah|and|also|plus)\W+)+the\s+(?P<what>[\w\-]+(?:\s+[\w\-]+)?)\s+(?:too|as\s+well)\b",
    "too well",
)
_SCRATCH_THEN_SAID = _rx(
    rf"scratch\s+that\s+(?:i|we|i{_A}?m|im|we{_A}?re|my|our)\s+(?:just\s+|actually\s+|now\s+)?"
    rf"(?:switched|moved|changed|migrated|upgraded|went|use|are|am|live|work|have|got)\b"
)


# "im not coeliac", "im not sure im allergic"
_NOT_SO = _grx(
    rf"{_I_AM}\s+not\s+(?:really\s+|actually\s+|even\s+|strictly\s+|fully\s+|100%\s+)?"
    rf"(?:sure\s+(?:if\s+|that\s+|whether\s+)?"
    rf"i{_A}?m\s+(?:really\s+|actually\s+)?)?(?:a\s+|an\s+)?(?P<what>[\w\-]+)"
    # "yes, well not exactly engineer anymore"
    rf"|(?:^|[,.;]\s*)\W*(?:(?:yes|yeah|well|ok|okay|so|oh|hmm)\W+)*not\s+(?:exactly\s+|really\s+)?"
    # "well not strict keto anymore"
    rf"(?:strict\s+|strictly\s+|fully\s+|totally\s+|100%\s+)?"
    rf"(?:a\s+|an\s+)?(?P<what2>[\w\-]+)\s+any\s*more\b"
    # "well not properly vegan, its just for january": the value said before, taken back
    rf"|(?:^|[,.;]\s*)\W*(?:(?:yes|yeah|well|ok|okay|so|oh|hmm|lol|haha)\W+)*not\s+(?:properly|really"
    rf"|actually|strictly|fully|totally|technically|officially)\s+(?:a\s+|an\s+)?"
    rf"(?P<what3>[\w\-]+)(?=\s*(?:$|[,.;!?])|\s+(?:tbh|lol|haha|tho|though)\b)",
    "not",
)
# "oh wait sorry, this is ciara's cv not mine", "the nurse and galway stuff is all her, not
# me", "thats the opening line of my short story, Priya is the main character not me": what the
# message before said was someone else's, or a story's
_NOT_ABOUT_ME = _grx(
    rf"\b(?:this|that|it)\s*(?:is|was|{_A}s|s)?\s+(?:[a-z]+{_A}s|[a-z]+s|her|his|their)\s+"
    rf"(?:cv|resume|résumé|bio|profile|info|details|story|letter|email|text|form|notes|stuff)"
    rf"\s*,?\s*not\s+(?:mine|me|about\s+me)\b"
    rf"|\b(?:all|is\s+all|was\s+all)\s+(?:her|his|hers|theirs|them)\s*,?\s*not\s+(?:me|mine)\b"
    rf"|\b(?:that|thats|that{_A}s|that\s+was|this\s+is|it{_A}?s|its)\s+(?:just\s+)?(?:the\s+)?"
    rf"(?:opening|first|last)\s+(?:line|lines|sentence|paragraph)\s+of\s+(?:my|a|the)\s+"
    rf"(?:short\s+)?(?:story|novel|book|script|screenplay|poem|essay)\b"
    rf"|\b(?:is|was)\s+(?:the|a|my)\s+(?:main\s+)?(?:character|protagonist|narrator)\s*,?\s+"
    rf"not\s+me\b"
    # "sorry that was my friend's info i pasted", "shes the architect not me": what the message
    # before said was pasted from someone else's details, or is someone else's
    rf"|\b(?:that|thats|that{_A}s|that\s+was|this\s+is|it\s+was)\s+(?:all\s+)?(?:my\s+)?"
    rf"[a-z]+{_A}?s\s+(?:info|details|stuff)\s+(?:that\s+)?i\s+(?:just\s+)?(?:pasted|copied|typed)\b"
    rf"|\b(?:she|he)(?:{_A}s|s|\s+is)\s+the\s+[a-z]+(?:\s+[a-z]+)?\s*,?\s+not\s+me\b"
    # "hmm no actually that was my ex's thing not mine": someone else's taste or habit
    rf"|\b(?:that|thats|that{_A}s|that\s+was|it\s+was|its|it{_A}s)\s+(?:more\s+)?(?:my\s+)?[a-z]+{_A}?s\s+"
    rf"thing\s*,?\s*not\s+(?:mine|me)\b"
    # "oops wrong chat sorry, that was meant for another group": the message before was sent
    # here by mistake, where a message opens by saying so
    rf"|^\W*(?:(?:oops|sorry|sry|ugh|lol|oh|ah|haha|ignore\s+(?:that|this)|my\s+bad)\W+)*wrong"
    rf"\s+(?:chat|window|tab|thread|convo|conversation|group|person|app)\b"
    # "sorry neither of those is me, i was reading off a clients booking form", "none of that
    # is me lol"
    rf"|\b(?:none|neither|nothing)\s+(?:of\s+(?:that|those|this|it|them)|there|here)"
    rf"(?:\s+(?:is|are|was|were|applies)|{_A}s|s)\s+(?:to\s+)?(?:me|mine|about\s+me|true|real|for\s+me)\b"
    # "nah thats all wrong mate", Nigerian English "no be me o ... no be true at all", "not my
    # details at all"
    rf"|\b(?:that|thats|that{_A}s|it{_A}?s|its)\s+all\s+(?:wrong|made\s+up|lies|a\s+lie|a\s+joke)\b"
    rf"|(?:^|[,.;!?]\s*)\W*no\s+be\s+(?:me|true)\b|\bnot\s+my\s+(?:details|info|facts)\b"
    # "wait sorry, thats not my project at all, those numbers are from the tutorial"
    rf"|\b(?:that|thats|that{_A}s|this|it{_A}?s|its)\s+(?:is\s+|was\s+)?not\s+(?:my|our)\s+"
    rf"(?:project|repo|setup|code|codebase|app|config|stuff|info|details)\b(?!{_A}s)"
    # (never "its not my code thats failing, its the library")
    rf"(?!\s*,?\s*(?:that|thats|that{_A}s|who|which)\b)"
    # "scrap all that, wrong repo ... not my project at all"
    rf"|\bnot\s+(?:my|our)\s+(?:project|repo|setup|code|codebase|app)\s+at\s+all\b"
    # Nigerian English "na lie o, everything wey i talk", "it was all a joke lol"
    rf"|^\W*(?:(?:lol|haha|ok|okay|sorry|abeg)\W+)*(?:na\s+lie|all\s+lies|(?:it\s+was|thats|that"
    rf"\s+was|that{_A}s)\s+all\s+(?:a\s+)?(?:lie|lies|joke|made\s+up))\b"
    # "its for a short story im writing", "its for my mate Dee's profile not me", "thats just my
    # dnd char": the words before were written for a story, someone else or a character
    rf"|\b(?:its|it{_A}s|it\s+is|this\s+is|that{_A}?s|thats|that\s+was)\s+(?:all\s+)?for\s+"
    rf"(?:a|an|my|the)\s+(?:[\w\-]+\s+){{0,2}}?(?:story|novel|book|script|screenplay|game|character"
    rf"|campaign|roleplay|rp)\b"
    rf"|\b(?:its|it{_A}s|it\s+is|this\s+is)\s+for\s+[^.!?\n]{{1,40}}?\bnot\s+(?:for\s+)?(?:me|mine"
    rf"|myself)\b"
    rf"|\b(?:that|thats|that{_A}s|it{_A}?s|its)\s+(?:just\s+|only\s+)?my\s+(?:(?:dnd|d&d|rpg|game"
    rf"|wow|mmo)\s+)?(?:char|character|persona|oc|sona)\b",
    "mine me opening first last character protagonist narrator wrong project repo setup code"
    " codebase app config stuff info details lie lies joke none neither nothing all be not for"
    " char persona oc sona",
)
_WITHDRAWING_BITS: Final = _bits(
    _UPGRADE_DONE,
    _PORT_ASSIGNED,
    _STOPPED_DEPLOYING,
    _DROPPED_SETTING,
    _ITS_NOW_CHANGED,
    _NAME_DIED,
    _PET_DIED,
    _BROKE_UP,
    _GOT_MARRIED,
    _RETIRED,
    _EATS_AGAIN,
    _FORGET_WHAT,
    _NOT_SO,
    _TOPIC_TAKEN_BACK,
    _AND_THAT_TOO,
    _LAST_THING,
    _NTH_NAME,
    _JUST_TESTING,
    _OLD_JOB,
    _ONLY_HERE,
    _OUTDATED,
    _LEFT_ORG,
    _WAS_OLD,
    _NOT_X_BUT_Y,
    _STAR_NOT,
    _SOMEONE_ELSES,
    _SAID_EARLIER,
    _BUMPED_TO,
    _NO_WE_ARE_ON,
    _CHANGED_IT,
    _ACTUALLY_NOW,
    _Y_NOT_X,
    _OFFER_GONE,
    _PET_NOT_YET,
    _PET_IN_GAME,
    _DONT_HAVE,
    _DONT_SPEAK,
    _FINE_AFTER_ALL,
    _NOT_MINE,
    _DENIED_OWN,
    _NOT_ABOUT_ME,
)
# What "the <employer> stuff" reaches besides the employer: the job said with it
_JOB_KINDS_TOGETHER: Final = {
    "employer": ("occupation",),
    "occupation": ("employer",),
}
_WITHDRAWN_TAIL = _rx(r"\s+(?:bit|thing|part|stuff|comment|one|info|lol|pls|please|that|it)$")
# "forget what i said about my job": a job is the title and the workplace both
_KIND_WORDS: Final = {
    "allergy": ("allergy",),
    "allergies": ("allergy",),
    "allergic": ("allergy",),
    "diet": ("diet",),
    "job": ("occupation", "employer"),
    "work": ("occupation", "employer"),
    "occupation": ("occupation",),
    "employer": ("employer",),
    "company": ("employer",),
    "name": ("name",),
    "nickname": ("preferred_name",),
    # "hold on ignore the setup stuff, i pasted from the wrong readme"
    "setup": ("working_state",),
}


# "no im not in sf lol": a word of grammar names no claim ("driving in the dark" stays)
_ITS_INSTEAD = _rx(
    rf"\s*[,;]?\s*(?:it{_A}?s|its|it\s+is|should\s+be|i\s+meant)\s+(?:actually\s+|really\s+)?"
    rf"(?!(?:not|the|a|an|my|our|fine|ok|okay|wrong|right|true)\b)"
    rf"(?P<new>[a-z][\w\-]*(?:\s+(?!only\b|lol\b|now\b)[a-z][\w\-]*)?)"
    rf"(?=(?:\s+(?:only|lol|now))?\s*(?:$|[,.;!?]))"
)
_NAMES_NOTHING: Final = frozenset(
    _words("in at on to of for from with by the a an and or out off up down into about over")
)


def _said_before(hits: list[_Hit], gone: list[_Hit], seq: int) -> list[_Hit]:
    """The claims a message may take back: said in an earlier message, not already taken."""
    return [h for h in hits if h not in gone and not _said_in(h, seq)]


def _denies(denied: str, value: str) -> bool:
    """Whether the words after a "not" deny ``value``: the value itself, or its plural, as whole
    words ("call me max not maximilian" denies no "max")."""
    if not denied.startswith(value):
        return False
    rest = denied[len(value) :]
    return not rest or not rest[0].isalnum() or re.match(r"e?s\b", rest) is not None


def _names_claim(hit: _Hit, what: str) -> bool:
    """Whether ``what`` (casefolded words a user withdraws) names ``hit``'s claim."""
    if what in _NAMES_NOTHING:
        return False
    # "the company name i told": the company, not the user's name
    head, _, last = what.rpartition(" ")
    if last == "name" and head.split()[-1:] and head.split()[-1] in _KIND_WORDS:
        what = head.split()[-1]
    if hit.kind in _KIND_WORDS.get(what, ()) or hit.kind in _KIND_WORDS.get(what.split()[-1], ()):
        return True
    # "ignore the branch name": a setting named by what it is a setting of
    if hit.kind == "working_state" and (subject := (hit.values.get("subject") or "").casefold()):
        said = what.removesuffix(" name").removesuffix(" number")
        if said in (subject, subject.split()[-1]):
            return True
    for field_name, value in hit.values.items():
        if not value or field_name == "polarity":
            continue
        folded = value.casefold()
        if folded == what or folded in what.split() or what in folded.split():
            return True
        if _normal(hit.kind, field_name, what) == _normal(hit.kind, field_name, value):
            return True
    return False


# "well, vegan actually, since january": a message that opens with the corrected value
_CORRECTED_LEAD = _rx(
    # ("no wait sorry vegan actually": the leads may pile up)
    # ... "sorry kotlin 2.0 actually, we bumped it": a tool with its version
    # ... "wait its just shrimp actually, clams and mussels are fine": the value narrowed
    r"^\W*(?:(?:well|no|sorry|oops|hmm|ah|wait)\W+)+(?:(?:it['’]?s|it\s+is)\s+(?:just\s+|only\s+)?)?"
    r"(?:an?\s+)?(?P<value>[a-z][\w'’\-]*"
    r"(?:\s+v?\d+(?:\.\d+)*)?)\s+(?:actually|technically|really)\b"
    # "well icu nurse to be precise": the value narrowed, up to three words
    r"|^\W*(?:(?:well|no|sorry|oops|hmm|ah|wait|ok)\W+)+(?:an?\s+)?(?P<precise>[a-z][\w'’\-]*"
    r"(?:\s+[a-z][\w'’\-]*){0,2}?)\s*,?\s+(?:to\s+be\s+(?:precise|exact|specific)|specifically)\b"
    # "no wait, actually kit": the whole message, after the leads, is the corrected value
    r"|^\W*(?:(?:well|no|sorry|oops|hmm|ah|wait)\W+)+actually\W+(?:an?\s+)?"
    r"(?P<alone>[a-z][\w'’\-]*)\W*$"
)
# "my boyfriend Marco - fiancé actually!!": the value first, then "actually"
_VALUE_ACTUALLY = _rx(
    # "pnpm-lock now": a hyphen inside a word separates nothing; "we use yarn.. pnpm i mean",
    # "python 3.9, er 3.12 actually"
    r"(?:\s*[—–,…]\s*|\s+-\s*|\s*-\s+|\s*\.{2,}\s*)(?:(?:er|erm|uh|um)\W+)?"
    r"(?P<value>[^\W\d_][\w'’\-]*|\d+(?:\.\d+)+)(?:\s+(?:since|as\s+of)\s+\w+)?"
    r"\s+(?:actually|technically|now|(?P<meant>i\s+mean))\b(?=\W*(?:$|[,.;!?]))"
)
_ALL_OF_IT = re.compile(r"\b(?:all|none)\b", re.IGNORECASE)


def _slots_stated(text: str) -> frozenset[str]:
    """The claim kinds the rules find anywhere in ``text``, markers aside, with a setting's
    subject (``working_state:postgres version``): what a correcting message gives a new value
    of ("wait no, postgres is 15" puts right postgres, not the rails said beside it)."""
    mask = _PREFILTER.scan(text)
    return frozenset(_slot(h) for rule, bits in _RULES if mask & bits for h in rule(text, mask))


def _same_polarity(hit: _Hit, text: str) -> bool:
    """Whether ``text`` states a liking of the preference ``hit``'s polarity."""
    mask = _PREFILTER.scan(text)
    return any(
        h.values.get("polarity") == hit.values.get("polarity") for h in _rule_preference(text, mask)
    )


_MANY_VALUED_SLOTS: Final = frozenset({"relationship", "pet", "language", "allergy"})


def _corrects_itself(text: str, retraction: re.Match[str]) -> bool:
    """Whether a takeback mid-message stands between two claims of one kind ("i prefer mountains
    over beach ... no wait, i prefer beach"): it puts right what its own message said."""
    before = text[: retraction.start()]
    if not before.strip():
        return False
    # (a relative, pet, language or allergy is one of many: naming another corrects nothing)
    return bool(
        (_slots_stated(before) & _slots_stated(text[retraction.end() :])) - _MANY_VALUED_SLOTS
    )


def _slot(hit: _Hit) -> str:
    if hit.kind == "working_state":
        return f"working_state:{(hit.values.get('subject') or '').casefold()}"
    # "i prefer X" puts right a preference, never a dislike
    if hit.kind == "preference":
        return f"preference:{hit.values.get('polarity')}"
    return hit.kind


_VERSION_VALUE = re.compile(r"\d+(?:\.\d+)*")


def _held_before(
    hits: list[_Hit], gone: list[_Hit], seq: int, kinds: tuple[str, ...] | None = None
) -> list[_Hit]:
    """The claims (of ``kinds``, or any) that a message before ``seq`` stated and that nothing
    has taken back yet; unlike ``_said_before``, one that message ``seq`` restates is still
    among them ("my dog rex" ... "rex is fine. rex died in march" withdraws him)."""
    return [
        h
        for h in hits
        if (kinds is None or h.kind in kinds)
        and h not in gone
        and not all(e[0] == seq for e in h.evidence)
    ]


def _latest_said(found: list[_Hit]) -> list[_Hit]:
    """Those of ``found`` that the latest message naming any of them stated: what "we havent
    got her yet" or "i dont work there yet" is about."""
    if not found:
        return []
    latest = max(h.evidence[-1][0] for h in found)
    return [h for h in found if h.evidence[-1][0] == latest]


def _respelled_part(held: _Hit, said: _Hit) -> str | None:
    """The held whole name with the one word ``said`` spells again ("Wojcik" put right as
    "Wójcik"), or ``None`` when ``said`` is not one word of it respelled."""
    old = (held.values.get("name") or "").split()
    new = (said.values.get("name") or "").split()
    if len(old) < 2 or len(new) != 1:
        return None
    plain = _unaccented(new[0]).casefold()
    matches = [i for i, word in enumerate(old) if _unaccented(word).casefold() == plain]
    if not matches:
        # "katherine ellis - no sorry, kathryn": a word spelled differently, same start
        matches = [
            i
            for i, word in enumerate(old)
            if (w := _unaccented(word).casefold())[:2] == plain[:2]
            and SequenceMatcher(None, w, plain).ratio() >= 0.7
        ]
    if len(matches) != 1:
        return None
    old[matches[0]] = new[0]
    return " ".join(old)


_RESTATED: Final = {
    "diet": ("i'm {}", _rule_diet),
    "relationship": ("my {}", _rule_possessive),
    "occupation": ("i'm a {}", _rule_work),
    # "im an audit associate at deloitte" ... "sorry typo i meant kpmg not deloitte"
    "employer": ("i work at {}", _rule_work),
    "allergy": ("i'm allergic to {}", _rule_allergy),
    "home_location": ("i live in {}", _rule_home),
    # "my name is Daniela Ruiz, sorry Daniela Ruiz Ortega"
    "name": ("my name is {}", lambda c, mask: _rule_names(c, mask, False)),
    # "call me chris" ... "no wait, actually kit"
    "preferred_name": ("call me {} please", lambda c, mask: _rule_names(c, mask, False)),
    # "kotlin 1.9" ... "sorry kotlin 2.0 actually": a version said again (its subject must match)
    "working_state": ("we're on {}", _rule_tech),
}

# "we use yarn.. pnpm i mean": a tool named alone is read as the tool used
_RESTATED_TOO: Final = {"working_state": ("we use {}",)}

_OPENING_QUOTES: Final = frozenset('"“«')
# "wait sorry i mixed up, i left infosys in march, now im at wipro": after an ask to write for
# someone, a message that corrects the user's own words is the user speaking, not the text
_FIXES_OWN_WORDS = _rx(
    r"\W*(?:(?:wait|oh|oops|ah|hmm+|ok|no)\W+)*(?:sorry\W+|sry\W+)?(?:i\s+mixed\s+(?:(?:that|it)\s+)?up"
    r"|i\s+meant|my\s+bad|scratch\s+that|correction)\b"
)
_SOURCE_ASKED = _grx(
    r"\b(?:which|what)\s+(?:movie|film|song|show|series|book|play|poem|musical|episode|album|game"
    r"|tv\s+show)\s+(?:is|was|s)\s+(?:this|that|it)\s+(?:line\s+|quote\s+|lyric\s+)?from\b"
    r"|\bwho\s+(?:sings|sang|said|wrote|says)\s+(?:this|that|it|these\s+lyrics)\b"
    r"(?!\s+(?:quote|line|song|poem)\s+(?:about|on)\b)"
    r"|\bwhere\s+(?:is|was|s)\s+(?:this|that)\s+(?:line|quote|lyric)\s+from\b",
    "from sings sang said wrote says",
)
_COLON_AFTER = re.compile(r"[^\n:.!?]{0,20}:\s*")
_WHOLLY_QUOTED = re.compile(r'\s*["“«][^"“”«»]{20,}["”»]\s*')


_I_SAID_ONLY = _rx(
    r"^\W*(?:(?:also|and|oh|ok|so)\W+)*i\s+(?:said|wrote|typed)\s+(?:[\w'’\-]+\s*){1,4}$"
)
_BUT_AFTER = _rx(r"\s*,?\s*but\b")


def _reported(sentence: str, mask: int) -> bool:
    # "as I said" is the user's own report, "on second thought" no report at all: drop them
    if mask & _SELF_REPORT.bit:
        sentence = _SELF_REPORT.pattern.sub(" ", sentence)
    return bool(_REPORTED.pattern.search(_SECOND_THOUGHT.sub(" ", sentence)))


# A conditional or a report governs its own clause and every later clause of the sentence (the
# consequent of "if I moved to Berlin, I'd need a visa"; the content of "she said I'm ..."); the
# other markers govern only the clause they are in.
_CONDITIONAL = _grx(
    rf"\b(?=if\b){_ASKED_IF}if\b|\b(?:unless|suppose|supposing|imagine|imagining|let{_A}?s\s+say|in\s+case"
    rf"|hypothetical(?:ly)?|what\s+if|say\s+(?:we|i)(?=\s+\w+ed\b|\s+were\b|\s+had\b))\b"
    # "say im a product manager at google and ...": a scenario, said at the start of a clause
    rf"|(?:^\W*|\b(?:so|ok|okay|and|but|now|like)\s+)say\s+(?=(?:i{_A}?m|im|i\s+am|we{_A}?re"
    rf"|we\s+are|i\s+(?:have|work|live|get|got|had))\b)",
    "if unless suppose supposing imagine imagining say case hypothetical hypothetically",
)
_LEADING_CONDITIONAL = _rx(
    r"^\W*(?:(?:and|but|so|ok|okay|well|also|oh|hmm)\W+)*(?:if|unless|suppose|supposing|imagine"
    r"|let'?s\s+say|in\s+case|what\s+if|hypothetically|say(?=\s+(?:i'?m|im|i\s+am|we'?re"
    r"|we\s+are|i\s+(?:have|work|live|get|got|had))\b))\b"
)
_CONSEQUENCE = _rx(
    r"\b(?:i|you|u|it|that|they|he|she)(?:['’]?d|['’]?ll|\s+would|\s+will|\s+wud)\b"
    r"|\bwe(?:['’]d|['’]ll|\s+would|\s+will)\b|\bthen\b"
)
_RELEVANCE = _rx(
    r"(?:if|in\s+case)\s+(?:[\w'’]+\s+){0,6}?(?:helps?|matters?)\b"
    # "i also speak spanish at home if that counts for anything"
    r"|if\s+(?:that|it|this)\s+counts\b"
    # ... "i live in osaka if that changes which companies": what it changes is the answer
    r"|(?:if|in\s+case)\s+(?:that|it|this)\s+(?:is\s+relevant|makes\s+(?:a|any)\s+difference"
    r"|changes|affects|is\s+important|is\s+useful)\b|if\s+relevant\b|if\s+(?:you|u)\s+"
    r"(?:need|want|care|wanna|were\s+wondering)\s+to\s+know\b|if\s+(?:you|u)\s+(?:care|must\s+know)\b"
    r"|if\s+(?:you|u)\s+need\s+(?:it|that|them|this|to)\b"
    r"|if\s+(?:that|it)\s+(?:wasn['’]?t|isn['’]?t|was\s+not|is\s+not)\s+(?:obvious|clear)\b"
    # "we live in dearborn btw if you know any good places": the condition is on the request
    r"|if\s+(?:you|u|ya|anyone|any1)\s+(?:know|knows|have|has|got|can|could|happen|have\s+got"
    r"|['’]ve\s+got|are\s+able)\b|if\s+(?:possible|so|any)\b"
    # "also i speak hindi little bit if needed for other teacher": offered, not supposed
    r"|if\s+(?:needed|necessary|required|useful|it\s+is\s+needed|you\s+like)\b"
    # "i prefer whole wheat pasta if it works": whether the recipe allows it
    r"|if\s+(?:it|that)\s+works\b"
    # "mandarin i speak natively if easier to explain anything": easier for the answer
    r"|if\s+(?:it(?:['’]?s|\s+is)\s+|that(?:['’]?s|\s+is)\s+)?(?:easier|simpler|quicker)\b"
)
# "..., I guess" after a stated fact is a discourse tag, not doubt about the fact.
_TRAILING_HEDGE = _rx(
    r"(?:i\s+(?:guess|think|suppose|reckon))(?:\s+(?:lol|haha|tbh))?\W*$"
    # "write me a bio thats kinda funny, use my name in it, its hope": the hedge softens the
    # one word it stands before, which a comma ends
    r"|(?:(?<=\bthats\s)|(?<=['’]s\s)|(?<=\bits\s)|(?<=\bis\s)|(?<=\bbe\s)|(?<=\bare\s)"
    r"|(?<=\bsounds\s)|(?<=\blooks\s)|(?<=\bit\s))"
    r"(?:kinda|sorta|kind\s+of|sort\s+of)\s+[a-z]+\s*,"
)


_TOKEN_PART = re.compile(r"[-_./]")


def _secret_like(token: str) -> bool:
    """A long token with digits and letters, unless it reads as a name made of words: a target
    triple (``wasm32-unknown-unknown``) or a package name is not a credential."""
    parts = [p for p in _TOKEN_PART.split(token) if p]
    return (
        not (
            len(parts) > 1
            and all(len(p) <= 12 for p in parts)
            and any(is_common_word(p.casefold()) for p in parts)
        )
        or _secret_rule(token) is not None
    )


def _clause_reason(clause: str, mask: int) -> tuple[str, int] | None:
    """The marker that keeps the facts of ``clause`` from being stated as present facts, and
    where it starts."""
    if _CREDENTIAL.search(clause, mask) is not None or any(
        _secret_like(m.group()) for m in _HIGH_ENTROPY.finditer(clause)
    ):
        return "secret", 0
    # "i'd take tea over coffee any day": a choice made every time is a standing taste; "if"
    # or "would" elsewhere in the clause still governs it
    read = clause
    if mask & _STANDING_CHOICE.bit and (choice := _STANDING_CHOICE.search(clause, mask)):
        read = clause[: choice.start("modal")] + " " * len(choice.group("modal"))
        read += clause[choice.end("modal") :]
    if (m := _HYPOTHETICAL.search(read, mask) or _MODAL_LOWER.search(read, mask)) is not None:
        return "hypothetical", m.start()
    for m in _HEDGE.finditer(clause, mask):
        if not _TRAILING_HEDGE.match(clause, m.start()):
            return "hedge", m.start()
    return None


# Where a marker later in a clause stops governing: a comma or dash before it ends the part
# that states the fact ("use uv for new deps, not pip, if you need any").
_PART_END = re.compile(
    r",|\s[-–—]+\s|\s(?=(?:so|but|because|since|though|although|btw)\s)"
    # "im a junior backend dev and kinda lost": a hedge softens only what its "and" adds
    r"|\s(?=and\s+(?:kinda|sorta|kind\s+of|sort\s+of|a\s+bit|maybe|probably)\s)"
    # "ive been in auckland 2 yrs now and still cant get used to this": a denial of its own
    # ("i live in austin and genuinely do not own a coat that could handle that")
    r"|\s(?=and\s+(?:(?:still|yet|just|also|genuinely|honestly|really|literally|actually|simply"
    r"|seriously)\s+)?(?:can['’]?t|cannot|don['’]?t|dont|do\s+not|won['’]?t|wont|didn['’]?t|didnt"
    r"|never)\b)"
    # "our dev server port is 5173 and nothing else should be on it": a subject of its own
    r"|\s(?=and\s+(?:nothing|nobody|no\s+one|everything|everyone|someone|something)\b)"
    # "im literally a vet tech i should know this": a run-on clause with its own modal
    r"|\s(?=i\s+(?:should|shouldnt|shouldn['’]t|would|could|might|need\s+to|have\s+to)\b)",
    re.I,
)


# ... by a sayer named ("everyone says", "the nvmrc says 20"), never a bare "says no candidate"
# (a tool's output, whose subject is the thing before); a file that names another version than
# the one said before (".nvmrc says 20.11.1") settles the value itself
_SAYER = _rx(
    r"\W*(?:(?:and|but|so|though|tho|check)\s+)?(?:the\s+|my\s+|our\s+)?[\w.\-]+\s+"
    r"(?:always\s+|still\s+|just\s+|even\s+)?"
)
_NUMBER = re.compile(r"\d+(?:\.\d+)*")
_WORDS_AFTER_VERB = _rx(r"\W*(?!(?:lol|haha|lmao|too|btw|tho|though|so)\b)[\w'’]{2,}")


def _stated_part(clause: str, marker: int) -> int:
    """Length of the part of ``clause`` before the comma that precedes ``marker`` (0: none)."""
    last = 0
    # (a part end may look ahead at the marker itself: "... i should know")
    for m in _PART_END.finditer(clause, 0, marker + 16):
        if m.start() >= marker:
            break
        last = m.start()
    return last


# ("cant get used to this", "im used to it": accustomed, nothing ended)
_USED_TO = (
    r"(?<!\bget\s)(?<!\bgot\s)(?<!\bgetting\s)(?<!\bgotten\s)(?<!\bbe\s)(?<!\bim\s)(?<!\bam\s)"
    r"(?<!['’]m\s)(?<!\bnot\s)(?<!\bare\s)(?<!\bis\s)used\s+to"
)
# Past-tense words that end a relation or a pet's life, not just narrate ("my daughter was
# sick" keeps the daughter; "my dog died" does not keep the dog).
_ENDING = _rx(
    rf"{_USED_TO}|formerly|previously|no\s+longer|former|ex|ex-|passed\s+away|died|deceased|late"
    rf"|(?:my|our|the)\s+late{_NOT_LATE_THING}"
    r"|put\s+(?:(?:my|our|the|him|her|them|it)\s+(?:[\w\-]+\s+){0,2})?(?:down|to\s+sleep)"
)
# A state the clause says is over, wherever the words stand ("vegan, not anymore").
_ENDED = _rx(rf"\b(?:any\s*more|no\s+longer|{_USED_TO}|until\s+(?:last|recently))\b")
# "i work for broadcom now, used to be vmware", "im vegetarian, used to be vegan": an ending that
# names its own value after the fact is the former value, not the end of the fact before it
_NOT_THAT_ANYMORE = _rx(
    r"\s*(?:now\s*)?,?\s*(?:and\s+|but\s+)?not\s+(?:a\s+|an\s+|the\s+)?[\w\-]+(?:\s+[\w\-]+)?\s+"
    r"any\s*more"
)
_FORMER_VALUE = _rx(
    r"used\s+to\s+(?:be|work|live|eat|speak|have)\s+(?:in\s+|at\s+|for\s+|with\s+)?"
    r"(?!(?:it|that|this|one|so|too|though|tho|lol|haha|the\s+case|a\s+thing|like\s+that)\b)\w"
)


# A possessive subject's action said to be over: between the relative (or pet) and "anymore"
_ACTION_ENDED = _rx(
    rf"\s+(?:can{_A}?t|cannot|can\s+not|couldn{_A}?t|could\s+not|doesn{_A}?t|does\s+not"
    rf"|don{_A}?t|won{_A}?t|isn{_A}?t\s+able\s+to|is\s+not\s+able\s+to)\s+(?:really\s+|even\s+)?"
    r"(?!(?:live|be|have|stay|exist|belong|see)\b)[a-z]+(?:\s+(?!(?:with|together|here)\b)"
    r"[\w'’]+){0,4}\s+"
)


_CONTRAST_NOT = _rx(r"not\s+[\w.\-]+(?:\s+[\w.\-]+)?\s*,")
# "uses pnpm not npm and", "package manager is pnpm here, never npm": one word denied, said
# right after the value it is contrasted with
_DENIED_WORD = _rx(
    # "senior procurement officer not just officer"
    r"(?:not|never)\s+(?:just\s+|only\s+|simply\s+)?"
    # "im a software tester not gordon ramsay ok": a name of two words denied is one
    r"(?!(?:really|sure|exactly|quite|yet|now|anymore|much|very|that|so|too)\b)"
    r"[\w.\-]+(?:\s+\d[\w.]*|\s+(?!(?:and|but|so|btw|for|in|here|anymore|either|lol|haha"
    r"|hehe|lmao|pls|please|ok|okay|tho|though|obviously)\b)[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?"
    r"(?=\s+(?:ok|okay|lol"
    r"|haha|tho|though|obviously)\b))?"
    r"(?=\s*$|\s*[,.;!?)]|\s+(?:and|but|so|btw|for|in"
    r"|here|anymore|any\s+more|either|lol|haha|hehe|lmao|pls|please|ok|okay|tho|though"
    r"|obviously)\b)"
)
_VALUE_BEFORE = _rx(r"[\w.)]\s*,?\s*$")
# "noor (girl) and idris (boy)": names with the sex of each child in brackets
_SEXED_NAMES = _rx(
    r"\b(?P<a>[a-z][\w'’\-]*)\s*\((?P<sa>girl|boy)\)"
    r"(?:\s*(?:,|&|\band\b)\s*(?P<b>[a-z][\w'’\-]*)\s*\((?P<sb>girl|boy)\))?"
)
_ANSWER_NO = _rx(
    rf"^\W*(?:(?:wait|sorry|oh|ah|hmm+|oops|haha|lol)\W+)*(?:(?:no|nope|nah)\W+)*(?:no|nope|nah"
    rf"|not\s+really)\W+(?:(?:wait|sorry|sry|oops|my\s+bad)\W+)*"
    # "no, the base branch is develop": the answer, then the setting it gives
    rf"(?=(?:i{_A}?m|im|i\s+am|i|we{_A}?re|we|my|our|its|it{_A}s|the|this)\b"
    rf"|(?-i:[A-Z][a-z]+\s+is\s+my\b)"
    # "wait no, postgres is 15": the setting put right
    rf"|(?:{_TECH_NAMES}|(?:[\w\-]+\s+)?{_WS_HEADS})\s+is\b)"
)
_CONJUNCT_BETWEEN = re.compile(r"\s(?:so|but|because)\s", re.IGNORECASE)
# A new reason or contrast between a marker and the fact after it: "no nuts at all bc im allergic
# to tree nuts", "before we lived in Wrocław but now we live in Utrecht"
# ... and so does "pls not alienware i really dislike alienware", a "not" asked for
_NOMINAL_NO = _rx(r"no|nothing|without|(?<=pls\s)not|(?<=please\s)not|(?<=plz\s)not")
_FRESH_I = _rx(
    rf"\b(?:i|i{_A}?m|im|i\s+am)\s+(?!(?:do|don|dont|didn|didnt|won|wont|would|will|can|could|not)\b)"
    r"(?=[a-z])"
)
_SCOPE_BREAK = re.compile(
    r"\s(?:but|so|because|bc|b/c|cuz|coz|cause|since|as)\s|,\s*(?:now|but|so)\s|\s(?:and|but)\s+now\s"
    # "i dont get it honestly i hate fishing": a run-on's next sentence, its own "i" after a
    # filler
    r"|\s(?:honestly|tbh|ngl|lol|haha|lmao|anyway)\s+(?=i\s)"
    # "we dont deploy from release anymore, deploy branch is `prod` now": a setting of its own
    r"|,\s*(?=(?:the\s+|our\s+)?[\w\-]+(?:\s+[\w\-]+)?\s+(?:is|are)\s+(?!not\b))",
    re.IGNORECASE,
)


def _cut_off(clause: str, marker_end: int, lo: int) -> bool:
    """Whether a marker that ends before a fact is cut off from it by a new reason or contrast
    (with words of its own before it: "not because im vegan" still denies)."""
    if marker_end > lo:
        return False
    # (a break may open the fact's own match: ", deploy branch is prod")
    brk = _SCOPE_BREAK.search(clause, marker_end)
    return (
        brk is not None
        and brk.start() <= lo
        and any(ch.isalnum() for ch in clause[marker_end : brk.start()])
    )


_LEADING_SINCE = _rx(
    r"^\W*(?:ever\s+)?(?:since|after|now\s+that)\s+(?:[\w'’\-]+\s+){1,8}?(?=(?:we|i)\s+"
    r"(?:have|adopted|got|are|am|live|work|moved|started|switched|eat|use)\b)"
)


def _governs(
    marker: tuple[int, int],
    lo: int,
    hi: int,
    phrase: bool,
    past: bool = False,
    clause: str | None = None,
) -> bool:
    """Whether a negation or past-tense ``marker`` in a clause governs the hit at ``lo:hi``.

    Inside the hit's own words it is part of what was matched ("can't stand"). After them it
    starts something else ("I live in Leeds since I was 5", "I'm vegetarian, so no meat"). A
    possessive mention ("my sister") is presupposed: only a negation right before it ("not my
    dog", "dont have my dog") denies it, never one of another verb ("the saddle doesnt fit my
    mare Dolly"), while a past tense anywhere in its clause may end it ("my dog died").
    """
    start, end = marker
    if lo <= start and end <= hi:
        return False
    if phrase:
        if past:
            return True
        if not end <= lo <= end + 6:
            return False
        return clause is None or _DENYING_GAP.fullmatch(clause, end, lo) is not None
    return start < hi


# What may stand between a negation and the possessive mention it denies: "not my dog", "not
# even my dog", "dont have my dog" (never "doesnt fit my mare")
_DENYING_GAP = re.compile(r"\s*(?:(?:even|really|exactly|just|have|own|got)\s+)*", re.IGNORECASE)


def _clause_blocked(clause: str, verb: tuple[int, int] | None, mask: int) -> bool:
    """Negated or past, ignoring a negation that is part of the matched verb ("can't stand")."""
    if _PAST.search(clause, mask):
        return True
    lo, hi = verb if verb is not None else (0, 0)
    return any(not (lo <= m.start() and m.end() <= hi) for m in _NEGATION.finditer(clause, mask))


_MARKERS_BIT: Final = _PREFILTER.add(*MARKER_TRIGGERS)  # says something of ASCII text only


def _secret_rule(text: str) -> str | None:
    from agentmem.redaction import default_registry

    return default_registry().first_secret(text)


# The user asks that the message not be remembered: nothing in it is.
_DO_NOT_REMEMBER = _grx(
    rf"\b(?:don{_A}?t|do\s+not|never)\s+(?:remember|save|store|memori[sz]e|keep\s+track\s+of"
    rf"|write\s+down)\b|\b(?:off\s+the\s+record|forget\s+(?:i\s+said|this|that))\b",
    "remember save store memorize memorise keep write record forget",
)


_CLEFT_ALLERGY = _grx(
    rf"\b(?:it{_A}?s|its|it\s+is)\s+(?:actually\s+|really\s+|just\s+|only\s+)?"
    rf"(?P<obj>(?!(?:not|the|a|an|my|me|that|this|what|something|anything)\b)[a-z][\w\-]*"
    rf"(?:\s+(?!(?:that|i|im)\b)[a-z][\w\-]*)?)\s+(?:that\s+)?(?:i{_A}?m|im|i\s+am)\s+"
    rf"(?:actually\s+|really\s+)?allergic\s+to(?=\s*(?:$|[,.;!?]|\s+(?:lol|tbh|btw|not)\b))",
    "allergic",
)
# "curitiba, i live here": where "here" is comes before it
# what makes "here" a place visited, not lived in
_TRAVELLING = _rx(
    r"\b(?:trip|travel(?:l?ing)?|visit(?:ing)?|holiday|vacation|vacay|honeymoon|conference|hotel"
    r"|hostel|airbnb|tour|touring|layover|stopover|flight|landed|arrived|backpacking|sightseeing"
    r"|for\s+work|staying\s+(?:at|in|with|for)|on\s+leave|passing\s+through)\b"
)
# ... and what bounds the stay when said of being there (see other_subject_next)
_STAY_BOUNDED = _rx(
    r"\b(?:for\s+(?:a|the|\d+|two|three|few|couple)\s+(?:of\s+)?(?:days?|nights?|weeks?|months?)"
    r"|this\s+week(?:end)?|next\s+week|till|until|just\s+for)\b"
)
_BEING_HERE = _rx(
    rf"\b(?:i{_A}?m|im|i\s+am|we{_A}?re|we\s+are|were)\s+(?:(?:now|just|currently|still|all|both)\s+)?$"
)
_ME_AMONG = _rx(r"\b(?:me|we|us)\b")
_WAS_HERE = _rx(r"\b(?:was|were|used\s+to|back\s+when|when\s+i\s+lived|years\s+ago)\b")
_LIVE_HERE = _grx(
    r"\b(?:i|we)\s+(?:both\s+|all\s+|actually\s+|do\s+)?live\s+(?:here|there)\b"
    r"(?!\s+(?:too|as\s+well)\b)"
    # "how much should i ask for in lisbon, still living here"
    r"|(?:^|,)\W*(?:still|now)\s+living\s+(?:here|there)\b(?!\s+(?:for|till|until|temporarily)\b)"
    # "we are from Cebu City and im still living here"
    rf"|\b(?:i{_A}?m|im|i\s+am|we{_A}?re|we\s+are)\s+(?:still\s+|now\s+|also\s+)?living\s+"
    r"(?:here|there)\b(?!\s+(?:for|till|until|temporarily|too|as\s+well)\b)"
    # "we leave from São Paulo, where we live"
    r"|,\s*where\s+(?:i|we)\s+(?:both\s+|all\s+|currently\s+|now\s+|actually\s+)?live\b",
    "here there where",
)
_CONJUNCTION = _rx(r"\s(?:but|and|so|because|though|although|while)\s")
# "case study is Madrid since i live here": the place named as what something is, too
_PLACE_BEFORE = re.compile(
    r"(?:\b(?i:in|here\s+in|to|from|is|at)\s+|^\W*)"
    r"(?P<place>[^\W\d_][\w'’\-]+(?:\s+(?-i:[A-Z])[\w'’\-]+){0,2})"
)
_OWN_FORGETTING = _rx(r"\b(?:i|we|he|she|they)\s+(?:just\s+|really\s+|honestly\s+|always\s+)?$")


_ASKED_WHETHER = re.compile(r"\s*(?:me\s+|us\s+|him\s+|her\s+|them\s+)?(?:if|whether)\b", re.I)
_ASKED_BECAUSE = re.compile(r"\s*(?:me\s+|us\s+)?(?:bc|because|cause|cuz|coz|since)\b", re.I)
_TOLD_TO = re.compile(r"\s*(?:me\s+|us\s+|him\s+|her\s+|them\s+)?to\s+(?!be\b)[a-z]+\b", re.I)


def _message_reason(text: str, mask: int) -> str | None:
    """A marker that governs a whole message: injected, fictional, a role-play, a joke, or the
    user's own request not to remember it."""
    # "i never remember if i need a jacket" is the user's memory, not a request to this one
    if any(
        not _OWN_FORGETTING.search(text, 0, m.start())
        for m in _DO_NOT_REMEMBER.finditer(text, mask)
    ):
        return "do_not_remember"
    # the markers' own preparation of an ASCII text changes none of its words: without a
    # trigger word in the message there is no marker to look for
    if (mask & _MARKERS_BIT or not text.isascii()) and injection_marker(text):
        return "injection"
    # a pasted secret rejects its whole message, as the formation service's recheck does
    if (_HIGH_ENTROPY.search(text) or _CREDENTIAL.search(text, mask)) and _secret_rule(text):
        return "secret"
    if (
        _FICTION.search(text, mask)
        and not (
            _games_of_others(text)
            and not _FICTION.search(_GAME.sub(lambda m: _BLANK * len(m.group()), text), mask)
        )
    ) or _FRAME_ON.search(text, mask):
        return "fiction"
    # "my job is basically professional email ignorer 😂 (jk im an HR coordinator at Unilever)":
    # what follows "jk" is meant, and the message reading blanks what came before it
    if (joke := _JOKE.search(text, mask)) and not (
        _SERIOUSLY.search(text, joke.end())
        or _OWN_AFTER_JK.match(text, joke.end())
        # "jk about the teacher thing earlier": the joke was the thing named, not this message
        or _JOKE_ABOUT.match(text, joke.end())
        # "my brother Hugo says i should add prices in usd lol no": the "no" turns down what
        # was reported (which the report's own marker governs), it takes nothing back
        or (
            joke.group().casefold().startswith("lol")
            and _REPORTED.pattern.search(
                text, max(text.rfind(c, 0, joke.start()) for c in ".!?") + 1, joke.start()
            )
        )
    ):
        return "joke"
    return None


# The ghostwriting cues among the fictional markers: a document in another's words
_DOCUMENT_CUE = _rx(
    r"\b(?:cv|resume|bio|profile|cover\s+letter|personal\s+statement|about\s+(?:me|section)"
    r"|first[- ]person|voice|writing\s+it"
    # "my son is in grade 3 ... please check his writing: ..."
    r"|homework|essay|exercises?|sentences|assignment|writing|text|answers|test)\b"
)
_CLAUSE_END = re.compile(r"[.!?\n]|,\s|\s(?=(?:and|but|so)\s+(?:i|im|i['’]m)\b)")


def _own_before_document(text: str, mask: int) -> int | None:
    """Where the clause opens whose cue makes the rest of ``text`` another's document (see
    _DOCUMENT_CUE), when the user's own words come before it."""
    cue = _FICTION.search(text, mask)
    if cue is None or _FRAME_ON.search(text, mask) or not _DOCUMENT_CUE.search(cue.group()):
        return None
    cut = max((m.end() for m in _CLAUSE_END.finditer(text, 0, cue.start())), default=0)
    return cut if _WORD.search(text, 0, cut) else None


# Where a clause opens, for what "lol no" takes back: after a stop or comma, before a
# conjunction or before a subject that starts a statement of its own
_LAUGHED_CLAUSE_OPENS = re.compile(
    r"[.!?\n,;]\s*|\s(?=(?:and|but|so)\s)"
    r"|\s(?=(?:i|i['’]?m|im|he['’]?s|hes|she['’]?s|shes|it['’]?s|its|we|we['’]re|my|our)\s)",
    re.IGNORECASE,
)


_LOL_NO_OPENS = re.compile(
    r"^\W*lol\s+no\b(?:\W+(?:sorry|sry|jk|haha))*\W+(?:i\s+was\s+(?:overselling|exaggerating"
    r"|joking|kidding|lying|being\s+dramatic)|(?:that|thats|that['’]s)\s+(?:was\s+)?a\s+lie)"
    r"[^,.;!?]*[,.;!?]",
    re.IGNORECASE,
)

_LOL_NO_FIXES = re.compile(
    r"^\W*lol\s+no\b\W+(?=(?:i\s+meant|i\s+mean|it['’]?s|i['’]?m|i\s+am|my|we|we['’]?re)\b)",
    re.IGNORECASE,
)


def _laughed_off(text: str, mask: int) -> tuple[int, int] | None:
    """The clause "lol no" takes back, with the words themselves, when the user's own words
    come before that clause: "... near me in utrecht where i live hes a beagle thirty five in
    dog years lol no hes five" takes back the dog years, not where the user lives."""
    joke = _JOKE.search(text, mask)
    if joke is None or not joke.group().casefold().startswith("lol"):
        return None
    # "lol no sorry i was overselling, im just learning portuguese": a message that opens by
    # laughing off the one before says its own piece after the comma
    if (opens := _LOL_NO_OPENS.match(text)) is not None and opens.end() < len(text):
        return 0, opens.end()
    # "lol no i meant my brother. tom is my brother": a message that opens by laughing off the
    # one before and then puts it right says its own piece from there on
    if (fixes := _LOL_NO_FIXES.match(text)) is not None:
        return 0, fixes.end()
    start = max((m.end() for m in _LAUGHED_CLAUSE_OPENS.finditer(text, 0, joke.start())), default=0)
    if start == 0 or not _OWN_WORDS.search(text, 0, start):
        return None
    return start, joke.end()


# Words that cast the speakers in a game or tell a story: before a frame they may be its set-up
# ("you are a princess and i am a knight. lets roleplay!")
_CAST = re.compile(
    r"\b(?:you|u)\s+(?:are|r|be|play|can\s+be)\b|\byou['’]?re\b|\bur\b"
    r"|\bi(?:['’]?ll|\s+will|\s+can)?\s+(?:be|play)\b|\b(?:my\s+)?characters?\b|\bnpcs?\b"
    r"|\bpersona\b|\bscenario\b|\bscene\b|\bstory\b|\bgame\b",
    re.IGNORECASE,
)


_SELF_CAST = re.compile(
    r"\b(?:i\s+am|i['’]?m|im|i['’]?ll\s+be|i\s+will\s+be|i\s+play|je\s+suis|yo\s+soy|ich\s+bin"
    r"|eu\s+sou)\s+(?:a|an|the|my|un|une|le|la|el|ein|eine|um|uma)\b",
    re.IGNORECASE,
)


def _own_before_frame(text: str, mask: int) -> int | None:
    """Where the sentence opens that starts a game or rehearsal (_FRAME_ON), when the user's
    own words come in whole sentences before it and cast no one: "im a nurse in leeds. lets
    roleplay, you are a patient" keeps the nurse in Leeds; the game is from its sentence on."""
    on = _FRAME_ON.search(text, mask)
    if on is None:
        return None
    cut = max((m.end() for m in _SENTENCE_END.finditer(text, 0, on.start())), default=0)
    if not cut or not _OWN_WORDS.search(text, 0, cut) or _CAST.search(text, 0, cut):
        return None
    # ... and the game gives the user a part of its own ("you are a patient and i am the
    # doctor"); a game that casts only the assistant ("ok lets roleplay! ur my new recruit")
    # plays on the persona the user gave before it
    if _SELF_CAST.search(text, on.start()) is None:
        return None
    return cut


# "... but in real life i am nurse", "irl im a nurse": the user's own words after a game's frame
_REAL_LIFE = re.compile(
    r"\b(?:in\s+real\s+life|irl|in\s+reality|outside\s+(?:of\s+)?the\s+game)\s*,?\s+"
    r"(?=(?:i|i['’]?m|im|my|we)\b)",
    re.IGNORECASE,
)
_IRONY = re.compile(r"(?i:\b(?:ironic|ironically|irony)\b)")
# "oh yeah im a millionaire yacht owner living in monaco obviously 🙄": said with an eye-roll
_EYE_ROLL = re.compile(
    r"[🙄😒🙃]|(?i:\byeah\s+right\b)"
    # "yeah sure im the queen of england and my 12 cats do my taxes lol": a sarcastic opener
    # and a laugh in one sentence
    r"|(?i:^\W*(?:yeah|yea|ya|oh)\W+sure\b[^.!?\n]*\b(?:lol|lmao|haha+)\b)"
    # "yeah im a real gourmet chef, burnt pasta last night": "a real ..." said with a "yeah"
    r"|(?i:^\W*(?:oh\s+)?(?:yeah|yea|ya)\W+(?:i['’]?m|i\s+am)\s+(?:a\s+|an\s+)?"
    r"(?:real|total|proper|true)\s(?!estate\b))"
)


_LAST_CLAUSE = re.compile(r".*(?:[,;:]|\b(?:and|but|so)\b)", re.I | re.S)
_OWN_WORDS = re.compile(r"\b(?:i|i['’]?m|im|i['’]?ve|ive|my|me|we|we['’]re|our)\b", re.I)


def _rolled_at_others(text: str, start: int, roll: re.Match[str]) -> bool:
    """ "we moved to valencia last month and it keeps sending stuff to the old flat 🙄": an
    eye-roll emoji at the end of a clause that says nothing of the user rolls at that, not at
    what the user said before it."""
    if roll.group() not in "🙄😒🙃":
        return False
    before = text[start : roll.start()]
    cut = _LAST_CLAUSE.match(before)
    last = before[cut.end() :] if cut else before
    return cut is not None and _OWN_WORDS.search(last) is None


# "named him Rollo" as "his name is Rollo"; "mine is called Sushi" fits only a pet, as "its"
_PRONOUN_AS: Final = {"him": "his", "mine": "its", "ours": "its"}


def _one_letter_apart(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one letter added, dropped or changed ("marco", "marcos")."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _pronoun_fits(pronoun: str, hit: _Hit) -> bool:
    if hit.kind == "pet":
        return pronoun in {"her", "his", "its", "she", "he", "it"}
    relation = hit.values["relation"]
    neutral = relation not in _FEMALE and relation not in _MALE
    if pronoun in {"her", "she"}:
        return relation in _FEMALE or neutral
    if pronoun in {"his", "he"}:
        return relation in _MALE or neutral
    return neutral and pronoun in {"their", "they"}


class ClauseNote(msgspec.Struct, frozen=True, kw_only=True):
    """What the deterministic extractor made of one clause of a user message.

    It lets a user see why something was not remembered: ``reason`` names the marker that
    stopped the clause or the listed claims (``question``, ``negation``, ``hypothetical``,
    ``transient:time_window``, ...). ``start``/``end`` index the message text.
    """

    seq: int
    start: int
    end: int
    reason: str | None = None
    claims: tuple[tuple[str, tuple[tuple[str, str | None], ...]], ...] = ()


# Rules that still apply inside a question or a request: what the user mentions in passing
# ("find a gym near my flat in Ghent", "a gift for my mum") is presupposed, not asked.
_ASKING_RULES: Final = ("possessive", "home_possessive")


def _ended_beliefs(episode: Episode) -> list[tuple[Claim, int]]:
    """The known beliefs (``episode.existing_beliefs``) a user message says are over."""
    known = episode.existing_beliefs
    if not known:
        return []
    ended: list[tuple[Claim, int]] = []
    for event in owned_user_messages(episode):
        text = event.text
        mask = _PREFILTER.scan(text)
        named: set[str] = set()
        for m in _NAME_DIED.finditer(text, mask):
            named.add(_died_name(m))
        orgs: set[str] = set()
        for m in _WAS_OLD.finditer(text, mask):
            orgs.add((m.group("what") or m.group("what2")).casefold())
        for m in _LEFT_ORG.finditer(text, mask):
            orgs.add(m.group("what").casefold().split()[0])
        retired = _RETIRED.search(text, mask) is not None
        broken = {
            d
            for m in _EATS_AGAIN.finditer(text, mask)
            for d in _DIETS_BROKEN[m.group("food").casefold()]
        }
        parted = _BROKE_UP.search(text, mask)
        parted_name = (
            next(
                (parted.group(g).casefold() for g in ("name", "name2", "name3") if parted.group(g)),
                None,
            )
            if parted
            else None
        )
        if not named and not orgs and not retired and not broken and not parted:
            continue
        for claim in known:
            value = claim.values
            org = (value.get("org") or "").casefold()
            if (
                (claim.kind in ("pet", "relationship") and (value.get("name") or "") in named)
                or (claim.kind == "employer" and (org in orgs or org.split()[0] in orgs))
                or (retired and claim.kind in ("employer", "occupation"))
                or (claim.kind == "diet" and value.get("diet") in broken)
                or (
                    parted is not None
                    and claim.kind == "relationship"
                    and value.get("relation") in _PARTNERS | _SPOUSES
                    and parted_name in (None, (value.get("name") or "").casefold())
                )
            ):
                ended.append((claim, event.seq))
    return ended


def _prefer_region(hits: list[_Hit]) -> None:
    """ "im in astoria, queens now": where one rule read "Astoria" and another "Astoria, Queens"
    in the same words, the place the user qualified is the one they meant."""
    qualified = {
        (e[0], (h.values.get("place") or "").split(",")[0].casefold())
        for h in hits
        if h.kind == "home_location" and "," in (h.values.get("place") or "")
        for e in h.evidence
    }
    if qualified:
        hits[:] = [
            h
            for h in hits
            if h.kind != "home_location"
            or "," in (h.values.get("place") or "")
            or not all(
                (e[0], (h.values.get("place") or "").casefold()) in qualified for e in h.evidence
            )
        ]


# "its bo not beau", "her name is aidan, not aiden", "sorry meant june not jane": a name spelled
# right against one said before; "u keep calling me marc, its actually marek". Read only against
# the names the memory holds or the session said (see _held_renamed).
_HELD_RENAME = _rx(
    r"\b(?:(?:it'?s|it\s+is|(?:his|her|their|the|my)\s+name(?:'?s|\s+is))\s+(?:actually\s+)?"
    r"|(?:i\s+)?meant\s+)(?P<new>[a-z][a-z'-]*)\s*,?\s+not\s+(?P<old>[a-z][a-z'-]*)\b"
    r"|\b(?:keep|keeps|kept)\s+calling\s+me\s+(?P<old2>[a-z][a-z'-]*)\W+(?:but\s+)?(?:it'?s|it\s+is)\s+"
    r"(?:actually\s+)?(?P<new2>[a-z][a-z'-]*)\b"
)
# words that can follow "its" and "not" without being a name ("its fine not bad")
_NOT_A_RENAME: Final = frozenset(
    _words(
        "me him her them us it that this fine ok okay just only really actually so very too"
        " not no yes the a an my his their our your right wrong true false"
    )
)
_NAMED_KINDS: Final = ("pet", "relationship", "name", "preferred_name")
_WHO_DOES = _rx(r"\s*,?\s*(?:who|that|which|whos|who['’]s)\b")
# "its aidan with an a not an e", "u have her name spelt wrong, its Priyanka with a y": a
# spelling put right, said as the name and how it is spelled
_SPELLED_RIGHT = _rx(r"\b(?:it'?s|it\s+is|spelt|spelled)\s+(?P<new>[a-z][a-z'-]+)\b")
_SPELLING_CUE = _rx(
    r"\bspel(?:t|led|ling)\b|\bwith\s+an?\s+[a-z]\b|\bwrong\b|\btypo\b|\bnot\s+an?\s+[a-z]\b"
)


def _respelled(name: str, held: Iterable[str]) -> str | None:
    """The one held name that ``name`` spells differently ("aidan" for "aiden")."""
    close = {
        h
        for h in held
        if h != name and h[:1] == name[:1] and SequenceMatcher(None, h, name).ratio() >= 0.7
    }
    return close.pop() if len(close) == 1 else None


def _held_renamed(
    hits: list[_Hit], episode: Episode, taken_back: list[tuple[Claim, int]]
) -> tuple[list[tuple[Claim, int]], list[tuple[Claim, int]]]:
    """ "its bo not beau", "sorry meant june not jane": the user spells right a name the memory
    holds or the session said (a pet's, a relative's, their own). The same claim with the new
    name forms; a mention of the same pet or relative without its name ("my dogs nails") then
    confirms the new name, so it is dropped. Returns the held claims that end and the session's
    claims taken back, each with the seq of the message that put them right."""
    held: dict[str, tuple[Claim, bool]] = {}
    for claim in episode.existing_beliefs:
        if claim.kind in _NAMED_KINDS and (name := claim.values.get("name")):
            held[name.casefold()] = (claim, True)
    for claim, _ in taken_back:
        if claim.kind in _NAMED_KINDS and (name := claim.values.get("name")):
            held.setdefault(name.casefold(), (claim, False))
    for hit in hits:
        if hit.kind in _NAMED_KINDS and (name := hit.values.get("name")):
            try:
                held.setdefault(name.casefold(), (normalize_claim(hit.kind, hit.values), False))
            except InvalidInput:
                continue
    ended: list[tuple[Claim, int]] = []
    taken: list[tuple[Claim, int]] = []
    if not held:
        return ended, taken
    for event in owned_user_messages(episode):
        folded = event.text.casefold()
        if "not" not in folded and "call" not in folded and "spel" not in folded:
            continue
        matches: list[tuple[re.Match[str], str, str]] = [
            (m, (m.group("old") or m.group("old2")).casefold(), m.group("new") or m.group("new2"))
            for m in _HELD_RENAME.finditer(event.text)
        ]
        if not matches and _SPELLING_CUE.search(event.text):
            for m in _SPELLED_RIGHT.finditer(event.text):
                if said := _respelled(m.group("new").casefold(), held):
                    matches.append((m, said, m.group("new")))
        for m, said_old, new in matches:
            if said_old not in held or new.casefold() in _NOT_A_RENAME:
                continue
            # "its tom not marc who is coming": which person does something, no name put right
            if _WHO_DOES.match(event.text, m.end()):
                continue
            old, known = held[said_old]
            if new.casefold() in held:
                # the memory already holds the right name (a consolidation run again after the
                # renaming formed it): the wrong one this session says is still taken back,
                # never a held one ("its tom not marc" of two held sons renames no one)
                right = held[new.casefold()][0]
                if (
                    known
                    or right.kind != old.kind
                    or any(right.values.get(f) != v for f, v in old.values.items() if f != "name")
                ):
                    continue
            # "its actually Marek. Marek Horák": the whole name, said right after
            if old.kind == "name" and (
                whole := re.match(
                    rf"\W+{re.escape(new)}\s+(?P<surname>(?-i:[A-Z])[\w'’\-]+)\b",
                    event.text[m.end() :],
                    re.IGNORECASE,
                )
            ):
                new = f"{new} {whole.group('surname')}"
            # "my name is spelt Shivaani Rao" for a held "Shivani Rao": the surname said with
            # it, or else the held one, stays
            elif old.kind == "name" and " " not in new and " " in (old.values.get("name") or ""):
                after = re.match(r"\s+((?-i:[A-Z])[\w'’\-]+)\b", event.text[m.end() :])
                rest = (old.values.get("name") or "").split()[1:]
                new = f"{new} {after.group(1)}" if after else " ".join([new, *rest])
            values = {**old.values, "name": new}
            hits[:] = [
                h
                for h in hits
                if h.kind != old.kind
                or any(h.values.get(f) != v for f, v in values.items() if f != "name")
                or (h.values.get("name") or "").casefold() not in ("", said_old)
            ]
            hits.append(_Hit(old.kind, values, evidence=[(event.seq, m.start(), m.end())]))
            (ended if known else taken).append((old, event.seq))
    return ended, taken


# "my boyfriend jamal proposed last night!!! i said yes", "SHE SAID YES sam and i are engaged":
# the boyfriend or girlfriend the memory holds or the session named is now a fiance(e)
_ENGAGED = _grx(
    rf"\b(?:we{_A}?re|we\s+are|we\s+(?:just\s+)?got|(?P<name>(?!(?:we|she|he|they|so|and|now"
    rf"|finally|officially)\b)[a-z][\w'’\-]+)\s+and\s+i\s+(?:are|just\s+got|got))\s+"
    rf"(?:officially\s+)?engaged\b"
    rf"|\bmy\s+(?:boyfriend|girlfriend|bf|gf)\s+(?:(?P<name2>[a-z][\w'’\-]+)\s+)?(?:just\s+)?proposed\b",
    "engaged proposed",
)
_ENGAGED_AS: Final = {"boyfriend": "fiance", "girlfriend": "fiancee"}
# ("if we get engaged", "when we're engaged", "before we got engaged"): not said as done
_NOT_DONE_BEFORE = _rx(
    r"\b(?:if|when|once|before|until|till|after|will|gonna|going\s+to|hope|want)\b"
)


def _engaged(
    hits: list[_Hit], episode: Episode
) -> tuple[list[tuple[Claim, int]], list[tuple[Claim, int]]]:
    """The boyfriend or girlfriend a message says the user is now engaged to becomes the
    fiance(e), under the same name: the held claim ends, the session's is taken back (returned
    as ``_held_renamed`` returns them)."""
    ended: list[tuple[Claim, int]] = []
    taken: list[tuple[Claim, int]] = []
    for event in owned_user_messages(episode):
        mask = _PREFILTER.scan(event.text)
        m = _ENGAGED.search(event.text, mask)
        if m is None:
            continue
        sentence = max(
            (s.end() for s in _SENTENCE_END.finditer(event.text, 0, m.start())), default=0
        )
        if _NOT_DONE_BEFORE.search(event.text, sentence, m.start()):
            continue
        said = (m.group("name") or m.group("name2") or "").casefold()
        candidates: list[tuple[Claim, bool]] = [
            (c, True) for c in episode.existing_beliefs if c.kind == "relationship"
        ]
        for hit in hits:
            if hit.kind == "relationship":
                try:
                    candidates.append((normalize_claim(hit.kind, hit.values), False))
                except InvalidInput:
                    continue
        partners = [
            (c, known)
            for c, known in candidates
            if c.values.get("relation") in _ENGAGED_AS
            and c.values.get("name")
            and (not said or (c.values.get("name") or "").casefold() == said)
        ]
        names = {(c.values.get("name") or "").casefold() for c, _ in partners}
        if len(names) != 1:
            continue
        old, known = partners[0]
        values = {**old.values, "relation": _ENGAGED_AS[old.values["relation"] or ""]}
        hits[:] = [
            h
            for h in hits
            if not (
                h.kind == "relationship"
                and h.values.get("relation") in _ENGAGED_AS
                and (h.values.get("name") or "").casefold() in names
            )
        ]
        hits.append(_Hit("relationship", values, evidence=[(event.seq, m.start(), m.end())]))
        (ended if known else taken).append((old, event.seq))
    return ended, taken


def _keep_full_name(hits: list[_Hit], episode: Episode) -> None:
    """ "benim adım Oğuz Yılmaz ... im Oğuz, need help": a first name alone, when the session or
    the memory holds a full name it begins, restates that full name rather than replacing it."""
    full = [
        name
        for name in chain(
            (h.values.get("name") for h in hits if h.kind == "name"),
            (c.values.get("name") for c in episode.existing_beliefs if c.kind == "name"),
        )
        if name and " " in name.strip()
    ]
    if not full:
        return
    for hit in hits:
        name = hit.values.get("name") if hit.kind == "name" else None
        if name and " " not in name.strip():
            whole = [f for f in full if f.split()[0].casefold() == name.casefold()]
            if len({f.casefold() for f in whole}) == 1:
                hit.values = {**hit.values, "name": whole[-1]}


_STILL_SAME = _rx(r"\bsame\s+(?:place|flat|house|area|spot|address)\b")


def _keep_known_region(hits: list[_Hit], episode: Episode) -> None:
    """ "still in austin" confirms a known home "Austin, TX": the city names the same place, and
    reading it as a move would replace the precise value with a vaguer one."""
    homes = [
        place
        for claim in episode.existing_beliefs
        if claim.kind == "home_location" and (place := claim.values.get("place"))
    ]
    if not homes:
        return
    known = [place for place in homes if "," in place]
    texts = {e.seq: e.text for e in episode.events}
    for hit in hits:
        place = hit.values.get("place") if hit.kind == "home_location" else None
        if place and "," not in place:
            for home in known:
                if home.split(",")[0].strip().casefold() == place.casefold():
                    hit.values["place"] = home
        # "im still in nairobi btw same place, kilimani" confirms the known home "Kilimani"
        text = texts.get(hit.evidence[-1][0], "") if place else ""
        if place and _STILL_SAME.search(text):
            for home in homes:
                if home.casefold() != place.casefold() and re.search(
                    rf"(?<!\w){re.escape(home)}(?!\w)", text, re.IGNORECASE
                ):
                    hit.values["place"] = home


def _drop_shortened_employers(hits: list[_Hit]) -> None:
    """ "procurement officer at MTN Ghana" then "my title at MTN is ...": an employer named by
    the first words of one named before in the session is that one, not another."""
    orgs = [h.values["org"] or "" for h in hits if h.kind == "employer"]
    if len(orgs) < 2:
        return
    fulls = [o.casefold() for o in orgs]
    hits[:] = [
        h
        for h in hits
        if h.kind != "employer"
        or not any(full.startswith((h.values["org"] or "").casefold() + " ") for full in fulls)
    ]


def _drop_shortened_titles(hits: list[_Hit]) -> None:
    """ "I am a maths teacher at Prempeh College" then "as a teacher for 15 years": a title that
    ends a fuller one said in the session is that one, not a change of job."""
    roles = [(h.values.get("role") or "").casefold() for h in hits if h.kind == "occupation"]
    if len(roles) < 2:
        return
    hits[:] = [
        h
        for h in hits
        if h.kind != "occupation"
        or not any(role.endswith(" " + (h.values.get("role") or "").casefold()) for role in roles)
    ]


def _swapped(hit: _Hit, said: str, before: str) -> _Hit | None:
    """``hit`` with the value that ``before`` ends with replaced by ``said``, if valid."""
    if said.split()[0].casefold() in _NOT_A_VALUE or not _plausible(hit, said):
        return None
    tail = before.rstrip(" ,.;:!?—–-…").casefold()
    # "my daughter Aoife's 7th, sorry Aisling": the name said with what is hers
    owned = _OWNED_TAIL.sub("", tail)
    for field_name, value in hit.values.items():
        if not value or not (
            tail.endswith(value.casefold())
            or (field_name == "name" and owned.endswith(value.casefold()))
        ):
            continue
        new_value = said
        # "postgres 14 - no, 15": a number corrects the number of the value
        if _VERSION_VALUE.fullmatch(said) and (num := _TRAILING_NUMBER.search(value)):
            new_value = value[: num.start()] + said
        values = {**hit.values, field_name: new_value}
        try:
            normalize_claim(hit.kind, values)
        except InvalidInput:
            return None
        return _Hit(hit.kind, values)
    return None


_TRAILING_NUMBER = re.compile(r"\d+(?:\.\d+)*$")
_OWNED_TAIL = re.compile(r"['’]s\s+[\w\-]+$")
_NOT_A_VALUE: Final = frozenset(
    _words(
        "i im i'm no not sorry wait well so and but the a an it its it's my we actually just"
        " mean meant that this yes yeah ok okay oh ah lol haha"
    )
)


def _plausible(hit: _Hit, said: str) -> bool:
    """Whether ``said`` can be a value of ``hit``'s kind at all: a place for a home, a name
    for a name, an organisation for an employer."""
    if hit.kind == "home_location":
        return said[:1].isupper() or canonical_place(said, wordlike=True) is not None
    if hit.kind == "employer":
        return _org(said, "") is not None
    if hit.kind in ("name", "preferred_name", "relationship", "pet"):
        return bool(_given_names(said)) and len(_given_names(said)) == len(said.split())
    return True


class DeterministicExtractor(MemoryCandidateExtractor):
    """Rule-based, English-only extractor; the ``formation@7`` baseline.

    Existing beliefs are not consulted: merging and superseding are the formation service's job,
    and a re-stated fact is a confirmation the service should see.
    """

    name = "deterministic"
    version = EXTRACTOR_VERSION
    formation_policy = FORMATION_POLICY

    def __init__(self) -> None:
        self._notes: list[ClauseNote] | None = None
        self._note_text: str | None = None  # the message being explained
        self._taken_back: list[tuple[_Hit, int]] = []
        # the retractions of the last extraction, for the formation service (see retracted())
        self._last: tuple[Episode, list[tuple[Claim, int]]] | None = None
        self._ended: tuple[Episode, list[tuple[Claim, int]]] | None = None
        self._retraction_of: str | None = None
        self._retraction = False
        self._reply = ""  # the assistant's words the message being read answers

    def explain(self, episode: Episode) -> list[ClauseNote]:
        """Per clause of each owned user message: what was found, or what stopped it."""
        run = DeterministicExtractor()
        run._notes = []
        run.extract(episode)
        return run._notes

    def retracted(self, episode: Episode) -> list[tuple[Claim, int]]:
        """Claims the session took back, each with the seq of the message that did.

        The formation service withdraws a belief an earlier consolidation formed from such a
        claim ("I love jazz." ... "oh wait, no, I meant blues").
        """
        last = self._last
        if last is not None and last[0] is episode:
            return last[1]
        run = DeterministicExtractor()
        run.extract(episode)
        return run._last[1] if run._last is not None else []

    def ended(self, episode: Episode) -> list[tuple[Claim, int]]:
        """Known beliefs the session says are over, each with the seq of the message that did:
        "luna passed away in march", "Infosys was previous company", "i left accenture".

        Unlike a retraction (the session taking back its own words), these end beliefs formed in
        any earlier session: the user stated that the fact stopped being true.
        """
        ended = self._ended
        if ended is not None and ended[0] is episode:
            return ended[1]
        run = DeterministicExtractor()
        run.extract(episode)
        return run._ended[1] if run._ended is not None else []

    def _note(
        self, seq: int, start: int, end: int, reason: str | None, hits: Iterable[_Hit] = ()
    ) -> None:
        if self._notes is not None:
            if reason is None and not hits and self._note_text is not None:
                reason = _idle_reason(self._note_text[start:end])
            claims = tuple((h.kind, tuple(h.values.items())) for h in hits)
            self._notes.append(
                ClauseNote(seq=seq, start=start, end=end, reason=reason, claims=claims)
            )

    def extract(self, episode: Episode) -> list[MemoryCandidate]:
        hits: list[_Hit] = []
        antecedents: list[_Antecedent] = []
        self._reply = ""
        # the user message that last took something back, and the one before the message read:
        # "and the python version too" goes on with a takeback only right after one
        self._withdrew_at: int | None = None
        self._previous_owned: int | None = None
        frame = False
        lesson = False  # a role-play was named as a class activity (see _ROLE_PLAY_ACTIVITY)
        game = False
        helping = False  # the session works on someone else's project
        proofread = False
        voice_next = False  # the message before ended on "write it as him"
        owned = 0
        previous_seq: int | None = None
        previous_text = ""
        recent: list[tuple[int, str]] = []  # the last three user messages, (seq, text)
        # "finn ate the remote" ... "yes hes our corgi": the name a message opened on, with its
        # seq, span and the count of user messages then
        subject: tuple[list[str], int, tuple[int, int], int] | None = None
        for event in episode.events:
            is_owned = event.type == USER_MESSAGE and event.principal == episode.principal
            if not is_owned:
                # "15 min role-play in pairs" in a lesson plan is an activity for a class, and
                # "a printable menu for the role-play" after it names that activity: no game
                # with the user begins
                lesson = lesson or _ROLE_PLAY_ACTIVITY.search(event.text) is not None
                on = _FRAME_ON.search_alone(event.text)
                frame = frame or (
                    on is not None and not (lesson and _BARE_ROLE_PLAY.fullmatch(on.group()))
                )
                if event.type == _ASSISTANT_MESSAGE:
                    self._reply = event.text
                continue
            owned += 1
            if _LONG_SPACE.search(event.text):
                event = msgspec.structs.replace(event, text=_squeezed(event.text))
            if "(" in event.text and (said := _unbracketed_levels(event.text)) != event.text:
                event = msgspec.structs.replace(event, text=said)
            # "im a line cook no wait sous chef now": a slip stopped without a comma reads as
            # one stopped with it (one character for one: offsets still point into the text)
            if (
                "wait" in event.text
                and (marked := _STOPPED_SLIP.sub(",", event.text)) != event.text
            ):
                event = msgspec.structs.replace(event, text=marked)
            text = self._note_text = event.text
            mask = _PREFILTER.scan(text)
            corrected = (
                bool(mask & _CORRECTED_VALUE.bit) or _CORRECTED_LEAD.match(text) is not None
            ) and self._corrected_value(event, hits, previous_seq)
            if mask & _NAME_SPELLING.bit and (m := _NAME_SPELLING.search(text, mask)):
                corrected = self._respelled(event, m, hits) or corrected
            if mask & _RENAMED_NOT.bit:
                corrected = self._renamed(event, hits, mask) or corrected
            if mask & _SPECIES_FIXED.bit and (m := _SPECIES_FIXED.search(text, mask)):
                corrected = self._species_fixed(event, m, hits) or corrected
            if mask & _SPECIES_AGREED.bit and (m := _SPECIES_AGREED.search(text, mask)):
                corrected = self._species_agreed(event, m, hits) or corrected
            if mask & _RELATION_FIXED.bit and (m := _RELATION_FIXED.search(text, mask)):
                corrected = self._relation_fixed(event, m, hits) or corrected
            if mask & _KIN_CHANGED_BITS:
                corrected = self._kin_changed(event, hits, mask) or corrected
            if mask & _PET_CHANGED_BITS:
                corrected = self._pet_changed(event, hits, mask) or corrected
            if mask & _SAID_X_ITS_Y.bit:
                corrected = self._typed_wrong(event, hits, mask) or corrected
            if hits and (full_name := _WHOLE_NAME_LAST.search(text)) is not None:
                corrected = (
                    self._whole_name_given(event, full_name, hits, previous_seq) or corrected
                )
            if mask & _FLUENT_STRETCH.bit and (m := _FLUENT_STRETCH.search(text, mask)):
                corrected = self._level_walked_back(event, m, hits) or corrected
            if mask & _ORG_NOW.bit and (m := _ORG_NOW.search(text, mask)):
                corrected = self._org_renamed(event, m, hits) or corrected
            if mask & _NAME_FIXED.bit and (m := _NAME_FIXED.search(text, mask)):
                corrected = self._name_fixed(event, m, hits, previous_seq) or corrected
            if hits and (mask & _WITHDRAWING_BITS or text.lstrip()[:1] == "*"):
                self._previous_owned = previous_seq
                corrected = self._withdrawn(event, hits, mask) or corrected
            # "ignore the bit about my sister" names the sister to take her back, not to state
            # her again: the phrase is blanked (offsets kept) before the message is read
            if mask & _FORGET_WHAT.bit and (spans := _forget_spans(text, mask)):
                for a, b in spans:
                    text = text[:a] + _BLANK * (b - a) + text[b:]
                event = msgspec.structs.replace(event, text=text)
            # another's setup pasted, another's voice, material to work on: quoted, not said
            # (the voiced words are the content a ghostwriting ask is given)
            voiced = _voiced_span(text, mask, voice_next)
            # ... a cue that ends its message voices the next one
            voice_next = voiced is not None and not _WORD.search(text, voiced[0], voiced[1])
            quoted = [
                *(_foreign_paste_spans(text, mask) if mask & _FOREIGN_PASTE_CUE.bit else ()),
                *((voiced,) if voiced else ()),
                *(_material_spans(text, mask) if mask & _MATERIAL_CUE.bit else ()),
            ]
            if quoted:
                for a, b in quoted:
                    self._note(event.seq, a, b, "quoted")
                    text = text[:a] + _BLANK * (b - a) + text[b:]
                event = msgspec.structs.replace(event, text=text)
            if (
                (not corrected or _JOKE_OPENED.match(text))
                and (retraction := _RETRACTION.search(text, mask))
                and previous_seq is not None
                # "<pasted config> ... wait no thats the wrong key lol i pasted the openai one":
                # a takeback of what this message pasted, not of the message before
                and not _OWN_PASTE_FIXED.search(text, retraction.start())
                # "she also said we didnt tell her ... thats not true its on the menu": a
                # denial after someone else's claim in the same message denies that claim
                and not (
                    _DENIED_CLAIM.fullmatch(retraction.group())
                    and _OTHERS_CLAIM.search(text, 0, retraction.start())
                )
                # "normally i prefer mountains ... no wait, i say it wrong, i prefer beach": a
                # takeback between two values of one kind puts right its own message
                and not _corrects_itself(text, retraction)
                # "i was thinking prawn skewers but actually scrap that": what it takes back is
                # the idea said just before it
                and not _IDEA_BEFORE.search(
                    text,
                    max(text.rfind(c, 0, retraction.start()) for c in ".!?\n") + 1,
                    retraction.start(),
                )
                # "whats a good gym near me. oh never mind, ill google": the ask just before
                # it is what it takes back
                and not _asked_just_before(text, retraction.start())
                # "... is the train from syokimau faster?" / "ok forget that lol": the question
                # is dropped, not what it said on the way
                and not (
                    retraction.group().casefold().startswith("forget") and "?" in previous_text
                )
            ):
                # "ignore all that" takes back the whole previous message, whatever it names
                whole = _ALL_OF_IT.search(retraction.group()) is not None
                # "im an engineer at jetbrains" / "synonym for important?" / "no sorry that
                # was a test, ignore that, i dont work there": when the takeback also denies
                # something, it is the last thing said that stated something, past a request
                # or two that stated nothing ("whats the weather?" / "ignore that" takes
                # back the question)
                stated = {e[0] for h in hits for e in h.evidence}
                target_seq, target_text = previous_seq, previous_text
                if previous_seq not in stated and _DENIES.search(text):
                    target_seq, target_text = next(
                        ((s, t) for s, t in reversed(recent) if s in stated),
                        (previous_seq, previous_text),
                    )
                self._retract(
                    text,
                    target_seq,
                    hits,
                    antecedents,
                    at_seq=event.seq,
                    whole=whole,
                    previous=target_text,
                )
                if fix := _NUMBER_PUT_RIGHT.match(text):
                    self._number_put_right(event, fix, hits)
            previous_seq = event.seq
            previous_text = event.text
            recent = [*recent[-2:], (event.seq, event.text)]
            # "just fix my mistakes" then the essay itself: a text pasted to be corrected is
            # written for its reader, as a quoted email is
            asked_to_correct = proofread
            # ... and so is another's CV or bio pasted after the ask to write it ("can u help
            # me write a cv for my friend deepak, first person" / "ok so: i am a qualified
            # electrician ...")
            proofread = _PROOFREAD_ASK.search(text) is not None or (
                (ask := _GHOSTWRITE_ASK.search(text, mask)) is not None
                and _CONTENT_GIVEN.search(text) is None
                and voiced is None
                and (
                    not ask.group("who")
                    or ask.group("title") is not None
                    or _someone_named(ask.group("who"))
                )
            )
            # ... and a message that is one quotation from end to end ("here the info he sent:"
            # then '"hi im jonas, backend dev at klarna ..."') quotes someone
            if (
                asked_to_correct
                and len(text) > 60
                and not _ASKS.search(text)
                and not _FIXES_OWN_WORDS.match(text)
            ) or _WHOLLY_QUOTED.fullmatch(text):
                self._note(event.seq, 0, len(text), "quoted")
                continue
            # "hello my name is inigo montoya you killed my father prepare to die" then "which
            # movie is that from": words whose source is asked are a quotation, typed without
            # its marks (up to the ask's sentence; or after it, past a colon)
            if mask & _SOURCE_ASKED.bit and (source := _SOURCE_ASKED.search(text, mask)):
                ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, source.start())]
                # the sentence just before the ask's, or the ask's own words before it
                a, b = (ends[-2] if len(ends) > 1 else 0), (ends[-1] if ends else source.start())
                if (colon := _COLON_AFTER.match(text, source.end())) is not None:
                    a, b = colon.end(), len(text)
                if b > a:
                    self._note(event.seq, a, b, "quoted")
                    text = text[:a] + _BLANK * (b - a) + text[b:]
                    event = msgspec.structs.replace(event, text=text)
                    mask = _PREFILTER.scan(text)
            if frame:
                off = _FRAME_OFF.search(text, mask)
                # "ok stop the game lol. i do actually have a parrot irl, called Kiwi": what
                # follows the words that end the game is the user's own again
                paused = off is not None and _BRB.match(off.group()) is not None
                if off is None or not (paused or _FRAME_ENDED.match(off.group())):
                    frame = off is None
                    self._note(event.seq, 0, len(text), "role-play")
                    continue
                # "(ooc: sorry, im german ...)": an aside in brackets steps out of the game
                # for itself only, and the game goes on after it, as it does after "brb"
                frame = paused or text[: off.start()].strip(" \t") in ("(", "((", "[")
                self._note(event.seq, 0, off.end(), "role-play")
                text = _BLANK * off.end() + text[off.end() :]
                event = msgspec.structs.replace(event, text=text)
            if _FRAME_ON.search(text, mask):
                frame = True
            self._refine_home(event, hits)
            if mask & _ALLERGY_FRAGMENT.bit:
                self._allergy_fragment(event, hits, mask)
            if mask & _ALLERGIC_BIT:
                for pattern in (_ALLERGIC_AFTER, _ALLERGIC_AFTER_BARE):
                    self._said_after(
                        event,
                        hits,
                        pattern,
                        _ALLERGEN_BLOCK_FIRST,
                        lambda item: ("allergy", {"allergen": item}),
                    )
            if mask & _DISLIKED_BIT and _DISLIKED_AFTER.search(text):
                self._said_after(
                    event,
                    hits,
                    _DISLIKED_AFTER,
                    _OBJECT_BLOCK_FIRST,
                    lambda item: ("preference", {"polarity": "dislikes", "object": item}),
                )
            if "(" in text or ", my " in text or ", our " in text:
                self._named_in_brackets(event, hits)
            respell_cue = _RESPELL_CUE.search(text, mask) is not None
            if hits and respell_cue:
                self._respelled_like(event, hits, same=False)
            if (hits or self._taken_back) and _CORRECTION_CUE.search(text, mask) is not None:
                self._head_corrected(event, hits)
            # "What's your name?" / "tomasz wojcik": a message that is only a name answers the
            # assistant's question for it
            if (
                self._reply
                and len(text) <= 60
                and (answer := _NAME_ANSWER.fullmatch(text))
                and _ASKS_NAME.search(self._reply)
                and not _OTHERS_NAME_ASKED.search(self._reply)
            ):
                self._name_answered(answer, event.seq, hits)
                continue
            # a message that cannot yield anything need not be checked for reasons to block it
            if not mask & (_YIELDING_BITS | _UPDATE_BITS):
                self._note(event.seq, 0, len(text), None)
                continue
            in_game = game
            game = game or (_GAME.search(text) is not None and not _games_of_others(text))
            # (a message that is all fiction still says whose project the session is on)
            helping = helping or _HELPING_WITH_THEIRS.search(text) is not None
            reason = _message_reason(text, mask)
            # "im a freelance copywriter based in cape town and i need help with a linkedin
            # about section for a client": the document is another's from the clause that
            # says so; what the user said before it is theirs
            if reason == "fiction" and (
                cut := _own_before_document(text, mask) or _own_before_frame(text, mask)
            ):
                self._note(event.seq, cut, len(text), reason)
                text = text[:cut] + _BLANK * (len(text) - cut)
                event = msgspec.structs.replace(event, text=text)
                mask = _PREFILTER.scan(text)
                reason = _message_reason(text, mask)
            # "in the game my character is healer ... but in real life i am nurse": the words
            # after the frame is left are the user's own
            if reason == "fiction" and (real := _REAL_LIFE.search(text)):
                self._note(event.seq, 0, real.start(), reason)
                text = _BLANK * real.start() + text[real.start() :]
                event = msgspec.structs.replace(event, text=text)
                mask = _PREFILTER.scan(text)
                reason = _message_reason(text, mask)
            # "... where i live hes a beagle thirty five in dog years lol no hes five": "lol no"
            # takes back the clause it ends
            if reason == "joke" and (laughed := _laughed_off(text, mask)) is not None:
                self._note(event.seq, laughed[0], laughed[1], reason)
                text = text[: laughed[0]] + _BLANK * (laughed[1] - laughed[0]) + text[laughed[1] :]
                event = msgspec.structs.replace(event, text=text)
                mask = _PREFILTER.scan(text)
                reason = _message_reason(text, mask)
            if reason is not None:
                self._note(event.seq, 0, len(text), reason)
                continue
            self._message(event, owned, hits, antecedents, mask)
            if mask & _FAVOURITE_NAMED_BEFORE.bit:
                for fave in _FAVOURITE_NAMED_BEFORE.finditer(text, mask):
                    liked = _Hit("preference", {"polarity": "likes", "object": fave.group("obj")})
                    liked.evidence.append((event.seq, *fave.span()))
                    liked.stated_end = fave.end()
                    self._note(event.seq, *fave.span(), None, (liked,))
                    hits.append(liked)
            if mask & _BIO_INTRO.bit or _AGE_OPENS.match(text):
                self._bio_list(event, text, mask, hits)
            if subject is not None and (
                answer := _PET_ANSWER.match(text) or _PET_BARE_ANSWER.match(text)
            ):
                self._pet_answered(event, answer, subject, owned, hits)
            # ... another's animal only in the clause the name opens ("ziggy keeps barking at
            # night and the neighbours r starting to complain" still opens on the user's pet)
            if (opened := _NAME_OPENS.match(text)) and not _NOT_OURS.search(
                text, 0, _clause_end(text, opened.end())
            ):
                names = [n for n in _ITEM_SEP.split(opened.group("names")) if n]
                if all(_subject_name_ok(n) for n in names):
                    subject = (names, event.seq, opened.span("names"), owned)
            if "(" in text:
                self._kids_bracketed(event, hits)
            # ("my real cat olive is the same": the user's own animal, beside the game's)
            if in_game and not _FRAME_OFF.search(text, mask) and not _MY_REAL.search(text):
                self._game_pets(event, hits)
            if hits and (gone_pet := _NO_PET_NOW.search(text)):
                self._pet_gone_now(event, gone_pet, hits)
            if hits and (leaving := _PET_LEAVING.search(text)):
                self._pet_leaving(event, leaving, hits)
            if hits and (bumped := _BUMPED_BARE.search(text)):
                self._bumped_bare(event, bumped, hits)
            if hits and _RETIRING.search(text) and (retired := _VALUE_RETIRED.search(text)):
                self._value_retired(retired, hits, event.seq)
            if hits and (full := _FULL_NAME_GIVEN.search(text)):
                self._full_name_given(event, full, hits)
            if helping:
                self._theirs_not_ours(event, hits)
            if _ANIMAL_WORK.search(text):
                self._workplace_animals(event, hits)
            if _MINDED_ANIMALS.search(text):
                self._minded_animals(event, hits)
            if "'" in text or "‘" in text or "(" in text:
                self._said_of_else(event, hits)
            if mask & _ARRIVED_IN.bit and (arrived := _ARRIVED_IN.search(text, mask)):
                self._trade_from_before(event, arrived.group("place"), hits)
            if respell_cue:
                self._respelled_like(event, hits, same=True)
            if (
                mask & _MOVED_NOW_IN.bit
                and (m := _MOVED_NOW_IN.search(text, mask))
                # a place typed in lower case, only when the gazetteer knows it
                and (not m.group("place").islower() or canonical_place(m.group("place")))
            ):
                self._add(
                    _Hit("home_location", {"place": m.group("place")}), hits, event.seq, m.span()
                )
            if mask & _BARE_LEVEL.bit and (m := _BARE_LEVEL.search(text, mask)):
                self._level_of_named(event, m, hits)
            if hits and _SOMEONE_ELSES_PET.search(text):
                self._someone_elses_pet(event, hits)
            if hits and (m := _RIDDEN_HORSE.search(text, mask)):
                for hit in [h for h in hits if h.kind == "pet" and _said_in(h, event.seq)]:
                    if hit.values.get("species") in ("horse", "pony"):
                        self._take_back(hit, hits, event.seq, m.span())
            if mask & _PRONOUN_IS_MY.bit:
                self._pronoun_relabel(event, hits, mask)
            self._one_relation_per_name(event.seq, hits)
            if mask & _DENIED_LATER_BIT:
                self._denied_later(event, hits)
            if "(" in text and (aside := _DENIAL_ASIDE.search(text)):
                self._denied_aside(event, aside, hits)
            if (mask & _BARE_VERSION.bit and (m := _BARE_VERSION.search(text, mask))) or (
                mask & _TYPO_VERSION.bit and (m := _TYPO_VERSION.search(text, mask))
            ):
                self._bare_version(event, m, hits)
            if mask & _MOVED_OUT_OF.bit:
                self._moved_out(event, hits, mask)
            if mask & _NARROWED.bit and (m := _NARROWED.search(text, mask)):
                self._narrowed(event, m, hits)
            if mask & _PET_RENAMED.bit and (m := _PET_RENAMED.search(event.text, mask)):
                self._pet_renamed(event, m, hits)
            elif mask & _PET_NAME_CHANGED.bit and (m := _PET_NAME_CHANGED.search(event.text, mask)):
                self._pet_renamed(event, m, hits, word=True)
            if hits and (m := _PET_DESCRIBED.search(event.text)):
                self._pet_described(event, m, hits)
            if hits:
                self._pet_named_later(event, hits)
                self._pet_name_said_first(event, hits)
                if "(" in event.text:
                    self._region_in_brackets(event, hits)
            if mask & _WHERE_I_LIVE_BACK.bit and (m := _WHERE_I_LIVE_BACK.search(event.text, mask)):
                self._home_said_before(event, m, hits)
            if self._taken_back and (m := _NAME_IS_NOW.search(event.text)):
                self._named_after_takeback(event, m, hits)
            if hits and mask & _OTHER_WAY.bit and (m := _OTHER_WAY.search(text, mask)):
                self._levels_swapped(event, m, hits)
            if mask & _OFFICIAL_TITLE.bit and (m := _OFFICIAL_TITLE.search(self._note_text, mask)):
                self._official_title(event, m, hits)
        _drop_shortened_employers(hits)
        _drop_shortened_titles(hits)
        self._newer_versions(hits)
        texts = {e.seq: e.text for e in owned_user_messages(episode)}
        # read only when a "near me" home was formed: no scan of every message otherwise
        away = (
            next(((seq, m) for seq, t in texts.items() if (m := _AWAY_FROM_HOME.search(t))), None)
            if any(h.near for h in hits)
            else None
        )
        if away is not None:
            for hit in [h for h in hits if h.near]:
                # taken back, so that a belief formed before the stay was mentioned goes too
                seq, start, end = hit.evidence[0]
                if away[0] >= seq:
                    seq, (start, end) = away[0], away[1].span()
                self._take_back(hit, hits, seq, (start, end))
        taken_back = []
        for hit, seq in self._taken_back:
            try:
                taken_back.append((normalize_claim(hit.kind, hit.values), seq))
            except InvalidInput:
                continue
        self._taken_back = []
        renamed, renamed_here = _held_renamed(hits, episode, taken_back)
        engaged, engaged_here = _engaged(hits, episode)
        self._last = (episode, taken_back + renamed_here + engaged_here)
        self._ended = (episode, _ended_beliefs(episode) + renamed + engaged)
        _keep_known_region(hits, episode)
        _keep_full_name(hits, episode)
        _prefer_region(hits)
        return self._candidates(hits, texts)

    def _retract(
        self,
        text: str,
        seq: int,
        hits: list[_Hit],
        antecedents: list[_Antecedent],
        since: int = 0,
        at_seq: int = 0,
        whole: bool = False,
        previous: str = "",
    ) -> None:
        """A message that takes back what was said just before ("no wait", "I mixed that up").

        When it names a value of the previous message ("Leeds is where my brother lives"), only
        the claims with that value go; when it names a name the previous message said but no
        claim holds ("autocorrect, its Valentina not Valeria"), none goes; otherwise every claim
        of the previous message goes.
        """
        earlier = [h for h in hits[since:] if any(e[0] == seq for e in h.evidence)]
        folded = text.casefold()
        named = [
            h
            for h in earlier
            if not whole and any(v and v.casefold() in folded for v in h.values.values())
        ]
        # "i meant im with electric ireland not esb, ... still an electrician tho": the value
        # after "not" is the one taken back, not the one the message says still holds
        denied = [
            h
            for h in earlier
            if not whole
            and any(
                v and re.search(rf"\bnot\s+(?:an?\s+|the\s+)?{re.escape(v.split()[0])}\b", folded)
                for v in (x.casefold() for x in h.values.values() if x)
            )
        ]
        if denied:
            named = denied
        if not named and not whole and previous:
            held = {
                w for h in earlier for v in h.values.values() if v for w in v.casefold().split()
            }
            said_before = {w.casefold() for w in _CAPITALISED.findall(previous)}
            if any(
                w.casefold() in said_before and w.casefold() not in held
                for w in _CAPITALISED.findall(text)
            ):
                return
        if not named and not whole:
            # "no wait sorry i mixed that up, im vegan now": a takeback that says the right
            # value of some kinds takes back the earlier claims of those kinds only (the allergy
            # and the dislike said with the wrong diet stand), and of a setting that setting only
            restated = _slots_stated(text)
            kinds = {s.partition(":")[0] for s in restated}
            if restated and (
                same := [h for h in earlier if _slot(h) in restated]
                or [h for h in earlier if h.kind in kinds]
            ):
                earlier = same
        gone = {id(h) for h in (named or earlier)}
        for h in hits:
            if id(h) in gone:
                self._taken_back.append((h, at_seq))
                if self._notes is not None:
                    s = next(e for e in h.evidence if e[0] == seq)
                    self._note(seq, s[1], s[2], "retracted", (h,))
        hits[:] = [h for h in hits if id(h) not in gone or any(e[0] != seq for e in h.evidence)]
        alive = {id(h) for h in hits}
        antecedents[:] = [a for a in antecedents if id(a.hit) in alive]

    def _message(
        self,
        event: EpisodeEvent,
        index: int,
        hits: list[_Hit],
        antecedents: list[_Antecedent],
        mask: int,
    ) -> None:
        """``mask`` is the prefilter scan of the message; it holds for each of its parts.

        Every marker is scoped to what it governs: a question or request to its own clause (and
        only what it asks), a hedge or modal to its clause, a conditional or a report to the rest
        of its sentence, negation and past tense to their clause, a time word to the clause that
        states the fact.
        """
        text = event.text
        seq = event.seq
        greeting = bool(_GREETING.match(text))
        first_clause = True
        # a passage quoted after a colon is blanked out (offsets kept): what follows its closing
        # quote is the user's own again
        if (
            "`" in text
            or _QUOTE_OPENS.search(text)
            or (":" in text and ("\n" in text or _SOMEONE_ELSES_BLOCK.search(text)))
        ):
            text = self._blank_quoted(text, seq)
        # "i am the queen of england and my husband is a billionaire lol. seriously tho, ...":
        # what was laughed off before "seriously" was not meant
        if (serious := _SERIOUSLY.search(text)) and _LAUGH.search(text, 0, serious.start()):
            self._note(seq, 0, serious.start(), "joke")
            text = _BLANK * serious.start() + text[serious.start() :]
        # "in rdr2 my horse is called butter lol but irl my horse is called dolly": the words
        # before "but irl", in a sentence opened by where they are true, are of that world
        if (irl := _BUT_IRL.search(text)) is not None:
            start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, irl.start())), default=0)
            if _IN_A_WORLD.match(text, start):
                self._note(seq, start, irl.start(), "fiction")
                text = text[:start] + _BLANK * (irl.start() - start) + text[irl.start() :]
        # "how about plural, my uncles are doctors": a form asked for, its example after it
        if (form := _FORM_ASKED.match(text)) is not None:
            self._note(seq, form.end(), len(text), "quoted")
            text = text[: form.end()] + _BLANK * (len(text) - form.end())
        if ">" in text or "#" in text:
            for block in _QUOTE_BLOCK.finditer(text):
                self._note(seq, block.start(), block.end(), "quoted")
            text = _QUOTE_BLOCK.sub(lambda b: _NOT_NEWLINE.sub(_BLANK, b.group()), text)
        quoted = _QUOTED_START.search(text)
        limit = quoted.start() if quoted else len(text)
        if quoted:
            self._note(seq, limit, len(text), "quoted")
        before = len(hits)
        shouted = False
        # (searched once a message; per sentence only where the message crowns the user)
        crowned = _GRANDIOSE.search(text) is not None
        for s_start, s_end, question in _sentences(text[:limit]):
            # "oh yeah im a millionaire yacht owner living in monaco obviously 🙄": said with an
            # eye-roll; the roll is the sentence's ("autocorrect 🙄 its Valentina not Valeria.
            # my daughter is Valentina" keeps the daughter)
            # ... but "im a barista and lactose intolerant which is kind of ironic 🙃" rolls its
            # eyes at a true state of things, which it names as irony
            if (
                (roll := _EYE_ROLL.search(text, s_start, min(len(text), s_end + 3)))
                and not _IRONY.search(text, s_start, s_end)
                and not _rolled_at_others(text, s_start, roll)
            ) or (crowned and _GRANDIOSE.search(text, s_start, s_end)):
                self._note(seq, s_start, s_end, "joke")
                # ... but "my cat Mochi knocked a glass onto my laptop 🙃" rolls its eyes at
                # what the cat did: a named relative or pet is presupposed, as in a report
                found = self._clause(event, text, s_start, s_end, False, mask, True, quiet=True)
                hits.extend(
                    h
                    for h in found
                    if h.phrase and h.kind in ("pet", "relationship") and h.values.get("name")
                )
                continue
            # "i absolutely LOVE 5am standups ... and i adore 90 minute 'quick syncs'": a
            # sentence that goes on with "and" keeps the sarcasm of the one before
            if shouted and _AND_GOES_ON.match(text, s_start):
                self._note(seq, s_start, s_end, "joke")
                continue
            shouted = _SHOUTED_VERB.search(text, s_start, s_end) is not None
            governed: str | None = None
            sentence_hits = len(hits)
            report_from = s_start
            team_report = False
            # where a clause opened with the user's own "im" and stated something of them: a
            # later "and allergic to sesame" past an aside ("im vegetarian (since i was a kid)
            # and ...") still has that subject
            own_from: int | None = None
            for p_start, p_end, asking_part in _segments(text, s_start, s_end, question):
                separators = (
                    m
                    for m in _CLAUSE_SEP.finditer(text, mask, p_start, p_end)
                    if _splits(m, text, p_start)
                )
                for c_start, c_end in _spans(separators, text, p_start, p_end):
                    clause = text[c_start:c_end]
                    # "python version is 3.11, if that matters": the condition is on telling,
                    # not on the fact
                    if (cond := _CONDITIONAL.search(clause, mask)) and _RELEVANCE.match(
                        clause, cond.start()
                    ):
                        self._note(seq, c_start + cond.start(), c_end, None)
                        c_end = c_start + cond.start()
                        clause = text[c_start:c_end]
                    # "my wife says inflatable but i live in aberdeen": a contrast in the
                    # user's own voice ends the report
                    if governed in ("reported", "hypothetical") and (
                        _REPORT_ENDS.match(clause)
                        # "i said leeds before but that was wrong, i live in york": the user's
                        # own words taken back report nothing further
                        or (
                            governed == "reported"
                            and _SAID_WRONG.pattern.search(text, s_start, c_start) is not None
                        )
                        or (
                            _BUT_BEFORE.search(text, max(0, c_start - 16), c_start)
                            and _OWN_VOICE.match(clause)
                        )
                        # "the recipe says a bunch of coriander and i hate coriander": a report
                        # that says nothing of the user ends where the user speaks again ("the
                        # email says i work at X and i live in Y" stays one report)
                        or (
                            governed == "reported"
                            and _AND_BEFORE.search(text, max(0, c_start - 8), c_start)
                            and _OWN_VOICE.match(clause)
                            and not _SELF_SUBJECT.search(text, report_from, c_start)
                        )
                        # "the readme says npm install, our package manager is pnpm": a
                        # document's words end where the user names their own setting
                        or (
                            governed == "reported"
                            and _OWN_SETTING_START.match(clause)
                            and _DOCUMENT_SPEAKER.search(text, s_start, c_start) is not None
                            and not _SELF_SUBJECT.search(text, report_from, c_start)
                        )
                    ):
                        governed = None
                    reason, at = governed, 0
                    inherited = governed is not None
                    quote_at = 0  # where a quotation opens that is this clause's only report
                    if reason is None and _NOT_BECAUSE.search(text, max(0, c_start - 24), c_start):
                        reason = "negation"  # "i dont eat meat, but not because im vegan"
                    if reason is None:
                        if m := _CONDITIONAL.search(clause, mask):
                            reason, at = "hypothetical", m.start()
                            # "if i went vegan id starve, im allergic to soy": a condition
                            # whose consequence is said in its own clause governs no further
                            if _LEADING_CONDITIONAL.match(clause) and not _CONSEQUENCE.search(
                                clause, m.end()
                            ):
                                governed = reason
                        elif _reported(clause, mask):
                            reason = governed = "reported"
                            # "i said shift supervisor but they changed my title": the user
                            # quoting themself, put right by what follows, governs nothing after
                            if _I_SAID_ONLY.match(clause) and _BUT_AFTER.match(text, c_end):
                                governed = None
                            verb = _REPORTED.pattern.search(clause)
                            at = verb.start() if verb else 0
                            # (an opening mark only: before a closing one the words are quoted)
                            if (
                                verb is not None
                                and verb.group() in _OPENING_QUOTES
                                and text.count('"', 0, c_start + verb.start()) % 2 == 0
                            ):
                                quote_at = verb.start()
                            report_from = c_start + (verb.end() if verb else 0)
                            team_report = _TEAM_SPEAKER.search(clause, 0, at) is not None
                            # "my brother keeps telling me to floss lol, im a vet so i get
                            # it": a report of what to do holds no claim to carry on
                            if _TOLD_TO.match(text, report_from, c_end) or (
                                # "she asked me bc im a recruiter": a question holds no claim,
                                # and why it was asked is the user's own
                                verb is not None
                                and verb.group().casefold().startswith("ask")
                                and (
                                    _ASKED_BECAUSE.match(text, report_from)
                                    # "the teacher asked if we speak other language at home, I
                                    # speak Hausa": the question is its own clause's
                                    or _ASKED_WHETHER.match(text, report_from)
                                )
                            ):
                                governed = None
                        elif found_reason := _clause_reason(clause, mask):
                            reason, at = found_reason
                    # a marker after a comma leaves the part before it standing
                    stated = (
                        _stated_part(clause, at)
                        if reason not in (None, "secret", "reported")
                        else 0
                    )
                    # "we're in westmead, everyone says parramatta": a report whose words
                    # follow its verb leaves what came before its comma standing ("im too
                    # thin, my mum says" reports it)
                    if (
                        reason == "reported"
                        and not inherited
                        and not quote_at
                        and _WORDS_AFTER_VERB.match(text, report_from, c_end)
                        and (part := _stated_part(clause, at))
                        and _SAYER.fullmatch(clause, part, at)
                        and (
                            not (own := set(_NUMBER.findall(clause, 0, part)))
                            or set(_NUMBER.findall(text, report_from, c_end)) <= own
                        )
                    ):
                        stated = part
                    # "we are on django 4.2 ... they fail with 'relation "x" does not exist'":
                    # a quotation that opens after the user's own words quotes only itself
                    if quote_at and clause[:quote_at].strip():
                        stated = quote_at
                    if reason is not None and not stated:
                        self._note(seq, c_start, c_end, reason)
                        first_clause = False
                        # "my mum says I'm too thin", "if my sister comes": the relative is
                        # presupposed even where what is said of them is not stated; never
                        # inside a report or a quotation ('she wrote "my cat ..."')
                        reported = reason == "reported"
                        if reported and team_report:
                            hits.extend(
                                self._team_setup(event, text, c_start, c_end, report_from, mask)
                            )
                        if (
                            reason != "secret"
                            and not (reported and inherited)
                            and not _QUOTE_MARK.search(clause)
                            # "if i ever have kids and say my partner spoke french": a
                            # supposed relative, not one presupposed
                            and not (reason == "hypothetical" and _SUPPOSED_MY.search(clause))
                        ):
                            found = self._clause(
                                event, text, c_start, c_end, False, mask, True, quiet=True
                            )
                            kept = [
                                h
                                for h in found
                                if h.phrase and (not reported or (h.verb and h.verb[1] <= at))
                            ]
                            hits.extend(kept)
                            # "if our dog needs a licence" ... "his name is Murphy": a mention
                            # inside a condition is still one a later name can refer to
                            antecedents.extend(
                                _Antecedent(h, index)
                                for h in kept
                                if h.kind in {"relationship", "pet"}
                                and h.values["name"] is None
                                and not h.plural
                            )
                        continue
                    if stated:
                        self._note(seq, c_start + stated, c_end, reason)
                        rest_start = c_start + stated
                        if reason != "reported" and not _QUOTE_MARK.search(text, rest_start, c_end):
                            found = self._clause(
                                event, text, rest_start, c_end, False, mask, True, quiet=True
                            )
                            hits.extend(h for h in found if h.phrase)
                        c_end = c_start + stated
                        clause = text[c_start:c_end]
                    asking = asking_part or (
                        bool(_INTERROGATIVE_START.match(clause, mask))
                        and (question or not _DROPPED_IT.match(clause))
                    )
                    found = self._clause(
                        event, text, c_start, c_end, first_clause or greeting, mask, asking
                    )
                    # "my brother moved to leeds, been a nurse for 3 years": a clause with no
                    # subject of its own is said of the subject of the clause before it
                    if (
                        found
                        and c_start > s_start
                        and _SUBJECTLESS_VERB.match(clause)
                        and _said_of_another(text[s_start:c_start])
                    ):
                        found = [h for h in found if h.phrase]
                    # "a backend dev at a small fintech (paysera)": the company's name in the
                    # parenthesis after its kind belongs to this clause
                    if (
                        not asking
                        and (named := _NAME_IN_PARENS.match(text, c_end))
                        and _KIND_AT_END.search(clause)
                        and not any(h.kind == "employer" for h in found)
                    ):
                        found.extend(
                            h
                            for h in self._clause(
                                event, text, c_start, named.end(), False, mask, quiet=True
                            )
                            if h.kind == "employer"
                        )
                    if any(not h.phrase for h in found) and _OWN_OPENER.match(clause):
                        own_from = c_start
                    elif (
                        own_from is not None
                        and not found
                        and not asking
                        and _AND_OPENS.match(clause)
                        and (item := _LIST_ITEM.match(text, c_start, c_end))
                        and not _ANOTHER_PERSON.search(text, own_from, c_start)
                        and _ASIDE_BEFORE.search(text, own_from, c_start)
                    ):
                        at = item.start("item")
                        titled = item.group("title") is not None
                        self._read_as_mine(event, text, at, c_end, hits, mask, titled)
                    elif found or _ANOTHER_PERSON.search(clause):
                        own_from = None
                    hits.extend(found)
                    self._pronoun(
                        event, index, text, (c_start, c_end), found, hits, antecedents, mask
                    )
                    # "ok aria. its dimitri btw": after an acknowledgement, the message's own
                    # opening is still to come
                    first_clause = first_clause and not found and bool(_ACK.fullmatch(clause))
            # (a report later in the sentence follows the list: "me, 41, plumber, two teenagers
            # and a wife who says i never write anything down")
            if governed in (None, "reported") and not question:
                self._list_items(event, text, (s_start, s_end), hits, sentence_hits, mask)
            if (
                governed is None
                and not question
                and s_start >= 3
                and (bare := _BARE_FRAGMENT.match(text, s_start, s_end))
                and not _ANOTHER_PERSON.search(text, 0, s_end)
            ):
                self._read_as_mine(event, text, bare.start("item"), s_end, hits, mask)
        # "english isnt my first language, swedish is", "(it is french)", "Igbo (my native
        # language)": the statement spans the clause break the parenthesis or comma makes
        for m in _NATIVE_ACROSS.finditer(text[:limit]):
            lang = _LANGUAGE_NAME.findall(m.group("lang") or m.group("lang2"))
            if len(lang) == 1:
                hit = _Hit("language", {"language": lang[0], "level": "native"}, None)
                hit.evidence.append((seq, m.start(), m.end()))
                hit.stated_end = m.end()
                hits.append(hit)
                self._note(seq, m.start(), m.end(), None, (hit,))
        for m in _DIET_CONCLUDED.finditer(text[:limit]):
            hit = _Hit("diet", {"diet": m.group("diet")}, None)
            hit.evidence.append((seq, m.start(), m.end()))
            hit.stated_end = m.end()
            hits.append(hit)
            self._note(seq, m.start(), m.end(), None, (hit,))
        self._parenthesised_names(text[:limit], hits, before)
        self._sexed_children(text[:limit], hits, before)
        if "(" in text[:limit]:
            _surname_in_brackets(text[:limit], hits, before)
        if " well " in text[:limit] or " rather " in text[:limit]:
            self._relation_refined(text[:limit], seq, hits, before)
        if any(h.needs_role for h in hits[before:]) and not any(
            h.kind == "occupation" for h in hits
        ):
            # "my company can help? im at asml": the user's own workplace named in the message
            # vouches for the company (never for a shop one may simply be at)
            workplace = _MY_WORKPLACE.search(text) is not None
            # "left asda btw, im at sainsburys now doing nights": shifts worked there, even at
            # a shop one may simply be at
            shifts = _SHIFTS_THERE.search(text) is not None
            # "i left there like 2 years ago. im at wayfair now": a job left in the same message
            # makes the place the user is at now the next one
            left = any(
                (left_word := found.group("what").split()[0].casefold()) == "there"
                or known_employer(left_word) is not None
                or not is_common_word(left_word)
                for found in _LEFT_ORG.finditer(text, mask)
            )
            hits[before:] = [
                h
                for h in hits[before:]
                if not h.needs_role
                or shifts
                or left
                or (workplace and (h.values.get("org") or "").casefold() not in _SHOP_EMPLOYERS)
            ]
        # "I work at Mercado Libre, no wait sorry, I moved to Globant. I am QA analyst": words
        # of work, or a job stated in the same message
        if any(h.unknown_move for h in hits[before:]) and (
            _WORK_WORDS.search(text) or any(h.kind == "occupation" for h in hits[before:])
        ):
            for i in range(before, len(hits)):
                if hits[i].unknown_move:
                    place = hits[i].values["place"] or ""
                    # the workplace the user moved to, when they wrote its name as a name
                    moved = _Hit("employer", {"org": place}, hits[i].verb)
                    moved.evidence, moved.stated_end = hits[i].evidence, hits[i].stated_end
                    hits[i] = moved
            hits[before:] = [h for h in hits[before:] if h.kind != "employer" or h.values["org"]]
        if mask & _LIVE_HERE.bit:
            self._live_here(text[:limit], seq, hits, mask)
        if mask & _HERE_IN.bit:
            self._here_in(text[:limit], seq, hits, mask)
        if mask & _CLEFT_ALLERGY.bit:
            self._cleft_allergy(text[:limit], seq, hits, mask)
        self._contradicted(text[:limit], seq, hits, before)
        if mask & _CHILDHOOD.bit:
            _drop_childhood_parents(text[:limit], hits, before)
        if mask & _NAMES_TALK.bit and _NAMES_TALK.search(text, mask):
            _drop_names_liked(hits, before)
        _drop_names_of_others(text[:limit], hits, before)
        # "got this take home from a fintech: ... - database: postgres 15": a spec's settings
        # are not the user's project's (until the user names their own)
        if mask & _SPEC_PREFACE.bit and (spec := _SPEC_PREFACE.search(text[:limit], mask)):
            hits[before:] = [
                h
                for h in hits[before:]
                if h.kind != "working_state"
                or h.evidence[-1][1] < spec.start()
                or _MINE_LEAD.search(text, spec.end(), h.evidence[-1][1])
            ]
        # "just for today while i debug this, db is sqlite in-memory": a time that opens the
        # sentence bounds the settings it goes on to state
        if mask & _TIMED_LEAD.bit:
            for lead in _TIMED_LEAD.finditer(text[:limit], mask):
                stop = _SENTENCE_END.search(text, lead.end())
                end = stop.start() if stop else len(text)
                hits[before:] = [
                    h
                    for h in hits[before:]
                    if h.kind != "working_state" or not lead.end() <= h.evidence[-1][1] < end
                ]
        # "write a note from my flatmate to the landlord ... sign it priya": signed for another
        if (
            " sign" in text[:limit]
            and (other := _FOR_ANOTHER.search(text[:limit]))
            and not _FROM_ME.search(text[:limit])
        ):
            hits[before:] = [
                h
                for h in hits[before:]
                if h.kind != "name"
                or h.evidence[-1][1] < other.start()
                or not text[h.evidence[-1][1] : h.evidence[-1][2]].casefold().startswith("sign")
                or "from me" in text[h.evidence[-1][1] : h.evidence[-1][2]].casefold()
            ]
        # "everyone calls me katya though so sign it katya": the name the user goes by, signed,
        # is no other name of theirs
        nicknames = {h.values["name"] for h in hits[before:] if h.kind == "preferred_name"}
        if nicknames and " sign" in text[:limit]:
            hits[before:] = [
                h for h in hits[before:] if h.kind != "name" or h.values["name"] not in nicknames
            ]
        # "domain is oracle-licensing-info.net hmm": a value mused over, not a setting stated
        hits[before:] = [
            h
            for h in hits[before:]
            if h.kind != "working_state" or not _MUSED.search(h.values.get("value") or "")
        ]
        if "(" in text[:limit]:
            self._employer_in_brackets(text[:limit], seq, hits, before)
            self._home_in_brackets(text[:limit], seq, hits)
        if " there" in text[:limit] or " for h" in text[:limit]:
            self._business_worked_at(text[:limit], seq, hits)
        if "(" in text[:limit]:
            self._pet_in_brackets(text[:limit], seq, hits)
        if (
            "(" in text[:limit]
            or " and " in text[:limit]
            or " he" in text[:limit]
            or " she" in text[:limit]
        ):
            self._pet_named_before_aside(text[:limit], seq, hits)
        if ", my " in text[:limit] or ", our " in text[:limit] or "s our " in text[:limit]:
            self._pet_named_before_apposition(text[:limit], seq, hits)
        if ("(" in text[:limit] or " and " in text[:limit]) and (
            ", my " in text[:limit] or ", our " in text[:limit] or "s, " in text[:limit]
        ):
            self._pets_named_before(text[:limit], seq, hits)
        if "mine " in text[:limit]:
            self._mine_does(text[:limit], seq, hits, antecedents, index)
        if (
            " named " in text
            or " called " in text
            or " call " in text
            or " names " in text
            or "mine (" in text
            or ("the " in text and any(h.kind == "pet" and not h.values.get("name") for h in hits))
        ):
            self._pets_named_later(text[:limit], seq, hits)
        if (
            sign_off := _SIGN_OFF.search(text[:limit])
            or _SIGN_OFF_NEWLINE.search(text[:limit])
            or _SIGN_OFF_LINE.search(text[:limit])
            or _SIGN_OFF_DASH.search(text[:limit])
        ) and limit == len(text):
            self._signed_off(text, sign_off, seq, hits)
        if "go by" in text[:limit] or "call me" in text[:limit].casefold():
            self._nickname_of_name(text[:limit], seq, hits)
        if any(h.kind == "occupation" for h in hits[before:]):
            self._title_spelled_out(text[:limit], seq, hits, before)

    def _employer_in_brackets(self, text: str, seq: int, hits: list[_Hit], before: int) -> None:
        """The workplace named in brackets after "my current job" or after the job the message
        stated ("I am the qa engineer in the team (at zalando, 2 years now)")."""
        for m in _EMPLOYER_IN_BRACKETS.finditer(text):
            if m.group("role"):
                head = m.group("role").casefold()
                if not any(
                    h.kind == "occupation"
                    and head in (h.values.get("role") or "").casefold().split()
                    for h in hits[before:]
                ):
                    continue
            if not _said_plainly(text, m):
                continue
            org = _workplace_named(m.group("org") or m.group("org2"))
            if org is None:
                continue
            self._add(_Hit("employer", {"org": org}), hits, seq, m.span())

    def _home_in_brackets(self, text: str, seq: int, hits: list[_Hit]) -> None:
        """ "the train from where i live (ashford kent)", "the tax in my town (alcalá de
        henares)": the place in brackets after the words that say it is the user's home, as
        typed, when it opens with the name of a town."""
        for m in _HOME_IN_BRACKETS.finditer(text):
            said = " ".join(m.group("place").split())
            words = said.split()
            if (
                len(words) > 4
                or any(ch.isdigit() for ch in said)
                or not any(is_town(" ".join(words[:n])) for n in (1, 2, 3) if n <= len(words))
                or not _said_plainly(text, m)
            ):
                continue
            if not any(h.kind == "home_location" and h.values.get("place") == said for h in hits):
                self._add(_Hit("home_location", {"place": said}), hits, seq, m.span("place"))

    def _pet_in_brackets(self, text: str, seq: int, hits: list[_Hit]) -> None:
        """ "its just me and luna (my cat) these days": the name before "(my cat)" is the
        user's cat's; the unnamed cat the bracket alone stated takes it."""
        for m in _PET_IN_BRACKETS.finditer(text):
            name = m.group("name")
            if (name.islower() and not _pet_name_ok(name)) or name.casefold() in _NOT_NAMED:
                continue
            species = _normal("pet", "species", m.group("species"))
            if species is None:
                continue
            sentence_start, sentence_end = _sentence_around(text, m.start(), m.end())
            if _HYPOTHETICAL.search_alone(text[sentence_start : m.end()]) or _inside_quotes(
                text, m.start()
            ):
                continue
            bare = [
                h
                for h in _unnamed_in(hits, species, seq)
                if m.start() <= h.evidence[-1][1] < m.end()
            ]
            # "rex (my dog) died last year": a pet that is gone, named or not
            if _PAST_PET.search(text, sentence_start, sentence_end):
                for hit in bare:
                    self._take_back(hit, hits, seq, m.span())
                continue
            new = _Hit("pet", {"species": species, "name": name[:1].upper() + name[1:]})
            # the bracket's own words state it: a marker of the clause around ("nori (my cat)
            # threw up this morning") is not said of the pet
            span = (m.start("bracket"), m.end())
            if bare:
                self._replace(bare[0], new, hits, seq, span)
            else:
                self._add(new, hits, seq, span)

    def _pet_named_before_aside(self, text: str, seq: int, hits: list[_Hit]) -> None:
        """ "my dog biscuit (lab, 3) pulls on the lead", "my cat luna and she goes mental": a
        lower-case name between the user's pet and an aside about it, or a clause that goes on
        about her or him, names the unnamed pet the message stated (never a new one)."""
        for m in _PET_BEFORE_ASIDE.finditer(text):
            name = m.group("name")
            if (
                not _pet_name_ok(name)
                or name.casefold() in _PET_STATES
                or name.casefold() in _NOT_NAMED
                or name.casefold() in _ASIDE_WORDS
                or name.casefold() in _RELATIVE_DAYS
            ):
                continue
            species = _normal("pet", "species", m.group("species"))
            bare = [
                h
                for h in _unnamed_in(hits, species, seq)
                if not h.plural
                and h.evidence[-1][1] <= m.start("name") <= h.evidence[-1][2] + len(name) + 1
            ]
            if bare:
                new = _Hit("pet", {"species": species, "name": name[:1].upper() + name[1:]})
                self._replace(bare[0], new, hits, seq, (m.start(), m.end("name")))

    def _pet_named_before_apposition(self, text: str, seq: int, hits: list[_Hit]) -> None:
        """ "nugget, our hamster, ...", "hazel, shes our golden retriever": the word before the
        comma names the unnamed pet the words after it stated (never a new pet; a sentence
        that supposes, a quote or a pet that is gone names none)."""
        for m in _NAME_THEN_OUR_PET.finditer(text):
            name = m.group("name")
            folded = name.casefold()
            # a word of the language ("hazel", "nugget") only where the apposition is closed
            # ("nugget, our hamster, is sick") or said as "shes our": a name, not a thing
            closed = m.group("closed") is not None or "s our" in m.group() or "s my" in m.group()
            # ... after "to" or an article it is a verb or a thing ("time to walk, my dog ...")
            before = text[max(0, m.start() - 5) : m.start()].casefold()
            if (
                not _pet_name_ok(folded)
                or (is_common_word(folded) and (not closed or before.endswith(_NOT_BEFORE_NAME)))
                or canonical_place(folded) is not None
                or folded in _PET_STATES
                or folded in _NOT_NAMED
                or folded in _ASIDE_WORDS
                or folded in _RELATIVE_DAYS
                or folded in _SUBJECT_NOT_NAMES
            ):
                continue
            species = _normal("pet", "species", m.group("species"))
            bare = [
                h
                for h in _unnamed_in(hits, species, seq)
                if not h.plural and m.end("name") <= h.evidence[-1][1] <= m.end()
            ]
            # "scared of bruno, our german shepherd, he jumps": an apposition closed by a comma
            # states the pet even where the clause around it is about someone else
            comma_closed = (m.group("closed") or "").strip() == ","
            if not bare and not (comma_closed and m.group("species")[-1:] != "s"):
                continue
            sentence_start, sentence_end = _sentence_around(text, m.start(), m.end())
            if (
                _HYPOTHETICAL.search_alone(text[sentence_start : m.end()])
                or _inside_quotes(text, m.start())
                or _PAST_PET.search(text, sentence_start, sentence_end)
                or species is None
                or any(h.kind == "pet" and h.values.get("name") == name for h in hits)
            ):
                continue
            new = _Hit("pet", {"species": species, "name": name[:1].upper() + name[1:]})
            if bare:
                self._replace(bare[0], new, hits, seq, (m.start(), m.end()))
            else:
                self._add(new, hits, seq, (m.start(), m.end()))

    def _pets_named_before(self, text: str, seq: int, hits: list[_Hit]) -> None:
        """ "its for biscuit and pepper, my two beagles", "our two rats, gus and bean, they go
        crazy": the pair named beside the user's two unnamed pets that the message stated are
        their names (never new pets)."""
        for m in chain(_PAIR_BEFORE_PETS.finditer(text), _PETS_THEN_PAIR.finditer(text)):
            pair = (m.group("a"), m.group("b"))
            # right after "my two rabbits," a pair is named; before it, "flying to lisbon and
            # porto, my two dogs ..." may be places. A kinship word ("lola", "tia") is a pet's
            # name only in the first place.
            after = m.re is _PETS_THEN_PAIR
            if not all(
                (_pet_name_ok(word) or (after and re.fullmatch(_REL_SURFACE, word) is not None))
                and word not in _PET_STATES
                and word not in _NOT_NAMED
                and word not in _DESCRIBING_PAIR
                and word not in _NOT_A_NOUN
                and not word.endswith(("ing", "ed"))
                and not (is_town(word) and not after)
                for word in pair
            ):
                continue
            species = _normal("pet", "species", m.group("species"))
            bare = [
                h
                for h in _unnamed_in(hits, species, seq)
                if h.evidence[-1][1] <= m.start("species") <= h.evidence[-1][2]
            ]
            if not bare:
                continue
            first, second = (_Hit("pet", {"species": species, "name": w.title()}) for w in pair)
            span = (min(m.start("a"), m.start("species")), max(m.end("b"), m.end("species")))
            self._replace(bare[0], first, hits, seq, span)
            second.evidence.append((seq, *span))
            second.stated_end = span[1]
            hits.append(second)

    def _signed_off(self, text: str, m: re.Match[str], seq: int, hits: list[_Hit]) -> None:
        """ "please as a table, with the columns name, age, next date. danke, Sabine": the
        name a message to the assistant ends with, after its thanks, is the user's (not in a
        draft quoted for someone else, never an assistant's name)."""
        name = m.group("name")
        if name.casefold() in _NOT_SIGNED:
            return
        # ("regards team", "thx - all"): a lower-case word after "regards" or a dash names no one
        # unless it is no English word ("thx - mark" stays: a dash on the same line signs)
        if (
            m.re is _SIGN_OFF_DASH
            and name.islower()
            and is_common_word(name)
            and not re.search(r"[-–—~]\s*\w+\s*[.!]*\s*$", m.group())
        ):
            return
        name = name[:1].upper() + name[1:]
        if (
            name.casefold() in _ASSISTANT_NAMES
            or any(h.kind == "name" for h in hits)
            or _inside_quotes(text, m.start("name"))
            or _FOR_SOMEONE.search(text)
            or _WRITTEN_FOR_SOMEONE.search(text)
            or _THIRD_PARTY.search(text)
            or _VOCABULARY.fullmatch(name)
            # ("thanks, Sam" may greet a place; "thx\n- sam" on its own line signs)
            or (is_town(name) and m.re is _SIGN_OFF)
            or not _names(name)
            # a pasted email or message ends with its writer's name
            or _PASTED_TEXT.search(text)
        ):
            return
        self._add(_Hit("name", {"name": name}), hits, seq, m.span("name"))

    def _name_answered(self, answer: re.Match[str], seq: int, hits: list[_Hit]) -> None:
        """The name a message that is only a name gives, when the assistant asked the user's
        (a town or a word answers nothing: "London", "thanks")."""
        said = answer.group("name")
        names = _given_names(said) if said[:1].isupper() else _lower_full_name(said)
        if not names and said.islower():
            names = _given_names(said)
        if names and len(names) == len(said.split()) and not is_town(said):
            self._add(_Hit("name", {"name": " ".join(names)}), hits, seq, answer.span("name"))

    def _nickname_of_name(self, text: str, seq: int, hits: list[_Hit]) -> None:
        """ "sign it off from me, robert kalinowski. actually i go by rob": a short form of the
        name the user gave is what they go by, even where it is also an English word ("rob")
        that the name rules leave alone."""
        if any(h.kind == "preferred_name" and h.evidence[-1][0] == seq for h in hits):
            return
        given = [
            (h.values.get("name") or "").split()[0].casefold()
            for h in hits
            if h.kind == "name" and h.values.get("name")
        ]
        for m in _NICKNAME_SAID.finditer(text):
            nick = m.group("nick").casefold()
            if nick in _NOT_CALLED or not any(
                name.startswith(nick) and len(nick) >= 3 for name in given
            ):
                continue
            if not _said_plainly(text, m):
                continue
            self._add(_Hit("preferred_name", {"name": nick.title()}), hits, seq, m.span())
            return

    def _business_worked_at(self, text: str, seq: int, hits: list[_Hit]) -> None:
        """A business the message names, then says the user works at ("my mum's restaurant,
        Mama Titi's Kitchen, ive been working there")."""
        for m in _BUSINESS_WORKED_THERE.finditer(text):
            if not _said_plainly(text, m):
                continue
            org = _org(m.group("org"), text[m.end("org") :], text[: m.start("org")])
            if org is None:
                continue
            self._add(_Hit("employer", {"org": org}), hits, seq, m.span())

    def _title_spelled_out(self, text: str, seq: int, hits: list[_Hit], before: int) -> None:
        """ "im instructor now. PADI open water scuba instructor.": a sentence that is only a
        fuller title of the job just stated spells it out, and the fuller title is the job."""
        start = 0
        for end in [*(m.start() for m in _SENTENCE_END.finditer(text)), len(text)]:
            sentence, begin = text[start:end].strip(), start
            start = end + 1
            words = sentence.split()
            if not 2 <= len(words) <= 6 or text[end : end + 1] == "?":
                continue
            for hit in hits[before:]:
                role = (hit.values.get("role") or "").casefold() if hit.kind == "occupation" else ""
                if (
                    not role
                    or not hit.evidence
                    or hit.evidence[-1][2] > begin
                    or not sentence.casefold().endswith(f" {role}")
                    or not _ROLE_SPELLED.fullmatch(sentence[: -len(role)].strip())
                ):
                    continue
                at = text.index(sentence, begin)
                fuller = _Hit("occupation", {"role": sentence})
                fuller.evidence.append((seq, at, at + len(sentence)))
                fuller.stated_end = at + len(sentence)
                hits[hits.index(hit)] = fuller
                self._note(seq, at, at + len(sentence), None, (fuller,))
                break

    def _here_in(self, text: str, seq: int, hits: list[_Hit], mask: int) -> None:
        """ "i run a lil bait and tackle shop down here in dothan", "roond here in dundee": where
        the user speaks from, when the message says nothing of a trip or a stay, the sentence is
        the user's own statement (first person, no question, negation, condition or past), and
        the gazetteer knows the place."""
        if _TRAVELLING.search(text):
            return
        for m in _HERE_IN.finditer(text, mask):
            start, end = _sentence_around(text, m.start(), m.end())
            sentence = text[start:end]
            bounded = text[start : m.end() if other_subject_next(text, m.end()) else end]
            if (
                _STAY_BOUNDED.search(bounded)
                or text[end : end + 1] == "?"
                # "here in Douala the beans and groundnut is cheap": the user speaks from there
                # (a sentence of someone else's is refused below)
                or (not _FIRST_PERSON.search(sentence) and _THIRD_PARTY.search(sentence))
                # "my sister here in leeds" is hers; "just me and the 3 kids here in davao" ours
                # ("my dog goes mental at the foxes here in whitstable": a pet lives with us)
                or (
                    any(
                        not _PET_NOUN.fullmatch(o.group())
                        for o in _OTHERS_IN.finditer(text, start, m.start())
                    )
                    and not _ME_AMONG.search(text, start, m.start())
                )
                or _clause_blocked(text[start : m.end()], None, mask)
                or _CONDITIONAL.search(sentence, mask)
                or _WAS_HERE.search(sentence)
                # "im here in Rome, what should i see": being here is a visit's wording
                or _BEING_HERE.search(text, max(0, m.start() - 30), m.start())
            ):
                continue
            # the longest run of the words after "here in" that the gazetteer knows
            words = m.group("place").split()
            said = next(
                (
                    " ".join(words[:n])
                    for n in range(len(words), 0, -1)
                    if canonical_place(" ".join(words[:n]), wordlike=words[0][:1].isupper())
                ),
                None,
            )
            # "here in kadıköy, istanbul the tap water ...": a district no gazetteer lists, said
            # with the city it is in
            if (
                said is None
                and len(words) == 1
                and not is_common_word(words[0])
                and (city := _CITY_AFTER_COMMA.match(text, m.end("place"))) is not None
                and canonical_place(city.group(1)) is not None
            ):
                said = f"{words[0]}, {city.group(1)}"
            if said is None or any(
                h.kind == "home_location" and h.evidence and h.evidence[-1][0] == seq for h in hits
            ):
                continue
            hit = _Hit("home_location", {"place": said}, None)
            hit.evidence.append((seq, m.start("place"), m.start("place") + len(said)))
            hit.stated_end = m.end()
            hits.append(hit)
            self._note(seq, m.start(), m.end(), None, (hit,))

    def _cleft_allergy(self, text: str, seq: int, hits: list[_Hit], mask: int) -> None:
        """ "the test came back and its actually kiwi im allergic to": the allergen said first,
        in a cleft the clause splitter cuts before the "im" (which a question or a hedge in the
        same clause still governs)."""
        for m in _CLEFT_ALLERGY.finditer(text, mask):
            start = max(text.rfind(ch, 0, m.start()) for ch in ",.;!?\n") + 1
            said = text[start : m.end()]
            if (
                _clause_blocked(said, None, mask)
                or _CONDITIONAL.search(said, mask)
                or _reported(said, mask)
                or _THIRD_PARTY.search(said)
            ):
                continue
            allergen = _normal("allergy", "allergen", m.group("obj"))
            if allergen is None or any(
                h.kind == "allergy" and h.values.get("allergen") == allergen and _said_in(h, seq)
                for h in hits
            ):
                continue
            hit = _Hit("allergy", {"allergen": m.group("obj")}, None)
            hit.evidence.append((seq, m.start("obj"), m.end()))
            hit.stated_end = m.end()
            hits.append(hit)
            self._note(seq, m.start(), m.end(), None, (hit,))

    def _live_here(self, text: str, seq: int, hits: list[_Hit], mask: int) -> None:
        """ "curitiba, i live here", "the weather in tromsø, i live here": "here" is the last
        place the message named before it, when the gazetteer knows that place."""
        for m in _LIVE_HERE.finditer(text, mask):
            start = max(text.rfind(ch, 0, m.start()) for ch in ",.;!?") + 1
            stop = min(
                (i for ch in ",.;!?" if (i := text.find(ch, m.end())) >= 0), default=len(text)
            )
            if (joined := _CONJUNCTION.search(text, m.end(), stop)) is not None:
                stop = joined.start()
            clause = text[start:stop]
            if _clause_blocked(clause, None, mask) or _CONDITIONAL.search(clause, mask):
                continue
            named = [
                (found, p.group().split()[0].casefold())
                for p in _PLACE_BEFORE.finditer(text, max(0, m.start() - 160), m.start())
                if (
                    found := canonical_place(
                        p.group("place"), wordlike=p.group("place")[:1].isupper()
                    )
                )
            ]
            if not named:
                continue
            # "we moved to Wrocław in september from Katowice, so I live here now": the place
            # moved to, not the one left
            place = named[-1][0]
            if named[-1][1] == "from" and (moved := [n for n, lead in named if lead == "to"]):
                place = moved[-1]
            hit = _Hit("home_location", {"place": place}, None)
            hit.evidence.append((seq, m.start(), m.end()))
            hit.stated_end = m.end()
            hits.append(hit)
            self._note(seq, m.start(), m.end(), None, (hit,))

    def _retracting(self, text: str, mask: int) -> bool:
        """Whether the message takes something back, searched once per message (a clause asks
        it for each of its claims)."""
        if self._retraction_of is not text:
            self._retraction_of = text
            self._retraction = _RETRACTION.search(text, mask) is not None
        return self._retraction

    def _blank_quoted(self, text: str, seq: int) -> str:
        r"""``text`` with pasted code (between ``` fences) and quoted passages blanked out,
        offsets kept: what follows a closing quote is the user's own again. One pass.

        The blank is an invisible separator (U+2063): neither a word, a space nor a sentence
        end, so no pattern matches inside it and none backtracks across it (a long run of
        spaces would make every ``\s+`` pattern quadratic)."""
        spans = [m.span() for m in _CODE_FENCE.finditer(text)]
        pos = 0
        while q := _QUOTE_OPENS.search(text, pos):
            start = q.end() - 1
            if any(a <= start < b for a, b in spans):
                pos = q.end()
                continue
            closing = _CLOSE_SINGLE if text[start] in "'‘" else _CLOSE_DOUBLE
            close = closing.search(text, q.end())
            end = close.end() if close else len(text)
            # '"Ich wohne in München." (I live in munich)': the gloss is the quote's too
            if gloss := _GLOSS.match(text, end):
                end = gloss.end()
            spans.append((start, end))
            pos = end
        # "fill this template for my client, use her details:\nName: ..." - someone else's block
        if block := _SOMEONE_ELSES_BLOCK.search(text):
            spans.append((block.end(), len(text)))
        if "\n" in text and (letter := _RECEIVED_LETTER.search(text)):
            spans.append(letter.span("letter"))
        # "Node.js v18.17.0" under a stack trace: a line a tool printed, not the user's setup
        if "\n" in text:
            spans.extend(m.span() for m in _LOG_LINE.finditer(text))
        if not spans:
            return text
        out, last = [], 0
        for a, b in sorted(spans):
            if a < last:
                a = last
            if b <= a:
                continue
            out += [text[last:a], _BLANK * (b - a)]
            self._note(seq, a, b, "quoted")
            last = b
        out.append(text[last:])
        return "".join(out)

    def _pet_answered(
        self,
        event: EpisodeEvent,
        answer: re.Match[str],
        subject: tuple[list[str], int, tuple[int, int], int],
        owned: int,
        hits: list[_Hit],
    ) -> None:
        """ "finn ate the remote" / "yes hes our corgi", "toast and jam are chattering" / "yep
        guinea pigs": the name an earlier message opened on is the pet this one says it is. A
        pronoun reaches only the message just before; the name itself, any earlier one."""
        names, seq, span, at = subject
        who = answer.group("who") or None
        if who is None and (owned - at != 1 or answer.group("pron") is None):
            return
        if who is not None and [w.casefold() for w in _ITEM_SEP.split(who)] != [
            n.casefold() for n in names
        ]:
            return
        if _NOT_OURS.search(event.text):
            return
        species = _normal("pet", "species", answer.group("noun"))
        plural = answer.group("noun").casefold().endswith("s") and len(names) > 1
        if species is None or (len(names) > 1) != plural:
            return
        for name in names:
            hit = _Hit("pet", {"species": species, "name": name.title()})
            hit.evidence.append((seq, *span))
            hit.evidence.append((event.seq, *answer.span()))
            hit.stated_end = answer.end()
            hits.append(hit)
            self._note(event.seq, *answer.span(), None, (hit,))

    def _bio_list(self, event: EpisodeEvent, text: str, mask: int, hits: list[_Hit]) -> None:
        """Each fragment of a list of the user's own facts, read with its subject put back
        ("vegan" as "i'm vegan", "live in bristol" as "i live in bristol", "leeds" as the
        home), cited by the fragment itself. Fragments that deny, wish or suppose are left."""
        intro = _BIO_INTRO.search(text, mask) if mask & _BIO_INTRO.bit else None
        opens = intro.end() if intro else (m.end() if (m := _AGE_OPENS.match(text)) else None)
        if opens is None:
            return
        sentence_start = max(text.rfind(c, 0, opens) for c in ".!?\n") + 1
        if _BIO_OTHERS.search(text, sentence_start, opens) or _inside_quotes(text, opens):
            return
        end = m.start() if (m := _BIO_END.search(text, opens)) else len(text)
        said = {(h.kind, tuple(h.values.items())) for h in hits if _said_in(h, event.seq)}
        depth, start = 0, opens
        for i in range(opens, end + 1):
            ch = text[i] if i < end else ","
            depth += ch == "("
            depth -= ch == ")" and depth > 0
            if ch not in ",;" or depth:
                continue
            frag_start = start + len(text[start:i]) - len(text[start:i].lstrip())
            fragment = text[frag_start:i].rstrip()
            start = i + 1
            # "me: Lucas, 24, barista": the name that opens it is no place
            if frag_start == opens and fragment[:1].isupper() and " " not in fragment:
                continue
            self._bio_fragment(event, fragment, frag_start, said, hits)

    def _bio_fragment(
        self,
        event: EpisodeEvent,
        fragment: str,
        at: int,
        said: set[tuple[str, tuple[tuple[str, str | None], ...]]],
        hits: list[_Hit],
    ) -> None:
        words = fragment.split()
        if not words or len(words) > 7 or not any(ch.isalpha() for ch in fragment):
            return
        if _BIO_UNSURE.search(fragment) or _BIO_OTHERS.search(fragment):
            return
        plain = re.sub(r"\bw\b", "with", fragment)
        first = words[0].casefold()
        if len(words) == 1 and canonical_place(fragment) is not None:
            synthetic = f"i live in {plain}"
        elif first in _BIO_VERB_FIRST:
            synthetic = f"i {plain}"
        else:
            synthetic = f"i'm {plain}"
        smask = _PREFILTER.scan(synthetic)
        folded = fragment.casefold()
        for rule, bits in _RULES:
            if not smask & bits:
                continue
            for hit in rule(synthetic, smask):
                values = [v for k, v in hit.values.items() if v and k != "polarity"]
                if hit.kind in ("name", "preferred_name") or not values:
                    continue
                # a taste only as "love X" / "hate X" ("obsessed w bouldering", read as
                # "i'm ...", was tried and formed tastes nobody had said)
                if hit.kind == "preference" and first not in ("love", "hate", "adore"):
                    continue
                if hit.kind not in (
                    "diet",
                    "allergy",
                    "language",
                    "pet",
                    "relationship",
                ) and not all(v.casefold() in folded for v in values):
                    continue
                if (hit.kind, tuple(hit.values.items())) in said:
                    continue
                self._add(hit, hits, event.seq, (at, at + len(fragment)))

    def _kids_bracketed(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """ "2 kids (daughter maya 7, son leo 4)": each child named in the brackets of the
        count, in place of the unnamed child the count formed."""
        for m in _KIDS_BRACKETED.finditer(event.text):
            if _inside_quotes(event.text, m.start()) or _gone_before(event.text, m.start()):
                continue
            named = False
            for kid in _KID_IN_LIST.finditer(event.text, m.start("inner"), m.end("inner")):
                relation = _normal("relationship", "relation", kid.group("rel"))
                name = kid.group("name")
                if relation is None or name.casefold() in _NOT_A_NAME | _NOT_NAME_BEFORE_AGE:
                    continue
                named = True
                self._add(
                    _Hit("relationship", {"relation": relation, "name": name.title()}),
                    hits,
                    event.seq,
                    kid.span(),
                )
            # ... and the children they are, counted, are no further child
            if named:
                hits[:] = [
                    h
                    for h in hits
                    if not (
                        h.kind == "relationship"
                        and h.values["relation"] == "child"
                        and not h.values.get("name")
                        and _said_in(h, event.seq)
                        and h.evidence[-1][1] < m.end()
                        and h.evidence[-1][2] > m.start()
                    )
                ]

    def _named_in_brackets(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """ "Kofi (my husband) will handle the drinks": a name, then who they are to the user;
        "our rescue greyhound (luna) is scared": the pet, then its name."""
        # "my daughter mina (12) only wants kpop": a relative's name, then the age in brackets
        for m in _NAME_BEFORE_AGE.finditer(event.text):
            relation = _normal("relationship", "relation", m.group("rel"))
            name = m.group("name")
            if (
                relation is None
                or name.casefold() in _NOT_A_NAME | _NOT_NAME_BEFORE_AGE
                or name.casefold() in _NAMES_NOTHING
                or name.casefold().endswith("ly")
                or _VOCABULARY.fullmatch(name)
                or _inside_quotes(event.text, m.start())
                or _gone_before(event.text, m.start())
            ):
                continue
            self._add(
                _Hit("relationship", {"relation": relation, "name": name.title()}),
                hits,
                event.seq,
                m.span(),
            )
        for m in _PET_THEN_BRACKETED.finditer(event.text):
            name, species = m.group("pname"), _normal("pet", "species", m.group("pet"))
            if (
                species is None
                or name.casefold() in _ASIDE_WORDS | _BRACKET_ASIDES
                or not _lower_pet_name(name.casefold())
                or _inside_quotes(event.text, m.start())
                or _gone_before(event.text, m.start())
            ):
                continue
            self._add(
                _Hit("pet", {"species": species, "name": name.title()}), hits, event.seq, m.span()
            )
        for m in _NAME_THEN_RELATION.finditer(event.text):
            if m.group("rel"):
                kind, field_name, noun, raw = "relationship", "relation", m.group("rel"), "name"
            else:
                noun = m.group("pet") or m.group("pet2")
                kind, field_name, raw = "pet", "species", "pname"
            value = _normal(kind, field_name, noun)
            names = _names(m.group(raw))
            if value is None or not names:
                continue
            text = event.text
            # a novel's "... only me and Bran, my old collie" is quoted, not the user's; "We had
            # to rehome Loki, our husky" names one that is gone
            if _inside_quotes(text, m.start()) or _gone_before(text, m.start()):
                continue
            hit = _Hit(kind, {field_name: value, "name": names[0]})
            hit.evidence.append((event.seq, m.start(), m.end()))
            hit.stated_end = m.end()
            hits.append(hit)
            self._note(event.seq, m.start(), m.end(), None, (hit,))

    def _allergy_fragment(self, event: EpisodeEvent, hits: list[_Hit], mask: int) -> None:
        """An allergy named between commas ("..., shellfish allergy, ended up in hospital
        once"): the user's, when its sentence speaks of the user and of nobody else, and
        supposes nothing ("cake ideas for my nephew, egg allergy" is the nephew's)."""
        text = event.text
        for m in _ALLERGY_FRAGMENT.finditer(text, mask):
            start, end = _sentence_around(text, m.start(), m.end())
            sentence = text[start:end]
            if (
                not _FIRST_PERSON.search(sentence)
                or _OTHERS_IN.search(sentence)
                or _HYPOTHETICAL.search_alone(sentence)
                or _NEGATION.search_alone(text[m.end() : end])
            ):
                continue
            for item in _object_items(m.group("obj"), 2, _ALLERGEN_BLOCK_FIRST):
                hit = _Hit("allergy", {"allergen": item})
                hit.evidence.append((event.seq, m.start("obj"), m.end()))
                hit.stated_end = m.end()
                hits.append(hit)
                self._note(event.seq, m.start("obj"), m.end(), None, (hit,))

    def _said_after(
        self,
        event: EpisodeEvent,
        hits: list[_Hit],
        pattern: re.Pattern[str],
        block_first: frozenset[str],
        claim: Callable[[str], tuple[str, dict[str, Any]]],
    ) -> None:
        """What a clause after a request says of the thing the request just named, read on the
        whole message: "I cant have dairy, I am allergic" (``_ALLERGIC_AFTER``), "no cilantro
        please, I hate it" (``_DISLIKED_AFTER``, cited from its ``stmt`` group)."""
        for m in pattern.finditer(event.text):
            start = m.start("stmt") if "stmt" in m.re.groupindex else m.start()
            for item in _object_items(m.group("obj"), 2, block_first):
                # "somewhere without peanuts everywhere, im allergic": where, not what
                item = _WHERE_TAIL.sub("", item)
                kind, values = claim(item)
                hit = _Hit(kind, values)
                hit.evidence.append((event.seq, start, m.end()))
                hit.stated_end = m.end()
                hits.append(hit)
                self._note(event.seq, m.start(), m.end(), None, (hit,))

    def _pronoun_relabel(self, event: EpisodeEvent, hits: list[_Hit], mask: int) -> None:
        """ "my girlfriend Ania" ... "shes my fiancee now": the relative the pronoun can only
        mean is named by the new relation (which _one_relation_per_name then keeps alone)."""
        seq = event.seq
        for m in _PRONOUN_IS_MY.finditer(event.text, mask):
            pronoun = m.group("pron").casefold()
            relation = _normal("relationship", "relation", m.group("rel"))
            new = [
                h
                for h in hits
                if h.kind == "relationship"
                and h.values["relation"] == relation
                and h.values.get("name") is None
                and any(e[0] == seq for e in h.evidence)
            ]
            # ... said in an earlier message, or earlier in this one ("my sister Aigerim ...
            # Actually she is my cousin")
            earlier = [
                h
                for h in hits
                if h.kind == "relationship"
                and h.values.get("name")
                and h.values["relation"] != relation
                and (
                    not any(e[0] == seq for e in h.evidence)
                    or (h.stated_end <= m.start() and h not in new)
                )
                and _pronoun_fits(pronoun, h)
            ]
            # "sorry i said husband, hes my partner": the relative corrected is the one named
            # just before, not an earlier named one the pronoun could also mean
            named_before = {
                _normal("relationship", "relation", w.group())
                for w in _REL_WORD.finditer(event.text, 0, m.start())
            } - {relation, None}
            if (
                len(new) == 1
                and len(earlier) == 1
                and _pronoun_fits(pronoun, new[0])
                and not named_before - {earlier[0].values["relation"]}
            ):
                old = earlier[0]
                new[0].values["name"] = old.values["name"]
                if any(e[0] == seq for e in old.evidence):
                    self._taken_back.append((old, seq))
                    hits.remove(old)

    def _parenthesised_names(self, text: str, hits: list[_Hit], before: int) -> None:
        """ "two kids (Ella and Finn)", "2 cats (miso & tofu)": the names in the parenthesis
        (its own clause) belong to the unnamed relatives or pets counted just before it."""
        if "(" not in text:
            return
        for m in _COUNT_THEN_PAREN.finditer(text):
            group = "twins" if m.group("twins") else "noun"
            surface = m.group(group)
            twins = surface.casefold() == "twins"
            is_pet = _PET_NOUN.fullmatch(surface) is not None
            kind, field_name = ("pet", "species") if is_pet else ("relationship", "relation")
            noun = "child" if twins else _normal(kind, field_name, surface)
            qty = "2" if twins else m.group("qty").casefold()
            names = _counted_names(text, m.end(group), _COUNTS.get(qty, _digit(qty)), is_pet)
            if noun is None or not names:
                continue
            for i in range(before, len(hits)):
                h = hits[i]
                if (
                    h.kind == kind
                    and h.values.get(field_name) == noun
                    and h.values.get("name") is None
                    and h.evidence
                    and h.evidence[-1][1] <= m.start(group) < h.evidence[-1][2] + 2
                ):
                    named = []
                    for name in names:
                        one = _Hit(kind, {field_name: noun, "name": name}, h.verb, phrase=True)
                        one.evidence, one.stated_end = list(h.evidence), h.stated_end
                        named.append(one)
                    hits[i : i + 1] = named
                    break

    def _relation_refined(self, text: str, seq: int, hits: list[_Hit], before: int) -> None:
        """ "my brother - well half brother - kwame wants to come": the relation put more
        exactly at once is the relative's, with the name said after it."""
        for m in _RELATION_REFINED.finditer(text):
            old = _normal("relationship", "relation", m.group("old"))
            new_relation = _normal("relationship", "relation", m.group("new"))
            if old is None or new_relation is None or old == new_relation:
                continue
            for h in hits[before:]:
                if h.kind == "relationship" and h.values.get("relation") == old:
                    name = h.values.get("name")
                    if not name and m.group("name") and (given := _given_names(m.group("name"))):
                        name = given[0]
                    new = _Hit("relationship", {"relation": new_relation, "name": name}, None)
                    self._replace(h, new, hits, seq, m.span("new"))
                    break

    def _sexed_children(self, text: str, hits: list[_Hit], before: int) -> None:
        """ "my twins noor (girl) and idris (boy)": a child's sex said in brackets after the
        name makes the child a daughter or son, and names the second child the brackets cut
        off from the first (its own clause, as "two kids (Ella and Finn)" is)."""
        if "(" not in text:
            return
        for m in _SEXED_NAMES.finditer(text):
            for i in range(before, len(hits)):
                h = hits[i]
                if not (
                    h.kind == "relationship"
                    and h.values.get("relation") == "child"
                    and (h.values.get("name") or "").casefold() == m.group("a").casefold()
                ):
                    continue
                h.values = {**h.values, "relation": _KID_RELATION[m.group("sa").casefold()]}
                second = m.group("b")
                if (
                    second
                    and _given_names(second)
                    and not any(
                        (o.values.get("name") or "").casefold() == second.casefold()
                        for o in hits[before:]
                    )
                ):
                    relation = _KID_RELATION[m.group("sb").casefold()]
                    one = _Hit(
                        "relationship", {"relation": relation, "name": second.title()}, h.verb
                    )
                    one.phrase, one.evidence, one.stated_end = True, list(h.evidence), h.stated_end
                    hits.insert(i + 1, one)
                break

    def _one_relation_per_name(self, seq: int, hits: list[_Hit]) -> None:
        """ "my son Kofi" then "Kofi is my nephew not my son": one person named in a session
        is one relative, the one said last; the earlier relation is taken back."""
        said = {
            (h.values.get("name") or "").casefold(): h.values["relation"]
            for h in hits
            if h.kind == "relationship" and h.values.get("name") and _said_in(h, seq)
        }
        if not said:
            return
        kept = []
        for h in hits:
            name = (h.values.get("name") or "").casefold()
            if (
                h.kind == "relationship"
                and name in said
                and h.values["relation"] != said[name]
                and not _said_in(h, seq)
            ):
                self._taken_back.append((h, seq))
                continue
            kept.append(h)
        hits[:] = kept

    def _refine_home(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """ "Portland Maine, not Oregon" right after "I'm in Portland": the home, made precise."""
        m = _REFINED_PLACE.match(event.text)
        if m is None:
            # "portland — maine, not oregon", "springfield illinois, theres like 30 of them"
            m = _REFINED_PLACE_ANY.match(event.text)
            if m is None or canonical_place(m.group("region")) is None:
                return
        head = m.group("head").casefold()
        if not any(
            h.kind == "home_location" and (h.values["place"] or "").casefold() == head for h in hits
        ):
            return
        head_text, region = m.group("head"), m.group("region")
        if head_text.islower():
            head_text = head_text.title()
        if region.islower():
            region = canonical_place(region) or region.title()
        place = f"{head_text}, {region}"
        hit = _Hit("home_location", {"place": place}, (0, m.end("region")))
        hit.evidence.append((event.seq, m.start("head"), m.end("region")))
        hit.stated_end = m.end("region")
        hits.append(hit)
        self._note(event.seq, m.start("head"), m.end("region"), None, (hit,))

    def _contradicted(self, text: str, seq: int, hits: list[_Hit], before: int) -> None:
        """Claims of this message that a later part of it takes back: "tree nuts, not peanuts",
        "my cat loki- wait no, loki is my brother's cat", "my husband, well, we're not married".

        A retraction takes back a claim of its own sentence just before it, or any earlier claim
        whose value it names. Denials and retractions are found once per message, so a long
        message costs one pass however many claims it has.
        """
        if len(hits) == before:
            return
        self._self_corrected(text, seq, hits, before)
        folded = text.casefold()
        # "Daniel's not vegan" denies it of Daniel, not of the user
        # (where the denied words start: "pls not alienware i really dislike alienware" denies
        # nothing the user says after it)
        denials = [
            (m.start(1), m)
            for m in _NOT_VALUE.finditer(folded)
            if not _OTHER_SUBJECT.search(text, max(0, m.start() - 40), m.start())
        ]
        retractions = list(_RETRACTION.pattern.finditer(text)) + list(_NOW_PAST.finditer(text))
        not_married = _NOT_MARRIED.search(text) is not None
        if not denials and not retractions and not not_married:
            return
        # denials by the first letters of what they deny, retractions by position: a long
        # message of many claims and "not"s stays near linear
        by_prefix: dict[str, list[tuple[int, str]]] = {}
        for start, m in denials:
            by_prefix.setdefault(m.group(1)[:3], []).append((start, m.group(1)))
        r_starts = [r.start() for r in retractions]
        denied = []
        for hit in hits[before:]:
            at = hit.stated_end
            values = [v.casefold() for k, v in hit.values.items() if v and k != "polarity"]
            first_r = bisect.bisect_left(r_starts, at)
            if (
                any(
                    start >= at and _denies(denied_text, v)
                    for v in values
                    for start, denied_text in reversed(by_prefix.get(v[:3], ()))
                )
                or (hit.values.get("relation") in _SPOUSES and not_married)
                or any(
                    (
                        r.start() - at < 40
                        and not _SENTENCE_END.search(text, at, r.start())
                        and not _other_job_corrected(hit, r, hits[before:])
                        # "ci is node 18 actually, i misspoke": the claim is the correction
                        and not _ACTUALLY.search(text, hit.evidence[-1][1], r.start())
                    )
                    or any(v in folded[r.end() : r.end() + 200] for v in values)
                    # ... or names another value of its kind after it ("i prefer mountains,
                    # there is some place warm? no wait, i say it wrong, i prefer beach")
                    or (
                        hit.kind == "preference"
                        and r.start() > at
                        and r.re is _RETRACTION.pattern
                        and _same_polarity(hit, text[r.end() : r.end() + 200])
                    )
                    for r in retractions[first_r : first_r + 50]
                )
            ):
                denied.append(hit)
        for hit in denied:
            self._taken_back.append((hit, seq))
            self._note(seq, hit.evidence[-1][1], hit.evidence[-1][2], "retracted", (hit,))
        if denied:
            gone = {id(h) for h in denied}
            hits[:] = [h for h in hits if id(h) not in gone]

    def _respelled(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> bool:
        """The latest name that the new spelling resembles ("pepper" -> "Pepa") is replaced."""
        spelled = m.group("name")
        if spelled.islower():
            # "its kaitlyn, K and Y": a name typed in lower case, never an English word
            if not (given := _given_names(spelled)):
                return False
            spelled = given[0]
        for hit in reversed(hits):
            old = hit.values.get("name")
            if not old or old.casefold() == spelled.casefold():
                continue
            # "Oluwaseun Adeyemi", then "its Oluwaseyi not Oluwaseun": one word is respelled
            words = old.split()
            folded = spelled.casefold()
            ratios = [SequenceMatcher(None, w.casefold(), folded).ratio() for w in words]
            best = max(range(len(words)), key=ratios.__getitem__)
            whole = SequenceMatcher(None, old.casefold(), spelled.casefold()).ratio()
            # "*Pickle not pixel": the name said to be wrong is replaced, however unlike
            was = (m.group("was") or "").casefold()
            if len(words) > len(spelled.split()) and ratios[best] >= 0.6:
                spelled = " ".join([*words[:best], spelled, *words[best + 1 :]])
            elif whole < 0.6 and was != old.casefold():
                continue
            new = _Hit(hit.kind, {**hit.values, "name": spelled}, None)
            new.evidence.append((event.seq, m.start("name"), m.end()))
            new.stated_end = m.end()
            self._taken_back.append((hit, event.seq))
            self._note(event.seq, m.start("name"), m.end(), None, (new,))
            hits[hits.index(hit)] = new
            return True
        return False

    def _respelled_like(self, event: EpisodeEvent, hits: list[_Hit], same: bool) -> bool:
        """A name, employer or place said before, respelled in a message that corrects a
        spelling: "my dog Biscut" then "*Biscuit lol"; "my sister Anja" then "sorry, Anka. not
        Anja"; "my name is Mariana Gutierrez. wait with the accent pls, Gutiérrez".

        Only a word one typing slip away from the value's word counts, and in a message of more
        than eight words only a capitalised or starred one: "im near leeds" then "sorry, need
        leads for my shop" respells nothing. With ``same`` only values of this message, said
        before the new spelling, are looked at; otherwise only earlier messages' values.
        """
        text = event.text
        short = len(text.split()) <= 8
        tokens = [
            m
            for m in _WORD_TOKEN.finditer(text)
            if "*" in m.group() or m.group(1)[0].isupper() or (short and not same)
        ]
        # "my dog Rolo - sorry autocorrect, Rollo": the slip was taken back by its cue; the
        # new spelling brings the claim back
        withdrawn = [h for h, s in self._taken_back if s == event.seq] if same else []
        for m in tokens:
            word = m.group(1)
            # a common word respells only a common noun ("cashes" then "cashews")
            common = "*" not in m.group() and word.islower() and is_common_word(word)
            for hit in [*reversed(hits), *reversed(withdrawn)]:
                first = hit.evidence[0] if hit.evidence else None
                if first is None or (first[0] == event.seq) != same:
                    continue
                if same and first[2] > m.start():
                    continue
                for slot in _SLOTS_SPELLED:
                    held = hit.values.get(slot)
                    if not held or (common and slot != "allergen"):
                        continue
                    words = held.split()
                    slipped = [
                        i
                        for i, w in enumerate(words)
                        if len(w) >= 4 and (_one_slip(w, word) or _two_slips(w, word))
                    ]
                    if len(slipped) != 1:
                        continue
                    i = slipped[0]
                    respelt = " ".join([*words[:i], word, *words[i + 1 :]])
                    new = _Hit(hit.kind, {**hit.values, slot: respelt}, None)
                    new.evidence.extend(hit.evidence)
                    if hit in withdrawn:
                        self._add(new, hits, event.seq, m.span(1))
                    else:
                        self._replace(hit, new, hits, event.seq, m.span(1))
                    return True
        return False

    def _level_of_named(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> None:
        """ "write a birthday card in polish? im still learning it tbh": the level goes to the
        one language the message named before it; with none or several named, to none. The
        quote runs from the language's name to the level, so it says both."""
        said = list(_LANGUAGE_NAME.finditer(event.text, 0, m.start()))
        if len({x.group().casefold() for x in said}) != 1:
            return
        # "i wish i spoke italian. like i'm fluent in spanish": the level names its own language
        if (inside := _IN_NEXT.match(event.text, m.end())) and _LANGUAGE_NAME.match(
            event.text, inside.end()
        ):
            return
        language = said[-1].group()
        span = (said[-1].start(), m.end())
        level = "learning" if m.group("learning") else "fluent" if m.group("fluent") else "native"
        for hit in hits:
            if (
                hit.kind == "language"
                and (hit.values.get("language") or "").casefold() == language.casefold()
            ):
                if hit.values.get("level") in (None, level) and any(
                    e[0] == event.seq for e in hit.evidence
                ):
                    new = _Hit("language", {**hit.values, "level": level}, None)
                    new.evidence.extend(hit.evidence)
                    self._replace(hit, new, hits, event.seq, span)
                return
        self._add(_Hit("language", {"language": language, "level": level}), hits, event.seq, span)

    def _drop_said_here(
        self,
        event: EpisodeEvent,
        hits: list[_Hit],
        kind: str,
        reason: str,
        which: Callable[[_Hit, str], bool] = lambda hit, said: True,
    ) -> None:
        """The claims of ``kind`` (any, when empty) that this message alone stated, and that
        ``which`` picks from the words that state them, are not the user's: they go, noted with
        ``reason``."""
        for hit in [h for h in hits if h.kind == kind or not kind]:
            if all(e[0] == event.seq for e in hit.evidence):
                _, start, end = hit.evidence[0]
                if which(hit, event.text[start:end]):
                    self._note(event.seq, start, end, reason, (hit,))
                    hits.remove(hit)

    def _workplace_animals(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """ "a bio for one of our dogs. im a kennel assistant at the dspca": where the user
        works with animals, the animals "we" have are the workplace's ("our cat rex is 12" is
        the household's; "our dogs", "one of our dogs" are many)."""
        text = event.text

        def many_of_ours(hit: _Hit, said: str) -> bool:
            start = hit.evidence[0][1]
            m = _OUR.search(text, max(0, start - 8), start + len(said))
            return m is not None and (hit.plural or m.group().casefold().startswith("one"))

        self._drop_said_here(event, hits, "pet", "third_party", many_of_ours)

    def _minded_animals(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """ "my cat for this week (its my neighbours, im feeding her)", "3 foster kittens from
        the shelter": animals minded or fostered for a while are not the user's, unless said
        to be their own ("my own dog")."""
        text = event.text
        cues = list(_MINDED_ANIMALS.finditer(text))
        # fostered kittens are not the dog beside them: only the fostered kind goes, unless
        # another cue says every animal of the message is minded
        fostered = {
            _normal("pet", "species", m.group("fostered")) for m in cues if m.group("fostered")
        }
        every = any(not m.group("fostered") for m in cues)

        def not_own(hit: _Hit, said: str) -> bool:
            start = hit.evidence[0][1]
            return _OWN_ANIMAL.search(text, max(0, start - 4), start + len(said)) is None and (
                every or hit.values.get("species") in fostered
            )

        self._drop_said_here(event, hits, "pet", "third_party", not_own)

    def _trade_from_before(self, event: EpisodeEvent, arrived: str, hits: list[_Hit]) -> None:
        """ "i arrived in montreal in june ... i am pharmacist in france and doing the
        equivalence": beside a move to one place, a trade "in" another is where it was learnt,
        not where the user lives."""
        here = canonical_place(arrived)
        if here is None:  # "i moved in august"
            return
        self._drop_said_here(
            event,
            hits,
            "home_location",
            "past",
            lambda hit, said: (
                (hit.values["place"] or "").casefold() != here.casefold()
                and _ROLE_IN_PLACE.match(said) is not None
            ),
        )

    def _pet_gone_now(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> None:
        """ "our old dog bruno ... he died in 2021. i dont have a dog anymore": the pets of that
        species the message named before saying so are not held."""
        species = _normal("pet", "species", m.group("species"))
        for hit in [h for h in hits if h.kind == "pet" and h.values.get("species") == species]:
            seq, start, _ = hit.evidence[-1]
            if seq == event.seq and start < m.start():
                self._take_back(hit, hits, event.seq, m.span())

    def _pet_leaving(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> None:
        """ "its mango, my kitten ... i cant keep him, a couple is collecting him": the pet the
        message named last before saying it goes is not held."""
        named = [
            h
            for h in hits
            if h.kind == "pet" and h.evidence[-1][0] == event.seq and h.evidence[-1][1] < m.start()
        ]
        if named:
            last = max(named, key=lambda h: h.evidence[-1][1])
            self._take_back(last, hits, event.seq, m.span())

    def _bumped_bare(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> None:
        """ "vercel says node 18 is going away, i just bumped to 20": a version said bare takes
        the place of the one held for the tool this message named last before it with the held
        version."""
        named = list(_TECH_ALONE.finditer(event.text, 0, m.start()))
        if not named:
            return
        tech = named[-1].group("tech").casefold()
        subject = f"{_TECH_ALIASES.get(tech, tech)} version"
        for hit in hits:
            if (
                hit.kind == "working_state"
                and hit.values.get("subject") == subject
                and hit.values.get("value") == named[-1].group("ver")
                and hit.evidence[0][0] < event.seq
            ):
                new = _Hit("working_state", {"subject": subject, "value": m.group("ver")}, None)
                self._replace(hit, new, hits, event.seq, m.span("ver"))
                return

    def _value_retired(self, m: re.Match[str], hits: list[_Hit], seq: int) -> None:
        """ "host is sched-01" then "sched-01 is getting decommissioned": a setting whose value
        is going away is not the lasting setup."""
        value = m.group("value").casefold()
        for hit in [h for h in hits if h.kind == "working_state"]:
            if (hit.values.get("value") or "").casefold() == value:
                self._take_back(hit, hits, seq, m.span())

    def _full_name_given(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> None:
        """ "my sister ana ..." then "use her full name, its ana clara": the relative held
        under the first part of that name takes it whole."""
        first = m.group("full").split()[0].casefold()
        for hit in [h for h in hits if h.kind == "relationship"]:
            if (hit.values.get("name") or "").casefold() == first and hit.evidence[0][
                0
            ] < event.seq:
                new = _Hit("relationship", {**hit.values, "name": m.group("full").title()})
                self._replace(hit, new, hits, event.seq, m.span("full"))

    def _said_of_else(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """ "but 'my son is celiac' maybe too personal?": words in single quotes are quoted
        (here from the draft the user is checking), not said; "on my colleagues laptop (node
        18.17, npm 9.6)": a parenthesis after another's thing says what that thing is."""
        quoted = [m.span() for m in _SINGLE_QUOTED.finditer(event.text)]
        if quoted:
            # ("hugh grant goes 'i live in notting hill'": the clause is cited from its start,
            # and the words that state the home are someone's first person, quoted; never a
            # value in quotes, "our development branch is 'desarrollo'")
            spoken = [(a, b) for a, b in quoted if _FIRST_PERSON_QUOTE.match(event.text, a + 1)]
            self._drop_said_here(
                event,
                hits,
                "",
                "quoted",
                lambda hit, said: (
                    any(a <= hit.evidence[0][1] < b for a, b in quoted)
                    or any(a < hit.stated_end <= b for a, b in spoken)
                ),
            )
        theirs = [m.span("paren") for m in _ANOTHERS_THING_PAREN.finditer(event.text)]
        if theirs:
            self._drop_said_here(event, hits, "", "third_party", _cited_inside(theirs))

    def _theirs_not_ours(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """In a session on someone else's project ("helping my friend giulia w/ her side
        project"), the setup a message states is that project's: its settings go."""
        self._drop_said_here(event, hits, "working_state", "third_party")

    def _game_pets(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """In a session about a game, the animals a later message gives the user are the
        game's: the pets that message alone stated go."""
        self._drop_said_here(event, hits, "pet", "fiction")

    def _someone_elses_pet(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """ "my cat Miso ... sorry, Mochi, Miso is my sisters cat": the pet of that name, said
        in this message or before, is taken back."""
        for m in _SOMEONE_ELSES_PET.finditer(event.text):
            name = m.group("name").casefold()
            for hit in [h for h in hits if h.kind == "pet"]:
                if (hit.values.get("name") or "").casefold() == name:
                    self._take_back(hit, hits, event.seq, m.span())
            # "loki is my brothers cat, mine is freya lol": the user's own, of that species
            mine = _MINE_IS_NAME.match(event.text, m.end())
            if mine and _pet_name_ok(mine.group("name")):
                species = _normal("pet", "species", m.group("species"))
                if species is not None:
                    new = _Hit("pet", {"species": species, "name": mine.group("name").title()})
                    self._add(new, hits, event.seq, mine.span("mine"))

    def _pets_named_later(self, text: str, seq: int, hits: list[_Hit]) -> None:
        """ "i have one hamster and two guinea pigs" ... "the hamster is Mochi, the guinea pigs
        are Daifuku and Anko": the one unnamed pet of that species said before takes the names
        (two names for the animals counted together)."""
        # "two goldfish, kids named them Sushi and Wasabi", "we named him Gary": the latest
        # unnamed pet said before takes the names
        for m in _WE_NAMED_THEM.finditer(text):
            names = [n for n in (m.group("a"), m.group("b"), m.group("c")) if n]
            # "i named her sugar": after "named" an English word is a name ("we called him
            # lazy" is not)
            named_ok = _pet_name_ok if "named" in m.group().casefold() else _later_pet_name_ok
            if not all(named_ok(n) for n in names) or not _said_plainly(text, m):
                continue
            unnamed = [
                h
                for h in hits
                if h.kind == "pet"
                and not h.values.get("name")
                and h.evidence[0][:2] < (seq, m.start())
            ]
            if (len(names) > 1) != (m.group("pron").casefold() == "them"):
                continue
            if not unnamed:
                # "Ava won a goldfish at the fair, we named him Gary": the animal the
                # sentence got, that no rule took for the user's
                # (the sentence, or the one before: "got 2 goldfish today lol. kids named them")
                sentence_start = max(0, m.start() - 120)
                got = [*_A_PET_GOT.finditer(text, sentence_start, m.start())]
                species = _normal("pet", "species", got[-1].group("species")) if got else None
                owner = _THIRD_PARTY.search(text, sentence_start, got[-1].start()) if got else None
                if species is None or (owner and not _HOUSEHOLD_OWNER.search(owner.group())):
                    continue
                unnamed = [_Hit("pet", {"species": species, "name": None})]
                self._add(unnamed[0], hits, seq, got[-1].span())
            pet = unnamed[-1]
            first, *more = names
            new = _Hit("pet", {**pet.values, "name": first[:1].upper() + first[1:]}, None)
            self._replace(pet, new, hits, seq, m.span())
            for name in more:
                other = _Hit("pet", {**pet.values, "name": name[:1].upper() + name[1:]})
                self._add(other, hits, seq, m.span())
        for m in _MINE_IS_CALLED.finditer(text):
            names = [
                n
                for n in (m.group("name") or m.group("name2") or m.group("name4"), m.group("more"))
                if n
            ]
            pets = [*_PET_WORD.finditer(text, max(0, m.start() - 120), m.start())]
            species = _normal("pet", "species", pets[-1].group("species")) if pets else None
            # ("mine is called noodle": after "called" a lower-case word is a name)
            if (
                species is None
                or not all(
                    _lower_pet_name(n) and not _ADVERB_OR_FILLER.fullmatch(n)
                    if n.islower()
                    else _later_pet_name_ok(n)
                    for n in names
                )
                or not _said_plainly(text, m)
            ):
                continue
            for name in names:
                new = _Hit("pet", {"species": species, "name": name[:1].upper() + name[1:]})
                if bare := _unnamed_in(hits, species, seq):
                    self._replace(bare[0], new, hits, seq, m.span())
                else:
                    self._add(new, hits, seq, m.span())
        for m in _THE_PETS_ARE.finditer(text):
            names = [n for n in (m.group("a"), m.group("b"), m.group("c")) if n]
            # ("their names are salt and pepper": after "names" English words are names)
            name_ok = _later_pet_name_ok if m.group("head") else _pet_name_ok
            if not all(name_ok(n) for n in names):
                continue
            before = [
                h
                for h in hits
                if h.kind == "pet"
                and not h.values.get("name")
                and h.evidence[0][:2] < (seq, m.start())
            ]
            if m.group("head"):
                species = _normal("pet", "species", m.group("head"))
            else:
                # (the names, not the head, say what they name: the one species of unnamed
                # pets said before, several of them)
                kinds = {h.values.get("species") for h in before}
                plural = all(h.plural for h in before)
                species = kinds.pop() if len(kinds) == 1 and len(names) > 1 and plural else None
            sentence_start, _ = _sentence_around(text, m.start(), m.end())
            if species is None or _HYPOTHETICAL.search_alone(text[sentence_start : m.end()]):
                continue
            unnamed = [h for h in before if h.values.get("species") == species]
            if len(unnamed) != 1 or (len(names) > 1) != (m.group("verb").casefold() == "are"):
                continue
            first, *more = names
            new = _Hit("pet", {**unnamed[0].values, "name": first[:1].upper() + first[1:]}, None)
            self._replace(unnamed[0], new, hits, seq, m.span())
            for name in more:
                other = _Hit("pet", {"species": species, "name": name[:1].upper() + name[1:]})
                self._add(other, hits, seq, m.span())

    def _head_corrected(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """ "my dog Pipoca" then "sorry the dog is Paçoca": the latest pet or relative said
        before under that word takes the new name; "my dog mochi" then "not dog. cat. mochi is a
        cat": the pet of that name takes the new species. Nothing is formed when no earlier
        pet or relative answers to the word or the name."""
        text = event.text
        for m in _THE_HEAD_IS.finditer(text):
            name = m.group("name")
            if name.islower() and (is_common_word(name) or name in _STOP_WORDS_AFTER_IS):
                continue
            for kind, slot in (("pet", "species"), ("relationship", "relation")):
                try:
                    head = normalize_value(kind, slot, m.group("head"))
                except InvalidInput:
                    continue
                # "Tolu is my cousin. the brother is Tunde": a relative just relabelled away
                # leaves the word free for its right name
                relabelled = [h for h, _ in self._taken_back if h.kind == kind]
                for hit in reversed([*relabelled, *hits]):
                    if hit.kind != kind or hit.evidence[0][0] >= event.seq:
                        continue
                    held, said = hit.values.get("name"), hit.values.get(slot)
                    if not held or not said or held.casefold() == name.casefold():
                        continue
                    try:
                        if normalize_value(kind, slot, said) != head:
                            continue
                    except InvalidInput:
                        continue
                    new = _Hit(kind, {**hit.values, "name": name}, None)
                    self._put(hit, new, hits, event.seq, m.span())
                    return
        # "my rabbit Clover" ... "shes a guinea pig not a rabbit, i always mix them up": the pet
        # said before as the one species is the other
        for m in _PRONOUN_SPECIES_NOT.finditer(text):
            new_species = _normal("pet", "species", m.group("new"))
            old_species = _normal("pet", "species", m.group("old"))
            if new_species is None or old_species is None or new_species == old_species:
                continue
            for hit in reversed(hits):
                if hit.kind == "pet" and hit.values.get("species") == old_species:
                    new = _Hit("pet", {**hit.values, "species": new_species}, None)
                    self._put(hit, new, hits, event.seq, m.span())
                    return
        for m in _NAME_IS_SPECIES.finditer(text):
            name = m.group("name").casefold()
            taken = [h for h, _ in self._taken_back if h.kind == "pet"]
            for hit in reversed([*taken, *hits]):
                held = hit.values.get("name") if hit.kind == "pet" else None
                if not held or held.casefold() != name or hit.evidence[0][0] >= event.seq:
                    continue
                species = hit.values.get("species") or ""
                if species.casefold() != m.group("head").casefold():
                    new = _Hit("pet", {**hit.values, "species": m.group("head")}, None)
                    self._put(hit, new, hits, event.seq, m.span())
                    # "my dog, ... her name is Mel" then "Mel is a cat": the unnamed dog that
                    # mention made is the same animal
                    first = hit.evidence[0]
                    for other in [h for h in hits if h.kind == "pet" and h is not new]:
                        if (
                            other.values.get("name") is None
                            and other.values.get("species") == hit.values.get("species")
                            and other.evidence
                            and other.evidence[0][0] == first[0]
                        ):
                            self._take_back(other, hits, event.seq, m.span())
                return

    def _denied_later(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """ "ive been doing keto since march... well actually not strict keto, more low carb":
        a diet, job, allergy or taste the same message later denies ("not <it>") is not held.

        One pass over the message: each "not" maps the phrases of up to four words after it to
        its position, so a long message of many claims and denials stays linear."""
        text = event.text
        denied: dict[str, int] = {}
        for m in _DENIAL.finditer(text):
            words = m.group("words").casefold().split()
            for n in range(1, len(words) + 1):
                denied[" ".join(words[:n])] = m.start()
        if not denied:
            return
        for hit in [h for h in hits if h.evidence[-1][0] == event.seq]:
            if hit.kind not in _DENIABLE_KINDS or hit.stated_end <= 0:
                continue
            value = " ".join((hit.values.get(_KIND_VALUE[hit.kind]) or "").casefold().split())
            at = denied.get(value, -1) if len(value) >= 3 else -1
            if at >= hit.stated_end:
                self._take_back(hit, hits, event.seq, (at, at + 3))

    def _bare_version(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> None:
        """ "we're on python 3.11" then "ok so we're on 3.12": a version said without its tool
        is the tool's whose version said before has the same major number, else the only tool
        whose version was said before."""
        groups = m.groupdict()
        version = (
            m.group("ver")
            or groups.get("ver2")
            or groups.get("ver3")
            or groups.get("ver4")
            or groups.get("ver5")
            or groups.get("ver6")
            or groups.get("ver7")
            or ""
        )
        # (a version put right with "sorry i meant" may follow its setting in the same message)
        same = bool(groups.get("ver7"))
        earlier = [
            h
            for h in hits
            if h.kind == "working_state"
            and (h.values.get("subject") or "").endswith(" version")
            and (
                h.evidence[0][0] < event.seq
                or (same and h.evidence[0][0] == event.seq and h.evidence[0][2] <= m.start())
            )
        ]
        major = [
            h
            for h in earlier
            if (h.values.get("value") or "").split(".")[0] == version.split(".")[0]
        ]
        if major:
            hit = major[-1]
        elif groups.get("ver5") or groups.get("ver6"):
            # "tests pass on 8.3": only a tool of that major version, one taken back included
            # ("8.2 ... not 8.2" then "tests pass on 8.3"), never another tool's
            back = [
                h
                for h, _ in self._taken_back
                if h.kind == "working_state"
                and (h.values.get("subject") or "").endswith(" version")
                and (h.values.get("value") or "").split(".")[0] == version.split(".")[0]
                and not any(o.values.get("subject") == h.values.get("subject") for o in earlier)
            ]
            if back:
                self._new_setting(event, hits, back[-1:], version, m.span())
            return
        elif len({h.values.get("subject") for h in earlier}) == 1:
            hit = earlier[-1]
        else:
            # "we're on django 4.2" / "no wait we upgraded last sprint, its 5.0 now": the
            # version this message took back, said again with its right value
            gone = [
                h
                for h, seq in self._taken_back
                if seq == event.seq
                and h.kind == "working_state"
                and (h.values.get("subject") or "").endswith(" version")
            ]
            if len({h.values.get("subject") for h in gone}) == 1:
                self._new_setting(event, hits, gone[-1:], version, m.span())
            return
        if hit.values.get("value") != version:
            new = _Hit("working_state", {**hit.values, "value": version}, None)
            self._replace(hit, new, hits, event.seq, m.span())

    def _named_after_takeback(
        self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]
    ) -> None:
        """ "my dog Rocco, no wait sorry his name is Rocky": the pet or relative this message
        took back, said again with its right name."""
        name = m.group("name")
        if name.islower() and is_common_word(name):
            return
        for hit, seq in reversed(self._taken_back):
            if seq != event.seq or hit.kind not in ("pet", "relationship"):
                continue
            held = hit.values.get("name")
            if held and hit.evidence and hit.evidence[-1][2] <= m.start():
                if held.casefold() != name.casefold() and not any(
                    h.kind == hit.kind
                    and (h.values.get("name") or "").casefold() == name.casefold()
                    for h in hits
                ):
                    new = _Hit(hit.kind, {**hit.values, "name": name.title()}, None)
                    self._add(new, hits, event.seq, m.span())
                return

    def _newer_versions(self, hits: list[_Hit]) -> None:
        """ "our db is postgres 13" then "we're on postgres 15 now": a later version of a tool
        takes back a setting said before to be that tool at another version."""
        versions = [
            (h, (h.values["subject"] or "")[: -len(" version")].casefold(), h.values["value"])
            for h in hits
            if h.kind == "working_state"
            and (h.values.get("subject") or "").endswith(" version")
            and _VERSION_VALUE.fullmatch(h.values.get("value") or "")
        ]
        # ... and "ignore what i said about 16, we bumped to ios 17": a target taken back by
        # the message that names the new version still gives the new version its subject
        gone_targets = [
            h
            for h, _ in self._taken_back
            if h.kind == "working_state"
            and _TARGET_SUBJECT.search(h.values.get("subject") or "")
            and not any(h is k for k in hits)
        ]
        for new, tech, version in versions:
            for old in [
                *(h for h in hits if h.kind == "working_state" and h is not new),
                *gone_targets,
            ]:
                tool, _, was = (old.values.get("value") or "").casefold().rpartition(" ")
                if (
                    tool.split()[-1:] == [tech]
                    and _VERSION_VALUE.fullmatch(was)
                    and was != version
                    and old.evidence
                    and new.evidence
                    and old.evidence[0][0] < new.evidence[0][0]
                ):
                    # "our deployment target is ios 15" ... "is ios 16": a platform target said
                    # again keeps its own subject
                    if _TARGET_SUBJECT.search(old.values.get("subject") or "") and new in hits:
                        target = _Hit(
                            "working_state", {**old.values, "value": f"{tool} {version}"}, None
                        )
                        if any(old is g for g in gone_targets):
                            self._replace(
                                new, target, hits, new.evidence[0][0], new.evidence[0][1:]
                            )
                            break
                        hits.remove(new)
                        self._replace(old, target, hits, new.evidence[0][0], new.evidence[0][1:])
                        break
                    if any(old is g for g in gone_targets):
                        continue
                    self._take_back(old, hits, new.evidence[0][0], new.evidence[0][1:])

    def _put(self, hit: _Hit, new: _Hit, hits: list[_Hit], seq: int, span: tuple[int, int]) -> None:
        """``new`` in place of ``hit``, or, when ``hit`` was already taken back, beside it."""
        if any(h is hit for h in hits):
            self._replace(hit, new, hits, seq, span)
        else:
            self._add(new, hits, seq, span)

    def _number_put_right(self, event: EpisodeEvent, fix: re.Match[str], hits: list[_Hit]) -> None:
        """ "our dev server is on 8080 now" then "wait no sorry, 8081": the one setting of the
        same shape (a port, a version) the takeback just took back holds the number said."""
        number = fix.group("num")
        shape = _VERSION_TAIL.fullmatch if "." in number else _PORT_NUMBER.fullmatch
        taken = [
            h
            for h, at in self._taken_back
            if at == event.seq
            and h.kind == "working_state"
            and shape(h.values.get("value") or "")
            and h.values.get("value") != number
        ]
        if len(taken) == 1:
            new = _Hit("working_state", {**taken[0].values, "value": number})
            self._add(new, hits, event.seq, fix.span("num"))

    def _mine_does(
        self,
        text: str,
        seq: int,
        hits: list[_Hit],
        antecedents: list[_Antecedent],
        index: int,
    ) -> None:
        """ "how deep should bedding be for a hamster, mine keeps trying to dig": the user's own
        one of the animal the message just named, when no pet of that kind was found (and what
        "she" of a later message may name: "shes called Noodle")."""
        for m in _MINE_DOES.finditer(text):
            pets = [*_PET_WORD.finditer(text, max(0, m.start() - 120), m.start())]
            # the clause of "mine" is the user's plain statement, whatever the question before
            # it asks ("how deep should bedding be for a hamster"); never after an "if"
            sentence_start, sentence_end = _sentence_around(text, m.start(), m.end())
            if (
                not pets
                or _PERSON_OR_THING.search(text, pets[-1].end(), m.start())
                or _HYPOTHETICAL.search_alone(text[m.start() : sentence_end])
                or _CONDITIONAL.search_alone(text[sentence_start : m.start()])
                or _inside_quotes(text, m.start())
            ):
                continue
            species = _normal("pet", "species", pets[-1].group("species"))
            if species is None or any(
                h.kind == "pet" and h.values.get("species") == species for h in hits
            ):
                continue
            mine = _Hit("pet", {"species": species, "name": None})
            self._add(mine, hits, seq, m.span())
            antecedents.append(_Antecedent(mine, index))

    def _add(self, new: _Hit, hits: list[_Hit], seq: int, span: tuple[int, int]) -> None:
        """``new``, stated by the words at ``span`` of message ``seq``, joins ``hits``."""
        new.evidence.append((seq, *span))
        new.stated_end = span[1]
        self._note(seq, *span, None, (new,))
        hits.append(new)

    def _denied_aside(
        self, event: EpisodeEvent, found: re.Match[str] | None, hits: list[_Hit]
    ) -> None:
        """ "god i love spreadsheets so much (i do not)": an aside that denies what was just
        said takes back the claims of the words before it, back to the sentence's start."""
        while (aside := found) is not None:
            start = max(
                (e.end() for e in _SENTENCE_END.finditer(event.text, 0, aside.start())), default=0
            )
            for hit in [h for h in hits if h.evidence and h.evidence[-1][0] == event.seq]:
                if start <= hit.stated_end <= aside.start() + 1:
                    self._take_back(hit, hits, event.seq, aside.span())
            found = _DENIAL_ASIDE.search(event.text, aside.end())

    def _narrowed(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> None:
        """ "im allergic to nuts" then "not all nuts actually, just tree nuts": the allergy or
        taste said before is the narrower one now."""
        old, new = m.group("old").casefold(), m.group("new")
        for hit in [h for h in hits if h.kind in ("allergy", "preference") and h.evidence]:
            field = "allergen" if hit.kind == "allergy" else "object"
            held = (hit.values.get(field) or "").casefold()
            if hit.evidence[0][0] < event.seq and held and old.startswith(held.rstrip("s")):
                new_hit = _Hit(hit.kind, {**hit.values, field: new}, None)
                self._replace(hit, new_hit, hits, event.seq, m.span("new"))
                return

    def _moved_out(self, event: EpisodeEvent, hits: list[_Hit], mask: int) -> None:
        """ "im in Rathmines" ... "sorry moved out of rathmines in the summer": a home said
        before that the user says they moved out of is no longer where they live."""
        for m in _MOVED_OUT_OF.finditer(event.text, mask):
            left = m.group("place").casefold()
            for hit in [h for h in hits if h.kind == "home_location" and h.evidence]:
                place = (hit.values.get("place") or "").casefold()
                if hit.evidence[0][0] < event.seq and place and left.startswith(place):
                    self._take_back(hit, hits, event.seq, m.span("place"))

    def _take_back(self, hit: _Hit, hits: list[_Hit], seq: int, span: tuple[int, int]) -> None:
        """``hit`` is taken back by the words at ``span`` of message ``seq``."""
        self._taken_back.append((hit, seq))
        self._note(seq, *span, "retracted", (hit,))
        hits.remove(hit)

    def _replace(
        self, hit: _Hit, new: _Hit, hits: list[_Hit], seq: int, span: tuple[int, int]
    ) -> None:
        new.evidence.append((seq, *span))
        new.stated_end = span[1]
        self._taken_back.append((hit, seq))
        self._note(seq, *span, None, (new,))
        hits[hits.index(hit)] = new

    def _region_in_brackets(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """ "here in cordoba (argentina)": a known place in brackets right after the home this
        message names qualifies it, as a comma would (a bracket ends the clause a rule reads)."""
        for hit in [h for h in hits if h.kind == "home_location" and _said_in(h, event.seq)]:
            place = hit.values.get("place") or ""
            start = min(e[1] for e in hit.evidence if e[0] == event.seq)
            m = re.compile(rf"\b{re.escape(place)}{_BRACKETED_REGION}", re.IGNORECASE).search(
                event.text, start
            )
            if "," in place or m is None:
                continue
            region = m.group("region")
            found = canonical_place(region)
            if found is None or found.casefold() == place.casefold():
                continue
            typed = region if region[:1].isupper() else found
            new = _Hit("home_location", {**hit.values, "place": f"{place}, {typed}"})
            self._replace(hit, new, hits, event.seq, m.span())

    def _home_said_before(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> None:
        """ "any good off lead parks in bristol? thats where we live": the place said just
        before, in a question or a request too, is the user's home; only a place the gazetteer
        knows, and only when the message said no home of its own."""
        if any(h.kind == "home_location" and _said_in(h, event.seq) for h in hits):
            return
        offset = max(0, m.start() - 120)
        places: dict[str, int] = {}
        for said in _PLACE_BEFORE_BACK.finditer(event.text, offset, m.start()):
            words = said.group("place").split()
            typed = next(
                (
                    " ".join(words[:size])
                    for size in (2, 1)
                    if len(words) >= size and canonical_place(" ".join(words[:size]))
                ),
                None,
            )
            if typed is not None:
                places.setdefault(typed.casefold(), said.start("place"))
        # ("flights from dublin to paris? thats where we live": which one, it does not say)
        if len(places) != 1:
            return
        ((typed, start),) = places.items()
        hit = _Hit("home_location", {"place": event.text[start : start + len(typed)]})
        hit.evidence, hit.stated_end = [(event.seq, start, m.end())], m.end()
        self._note(event.seq, start, m.end(), None, (hit,))
        hits.append(hit)

    def _pet_name_said_first(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """ "shelly's her name", "mochi is my cats name", "e name na Bingo", "my staffy only
        answers to Tank": the one unnamed pet of the message (of the species said, if one is)
        takes the name."""
        unnamed = [
            h
            for h in hits
            if h.kind == "pet"
            and not h.values.get("name")
            and any(e[0] == event.seq for e in h.evidence)
        ]
        if not unnamed:
            return
        m = _PET_NAME_FIRST.search(event.text)
        if m is None:
            return
        # ("mochi is my cats name": the apostrophe left out, one cat)
        if not m.group("species"):
            unnamed = [h for h in unnamed if not h.plural]
        name = (
            m.group("name")
            or m.group("name2")
            or m.group("name3")
            or m.group("name4")
            or m.group("name5")
        )
        # "my dog kinda knows his name": a verb, its "s" no possessive
        said = m.group("name")
        if said and "'" not in m.group() and "’" not in m.group() and is_common_word(f"{said}s"):
            return
        if (name.islower() and not _pet_name_ok(name)) or name.casefold() in _NOT_A_RENAME:
            return
        # "answers to commands in polish": after "answers to" a word is a name only when no
        # dictionary has it or it is typed as one
        if m.group("name4") and name.islower() and is_common_word(name):
            return
        if said := m.group("species"):
            species = _normal("pet", "species", said)
            unnamed = [h for h in unnamed if h.values.get("species") == species]
        if len({h.values.get("species") for h in unnamed}) != 1:
            return
        new = _Hit("pet", {**unnamed[-1].values, "name": name.title() if name.islower() else name})
        self._replace(unnamed[-1], new, hits, event.seq, m.span())

    def _pet_described(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> None:
        """ "my own dog ... hes a 9yo beagle named tango": the one unnamed pet of that species
        said before takes the name."""
        name, species = m.group("name"), _normal("pet", "species", m.group("species"))
        # after "named" a word is a name ("tango"), but never a function word ("named after")
        if not _pet_name_ok(name) or name.casefold() in _NOT_NAMED:
            return
        unnamed = [
            h
            for h in hits
            if h.kind == "pet"
            and h.values["species"] == species
            and not h.values.get("name")
            and h.evidence[0][:2] < (event.seq, m.start())
        ]
        # "so we finally got a puppy!! cockapoo called waffles": a fragment names the user's
        # pet, never one of someone the message named before it ("my friend got a puppy.
        # cockapoo called Waffles")
        if m.group("fragment") is not None and _THIRD_PARTY.search(event.text, 0, m.start()):
            return
        if len(unnamed) == 1:
            new = _Hit("pet", {**unnamed[0].values, "name": name.title()}, None)
            self._replace(unnamed[0], new, hits, event.seq, m.span("name"))

    def _pet_named_later(self, event: EpisodeEvent, hits: list[_Hit]) -> None:
        """ "my gecko chili? his tank is in the living room" then "ok chili is staying in the
        bedroom": the word said right after an unnamed pet is its name once a later message
        makes it the subject of what it does, or a later part of the same message ("my dog rex
        and my neighbours dog bella play ... and now rex has started digging"): the first such
        pet of an earlier message, and the first of this one, in one pass over the hits."""
        folded = event.text.casefold()
        done: set[bool] = set()
        for index, hit in enumerate(hits):
            word = hit.maybe_name
            if word is None or hit.kind != "pet" or hit.values.get("name"):
                continue
            said_at = hit.evidence[-1][0]
            same = said_at == event.seq
            if same in done or said_at > event.seq or word.casefold() not in folded:
                continue
            said = re.compile(
                rf"(?:^|[.!?,;]\s*|\b(?:ok|okay|so|and|but|lol|yes|yeah|then|now)\s+)"
                rf"(?P<name>{re.escape(word)})\s+(?:is|was|has|isnt|isn['’]t|wont|won['’]t"
                rf"|doesnt|doesn['’]t|{_PET_VERBS})\b",
                re.IGNORECASE,
            ).search(event.text, hit.stated_end if same else 0)
            if said is not None:
                new = _Hit("pet", {**hit.values, "name": word.title()}, None)
                self._replace(hits[index], new, hits, event.seq, said.span("name"))
                done.add(same)
                if len(done) == 2:
                    return

    def _pet_renamed(
        self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit], word: bool = False
    ) -> None:
        """ "hes called biscuit. well he was, my kids renamed him chewie": the latest named
        pet said before the renaming takes the new name (an English word too, with ``word``:
        the message said it is the name that changed)."""
        group = "name2" if m.groupdict().get("name2") else "name"
        name = m.group(group)
        if name.islower() and is_common_word(name) and not (word and _pet_name_ok(name)):
            return
        for hit in reversed(hits):
            held = hit.values.get("name") if hit.kind == "pet" else None
            if held and hit.evidence[0][:2] < (event.seq, m.start()):
                if held.casefold() != name.casefold():
                    new = _Hit("pet", {**hit.values, "name": name.title()}, None)
                    self._replace(hit, new, hits, event.seq, m.span(group))
                return

    def _name_fixed(
        self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit], previous_seq: int | None
    ) -> bool:
        """ "my cat is called luna" then "oops her name is lulu": the one pet or relative the
        message before named, that the pronoun fits, takes the name the user puts right."""
        name = m.group("name") or m.group("spelled")
        # (a name spelled again is checked against the one it respells instead)
        if previous_seq is None or (m.group("name") and name.islower() and is_common_word(name)):
            return False
        pronoun = (m.group("pron") or "").casefold()
        fits = [
            h
            for h in hits
            if h.kind in ("pet", "relationship")
            and h.values.get("name")
            and h.evidence
            and h.evidence[-1][0] == previous_seq
            and (
                _pronoun_fits(pronoun, h)
                if pronoun
                else _one_letter_apart((h.values["name"] or "").casefold(), name.casefold())
            )
        ]
        if len(fits) != 1 or fits[0].values["name"].casefold() == name.casefold():  # type: ignore[union-attr]
            return False
        new = _Hit(
            fits[0].kind, {**fits[0].values, "name": name if name[:1].isupper() else name.title()}
        )
        self._replace(
            fits[0], new, hits, event.seq, m.span("name" if m.group("name") else "spelled")
        )
        return True

    def _org_renamed(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> bool:
        """ "Actually it is LTIMindtree now, after merger": the employer said before, renamed."""
        new_name = m.group("org")
        folded = new_name.casefold()
        for hit in reversed(hits):
            old = (hit.values.get("org") or "").casefold()
            if hit.kind != "employer" or not old or old == folded:
                continue
            if old in folded or folded in old:
                new = _Hit(hit.kind, {"org": new_name}, None)
                self._replace(hit, new, hits, event.seq, m.span("org"))
                return True
        return False

    def _level_walked_back(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> bool:
        """ "i speak german fluently" then "fluently is a stretch, im learning": the languages
        held as fluent from earlier messages are learning (or only spoken, when no level is
        said instead)."""
        done = False
        for hit in [
            h
            for h in hits
            if h.kind == "language"
            and h.values.get("level") == "fluent"
            and h.evidence[-1][0] < event.seq
        ]:
            level = "learning" if m.group("learning") else None
            new = _Hit("language", {**hit.values, "level": level}, None)
            self._replace(hit, new, hits, event.seq, m.span())
            done = True
        return done

    def _relation_fixed(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> bool:
        """ "my brother Tomasz" then "technically brother in law": the relative said last whose
        relation the precise one contains (brother in brother-in-law, sister in half-sister,
        daughter in stepdaughter) is that relative."""
        if m.group("old2"):
            denied = _normal("relationship", "relation", m.group("old2"))
            held = [
                h
                for h in hits
                if h.kind == "relationship"
                and h.values.get("relation") == denied
                and h.evidence[-1][0] < event.seq
            ]
            if not held:
                return False
            self._take_back(held[-1], hits, event.seq, m.span("old2"))
            return True
        said = m.group("new") or m.group("new2")
        new_relation = _normal("relationship", "relation", said)
        if new_relation is None:
            return False
        denied = _normal("relationship", "relation", m.group("old")) if m.group("old") else None
        held = [
            h
            for h in hits
            if h.kind == "relationship"
            and h.evidence[-1][0] < event.seq
            and (old := h.values.get("relation"))
            and old != new_relation
            # ... or the one the message denied by name of relation
            and (old == denied if denied else re.search(rf"\b{re.escape(old)}\b", new_relation))
        ]
        if not held:
            return False
        new = _Hit("relationship", {**held[-1].values, "relation": new_relation}, None)
        self._replace(held[-1], new, hits, event.seq, m.span("new" if m.group("new") else "new2"))
        return True

    def _whole_name_given(
        self, event: EpisodeEvent, whole: re.Match[str], hits: list[_Hit], previous: int | None
    ) -> bool:
        """ "its Lan not Lane. Nguyen Lan": the user's name, said in part in this message or the
        one before, given whole as the message's last sentence."""
        words = whole.group("full").casefold().split()
        changed = False
        for hit in [h for h in hits if h.kind == "name"]:
            held = (hit.values.get("name") or "").casefold().split()
            if (
                held
                and hit.evidence[-1][0] in (event.seq, previous)
                and len(held) < len(words)
                and all(w in words for w in held)
            ):
                new = _Hit("name", {"name": whole.group("full")})
                self._replace(hit, new, hits, event.seq, whole.span("full"))
                changed = True
        return changed

    def _kin_changed(self, event: EpisodeEvent, hits: list[_Hit], mask: int) -> bool:
        """A relative said in an earlier message, put right by a later one: disowned ("its not
        my sister, its my friend's sister"), an ex now ("well ex husband now") or another
        relation by name ("technically lily is my niece"). Only claims of earlier messages
        move."""
        text, changed = event.text, False

        def earlier(
            relation: str | None, name: str | None = None, strict: bool = True
        ) -> list[_Hit]:
            # (not strict: "its ma'am's daughter bea not mine" disowns "my daughter" unnamed too)
            return [
                h
                for h in _said_before(hits, [], event.seq)
                if h.kind == "relationship"
                and (relation is None or h.values.get("relation") == relation)
                and (
                    name is None
                    or (h.values.get("name") or "").casefold() == name.casefold()
                    or (not strict and not h.values.get("name"))
                )
            ]

        if mask & _RELATIVE_DISOWNED.bit:
            for m in _RELATIVE_DISOWNED.finditer(text, mask):
                name = m.group("name2") or m.group("name4")
                # "its her mum house not mine": the house is not the user's, the mum is not named
                if m.group("name2") and is_common_word(name.casefold()) and not is_word_name(name):
                    continue
                for group in ("rel", "rel2", "rel3", "rel4"):
                    if not m.group(group):
                        continue
                    relation = _normal("relationship", "relation", m.group(group))
                    held = earlier(relation, name if group != "rel3" else None, group == "rel4")
                    for hit in held:
                        self._take_back(hit, hits, event.seq, m.span(group))
                        changed = True
        if mask & _EX_NOW.bit:
            for m in _EX_NOW.finditer(text, mask):
                for hit in earlier(_normal("relationship", "relation", m.group("rel"))):
                    self._take_back(hit, hits, event.seq, m.span("rel"))
                    changed = True
        if mask & _RELATIVE_RELATION_NAMED.bit:
            for m in _RELATIVE_RELATION_NAMED.finditer(text, mask):
                relation = _normal("relationship", "relation", m.group("rel"))
                if relation is None:
                    continue
                for hit in earlier(None, m.group("name")):
                    if hit.values.get("relation") != relation:
                        new = _Hit("relationship", {**hit.values, "relation": relation})
                        self._replace(hit, new, hits, event.seq, m.span())
                        changed = True
        return changed

    def _pet_changed(self, event: EpisodeEvent, hits: list[_Hit], mask: int) -> bool:
        """A pet said in an earlier message, put right by a later one: someone else's ("tigger
        is actually my mums cat", "well shes not mine really") or another animal ("oh shes a
        tortoise actually")."""
        text, changed = event.text, False
        if mask & _PET_DISOWNED.bit:
            for m in _PET_DISOWNED.finditer(text, mask):
                pets = [h for h in _said_before(hits, [], event.seq) if h.kind == "pet"]
                if m.group("pron"):
                    # the pet (of the species named) of the latest message that said one, if it
                    # said only one
                    if m.group("own"):
                        own = _normal("pet", "species", m.group("own"))
                        pets = [h for h in pets if h.values.get("species") == own]
                    pets = _latest_said(pets)
                    pets = pets if len(pets) == 1 else []
                else:
                    species = _normal("pet", "species", m.group("species"))
                    name = m.group("name").casefold()
                    pets = [
                        h
                        for h in pets
                        if h.values.get("species") == species
                        and name
                        in (
                            (h.values.get("name") or "").casefold(),
                            (h.maybe_name or "").casefold(),
                            h.word_after,
                        )
                    ]
                for hit in pets:
                    self._take_back(hit, hits, event.seq, m.span())
                    changed = True
        if mask & _PET_SPECIES_ACTUALLY.bit and (fixed := _PET_SPECIES_ACTUALLY.search(text, mask)):
            species = _normal("pet", "species", fixed.group("new") or fixed.group("new2"))
            pets = [h for h in _said_before(hits, [], event.seq) if h.kind == "pet"]
            if species is not None and len(pets) == 1 and pets[0].values.get("species") != species:
                new = _Hit("pet", {**pets[0].values, "species": species})
                new.maybe_name = pets[0].maybe_name
                self._replace(
                    pets[0],
                    new,
                    hits,
                    event.seq,
                    fixed.span("new" if fixed.group("new") else "new2"),
                )
                changed = True
        return changed

    def _typed_wrong(self, event: EpisodeEvent, hits: list[_Hit], mask: int) -> bool:
        """ "wait i said tom, its tim": a value said in an earlier message, of any claim,
        typed wrong, and the right one."""
        text, changed = event.text, False
        if mask & _SAID_X_ITS_Y.bit:
            for m in _SAID_X_ITS_Y.finditer(text, mask):
                old, typed = m.group("old").casefold(), m.group("new")
                for hit in _said_before(hits, [], event.seq):
                    field_name = next(
                        (
                            f
                            for f, v in hit.values.items()
                            if f != "polarity" and v and v.casefold() == old
                        ),
                        None,
                    )
                    if field_name is None or _normal(hit.kind, field_name, typed) is None:
                        continue
                    value = (
                        typed[:1].upper() + typed[1:]
                        if (hit.values[field_name] or "")[:1].isupper()
                        else typed
                    )
                    new = _Hit(hit.kind, {**hit.values, field_name: value})
                    self._replace(hit, new, hits, event.seq, m.span("new"))
                    changed = True
        return changed

    def _species_fixed(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> bool:
        """ "my hamster nibbles" then "nibbles is a gerbil not a hamster": the pet held as the
        denied species (by that name, or the one unnamed) is the other species, and has the
        name."""
        old = _normal("pet", "species", m.group("old"))
        new_species = _normal("pet", "species", m.group("new"))
        name = m.group("name") or m.group("pron")
        if old is None or new_species is None or old == new_species:
            return False
        held = [h for h in hits if h.kind == "pet" and h.values.get("species") == old]
        named = [h for h in held if (h.values.get("name") or "").casefold() == name.casefold()]
        unnamed = [h for h in held if not h.values.get("name")]
        target = named or (unnamed if len(unnamed) == 1 else [])
        if m.group("pron"):
            target = held if len(held) == 1 else []
        if not target:
            return False
        given = target[0].values.get("name") or (
            name[:1].upper() + name[1:]
            if _pet_name_ok(name) and name.casefold() not in _NOT_NAMED | _PRONOUN_WORDS
            else None
        )
        new = _Hit("pet", {"species": new_species, "name": given}, None)
        self._replace(target[0], new, hits, event.seq, m.span("new"))
        return True

    def _species_agreed(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> bool:
        """ "my tortoise shelly" then (the assistant doubts it) "oops ur right shes a turtle":
        the one pet held, said before, is the species the user now agrees it is."""
        new_species = _normal("pet", "species", m.group("new"))
        held = [h for h in hits if h.kind == "pet" and h.evidence[-1][0] < event.seq]
        if new_species is None or len(held) != 1 or held[0].values.get("species") == new_species:
            return False
        new = _Hit("pet", {**held[0].values, "species": new_species}, None)
        self._replace(held[0], new, hits, event.seq, m.span("new"))
        return True

    def _renamed(self, event: EpisodeEvent, hits: list[_Hit], mask: int) -> bool:
        """ "my daughter is called Nell not Nora": the named value is replaced wherever held."""
        done = False
        for m in _RENAMED_NOT.finditer(event.text, mask):
            which = next(g for g in ("new", "new2", "new3", "new4") if m.group(g))
            new_name = m.group(which)
            if new_name.isupper():  # "its MISO": shouted, not an acronym
                new_name = new_name.title()
            if which == "new4":
                named = [h for h in hits if h.kind == "pet" and h.values.get("name")]
                if len(named) != 1 or new_name.casefold() in _NOT_A_NAME:
                    continue
                old = (named[0].values["name"] or "").casefold()
            else:
                old = (m.group("old") or m.group("old2") or m.group("old3")).casefold()
            for hit in [h for h in hits if (h.values.get("name") or "").casefold() == old]:
                new = _Hit(hit.kind, {**hit.values, "name": new_name}, None)
                self._replace(hit, new, hits, event.seq, m.span(which))
                done = True
        return done

    def _tool_corrected(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> None:
        """The setting "<tool> version" of the tool named in place of another's joins ``hits``
        when the correcting words give its version ("its mariadb 10.11 not mysql")."""
        named, _, version = m.group("new").rpartition(" ")
        if not named or " " in named or not _VERSION_TAIL.fullmatch(version):
            return
        values = {"subject": f"{named.casefold()} version", "value": version}
        try:
            normalize_claim("working_state", values)
        except InvalidInput:
            return
        self._add(_Hit("working_state", values), hits, event.seq, m.span())

    def _replace_value(
        self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit], gone: list[_Hit]
    ) -> list[_Hit]:
        """ "not gradle, it is maven": an earlier claim whose value is the one denied gets the
        new value (same kind, same other fields), cited by the correcting words."""
        old = m.group("old").casefold()
        # "sorry not Omar, its my daughter Layla who goes": someone else, not a new value
        if m.group("new").casefold() in _NOT_A_VALUE:
            return []
        # "i mean neovim not plain vim": the plain one is the value said before
        plain = _GENUINE.sub("", old)
        for hit in hits:
            if hit in gone or all(e[0] == event.seq for e in hit.evidence):
                continue
            # "mysql 8" ... "oops its mariadb 10.11 not mysql": the tool of a version setting
            # put right, with the version said with it (else the setting is only taken back)
            if hit.kind == "working_state" and (hit.values.get("subject") or "").casefold() in (
                f"{old} version",
                f"{plain} version",
            ):
                self._tool_corrected(event, m, hits)
                return [hit]
            for field_name, value in hit.values.items():
                # "Hartmann Stahlbau" ... "its Hartmann Metallbau not stahlbau": the last word
                # of a name put right
                last_word = bool(
                    value
                    and hit.kind in ("employer", "name")
                    and value.casefold().endswith(" " + old)
                )
                # "at siemens" ... "i mean siemens energy, not siemens ag": which part of it
                refined = bool(
                    value
                    and hit.kind == "employer"
                    and old.startswith(value.casefold() + " ")
                    and m.group("new").casefold().startswith(value.casefold() + " ")
                )
                if not value or (
                    not last_word
                    and not refined
                    and value.casefold() not in (old, old.rstrip("s"), old + "s", plain)
                    # "db is mongo 6" ... "its documentdb not real mongo": the tool of a setting
                    # named without its version
                    and not (
                        hit.kind == "working_state"
                        and field_name == "value"
                        and value.casefold().split()[0] == _GENUINE.sub("", old)
                    )
                ):
                    continue
                # "its my dog not cat": the determiner is not part of the value
                replacement = _DETERMINER_LEAD.sub("", m.group("new")) or m.group("new")
                # "its portuguese fluent not italian": the level said after it is no part of
                # the language's name
                lang, _, level = replacement.rpartition(" ")
                if hit.kind == "language" and lang and level.casefold() in _LEVEL_WORDS:
                    replacement = lang
                if last_word and " " not in replacement:
                    replacement = f"{value.rsplit(' ', 1)[0]} {replacement}"
                # "postgres 14 ... its actually 15": a version alone replaces the version
                head, _, tail = value.rpartition(" ")
                if head and _VERSION_TAIL.fullmatch(tail) and _VERSION_TAIL.fullmatch(replacement):
                    replacement = f"{head} {replacement}"
                # "*mongo 7 not 6": the tool named again with the version that replaces its own
                named, _, version = replacement.rpartition(" ")
                if (
                    named
                    and _VERSION_TAIL.fullmatch(version)
                    and _VERSION_TAIL.fullmatch(value)
                    and (hit.values.get("subject") or "").startswith(named.casefold())
                ):
                    replacement = version
                # "brunswick east not brunswick, melbourne": the city said after it is the home's
                if hit.kind == "home_location":
                    replacement, _ = _with_region(replacement, event.text, m.end("old"))
                values = {**hit.values, field_name: replacement}
                try:
                    normalize_claim(hit.kind, values)
                except InvalidInput:
                    return []
                # "its 1.3.5, not 1.5, sorry. so pandas is 1.3": the message says the value
                # again later, and that is the one that stands
                tool = (hit.values.get("subject") or "").removesuffix(" version")
                if (
                    hit.kind == "working_state"
                    and tool
                    and re.search(
                        rf"\b{re.escape(tool)}\s+(?:is\s+|=\s*|on\s+)?v?\d",
                        event.text[m.end() :],
                        re.IGNORECASE,
                    )
                ):
                    return []
                new = _Hit(hit.kind, values)
                new.evidence.append((event.seq, m.start(), m.end()))
                new.stated_end = m.end()
                # another rule's reading of the same words goes with it
                same = [
                    h
                    for h in hits
                    if h.kind == hit.kind and h.values == hit.values and h not in gone
                ]
                hits.append(new)
                self._note(event.seq, m.start(), m.end(), None, (new,))
                return same
        return []

    def _new_setting(
        self,
        event: EpisodeEvent,
        hits: list[_Hit],
        settings: list[_Hit],
        value: str,
        span: tuple[int, int],
    ) -> list[_Hit]:
        """When ``settings`` are all one setting, a hit with its new ``value`` (cited by
        ``span``) joins ``hits``, and the replaced hit is returned for the caller to withdraw."""
        if len({h.values["subject"] for h in settings}) != 1:
            return []
        old = settings[-1]
        new = _Hit("working_state", {**old.values, "value": value})
        new.evidence.append((event.seq, *span))
        new.stated_end = span[1]
        hits.append(new)
        self._note(event.seq, span[0], span[1], None, (new,))
        return [old]

    def _levels_swapped(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> None:
        """The two languages an earlier message gave different levels trade them, unless this
        message states languages of its own."""
        langs = [h for h in hits if h.kind == "language"]
        if not langs or any(_said_in(h, event.seq) for h in langs):
            return
        latest = max(h.evidence[-1][0] for h in langs)
        # two rules may read the same words: one level per language
        levels = {
            h.values["language"]: h.values.get("level")
            for h in langs
            if h.evidence[-1][0] == latest
        }
        if len(levels) != 2 or len(set(levels.values())) != 2:
            return
        first, second = levels
        swapped = {first: levels[second], second: levels[first]}
        for old in [h for h in langs if h.evidence[-1][0] == latest]:
            new = _Hit("language", {**old.values, "level": swapped[old.values["language"]]})
            self._replace(old, new, hits, event.seq, m.span())

    def _official_title(self, event: EpisodeEvent, m: re.Match[str], hits: list[_Hit]) -> None:
        """The official title replaces the job this message said before it; alone ("honestly at
        this point my real job title is yaml engineer") it is no statement of a job."""
        said = [
            h
            for h in hits
            if h.kind == "occupation" and _said_in(h, event.seq) and h.evidence[-1][1] < m.start()
        ]
        if not said:
            return
        role = m.group("role")
        new = _Hit("occupation", {"role": role})
        try:
            normalize_claim("occupation", new.values)
        except InvalidInput:
            return
        for old in said:
            self._take_back(old, hits, event.seq, m.span())
        self._add(new, hits, event.seq, m.span("role"))

    def _denied_own(
        self, m: re.Match[str], hits: list[_Hit], gone: list[_Hit], seq: int
    ) -> list[_Hit]:
        """The earlier claims a flat denial names: the user's name (only the one the assistant's
        last reply used, if it used one: "thats not my name" after "Sure, Marge!" denies the
        assistant's slip), a home by its place, or "there"/"here", the home the user's previous
        message said."""
        earlier = [h for h in hits if h not in gone and not all(e[0] == seq for e in h.evidence)]
        if m.group("name"):
            addressed = _ADDRESSED.match(self._reply)
            return [
                h
                for h in earlier
                if h.kind in ("name", "preferred_name")
                and (
                    addressed is None
                    or (h.values.get("name") or "").casefold().split()[0]
                    == addressed.group("name").casefold()
                )
            ]
        homes = [h for h in earlier if h.kind == "home_location"]
        if m.group("there"):
            last = max((e[0] for h in hits for e in h.evidence if e[0] < seq), default=None)
            return [h for h in homes if h.evidence[-1][0] == last]
        place = m.group("place").casefold()
        return [h for h in homes if (h.values.get("place") or "").casefold().startswith(place)]

    def _said_instead(
        self, event: EpisodeEvent, old: _Hit, what: str, instead: re.Match[str], hits: list[_Hit]
    ) -> None:
        """The value said in place of ``old``'s, whose field held ``what``."""
        fields = [f for f in old.values if f != "polarity"]
        field_name = next(
            (f for f in fields if (old.values[f] or "").casefold() == what),
            # ("company name I told is wrong": the kind named, whose one value it is)
            fields[0] if len(fields) == 1 else None,
        )
        value = instead.group("new")
        if field_name is None or _normal(old.kind, field_name, value) is None:
            return
        new = _Hit(old.kind, {**old.values, field_name: value})
        new.evidence.append((event.seq, *instead.span("new")))
        new.stated_end = instead.end("new")
        self._note(event.seq, *instead.span("new"), None, (new,))
        hits.append(new)

    def _withdrawn(self, event: EpisodeEvent, hits: list[_Hit], mask: int) -> bool:
        """ "forget the gluten-free bit", "im not coeliac", "im not sure im allergic": a later
        message takes back the earlier claims it names, by value or by kind."""
        text = event.text
        gone: list[_Hit] = []
        named_any = False  # a takeback that names what it takes back governs only that
        patterns = [_FORGET_WHAT, _NOT_SO, _TOPIC_TAKEN_BACK]
        if self._withdrew_at is not None and self._withdrew_at == self._previous_owned:
            patterns.append(_AND_THAT_TOO)
        for pattern in patterns:
            for m in pattern.finditer(text, mask):
                said = next((v for k, v in m.groupdict().items() if k.startswith("what") and v), "")
                what = _WITHDRAWN_TAIL.sub("", said.casefold()).strip()
                if not what or (pattern is _NOT_SO and _OTHER_SUBJECT.search(text, 0, m.start())):
                    continue
                named = [
                    hit
                    for hit in hits
                    if hit not in gone
                    and not all(e[0] == event.seq for e in hit.evidence)
                    and _names_claim(hit, what)
                ]
                gone += named
                named_any = named_any or bool(named)
                # "leeds was a typo, its york", "company name I told is wrong, it is TCS only":
                # the right value, said straight after
                if (
                    pattern is _TOPIC_TAKEN_BACK
                    and m.group("what7")
                    and len({tuple(h.values.items()) for h in named}) == 1
                    and (instead := _ITS_INSTEAD.match(text, m.end())) is not None
                ):
                    self._said_instead(event, named[0], what, instead, hits)
                # "ignore the amazon stuff i said earlier, that was my coworkers cv": the stuff
                # is everything the message that named it stated
                if named and pattern is _FORGET_WHAT and _WITHDRAWN_TAIL.search(said.casefold()):
                    seqs = {e[0] for h in named for e in h.evidence if e[0] != event.seq}
                    gone += [
                        h
                        for h in hits
                        if h not in gone
                        and {e[0] for e in h.evidence} <= seqs
                        and h.kind in _JOB_KINDS_TOGETHER.get(named[0].kind, ())
                    ]
        if mask & _NTH_NAME.bit and (nth := _NTH_NAME.search(text, mask)):
            # "i have two cats luna and pip" ... "the second name is actually pippa": the pet
            # named in that place in the message before, renamed
            earlier = _held_before(hits, gone, event.seq)
            pets = sorted(
                (h for h in earlier if h.kind == "pet" and h.values.get("name")),
                key=lambda h: (h.evidence[-1][0], h.evidence[-1][1]),
            )
            if pets:
                latest = pets[-1].evidence[-1][0]
                said = [h for h in pets if h.evidence[-1][0] == latest]
                place = _ORDINALS[nth.group("nth").casefold()]
                if len(said) >= 2 and place < len(said):
                    old_pet = said[place]
                    new_pet = _Hit("pet", {**old_pet.values, "name": nth.group("new")})
                    self._replace(old_pet, new_pet, hits, event.seq, nth.span("new"))
                    named_any = True
        # "lol the last thing i said was a joke o": the last claim of the message before
        if (
            mask & _LAST_THING.bit
            and _LAST_THING.search(text, mask)
            and (said := _latest_said(_held_before(hits, gone, event.seq)))
        ):
            gone.append(max(said, key=lambda h: h.evidence[-1][1]))
            named_any = True
        # "well not anymore tbh, stopped back in march": the last claim of the message before is
        # over; "spanish not anymore, i stopped it": the one the message names
        if mask & _NOT_ANYMORE_OPENS.bit and (over := _NOT_ANYMORE_OPENS.match(text, mask)):
            held = _held_before(hits, gone, event.seq)
            if what := over.group("what"):
                gone += [h for h in held if _names_claim(h, what.casefold())]
            elif said := _latest_said(held):
                gone.append(max(said, key=lambda h: h.evidence[-1][1]))
            named_any = True
        testing = mask & _JUST_TESTING.bit and _JUST_TESTING.search(text, mask)
        # ("im not a pilot and never been to dubai, was just testing": a test takes back the
        # whole message before, whatever else this one names)
        if testing or (
            not named_any
            and (
                (mask & _NOT_ABOUT_ME.bit and _NOT_ABOUT_ME.search(text, mask))
                or (_STATE_DENIED.match(text) and "?" not in self._reply)
            )
        ):
            # every claim of the user's message before, and only those said there alone
            earlier = _held_before(hits, gone, event.seq)
            said_at = {e[0] for h in earlier for e in h.evidence if e[0] < event.seq}
            if said_at and (not testing or max(said_at) == self._previous_owned):
                latest = max(said_at)
                gone += [h for h in earlier if {e[0] for e in h.evidence} == {latest}]
        if mask & _OUTDATED.bit and (outdated := _OUTDATED.search(text, mask)):
            folded = text[: outdated.start()].casefold()  # what "that" refers to
            gone += [
                h
                for h in _held_before(hits, gone, event.seq)
                if any(v and len(v) > 2 and v.casefold() in folded for v in h.values.values())
            ]
        for m in _LEFT_ORG.finditer(text, mask):
            left = m.group("what").casefold()
            folded = text.casefold()
            gone += [
                h
                for h in _held_before(hits, gone, event.seq, ("employer",))
                if left.startswith(org := (h.values.get("org") or "\0").casefold().split()[0])
                # "sorry not ocado, i left there in march": "there" is the one this message names
                or (left.split()[0] in ("there", "them") and org in folded)
            ]
        # "i said eu-west-1 earlier but thats the old staging account": what was said is taken
        # back (the value that replaces it, if any, is stated in its own words)
        for m in _SAID_WRONG.finditer(text, mask):
            old = m.group("old").casefold()
            gone += [
                h
                for h in _held_before(hits, gone, event.seq)
                if any((v or "").casefold() == old for v in h.values.values())
            ]
        for pattern in (_NOT_X_BUT_Y, _SAID_EARLIER, _Y_NOT_X, _STAR_NOT, _ACTUALLY_NOT_JUST):
            for m in pattern.finditer(text, mask):
                replaced = self._replace_value(event, m, hits, gone)
                gone += replaced
                # "the monorepo is turborepo + yarn workspaces" ... "sorry not yarn, we moved
                # to pnpm": a setting whose value named the word taken back was wrong
                if not replaced and pattern is _NOT_X_BUT_Y:
                    gone += _settings_naming(hits, gone, event.seq, m.group("old"))
        # "my dog Rex" ... "Rex died in march", "our hamster passed away": gone, with the less
        # specific "has a dog" said of the same pet
        died = {_died_name(m) for m in _NAME_DIED.finditer(text, mask)}
        died_species = {
            _normal("pet", "species", m.group("noun")) for m in _PET_DIED.finditer(text, mask)
        }
        dead = [
            h
            for h in (hits if died or died_species else ())
            if h.kind in ("pet", "relationship")
            and h not in gone
            and not all(e[0] == event.seq for e in h.evidence)
            and (
                (h.values.get("name") or "").casefold() in died
                or (h.kind == "pet" and h.values["species"] in died_species)
            )
        ]
        died_kinds = {(h.kind, h.values.get("species") or h.values.get("relation")) for h in dead}
        gone += dead + [
            h
            for h in (hits if dead else ())
            if h not in gone
            and h not in dead
            and not h.values.get("name")
            and (h.kind, h.values.get("species") or h.values.get("relation")) in died_kinds
            and not all(e[0] == event.seq for e in h.evidence)
        ]
        # "im vegetarian" ... "i eat meat again": a diet the food eaten again breaks is over
        for m in _EATS_AGAIN.finditer(text, mask):
            broken = _DIETS_BROKEN.get(m.group("food").casefold(), ())
            gone += [
                h
                for h in _held_before(hits, gone, event.seq, ("diet",))
                if _normal("diet", "diet", h.values["diet"] or "") in broken
            ]
        # "im a teacher at greenfield" ... "i retired last year tho": no job any more
        if mask & _RETIRED.bit and _RETIRED.search(text, mask):
            gone += _held_before(hits, gone, event.seq, ("employer", "occupation"))
        # (only where this message names no animal first: "we have a kitten coming but havent
        # got her yet" is about that one, never the dog said before)
        not_yet = _PET_NOT_YET.search(text, mask) or _PET_IN_GAME.search(text, mask)
        if not_yet is not None and not _PET_WORD.search(text, 0, not_yet.start()):
            # the animals of the latest message that named one (not yet, or a game's)
            gone += _latest_said(_held_before(hits, gone, event.seq, ("pet",)))
        if mask & _OFFER_GONE.bit and _OFFER_GONE.search(text, mask):
            # the job of the latest message that named one
            gone += _latest_said(_held_before(hits, gone, event.seq, ("employer", "occupation")))
        for m in _ACTUALLY_NOW.finditer(text, mask):
            subject, value = m.group("subj").casefold(), m.group("new")
            settings = [
                h
                for h in _held_before(hits, gone, event.seq, ("working_state",))
                if (h.values["subject"] or "").casefold().split()[:1] == [subject]
                and (h.values["value"] or "").casefold() != value.casefold()
            ]
            gone += self._new_setting(event, hits, settings, value, m.span())
        if mask & _DROPPED_SETTING.bit and (drop := _DROPPED_SETTING.search(text, mask)):
            dropped = _settings_valued(hits, gone, event.seq, drop.group("old"))
            new_value = drop.group("new")
            if new_value and new_value.casefold() not in _STATE_WORDS:
                gone += self._new_setting(event, hits, dropped, new_value, drop.span())
            else:
                gone += dropped
        if mask & _ITS_NOW_CHANGED.bit and (its := _ITS_NOW_CHANGED.search(text, mask)):
            new_value = (
                its.group("new")
                or its.group("new2")
                or its.group("new3")
                or its.group("new4")
                or its.group("port")
                or its.group("port2")
            )
            if its.group("port") or its.group("port2"):
                last = [
                    h
                    for h in _last_settings(hits, gone, event.seq, new_value)
                    if (h.values["subject"] or "").casefold().endswith("port")
                ]
            elif subject := its.group("subj"):
                last = [
                    h
                    for h in hits
                    if h.kind == "working_state"
                    and h not in gone
                    and h.evidence[-1][0] != event.seq
                    and (h.values["subject"] or "").casefold().endswith(subject.casefold())
                ]
            else:
                last = _last_settings(hits, gone, event.seq, new_value)
            if last and new_value.casefold() not in _STATE_WORDS:
                gone += self._new_setting(event, hits, last, new_value, its.span())
        if mask & _PORT_ASSIGNED.bit and (port := _PORT_ASSIGNED.search(text, mask)):
            ports = [
                h
                for h in _earlier_settings(hits, gone, event.seq)
                if (h.values["subject"] or "").casefold().endswith("port")
                and h.values["value"] != port.group("new")
            ]
            gone += self._new_setting(event, hits, ports[-1:], port.group("new"), port.span())
        if mask & _UPGRADE_DONE.bit and (done := _UPGRADE_DONE.search(text, mask)):
            # "db is postgres 14 ... want to go to 16" ... "upgrade done, app connected to 16":
            # the one versioned setting said before moves to the version the upgrade reached
            versioned = [
                h
                for h in _earlier_settings(hits, gone, event.seq)
                if _VERSION_TAIL.fullmatch((h.values["value"] or "").rsplit(" ", 1)[-1])
            ]
            if len(versioned) == 1:
                old_value = versioned[0].values["value"] or ""
                head, _, _ = old_value.rpartition(" ")
                value = f"{head} {done.group('new')}".strip()
                if value != old_value:
                    gone += self._new_setting(event, hits, versioned, value, done.span())
        if mask & _STOPPED_DEPLOYING.bit and (stop := _STOPPED_DEPLOYING.search(text, mask)):
            branches = [
                h
                for h in _settings_valued(hits, gone, event.seq, stop.group("old"))
                if (h.values["subject"] or "").endswith("deploy branch")
            ]
            if stop.group("new") and stop.group("new").casefold() != stop.group("old").casefold():
                gone += self._new_setting(event, hits, branches, stop.group("new"), stop.span())
            else:
                gone += branches
        if mask & _BUMPED_TO.bit and (bump := _BUMPED_TO.search(text, mask)):
            versions = [
                h
                for h in hits
                if h.kind == "working_state"
                and h not in gone
                and (h.values["subject"] or "").endswith(" version")
                and _VERSION_TAIL.fullmatch(h.values["value"] or "")
            ]
            value = bump.group("new") or bump.group("new2")
            gone += self._new_setting(event, hits, versions, value, bump.span())
        if mask & _NO_WE_ARE_ON.bit and (denial := _NO_WE_ARE_ON.search(text, mask)):
            versions = [
                h
                for h in hits
                if h.kind == "working_state"
                and h not in gone
                and h.evidence[-1][0] != event.seq
                and (h.values["subject"] or "").endswith(" version")
                and _VERSION_TAIL.fullmatch(h.values["value"] or "")
            ]
            gone += self._new_setting(event, hits, versions, denial.group("new"), denial.span())
        # "im a pharmacist at boots" / "*pharmacy technician sorry": a bare starred title
        # corrects the job said before
        if text.lstrip()[:1] == "*" and (star := _STAR_FIX.match(text)) is not None:
            jobs = [
                h
                for h in hits
                if h.kind == "occupation" and h not in gone and h.evidence[-1][0] != event.seq
            ]
            if jobs and _ROLE_ALONE.fullmatch(star.group("new")):
                self._add(
                    _Hit("occupation", {"role": star.group("new")}),
                    hits,
                    event.seq,
                    star.span("new"),
                )
                gone.append(jobs[-1])
            # "need a van near me, im in leicester" / "*leeds": a place the gazetteer knows
            # corrects the home the message before said
            homes = [
                h
                for h in hits
                if h.kind == "home_location" and h not in gone and h.evidence[-1][0] != event.seq
            ]
            new_place = star.group("new")
            if (
                homes
                and canonical_place(new_place) is not None
                and (homes[-1].values.get("place") or "").casefold() != new_place.casefold()
            ):
                self._add(
                    _Hit("home_location", {"place": new_place}), hits, event.seq, star.span("new")
                )
                gone.append(homes[-1])
        # "line length is 88" / "we changed it to 120 today": "it" is the setting said last
        if (
            mask & _CHANGED_IT.bit
            and (changed := _CHANGED_IT.search(text, mask))
            and (last := _last_settings(hits, gone, event.seq, changed.group("new")))
        ):
            gone += self._new_setting(event, hits, last, changed.group("new"), changed.span())
        for m in _DONT_HAVE.finditer(text, mask):
            if _next_word(text, m.end()) in _COMPOUND_NEXT:
                continue  # "i dont have a cat allergy"
            if m.group("noun") is None:
                gone += [h for h in _held_before(hits, gone, event.seq, ("pet",))]
                continue
            noun = m.group("noun")
            kind, field = (
                ("pet", "species") if _PET_NOUN.fullmatch(noun) else ("relationship", "relation")
            )
            said = _normal(kind, field, noun)
            gone += [
                h
                for h in _held_before(hits, gone, event.seq)
                if h.kind == kind and h.values.get(field) == said
            ]
        for m in _FINE_AFTER_ALL.finditer(text, mask):
            fine = m.group("what").casefold()
            gone += [
                h
                for h in _held_before(hits, gone, event.seq)
                if (
                    (
                        h.kind == "preference"
                        and h.values.get("polarity") == "dislikes"
                        and fine in (h.values.get("object") or "").casefold().split()
                    )
                    or (
                        h.kind == "allergy"
                        and _normal("allergy", "allergen", fine)
                        == _normal("allergy", "allergen", h.values.get("allergen") or "")
                    )
                )
            ]
        for m in _DONT_SPEAK.finditer(text, mask):
            denied = (m.group("lang") or "").casefold()
            gone += [
                h
                for h in _held_before(hits, gone, event.seq)
                if h.kind == "language"
                and (not denied or (h.values.get("language") or "").casefold() == denied)
            ]
        for m in _NOT_MINE.finditer(text, mask):
            if _next_word(text, m.end()) in _COMPOUND_NEXT:
                continue  # "thats not my cat food"
            species = _normal("pet", "species", m.group("noun") or m.group("noun2"))
            gone += [
                h
                for h in _held_before(hits, gone, event.seq, ("pet",))
                if h.values.get("species") == species
            ]
        for m in _DENIED_OWN.finditer(text, mask):
            gone += self._denied_own(m, hits, gone, event.seq)
        for m in _SOMEONE_ELSES.finditer(text, mask):
            species = _normal("pet", "species", m.group("noun"))
            gone += [
                h
                for h in _held_before(hits, gone, event.seq, ("pet",))
                if h.values.get("species") == species and h.values.get("name") is None
            ]
        for m in _WAS_OLD.finditer(text, mask):
            said = _THE.sub("", (m.group("what") or m.group("what2")).casefold())
            gone += [
                h
                for h in _held_before(hits, gone, event.seq)
                if any(v and _THE.sub("", v.casefold()) == said for v in h.values.values())
            ]
        for pattern, kinds in _WITHDRAWN_KINDS:
            if mask & pattern.bit and (said := pattern.search(text, mask)):
                # "costa is my old job now" ends the jobs said before only when costa is one
                # of them ("starbucks was my old job" says nothing of the job at costa)
                # (the employer alone: "sorry i meant capgemini, accenture was my old job"
                # keeps the consultant the user still is)
                if old_org := said.groupdict().get("named"):
                    gone += [
                        h
                        for h in _held_before(hits, gone, event.seq, ("employer",))
                        if (h.values["org"] or "").casefold() == old_org.casefold()
                    ]
                    continue
                gone += [h for h in _held_before(hits, gone, event.seq) if h.kind in kinds]
        if mask & _BROKE_UP.bit and (broke := _BROKE_UP.search(text, mask)):
            said = next(
                (broke.group(g) for g in ("name", "name2", "name3") if broke.group(g)), None
            )
            gone += [
                h
                for h in _held_before(hits, gone, event.seq, ("relationship",))
                if h.values["relation"] in _PARTNERS | _SPOUSES
                and (said is None or (h.values.get("name") or "").casefold() == said.casefold())
            ]
        for hit in gone:
            self._taken_back.append((hit, event.seq))
            self._note(event.seq, 0, len(text), "retracted", (hit,))
        if gone:
            ids = {id(h) for h in gone}
            hits[:] = [h for h in hits if id(h) not in ids]
        married = False
        if mask & _GOT_MARRIED.bit and (wed := _GOT_MARRIED.search(text, mask)):
            partners = [
                h
                for h in hits
                if h.kind == "relationship"
                and h.values["relation"] in _PARTNERS
                and not all(e[0] == event.seq for e in h.evidence)
            ]
            if len({(h.values["relation"], h.values.get("name")) for h in partners}) == 1:
                old = partners[-1]
                new = _Hit(
                    "relationship",
                    {**old.values, "relation": _MARRIED_AS[old.values["relation"] or ""]},
                )
                self._replace(old, new, hits, event.seq, wed.span())
                married = True
        if gone:
            self._withdrew_at = event.seq
        return bool(gone) or married

    def _corrected_value(
        self, event: EpisodeEvent, hits: list[_Hit], previous_seq: int | None = None
    ) -> bool:
        """A message giving the corrected value of an earlier claim ("i should say vegetarian
        now") replaces the latest claim of the kind whose plain statement the value makes."""
        for m in (
            *_CORRECTED_VALUE.pattern.finditer(event.text),
            *_CORRECTED_LEAD.finditer(event.text),
        ):
            g = next(
                (
                    k
                    for k in ("value2", "alone", "fixed", "precise", "meant")
                    if m.re.groupindex.get(k) and m.group(k)
                ),
                "value",
            )
            value = m.group(g)
            for hit in reversed(hits):
                if g == "meant" and hit.kind == "preference":
                    # a taste keeps its polarity ("i hate cilantro" ... "i mean coriander"), put
                    # right in the message right after it, by a thing (never "i mean tomorrow")
                    if _said_in(hit, event.seq):
                        continue
                    first = value.split()[0].casefold()
                    if hit.evidence[-1][0] != previous_seq or first in _NOT_A_NAME:
                        break
                    new = _Hit("preference", {**hit.values, "object": value})
                    try:
                        normalize_claim("preference", new.values)
                    except InvalidInput:
                        break
                    new.evidence.append((event.seq, m.start(g), m.end(g)))
                    new.stated_end = m.end(g)
                    self._taken_back.append((hit, event.seq))
                    self._note(event.seq, m.start(g), m.end(g), None, (new,))
                    hits[hits.index(hit)] = new
                    return True
                restated = _RESTATED.get(hit.kind)
                if restated is None or (g == "value2" and hit.kind != "relationship"):
                    continue
                # ... only the value the words deny
                if g == "fixed" and not any(
                    (v or "").casefold() == m.group("denied").casefold()
                    for v in hit.values.values()
                ):
                    continue
                # "make it a bit friendlier": a request about a draft names no one
                if (
                    hit.kind in ("name", "preferred_name")
                    and value.islower()
                    and len(value.split()) > 1
                    and not all(_given_names(w) for w in value.split())
                ):
                    continue
                template, rule = restated
                synthetic = template.format(value)
                found = [
                    h for h in rule(synthetic, _PREFILTER.scan(synthetic)) if h.kind == hit.kind
                ]
                if len(found) != 1 or (
                    hit.kind == "working_state"
                    and found[0].values.get("subject") != hit.values.get("subject")
                ):
                    continue
                if found[0].values == hit.values:
                    return True
                new = found[0]
                # "im Katarzyna Wojcik" then "sorry i meant Wójcik": the one word put right
                if hit.kind == "name" and (whole := _respelled_part(hit, new)) is not None:
                    new = _Hit("name", {"name": whole})
                new.verb = None
                new.evidence.append((event.seq, m.start(), m.end(g)))
                new.stated_end = m.end(g)
                self._taken_back.append((hit, event.seq))
                self._note(event.seq, m.start(), m.end(g), None, (new,))
                hits[hits.index(hit)] = new
                return True
            # "oops i meant Miso": a name given in place of the name said just before
            name = event.text[m.start(g) : m.end(g)].split()[0]
            if name[:1].isupper() and previous_seq is not None:
                for hit in reversed(hits):
                    held = hit.values.get("name")
                    if g == "fixed" and (held or "").casefold() != m.group("denied").casefold():
                        continue
                    if held and any(e[0] == previous_seq for e in hit.evidence):
                        if held.casefold() != name.casefold():
                            new = _Hit(hit.kind, {**hit.values, "name": name}, None)
                            span = (m.start(g), m.start(g) + len(name))
                            self._replace(hit, new, hits, event.seq, span)
                        return True
        return False

    def _self_corrected(self, text: str, seq: int, hits: list[_Hit], before: int) -> None:
        """A value corrected right after it is stated ("vegetarian — well pescatarian") is
        replaced by the correction, which must read as a statement of the same kind."""
        # "We are using mysql 5.7, how to query...? no wait sorry, we upgraded": a sentence
        # that opens by taking back takes back the sentence before it
        for opener in _RETRACT_OPENS.finditer(text):
            stop = opener.start()
            while stop > 0 and text[stop - 1] in ".!?":
                stop -= 1  # the end of the sentence taken back is not its start
            previous = max((m.end() for m in _SENTENCE_END.finditer(text, 0, stop)), default=0)
            for i in range(len(hits) - 1, before - 1, -1):
                hit = hits[i]
                if previous <= hit.stated_end <= opener.start() and any(
                    e[0] == seq for e in hit.evidence
                ):
                    self._take_back(hit, hits, seq, hit.evidence[-1][1:])
        corrections = [
            *_SELF_CORRECTION.finditer(text),
            *_VALUE_ACTUALLY.finditer(text),
            *_RETRACT_ONLY.finditer(text),
            *_FIX_LOOSE.finditer(text),
        ]
        if not corrections:
            return
        # the hits that end just before a correction, found by bisection: a long message of
        # many claims and corrections stays linear
        ends = sorted((h.stated_end, i) for i, h in enumerate(hits) if i >= before)
        keys = [e for e, _ in ends]
        for m in corrections:
            lo = bisect.bisect_left(keys, m.start() - 39)
            hi = bisect.bisect_right(keys, m.start())
            for _, index in ends[lo:hi]:
                hit = hits[index]
                if m.re is _VALUE_ACTUALLY and hit.kind == "home_location" and not m.group("meant"):
                    continue  # "im in astoria, queens now": a region, not a correction
                if m.re is _FIX_LOOSE:
                    # "my cat... i mean my second nintendog keeps interrupting": the value said
                    # right before an outright correction is taken back even when what replaces
                    # it reads as no claim
                    if (
                        index == ends[hi - 1][1]
                        and 0 <= m.start() - hit.stated_end < 4
                        and not _SENTENCE_END.search(text, hit.stated_end, m.start())
                    ):
                        self._take_back(hit, hits, seq, hit.evidence[-1][1:])
                        return self._self_corrected(text, seq, hits, before)
                    continue
                if m.re is _RETRACT_ONLY:
                    if (
                        0 <= m.start() - hit.stated_end < 40
                        and hit.kind != "relationship"
                        and not _SENTENCE_END.search(text, hit.stated_end, m.start())
                        and not _other_job_corrected(hit, m, hits[before:])
                    ):
                        self._take_back(hit, hits, seq, hit.evidence[-1][1:])
                        return self._self_corrected(text, seq, hits, before)
                    continue
                restated = _RESTATED.get(hit.kind)
                said = m.group("value")
                if not 0 <= m.start() - hit.stated_end < 40:
                    continue
                # "im allergic to penicillin - wait no thats my roommate": what follows says
                # whose the claim is, not a new value; the claim is taken back
                if said.split()[0].casefold() in _POINTING and not _SENTENCE_END.search(
                    text, hit.stated_end, m.start()
                ):
                    self._take_back(hit, hits, seq, hit.evidence[-1][1:])
                    return self._self_corrected(text, seq, hits, before)
                # "I really don't like maple syrup, sorry Canada": a bare apology to a name is
                # said to someone, not a new value for a thing named in lower case
                if (
                    hit.kind in _COMMON_NOUN_KINDS
                    and _BARE_SORRY.match(m.group())
                    and said[:1].isupper()
                    and not said.isupper()
                    and not any(v and v[:1].isupper() for v in hit.values.values())
                ):
                    continue
                # "Pune. Sorry, Pimpri-Chinchwad": a correction may open the next sentence
                if _SENTENCE_END.search(
                    text, hit.stated_end, m.start()
                ) and not _OPENS_SENTENCE.match(text, m.start()):
                    continue
                found = []
                if restated is not None:
                    template, rule = restated
                    for form in (template, *_RESTATED_TOO.get(hit.kind, ())):
                        synthetic = form.format(said)
                        found = [
                            h
                            for h in rule(synthetic, _PREFILTER.scan(synthetic))
                            if h.kind == hit.kind
                        ]
                        if found:
                            break
                # "my wife Fatima, sorry Fatma", "Tagalog, i mean Cebuano", "postgres 14 - no,
                # 15", "feature/login-fix, i mean feat/auth-login": the value said just before
                # the correction takes its place, in a claim that must still be valid
                # "i speak portuguese fluently, i mean im learning it": the level put right
                if hit.kind == "language" and _LEARNING_IT.fullmatch(said):
                    found = [_Hit("language", {**hit.values, "level": "learning"})]
                if len(found) != 1 and (swapped := _swapped(hit, said, text[: m.start()])):
                    found = [swapped]
                if len(found) != 1 or found[0].values == hit.values:
                    # "my cat, i mean my dog", "i work at tesco, well worked": an outright
                    # correction whose new value is no claim of this kind still takes the
                    # value before it back
                    # (only the value said last, right before it: "im a business analyst at
                    # accenture, sorry i meant capgemini" keeps the analyst)
                    if (
                        not found
                        and index == ends[hi - 1][1]
                        and m.start() - hit.stated_end < 4
                        and not _SENTENCE_END.search(text, hit.stated_end, m.start())
                        and _FIX_MARKER.match(text[: m.end()], m.start())
                        and not _NOT_A_FIX.match(said)
                        and not _IT_IS_BEFORE.search(text, m.start(), m.start("value"))
                        # "pnpm i mean, switched last month": "i mean" closes the words before
                        and not _MEAN_CLOSES.match(text, m.start())
                    ):
                        self._take_back(hit, hits, seq, hit.evidence[-1][1:])
                        return self._self_corrected(text, seq, hits, before)
                    continue
                new = found[0]
                if hit.kind == "name" and (whole := _respelled_part(hit, new)) is not None:
                    new = _Hit("name", {"name": whole})
                new.verb = None
                end = m.end("value")
                # "my boyfriend Marco - fiancé actually": the name stays with the new relation
                if new.kind == "relationship" and new.values.get("name") is None:
                    new.values["name"] = hit.values.get("name")
                if m.groupdict().get("region") and new.kind == "home_location":
                    new.values["place"] = f"{new.values['place']}, {m.group('region')}"
                    end = m.end("region")
                new.evidence.append((seq, hit.evidence[-1][1], end))
                new.stated_end = end
                self._taken_back.append((hit, seq))
                self._note(seq, hit.evidence[-1][1], hit.evidence[-1][2], "retracted", (hit,))
                self._note(seq, m.start("value"), m.end("value"), None, (new,))
                hits[index] = new
                # another rule's reading of the same corrected words goes too
                folded = {k: (v or "").casefold() for k, v in hit.values.items()}
                for _, other in ends[lo:hi]:
                    if (
                        other != index
                        and {k: (v or "").casefold() for k, v in hits[other].values.items()}
                        == folded
                    ):
                        self._taken_back.append((hits[other], seq))
                        hits[other] = new
                break

    def _team_setup(
        self, event: EpisodeEvent, text: str, start: int, end: int, report_from: int, mask: int
    ) -> list[_Hit]:
        """The working state a report by the user's own lead or team states, unhedged: what the
        team decided is the setup the user works in ("my lead told today we are changing,
        deploy branch is now 'prod-release'"); anything else it says stays the lead's."""
        start = max(start, report_from)
        content = text[start:end]
        if _CONDITIONAL.search(content, mask) or _clause_reason(content, mask):
            return []
        found = self._clause(event, text, start, end, False, mask, quiet=True)
        return [h for h in found if h.kind == "working_state"]

    def _clause(
        self,
        event: EpisodeEvent,
        text: str,
        start: int,
        end: int,
        may_greet: bool,
        mask: int,
        asking: bool = False,
        quiet: bool = False,
    ) -> list[_Hit]:
        tail = _CONTRAST_TAIL.search(text, start, end)
        quote_end = tail.start() if tail else end
        clause = text[start:quote_end]
        # "me horse Dusty", "me brother in law dazza": "me" for "my" in Irish, British and
        # Australian speech, before a relative or an animal where a clause or phrase opens
        if "me " in clause and (dialect := _ME_FOR_MY.sub(r"\g<lead>my", clause)) != clause:
            clause, mask = dialect, mask | _PREFILTER.scan(dialect)
        found: list[_Hit] = []
        if asking:
            # only what the question mentions in passing, cited as the phrase itself ("what if
            # say my partner spoke french": a relative supposed is not one mentioned)
            if mask & _POSSESSIVE.bit and not _SUPPOSED_MY.search(clause):
                found.extend(_rule_possessive(clause, mask))
            if mask & _HOME_MENTION_BITS:
                found.extend(_rule_home_possessive(clause, mask))
            if mask & _CALL_ME.bit:
                found.extend(h for h in _rule_names(clause, mask, False))
            # "the wife Maureen says ...": a relative named in passing, as "my wife" is
            if mask & _HOUSEHOLD.bit:
                found.extend(h for h in _rule_household(clause, mask) if h.values.get("name"))
            if mask & _PET_CHORE.bit:
                found.extend(_rule_pet_chore(clause, mask))
            # "as a pharmacist, what notice do i need": the frame the ask is made from
            if mask & (_AS_A_ROLE.bit | _STAFF_THING.bit):
                found.extend(h for h in _rule_work(clause, mask) if h.phrase)
        else:
            # "me and my bf moved to porto": the couple is "we" to every rule, while the
            # partner is still named in the words that say so
            said = clause
            if (pair := _ME_AND_MY.match(clause)) is not None:
                said = "we" + " " * (pair.end() - 2) + clause[pair.end() :]
            if mask & _NAMES_BITS:
                found.extend(_rule_names(clause, mask, may_greet))
            for rule, bits in _RULES:
                if mask & bits:
                    found.extend(rule(clause if rule is _rule_possessive else said, mask))
            if mask & _RETRACTION.bit and self._retracting(text, mask):
                found.extend(_rule_corrected_home(clause, mask))
        # "i am contadora, i mean accountant": a title in another language, put right in the
        # clause after it, is no name
        if found and _TITLE_SAID_AGAIN.match(text, end):
            found = [h for h in found if h.kind != "name"]
        # "haha i like the playlist" after the assistant offered one: a pick of what was
        # offered, not a taste
        if found and self._reply:
            found = [h for h in found if not _offered(clause, h, self._reply)]
        # "i broke up with my boyfriend": the partner the clause ends is no claim
        if found and mask & _BROKE_UP.bit and _BROKE_UP.search(clause, mask):
            found = [
                h
                for h in found
                if h.kind != "relationship"
                or _normal("relationship", "relation", h.values["relation"] or "")
                not in _PARTNERS | _SPOUSES
            ]
        # "they used npm, now pnpm": a setting said without a subject of its own belongs to
        # the subject of the clause before it
        if (
            found
            and _NOW_TOOL.match(clause)
            and (
                last := next(reversed([*_PRONOUN.finditer(text, max(0, start - 80), start)]), None)
            )
            and last.group().casefold() not in _USER_PRONOUNS
        ):
            found = [h for h in found if h.kind != "working_state"]
        # "my rabbit keeps chewing ..., well not MY rabbit": the noun denied in its clause;
        # "auntie grace next door ..., shes not actually my auntie": anywhere in the message
        if (
            found
            and mask & _NOT_MY.bit
            and (
                not_mine := [m.group("noun") for m in _NOT_MY.finditer(clause, mask)]
                + [m.group("noun") for m in _NOT_REALLY_MY.finditer(text)]
            )
        ):
            nouns = {_normal("pet", "species", n) for n in not_mine} | {
                _normal("relationship", "relation", n) for n in not_mine
            }
            found = [
                h
                for h in found
                if h.kind not in ("pet", "relationship")
                or (h.values.get("species") or h.values.get("relation")) not in nouns
            ]
        # "i have my sisters twins this weekend ... three kids under 5": a count of children in
        # a message about someone else's is not the user's own
        if found and mask & _OTHERS_KIDS.bit and _OTHERS_KIDS.search(text, mask):
            # ... unless the user says outright they are a parent ("im a single mum of two and
            # the neighbours kids keep kicking their ball into our garden")
            said_parent = {m.span() for m in _PARENT.finditer(clause, mask)}
            found = [
                h
                for h in found
                if not (
                    h.kind == "relationship"
                    and h.values["relation"] == "child"
                    and not h.values.get("name")
                    and h.verb not in said_parent
                )
            ]
        # "my coworkers project is on node 14": a setting of another's project
        if found and mask & _ANOTHERS_PROJECT.bit and _ANOTHERS_PROJECT.search(clause, mask):
            found = [h for h in found if h.kind != "working_state"]
        # "my coworker's stack:\n- db: mysql 8": a bulleted setting is the list owner's, whom
        # the line that opens the list names
        if found and clause[:1] in _BULLETS and _listed_by_another(text, start):
            found = [h for h in found if h.kind != "working_state"]
        # "my old collie Bess passed in the spring": a pet or person who died is not kept;
        # "We had to rehome Loki, our husky, when ...": nor one named in apposition to it
        # "since our old dog passed in spring we adopted a kitten": what a leading "since ..."
        # says is of its own subject
        lead = _LEADING_SINCE.match(clause)
        if found and lead and mask & _DIED.bit and _DIED.pattern.search(clause, 0, lead.end()):
            found = [
                h
                for h in found
                if h.kind not in ("pet", "relationship")
                or (h.verb is not None and h.verb[0] >= lead.end())
            ]
        if (
            found
            and mask & _DIED.bit
            and (
                (_DIED.pattern.search(clause, lead.end()) if lead else _DIED.search(clause, mask))
                or (_APPOSITION.match(clause) and _gone_before(text, start))
                # "my wife did all the cooking, she passed in 2019": the next clause says so
                or _DIED_NEXT.match(text, end)
            )
        ):
            found = [h for h in found if h.kind not in ("pet", "relationship")]
        if not found:
            if not quiet:
                self._note(event.seq, start, end, "question" if asking else None)
            return []
        kept = []
        pasts = [m.span() for m in _PAST.finditer(clause, mask)]
        # ... and so is its past: the clause it leads to keeps its own tense
        if pasts and lead:
            pasts = [p for p in pasts if p[0] >= lead.end()]
        negations = [m.span() for m in _NEGATION.finditer(clause, mask)]
        # "we use poetry not pip, python 3.11": a contrastive "not Y" ends at its comma
        contrast = {a: x.end() for a, _ in negations if (x := _CONTRAST_NOT.match(clause, a))}
        denied = {
            a: x.end()
            for a, _ in negations
            if (x := _DENIED_WORD.match(clause, a)) and _VALUE_BEFORE.search(clause, 0, a)
        }
        # "so u dont get it wrong: line length is 88": a marker before a colon governs the
        # preface, not what the colon introduces
        colon = clause.rfind(": ")
        # "no im in bristol, been here 8 years": an answer's "no" denies the question, not this
        if negations and (lead := _ANSWER_NO.match(clause)):
            negations = [n for n in negations if n[0] >= lead.end()]
        # "i went full vegan so no eggs or cheese anymore": the end belongs to its own part
        all_endings = [m.span() for m in _ENDED.finditer(clause)]
        for hit in found:
            lo, hi = hit.verb if hit.verb is not None else (0, len(clause))
            after = colon if 0 <= colon <= lo else -1
            # ... and a former value named after the fact is not its end
            endings = [
                (e, f)
                for e, f in all_endings
                if e < hi
                or not (
                    _FORMER_VALUE.match(clause, e)
                    # "im a data scientist now not an analyst anymore"
                    or _NOT_THAT_ANYMORE.fullmatch(clause, hi, f)
                )
            ]
            # "not anymore" ends a state, but "I don't like coffee anymore" states a dislike
            # "im not vegetarian anymore, went pescatarian": an end said before a comma is the
            # earlier state's
            ended_here = (
                any(
                    not _CONJUNCT_BETWEEN.search(clause, hi, e)
                    # "my nan cant type anymore": what she no longer does ends, not the nan
                    and not (
                        hit.phrase
                        and hit.kind in ("relationship", "pet")
                        and _ACTION_ENDED.fullmatch(clause, hi, e)
                    )
                    and not (f <= lo and (_cut_off(clause, f, lo) or "," in clause[f : lo + 1]))
                    for e, f in endings
                )
                and not any(lo <= a and b <= hi for a, b in negations)
            )
            if ended_here or any(
                b > after
                and not _cut_off(clause, b, lo)
                and _governs((a, b), lo, hi, hit.phrase, past=True)
                and (not hit.phrase or _ENDING.fullmatch(clause, a, b) is not None)
                for a, b in pasts
            ):
                self._note(event.seq, start, end, "past", (hit,))
                continue
            if any(
                b > after
                and not (a in contrast and lo >= contrast[a])
                # "we use pnpm not npm": a contrastive "not" denies only the word it names
                and not (a in denied and (hi <= a or lo >= denied[a]))
                and not _cut_off(clause, b, lo)
                # "but please no coriander i hate it": a "no" before a noun denies the noun;
                # the user who then speaks says something of their own
                and not (
                    _NOMINAL_NO.fullmatch(clause, a, b) and _FRESH_I.search(clause, b, lo + 12)
                )
                and _governs((a, b), lo, hi, hit.phrase, clause=clause)
                for a, b in negations
            ):
                self._note(event.seq, start, end, "negation", (hit,))
                continue
            if (asking or hit.phrase) and hit.verb is not None:
                q_start, q_end = start + lo, start + hi
            elif (
                hit.kind in ("employer", "occupation")
                and (fragment := still_fragment(clause, lo)) is not None
            ):
                # "need help with my hours this month, still at mercadona lol": the fragment is
                # its own statement, quoted from where it starts
                q_start, q_end = start + fragment, quote_end
            elif hit.phrase and hit.kind == "relationship" and _MY_OR_OUR.match(clause, lo):
                # "my manager asked leave for 3 days, for my cousin marriage in Jaipur": a
                # relative named in passing is the user's whatever time the clause is about;
                # the quote starts at the possessive
                q_start, q_end = start + lo, quote_end
            else:
                q_start, q_end = start, quote_end
                if hit.kind != "home_location" and hit.verb is not None:
                    q_end = conjunct_start(text, start + hi, q_end) or q_end
            if (
                hit.phrase
                and hit.kind == "home_location"
                and (own := _HOME_NOUN_AFTER.search(clause, lo, hi)) is not None
                and (
                    at := clause.casefold().find((hit.values["place"] or "").casefold(), own.end())
                )
                >= 0
            ):
                # "any 24h pharmacy near my flat in gdansk open tonight?": the flat is the
                # user's whatever time the pharmacy is open; the quote is the phrase
                q_start, q_end = start + own.start(), start + at + len(hit.values["place"] or "")
            # without a marker's trigger word in the message there is no marker to look for
            transient = (
                transient_marker_at(text, q_start, q_end, hit.kind)
                if mask & _MARKERS_BIT or not text.isascii()
                else None
            )
            if transient is not None:
                self._note(event.seq, start, end, transient, (hit,))
                continue
            hit.evidence.append((event.seq, q_start, q_end))
            hit.stated_end = start + hi if hit.verb is not None else q_end
            kept.append(hit)
        if kept:
            self._note(event.seq, start, end, None, kept)
        return kept

    def _list_items(
        self,
        event: EpisodeEvent,
        text: str,
        sentence: tuple[int, int],
        hits: list[_Hit],
        first: int,
        mask: int,
    ) -> None:
        """ "im 34, vegetarian, allergic to shellfish", "im tom, 41, electrician from cork": the
        items of a list that opens with the user's own "im" share that subject.

        The list must open with the user's age or with something this sentence stated of them
        ("im cooking for my son, allergic to eggs" is the son's allergy), and it ends at the
        first part that is not such an item. Each item is read as "im ITEM", its evidence
        starting at the item itself.
        """
        s_start, s_end = sentence
        opener = _LIST_OPENER.match(text, s_start, s_end)
        if opener is None:
            return
        comma = text.find(",", opener.end(), s_end)
        if comma < 0:
            return
        if (
            opener.group("age") is None
            and opener.group("me_age") is None
            and opener.group("bio_age") is None
            and opener.group("status") is None
            and not any(
                not h.phrase
                and any(e[0] == event.seq and s_start <= e[1] < comma for e in h.evidence)
                for h in hits[first:]
            )
        ):
            return
        start = comma + 1
        while start < s_end:
            end = text.find(",", start, s_end)
            end = s_end if end < 0 else end
            item = _LIST_ITEM.match(text, start, end)
            if item is None:
                return
            at = item.start("item")
            # a bare title reads as "im a TITLE" ("shift supervisor on the bakery side")
            titled = item.group("title") is not None and at >= 5
            said = "i " if item.group("verb") and at >= 2 else None
            self._read_as_mine(event, text, at, end, hits, mask, titled, said)
            start = end + 1

    def _read_as_mine(
        self,
        event: EpisodeEvent,
        text: str,
        at: int,
        end: int,
        hits: list[_Hit],
        mask: int,
        titled: bool = False,
        said: str | None = None,
    ) -> None:
        """Read ``text[at:end]`` as "im ..." (or as ``said`` before it: "i " before a verb; the
        characters before it stand in for the words, as many as they have); its evidence and
        notes start at ``at`` itself."""
        said = said or ("im a " if titled else "im ")
        lead = at - len(said)
        shifted = text[:lead] + said + text[at:]
        noted = len(self._notes) if self._notes is not None else 0
        for hit in self._clause(event, shifted, lead, end, False, mask):
            hit.evidence = [
                (seq, at if (seq, b) == (event.seq, lead) else b, e) for seq, b, e in hit.evidence
            ]
            hits.append(hit)
        if self._notes is not None:
            self._notes[noted:] = [
                msgspec.structs.replace(n, start=at) if n.start == lead else n
                for n in self._notes[noted:]
            ]

    def _pronoun(
        self,
        event: EpisodeEvent,
        index: int,
        text: str,
        span: tuple[int, int],
        found: list[_Hit],
        hits: list[_Hit],
        antecedents: list[_Antecedent],
        mask: int,
    ) -> None:
        """Name an unnamed relative or pet from "Her name is Mia" when exactly one fits."""
        start, end = span
        clause = text[start:end]
        m = _PRONOUN_NAME.search(clause, mask)
        if m is None:
            antecedents.extend(
                _Antecedent(hit, index)
                for hit in found
                if hit.kind in {"relationship", "pet"}
                and hit.values["name"] is None
                and not hit.plural
            )
            return
        raw = m.group("name")
        if m.group("lower") and (raw in _NOT_A_NOUN or _VOCABULARY.fullmatch(raw)):
            return
        names = _names(raw) if raw[:1].isupper() else [raw.title()]
        # "her name is Fatma Yilmaz, she ...": a surname ending the clause completes the name
        if (
            m.group("pron")
            and len(names) == 1
            and raw[:1].isupper()
            and (second := _SECOND_NAME.match(clause, m.end()))
            and _names(second.group("second"))
        ):
            names = [f"{names[0]} {second.group('second')}"]
        if _clause_blocked(clause, None, mask) or not names:
            return
        said = (
            m.group("pron")
            or m.group("pron2")
            or m.group("pron3")
            or m.group("pron4")
            or m.group("pron5")
        )
        pronoun = _PRONOUN_AS.get(said.casefold(), said.casefold())
        # "we got a puppy yesterday, shes called pip": the antecedent may open the same clause
        antecedents.extend(
            _Antecedent(hit, index)
            for hit in found
            if hit.kind in {"relationship", "pet"}
            and hit.values["name"] is None
            and not hit.plural
            and hit.verb is not None
            and hit.verb[1] <= m.start()
        )
        # the one relative or pet of the last few messages the pronoun can refer to
        fits = [a for a in antecedents if a.message >= index - 4 and _pronoun_fits(pronoun, a.hit)]
        # "we named her Chiamaka": one names a pet (or a newborn), never a wife
        if m.group("pron3"):
            fits = [a for a in fits if a.hit.kind == "pet"]
        # "his name is Murphy btw the dog lol": the noun the user adds settles which one
        if hint := _PET_HINT.match(clause, m.end()):
            species = _normal("pet", "species", hint.group("noun"))
            fits = [a for a in fits if a.hit.kind == "pet" and a.hit.values["species"] == species]
        keys = {(a.hit.kind, *a.hit.values.values()) for a in fits}
        if len(keys) != 1:
            return
        ante = fits[-1].hit
        # "we adopted the kitten from the shelter!! her name is sushi": another animal named just
        # before the pronoun is the one it means, never the dog of an earlier message
        sentence_start, _ = _sentence_around(text, start + m.start(), start + m.start())
        sentence_start = max(0, text.rfind(".", 0, sentence_start - 1) + 1)
        # ... though an animal said before the antecedent itself is not ("my old dog rex passed
        # away ... i took a kitten from shelter. her name is bean")
        if ante.evidence[-1][0] == event.seq:
            sentence_start = max(sentence_start, ante.evidence[-1][2])
        if ante.kind == "pet" and any(
            _normal("pet", "species", w.group("species")) != ante.values["species"]
            for w in _PET_WORD.finditer(text, sentence_start, start + m.start())
        ):
            return
        noun_field = "species" if ante.kind == "pet" else "relation"
        if ante.kind == "pet":
            names = _titled_name(names, clause, m.end())
        named = _Hit(ante.kind, {noun_field: ante.values[noun_field], "name": names[0]})
        named.evidence = [ante.evidence[-1], (event.seq, start, end)]
        hits.append(named)
        antecedents[:] = [a for a in antecedents if a.hit is not ante]

    def _candidates(self, hits: list[_Hit], texts: dict[int, str]) -> list[MemoryCandidate]:
        """Merge duplicates, drop claims another candidate implies, order by latest evidence."""
        merged: dict[Any, tuple[Claim, dict[tuple[int, int, int], None]]] = {}
        # a session states the same few facts over and over: normalize each wording once
        normalized: dict[tuple[str, tuple[tuple[str, str | None], ...]], tuple[Claim, Any]] = {}
        for hit in hits:
            wording = (hit.kind, tuple(hit.values.items()))
            if wording not in normalized:
                try:
                    claim = normalize_claim(hit.kind, hit.values)
                except InvalidInput:
                    continue  # not cached: an invalid wording is rare
                if (field := _PLACEHOLDER_FIELDS.get(hit.kind)) and any(
                    _PLACEHOLDER.fullmatch(v or "")
                    for v in (hit.values[field], claim.values[field])
                ):
                    continue
                normalized[wording] = (claim, claim.key())
            claim, key = normalized[wording]
            merged.setdefault(key, (claim, {}))[1].update(dict.fromkeys(hit.evidence))
        # a claim can only be implied by one that shares its kind and its required values
        groups: dict[Any, list[Claim]] = {}
        for claim, _ in merged.values():
            spec = CLAIM_KINDS[claim.kind]
            required = tuple(claim.values[f] for f in spec.fields if f not in spec.nullable)
            groups.setdefault((claim.kind, required), []).append(claim)
        kept = []
        for claim, evidence in merged.values():
            spec = CLAIM_KINDS[claim.kind]
            required = tuple(claim.values[f] for f in spec.fields if f not in spec.nullable)
            # a fully specified claim is implied only by itself
            peers = groups[(claim.kind, required)] if None in claim.values.values() else ()
            if not any(o.key() != claim.key() and o.implies(claim) for o in peers):
                kept.append((claim, sorted(evidence)))
        kind_order = list(CLAIM_KINDS)
        kept.sort(
            key=lambda ce: (
                ce[1][-1][:2],
                kind_order.index(ce[0].kind),
                tuple(v or "" for v in ce[0].values.values()),
            )
        )
        return [
            make_candidate(claim, tuple(Evidence(seq=q, quote=texts[q][s:e]) for q, s, e in ev))
            for claim, ev in kept
        ]
