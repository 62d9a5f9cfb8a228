"""The extractor port: what an extractor reads (:class:`Episode`) and what it must do.

Kept apart from the deterministic extractor, which compiles hundreds of patterns when it is
imported: the formation service, the provider-assisted extractor, the composition and the
evaluation speak to extractors through this port alone, so reading beliefs or resolving the
formation policy never pays for the patterns.
"""

from __future__ import annotations

import abc
from typing import Final

import msgspec

from agentmem.memory.claims import Claim, MemoryCandidate

__all__ = [
    "DETERMINISTIC_POLICY",
    "USER_MESSAGE",
    "Episode",
    "EpisodeEvent",
    "MemoryCandidateExtractor",
    "owned_user_messages",
]

#: The formation policy of the deterministic extractor, the one every composition falls back to.
DETERMINISTIC_POLICY: Final = "formation@7"
#: The only event type memory may cite.
USER_MESSAGE: Final = "user.message.created"


class EpisodeEvent(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One event of an episode: its log ``seq``, event ``type``, author and text.

    For a tool result ``text`` is the result content; assistant tool calls carry no text.
    """

    seq: int
    type: str
    principal: str
    text: str


class Episode(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What an extractor sees: one session of one principal, in log order."""

    principal: str
    session_id: str
    events: tuple[EpisodeEvent, ...]
    existing_beliefs: tuple[Claim, ...] = ()


def owned_user_messages(episode: Episode) -> tuple[EpisodeEvent, ...]:
    """The only events memory may cite: user messages written by the episode's principal."""
    return tuple(
        e for e in episode.events if e.type == USER_MESSAGE and e.principal == episode.principal
    )


class MemoryCandidateExtractor(abc.ABC):
    """Port: propose memory candidates for one episode (ADR-0057 decision 1).

    Implementations must cite only :func:`owned_user_messages`, quote them exactly, leave
    ``scope`` and ``portability`` unset, and never raise for ordinary text.
    """

    name: str
    version: str
    formation_policy: str

    @abc.abstractmethod
    def extract(self, episode: Episode) -> list[MemoryCandidate]:
        """Candidates for ``episode``, in the order their latest evidence appears."""
