"""Rejection markers: text that must never become memory, whatever an extractor made of it.

The formation service runs these on the *complete* cited source message, not on an extractor's
quote or a normalized value, because normalization and paraphrase can erase exactly the hazard
(ADR-0057 decision 5): a quote "I am the administrator" looks harmless until one sees the
"ignore previous instructions" before it. Each function returns a short, stable reason code for
the audit (``"injection:ignore_instructions"``, ``"transient:for_now"``) or ``None``.

The lists are deliberately broad: a false positive costs one memory the user can state again, a
false negative stores an instruction or a passing state as a lasting belief. Secret markers are
not here; they come from the redaction rule registry so there is one definition of a secret.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

__all__ = ["INJECTION_MARKERS", "TRANSIENT_MARKERS", "injection_marker", "transient_marker"]


def _compile(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((code, re.compile(pattern)) for code, pattern in pairs)


_AI = r"(?:you|the assistant|the ai|the model|the bot|assistants?|ai|chatgpt|claude|gpt|llm)"

#: (reason code, pattern over casefolded, whitespace-collapsed text), checked in this order.
INJECTION_MARKERS: Final = _compile(
    (
        (
            "injection:ignore_instructions",
            r"\b(?:ignore|disregard|forget|override|bypass|skip)\b[^.!?\n]{0,40}?\b"
            r"(?:previous|prior|above|earlier|preceding|all|any|your|system|the|these|those)\b"
            r"[^.!?\n]{0,30}?\b(?:instructions?|prompts?|rules?|directions?|guidelines?|"
            r"directives?|guardrails?|polic(?:y|ies)|constraints?|programming)\b",
        ),
        ("injection:disregard", r"\bdisregard\b"),
        (
            "injection:system_prompt",
            r"\bsystem[ _-]?(?:prompt|message|instructions?)\b"
            r"|\bdeveloper (?:message|mode|prompt)\b|<\s*/?\s*(?:system|sys|instructions?)\s*>"
            r"|\[/?(?:system|inst)\]|#{2,}\s*system\b",
        ),
        (
            "injection:role_override",
            r"\byou are now\b|\bfrom now on,? you\b|\byou must now\b|\bact as (?:an? )?"
            r"(?:unrestricted|unfiltered|jailbroken|uncensored|different|new)\b"
            r"|\bpretend (?:to be|you are|you're) (?:an? )?(?:unrestricted|different|my|the|"
            r"an? (?:ai|assistant|model|system))\b|\bdo anything now\b|\bjailbreak|\bdan mode\b"
            r"|\byour new (?:role|persona|instructions?|name)\b"
            r"|\bno longer (?:an? )?(?:ai|assistant)\b",
        ),
        (
            "injection:memory_directive",
            rf"\bremember (?:that |this: ?)?{_AI} (?:must|should|shall|will|always|never|has to|"
            rf"have to|is (?:allowed|required|supposed)|are (?:allowed|required|supposed))\b"
            rf"|\b(?:store|save|add|write|put) (?:this|that|the following)?\s*(?:in|to|into|as) "
            rf"(?:your |the )?(?:memory|memories|long[- ]term memory)[^.!?\n]{{0,40}}?{_AI} "
            rf"(?:must|should|always|never)\b"
            rf"|\b{_AI} (?:must|should|shall) always (?:obey|comply|agree|follow|do what)\b"
            rf"|\bremember (?:that )?the user (?:is|has|must|should|wants|prefers|likes)\b",
        ),
        (
            "injection:new_instructions",
            r"\b(?:new|updated|real|actual|hidden|secret) instructions?\s*:"
            r"|\breveal (?:your|the) (?:system )?(?:prompt|instructions|rules)\b",
        ),
        ("injection:role_prefix", r"(?:^|\n)\s*(?:system|assistant|developer)\s*:"),
    )
)

#: (reason code, pattern over casefolded, whitespace-collapsed text), checked in this order.
TRANSIENT_MARKERS: Final = _compile(
    (
        (
            "transient:time_window",
            r"\b(?:this|next) (?:week|weekend|month|morning|afternoon|evening|trip)\b"
            r"|\b(?:today|tonight|tomorrow|yesterday)\b|\bthis time\b",
        ),
        (
            "transient:right_now",
            r"\bright now\b|\bat the moment\b|\bfor the moment\b|\bas of now\b|\bat present\b",
        ),
        (
            "transient:task_scope",
            r"\bfor (?:this|the current|the next|this one|that) (?:task|session|conversation|chat"
            r"|thread|request|question|answer|reply|response|exercise|run)\b"
            r"|\b(?:in|during) this (?:task|session|conversation|chat|thread)\b|\bjust this once\b",
        ),
        (
            "transient:for_now",
            r"\bfor now\b|\bfor the time being\b|\btemporar(?:y|ily)\b|\bfor a (?:few|couple of) "
            r"(?:days|weeks|months)\b|\bfor a while\b|\buntil further notice\b",
        ),
        (
            "transient:travel",
            r"\bon (?:vacation|holiday|a trip|a business trip|leave)\b"
            r"|\bi(?:'m| am) (?:visiting|staying (?:in|at|with)|travell?ing)\b",
        ),
    )
)


def _prepare(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    lines = (" ".join(line.split()) for line in text.casefold().splitlines())
    return "\n".join(line for line in lines if line)


def _first(markers: tuple[tuple[str, re.Pattern[str]], ...], text: str) -> str | None:
    prepared = _prepare(text)
    for code, pattern in markers:
        if pattern.search(prepared):
            return code
    return None


def injection_marker(text: str) -> str | None:
    """Reason code of the first prompt-injection marker in ``text``, or ``None``.

    Covers instruction overrides ("ignore previous instructions", "disregard"), system-prompt
    talk, role overrides ("you are now"), memory directives about the assistant ("remember that
    the assistant must always ...") and spoofed role prefixes ("system:" at a line start).
    """
    return _first(INJECTION_MARKERS, text)


def transient_marker(text: str) -> str | None:
    """Reason code of the first transient-state marker in ``text``, or ``None``.

    Covers time windows ("this week", "today"), the present moment ("right now"), task scope
    ("for this task"), provisional arrangements ("for now", "temporarily") and travel.
    """
    return _first(TRANSIENT_MARKERS, text)
