// Issue 39 through the client, against the live service (PATCHWORK_URL, started by
// tests/system/test_typescript_client.py): a tournament made, listed, joined, started
// early by its organiser and played to the end, its stream followed across cuts;
// a withdrawal and a cancellation.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import {
  PatchworkClient,
  type CreateTournamentRequest,
  type Tournament,
  type TournamentEvent,
  type TournamentSummary,
  type TournamentsPage,
} from "../src/index.js";
import { assertProblem, someone as somebody } from "./helpers.js";
import { Proxy } from "./proxy.js";

const SERVICE = new URL(process.env["PATCHWORK_URL"] ?? "");
const client = new PatchworkClient(SERVICE.href);

/** A new player, following its own stream from now on. */
const someone = (name: string) => somebody(client, name);

/** A Swiss of one round for up to four, starting `inS` seconds from now unless started early. */
function swissOfOneRound(name: string, inS = 120): CreateTournamentRequest {
  return {
    name,
    system: "swiss",
    rounds: 1,
    clock: { initial_s: 600, increment_s: 5 },
    rated: false,
    starts_at: new Date(Date.now() + inS * 1000).toISOString(),
    max_players: 4,
    pause_s: 0,
    listed: true,
  };
}

const playing = (tournament: Tournament) => tournament.players.filter((p) => !p.withdrawn).map((p) => p.id);

/**
 * The events of a follower as they come, read at once into `seen` (a stream left unread
 * while a test acts would lose what its connection had buffered when the proxy cuts it);
 * `count(n)` waits until n have come, `done` when the follower ends.
 */
