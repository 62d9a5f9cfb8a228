"""Settings: environment strings convert to their types, words in any case, errors name choices."""

from __future__ import annotations

import pytest

import agentmem
from agentmem.config import load_settings


def test_environment_strings_convert_and_words_are_case_insensitive(monkeypatch) -> None:
    monkeypatch.setenv("AGENTMEM_SYNCHRONOUS", "normal")
    monkeypatch.setenv("AGENTMEM_PROVIDER_ASSISTANCE", "OFF")
    monkeypatch.setenv("AGENTMEM_ENV", "Production")
    monkeypatch.setenv("AGENTMEM_BUSY_TIMEOUT_MS", "2500")
    monkeypatch.setenv("AGENTMEM_PROVIDER_ENABLED", "false")
    settings = load_settings()
    assert settings.storage.synchronous == "NORMAL"
    assert settings.memory.provider_assistance == "off"
    assert settings.environment == "production"
    assert settings.storage.busy_timeout_ms == 2500
    assert settings.memory.provider_enabled is False


def test_explicit_words_are_case_insensitive_too() -> None:
    assert load_settings(storage__synchronous="extra").storage.synchronous == "EXTRA"


def test_a_bad_word_names_the_setting_and_its_choices(monkeypatch) -> None:
    monkeypatch.setenv("AGENTMEM_SYNCHRONOUS", "sometimes")
    with pytest.raises(agentmem.ConfigError, match=r"synchronous.*allowed: NORMAL, FULL, EXTRA"):
        load_settings()


def test_a_bad_number_is_refused(monkeypatch) -> None:
    monkeypatch.setenv("AGENTMEM_IDLE_MINUTES", "soon")
    with pytest.raises(agentmem.ConfigError, match="idle_minutes"):
        load_settings()
