// An HTTP proxy between the client under test and the live service, that
// breaks the network the ways clients meet: it cuts event streams after a
// number of events, can drop `Last-Event-ID` (so the service answers a
// resume with a snapshot), holds a move's answer until the stream has shown
// that move and the bot's reply, and can lose a move's answer after the
// service has it. The service itself is real; only the wire misbehaves.
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";

import type { SeatBot } from "../src/index.js";

export interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  status?: number;
  /** The answer's headers. */
  answer?: http.IncomingHttpHeaders;
  at: number;
}

export class Proxy {
  readonly seen: Seen[] = [];
  /** Cut each of the next event streams after this many events (a game's game or move, any of a player's or a tournament's) have gone through. */
  cutStreamsAfter: number[] = [];
  /** Send resumes without Last-Event-ID (the service then sends a snapshot). */
  dropLastEventId = false;
  /** Hold each move's 201 until the stream has shown its version, and the bot's reply when the bot is next. */
  holdMovesForTheStream = false;
  /** Moves answered only after the stream had shown the move (and the reply when due). */
  heldMoves = 0;
  /** Lose the answers of the next this many moves (the service has applied them). */
  loseMoveAnswers = 0;

  private server = http.createServer((request, response) => this.forward(request, response));
  private streamed = 0; // the highest version forwarded on any stream
  private waiters: Array<() => void> = [];

  constructor(private readonly target: URL) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forward(request: http.IncomingMessage, response: http.ServerResponse): void {
    const path = request.url ?? "/";
    const record: Seen = { method: request.method ?? "GET", path, headers: request.headers, at: Date.now() };
    this.seen.push(record);
    const headers: http.OutgoingHttpHeaders = { ...request.headers, host: this.target.host };
    if (this.dropLastEventId) delete headers["last-event-id"];
    const upstream = http.request(
      { host: this.target.hostname, port: this.target.port, method: request.method, path, headers },
      (answer) => {
        record.status = answer.statusCode ?? 0;
        record.answer = answer.headers;
        if (path.includes("/events") && answer.statusCode === 200) return this.stream(answer, response, path.startsWith("/tournaments/"));
        if (request.method === "POST" && path.endsWith("/moves") && answer.statusCode === 201) {
          return void this.move(answer, response);
        }
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on("error", () => response.destroy());
    request.pipe(upstream);
  }

  private stream(answer: http.IncomingMessage, response: http.ServerResponse, tournament: boolean): void {
    response.writeHead(200, answer.headers);
    response.flushHeaders();
    const cutAfter = this.cutStreamsAfter.shift();
    let events = 0;
    let pending = "";
    answer.setEncoding("utf8");
    answer.on("data", (chunk: string) => {
      pending += chunk;
      let end: number;
      while ((end = pending.indexOf("\n\n")) !== -1) {
        const block = pending.slice(0, end + 2);
        pending = pending.slice(end + 2);
        response.write(block);
        const id = /^id: (\d+)$/m.exec(block);
        if (id !== null && /^event: (game|move)$/m.test(block)) {
          events++;
          this.sawVersion(Number(id[1]));
        }
        // A player stream's event (id `<ms>-<n>`) counts too, and any of a tournament's.
        if (/^id: \d+-\d+$/m.test(block) || (tournament && /^event: /m.test(block))) events++;
        if (cutAfter !== undefined && events >= cutAfter) {
          // The connection breaks off mid-stream, after what was written has gone out.
          answer.destroy();
          response.socket?.end();
          return;
        }
      }
    });
    answer.on("end", () => response.end());
    response.on("close", () => answer.destroy());
  }

  private async move(answer: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (this.loseMoveAnswers > 0) {
      this.loseMoveAnswers--;
      response.destroy(); // applied by the service; the client never hears of it
      return;
    }
    if (this.holdMovesForTheStream) {
      const text = (answer.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(body) : body).toString("utf8");
      const game = JSON.parse(text) as { version: number; status: string; turn: number | null; players: Array<{ bot: SeatBot }> };
      // A level's seat next: the service moves it at once. A bot account's engine moves when it likes.
      const botNext = game.status === "active" && game.turn !== null && typeof game.players[game.turn]?.bot === "string";
      const shown = await this.waitForVersion(botNext ? game.version + 1 : game.version, 10_000);
      if (shown) this.heldMoves++;
    }
    response.writeHead(201, answer.headers);
    response.end(body);
  }

  private sawVersion(version: number): void {
    this.streamed = Math.max(this.streamed, version);
    for (const wake of this.waiters.splice(0)) wake();
  }

  private async waitForVersion(version: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.streamed < version) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }
}
