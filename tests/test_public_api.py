"""The public surface: an explicit, sorted ``__all__`` whose every name resolves."""

from __future__ import annotations

import agentmem
from agentmem import errors


def test_all_is_sorted_and_resolves() -> None:
    names = [n for n in agentmem.__all__ if n != "__version__"]
    assert names == sorted(names)
    for name in agentmem.__all__:
        assert getattr(agentmem, name) is not None


def test_every_error_is_exported_and_has_documented_exit_code() -> None:
    documented = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
    for name in errors.__all__:
        cls = getattr(errors, name)
        assert issubclass(cls, errors.AgentmemError)
        assert name in agentmem.__all__
        assert cls.exit_code in documented
        assert name in errors.__doc__  # drawn in the tree
