"""The referee's states kept in this process between a round's moves.

A state is a live :class:`teaching.table.RefereeState` (not a pickled copy): a move
*takes* the state out (so no other request of this process can step the same object),
steps it and puts the new state back under the longer log's key; a page only *peeks*
at it and freezes a :class:`teaching.table.Table` from it. A move that fails after
taking (refused, stale, an error) simply does not put it back: the next request
replays the log, which is only slower. At most ``max_entries`` states are kept, the
least recently used dropped first.

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
from typing import Generic, TypeVar

T = TypeVar("T")


class KeptStates(Generic[T]):
    def __init__(self, max_entries: int = 1000) -> None:
        self.max_entries = max_entries
        self._states: OrderedDict[str, T] = OrderedDict()
        self._lock = threading.Lock()

    def peek(self, key: str) -> T | None:
        """The state kept under ``key``, left in place (the caller must not change it)."""
        with self._lock:
            state = self._states.get(key)
            if state is not None:
                self._states.move_to_end(key)
            return state

    def take(self, key: str) -> T | None:
        """The state kept under ``key``, removed: the caller may change it."""
        with self._lock:
            return self._states.pop(key, None)

    def put(self, key: str, state: T) -> None:
        with self._lock:
            self._states[key] = state
            self._states.move_to_end(key)
            while len(self._states) > self.max_entries:
                self._states.popitem(last=False)

    def discard(self, key: str) -> None:
        with self._lock:
            self._states.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()

    def __len__(self) -> int:
        return len(self._states)
