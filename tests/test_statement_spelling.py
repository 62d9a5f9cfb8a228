"""Belief statements keep the user's capitalisation of names ("PKO Bank Polski", "Python"),
taken only from the belief's own evidence and only where the user capitalised deliberately."""

from __future__ import annotations

import agentmem
from agentmem.memory.claims import normalize_claim, render_statement


def test_beliefs_keep_the_users_spelling_of_names() -> None:
    said = ["I work at PKO Bank Polski.", "i love Python", "My name is McKenzie"]
    said.append("I live in lisbon")
    with agentmem.open(":memory:", principal="u") as store:
        for text in said:
            store.append({"type": "user.message.created", "session_id": "s1", "text": text})
        store.close_session("s1")
        statements = {b.statement for b in store.beliefs()}
    assert {
        "User works at PKO Bank Polski",
        "User likes Python",
        "User's name is McKenzie",
        "User lives in Lisbon",  # written in lower case: the canonical title case
    } <= statements


def test_a_capital_that_only_starts_a_sentence_is_not_a_spelling() -> None:
    likes = normalize_claim("preference", {"polarity": "likes", "object": "coffee"})
    assert render_statement(likes, ["Coffee is what I love"]) == "User likes coffee"
    assert render_statement(likes, ["I love Coffee. Really"]) == "User likes Coffee"
    employer = normalize_claim("employer", {"org": "pko bank polski"})
    assert render_statement(employer) == "User works at Pko Bank Polski"
    assert render_statement(employer, ["PKO Bank Polski hired me"]) == (
        "User works at PKO Bank Polski"
    )
