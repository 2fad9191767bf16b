"""The Lua scripts of the Redis store, one atomic round trip each, and their loader.

Each script is a file in lua/, named as the store runs it. A first line
`-- include: a, b` puts the shared fragments lua/lib/a.lua and lua/lib/b.lua
(local functions, or locals such as `now`) before the rest of the file; a
script with a layout in arguments.py gets its arguments' names as locals
before them.

Every key a script touches arrives in KEYS, and all of them share the game's
hash tag, so each script runs on the single Redis Cluster node that owns the
game.

Shared layout of KEYS: 1 = the game hash (version, revision, state, view;
the scripts that change it start with lib/compare_and_set.lua),
2 = the move list, 3 = the event stream (a game's moves as events, keys.py);
idempotency records come after them. LOAD_EVENTS, which reads only the
stream, takes the game and the stream.

An idempotency record is one string: the request's fingerprint while the
first request runs, then the fingerprint, a newline and the answer. A
string, not a hash: a hash with a value over 64 bytes leaves Redis's compact
encoding and costs about 230 bytes more per record.

Out of memory. Under `maxmemory` with `noeviction`, Redis checks a script
only at its first write command, and refuses it there only if that command
is one that can grow memory (SET, HSET, RPUSH, INCR...; not DEL or PEXPIRE). Once
a script has written, it runs to its end, past the limit. So every script
that may grow memory makes such a command its first write: under the limit
it runs whole, over it Redis refuses it whole, with nothing changed (an OOM
error, which the store reports as StorageError). The `#!lua` flags that
would declare this up front need Redis 7; this works on 6.2 as well.
"""

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .arguments import LAYOUTS

_LUA = resources.files("service.storage") / "lua"
_INCLUDE = "-- include:"


def load(name: str) -> str:
    """The text of script lua/<name>.lua, preceded by its arguments' names and the fragments its first line includes."""
    text = (_LUA / f"{name}.lua").read_text(encoding="utf-8")
    layout = LAYOUTS.get(name)
    arguments = layout.lua() if layout is not None else ""
    first, _, rest = text.partition("\n")
    if not first.startswith(_INCLUDE):
        return arguments + text
    fragments = [part.strip() for part in first.removeprefix(_INCLUDE).split(",")]
    return arguments + "".join(fragment(name) for name in fragments) + rest


def fragment(name: str) -> str:
    """The shared fragment lua/lib/<name>.lua."""
    return (_LUA / "lib" / f"{name}.lua").read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class Script:
    """A script as Redis runs it: its whole text and the SHA1 that EVALSHA names it by."""

    text: str
    sha: str


@cache
def script(name: str) -> Script:
    """The script lua/<name>.lua, read on first use and kept: adding a store operation adds its file, nothing here."""
    text = load(name)
    return Script(text, hashlib.sha1(text.encode()).hexdigest())
