"""Objects kept in this process between requests, live (not pickled copies): the
table referee's states between a round's moves (tutor.table.services), a learner's
skill states between their judged decisions (tutor.quizzes.services).

A writer *takes* an object out (so no other request of this process can change the
same object), changes it and puts the result back; a reader only *peeks*. A request
that fails after taking (refused, stale, an error) simply does not put it back: the
next request reads the truth again (the round's log, the database row), which is only
slower. Every user checks a kept object against the truth before trusting it. At most
``max_entries`` objects are kept, the least recently used dropped first.

>>> kept = KeptStates(max_entries=2)
>>> kept.put("a", 1); kept.put("b", 2); kept.peek("a")
1
>>> kept.put("c", 3)  # "b" was used least recently
>>> kept.peek("b") is None, kept.take("a"), kept.take("a")
(True, 1, None)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, ClassVar, Generic, TypeVar

T = TypeVar("T")


class KeptStates(Generic[T]):
    """A bounded, thread-safe store of live objects by key (see the module)."""

    every: ClassVar[list[KeptStates[Any]]] = []  # for tests, which empty them all

    def __init__(self, max_entries: int = 1000) -> None:
        KeptStates.every.append(self)
        self.max_entries = max_entries
        self._states: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def peek(self, key: Hashable) -> T | None:
        """The state kept under ``key``, left in place (the caller must not change it)."""
        with self._lock:
            state = self._states.get(key)
            if state is not None:
                self._states.move_to_end(key)
            return state

    def take(self, key: Hashable) -> T | None:
        """The state kept under ``key``, removed: the caller may change it."""
        with self._lock:
            return self._states.pop(key, None)

    def put(self, key: Hashable, state: T) -> None:
        with self._lock:
            self._states[key] = state
            self._states.move_to_end(key)
            while len(self._states) > self.max_entries:
                self._states.popitem(last=False)

    def discard(self, key: Hashable) -> None:
        with self._lock:
            self._states.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()

    def __len__(self) -> int:
        return len(self._states)