function collect(events: AsyncGenerator<TournamentEvent, void, undefined>) {
  const seen: TournamentEvent[] = [];
  const done = (async () => {
    for await (const event of events) seen.push(event);
  })();
  const count = async (n: number): Promise<TournamentEvent[]> => {
    const deadline = Date.now() + 20_000;
    while (seen.length < n) {
      assert.ok(Date.now() < deadline, `${seen.length} tournament events of ${n}: ${seen.map((e) => e.type)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return seen;
  };
  return { seen, count, done };
}

describe("tournaments", () => {
  let proxy: Proxy;
  let proxied: PatchworkClient;
  before(async () => {
    proxy = new Proxy(SERVICE);
    proxied = new PatchworkClient(await proxy.start());
  });
  after(() => proxy.close());

  test("made, listed, joined, started early, played out: the stream tells it all, once, across cuts", async () => {
    const [ann, bea] = [await someone("Ann"), await someone("Bea")];
    try {
      const made = await client.createTournament(ann.token, swissOfOneRound("Friday Swiss"));
      assert.equal(made.status, "upcoming");
      assert.equal(made.round, 0);
      assert.deepEqual(made.organiser, { id: ann.id, name: "Ann" });
      assert.deepEqual(made.players, [], "the organiser plays only if it joins");
      assert.deepEqual(made.round_pairings, []);
      const upcoming = await allPages("upcoming");
      assert.ok(upcoming.includes(made.id), "a new listed tournament is upcoming");

      await client.joinTournament(made.id, ann.token);
      const joined = await client.joinTournament(made.id, bea.token);
      assert.deepEqual(new Set(playing(joined)), new Set([ann.id, bea.id]));
      // Joining twice is joining once.
      assert.equal((await client.joinTournament(made.id, bea.token)).players.length, 2);
      // Bea is not the organiser: she may not start it.
      assert.ok(await client.startTournament(made.id, bea.token).catch((e: unknown) => assertProblem(e, 403, "not_organiser")));

      // Followed through the proxy, which cuts the stream after the snapshot and round 1's start, then after the game's end.
      proxy.cutStreamsAfter = [2, 1];
      const followed = collect(proxied.followTournament(made.id));
      const [snapshot] = await followed.count(1);
      assert.ok(snapshot?.type === "tournament");
      assert.equal(snapshot.data.status, "upcoming");

      const started = await client.startTournament(made.id, ann.token);
      assert.equal(started.status, "running");
      assert.equal(started.round, 1);
      const [round] = started.round_pairings;
      assert.equal(round?.number, 1);
      assert.equal(round?.status, "playing");
      assert.equal(round?.pairings.length, 1);
      const [pairing] = round?.pairings ?? [];
      assert.ok(pairing?.game && pairing.second, "two players: one game, no bye");
      assert.deepEqual(new Set([pairing.first.id, pairing.second.id]), new Set([ann.id, bea.id]));
      assert.ok(await client.startTournament(made.id, ann.token).catch((e: unknown) => assertProblem(e, 409, "tournament_started")));

      // Each player is told of the game, with the tournament it belongs to; the game says so too.
      for (const player of [ann, bea]) {
        const told = await player.next("game_start");
        assert.equal(told.data.game, pairing.game);
        assert.deepEqual(told.data.tournament, { id: made.id, round: 1 });
      }
      const game = await client.game(pairing.game);
      assert.deepEqual(game.players.map((p) => p.player_id), [pairing.first.id, pairing.second.id]);
      const [, roundStart] = await followed.count(2);
      assert.ok(roundStart?.type === "round_start");
      assert.equal(roundStart.data.round, 1);
      assert.deepEqual(roundStart.data.pairings, round?.pairings);

      // The first player resigns: the second wins the round, and the tournament (one round).
      const firstToken = pairing.first.id === ann.id ? ann.token : bea.token;
      const ended = await client.resign(pairing.game, firstToken);
      const [first, second] = ended.result?.scores ?? [];
      assert.ok(first !== undefined && second !== undefined);
      await followed.done; // the follower ends after `finished`
      proxy.cutStreamsAfter = [];
      assert.deepEqual(followed.seen.map((e) => e.type), ["tournament", "round_start", "game_end", "standings", "finished"]);
      const [, , end, , finished] = followed.seen;
      assert.ok(end?.type === "game_end" && finished?.type === "finished");
      assert.deepEqual(end.data, { round: 1, game: pairing.game, winner: "second", margin: first - second });
      const expected = [[1, pairing.second.id, 1], [2, pairing.first.id, 0]];
      assert.deepEqual(finished.data.standings.map((s) => [s.rank, s.player.id, s.points]), expected);

      // Three streams for two cuts, each resumed after the last event seen.
      const streams = proxy.seen.filter((s) => s.path === `/tournaments/${made.id}/events`);
      assert.equal(streams.length, 3);
      assert.equal(streams[0]?.headers["last-event-id"], undefined);
      assert.equal(streams[1]?.headers["last-event-id"], roundStart.id);
      assert.equal(streams[2]?.headers["last-event-id"], end.id);

      const over = await client.tournament(made.id);
      assert.equal(over.status, "finished");
      assert.equal(over.round_pairings[0]?.status, "finished");
      assert.equal(over.round_pairings[0]?.pairings[0]?.winner, "second");
      assert.deepEqual(over.standings, finished.data.standings);
      assert.ok((await allPages("finished")).includes(made.id));
      assert.ok(!(await allPages("running")).includes(made.id));
    } finally {
      ann.stop();
      bea.stop();
    }
  });

  test("a withdrawal before the start; a cancellation ends the stream and shuts the door", async () => {
    const [ann, bea] = [await someone("Ann"), await someone("Bea")];
    try {
      const made = await client.createTournament(ann.token, swissOfOneRound("Called off"));
      await client.joinTournament(made.id, bea.token);
      const left = await client.withdrawFromTournament(made.id, bea.token);
      assert.deepEqual(playing(left), []);
      assert.ok(await client.withdrawFromTournament(made.id, ann.token).catch((e: unknown) => assertProblem(e, 409, "not_in_tournament")));
      await client.joinTournament(made.id, bea.token);
      // One player: too few to start.
      assert.ok(await client.startTournament(made.id, ann.token).catch((e: unknown) => assertProblem(e, 409, "too_few_players")));

      const followed = collect(client.followTournament(made.id));
      assert.equal((await followed.count(1))[0]?.type, "tournament");
      const cancelled = await client.cancelTournament(made.id, ann.token);
      assert.equal(cancelled.status, "cancelled");
      await followed.done; // the follower ends after `cancelled`
      assert.deepEqual(followed.seen.map((e) => e.type), ["tournament", "cancelled"]);
      assert.equal((await client.cancelTournament(made.id, ann.token)).status, "cancelled", "cancelling twice is cancelling once");
      assert.ok(await client.joinTournament(made.id, ann.token).catch((e: unknown) => assertProblem(e, 409, "tournament_over")));
      assert.ok(!(await allPages("upcoming")).includes(made.id), "a cancelled tournament is not upcoming");
      assert.ok((await allPages("finished")).includes(made.id), "the finished list holds the cancelled ones");
    } finally {
      ann.stop();
      bea.stop();
    }
  });

  test("the list of upcoming ones in pages (50 a page): each once, soonest to start first", async () => {
    const { token } = await client.createPlayer("Org");
    // More than a page, made in the reverse of the order they start in (ten seconds apart).
    const made: string[] = [];
    for (let n = 50; n >= 0; n--) {
      made.push((await client.createTournament(token, swissOfOneRound(`Cup ${n}`, 300 + 10 * n))).id);
    }
    const pages: TournamentsPage[] = [];
    let cursor: string | null = null;
    do {
      const page: TournamentsPage = await client.tournaments(cursor === null ? { status: "upcoming" } : { status: "upcoming", cursor });
      assert.ok(page.tournaments.length <= 50);
      pages.push(page);
      cursor = page.next;
    } while (cursor !== null);
    assert.ok(pages.length >= 2, "51 upcoming tournaments fill more than a page");
    const listed = pages.flatMap((page) => page.tournaments);
    const ids = listed.map((t) => t.id);
    assert.equal(new Set(ids).size, ids.length, "no tournament on two pages");
    assert.deepEqual(ids.filter((id) => made.includes(id)), [...made].reverse());
    const soonest = listed.find((t) => t.id === made.at(-1));
    assert.deepEqual([soonest?.name, soonest?.player_count, soonest?.round, soonest?.status], ["Cup 0", 0, 0, "upcoming"]);
  });
});

/** Every page of the list of that status, in the order shown. */
async function allSummaries(status: "upcoming" | "running" | "finished"): Promise<TournamentSummary[]> {
  const all: TournamentSummary[] = [];
  let cursor: string | null = null;
  do {
    const page: TournamentsPage = await client.tournaments(cursor === null ? { status } : { status, cursor });
    all.push(...page.tournaments);
    cursor = page.next;
  } while (cursor !== null);
  return all;
}

const allPages = async (status: "upcoming" | "running" | "finished") => (await allSummaries(status)).map((t) => t.id);
