// The waits between attempts to open an event stream (follow.ts, player-events.ts):
// the service's `retry:` (2 s until a stream says otherwise), doubled for each
// failed attempt in a row, at most `maxDelayMs`; a refusal's Retry-After wins.
import { problemOf, retryAfterMs } from "./answers.js";

const DEFAULT_RETRY_MS = 2000;

export class Backoff {
  private retryMs = DEFAULT_RETRY_MS;
  private failures = 0;

  constructor(private readonly maxDelayMs: number) {}

  /** An event came: the stream works, the waits start over. */
  delivered(): void {
    this.failures = 0;
  }

  /** The wait after a stream that ended (`retryMs`: the `retry:` it set); one that delivered nothing was a failed attempt. */
  afterStream(retryMs: number | null, delivered: boolean): number {
    this.retryMs = retryMs ?? this.retryMs;
    const wait = this.current();
    if (!delivered) this.failures++;
    return wait;
  }

  /**
   * The wait after a network error (`response` null) or a refusal: a 503 or 429
   * waits its Retry-After; any other refusal is thrown as a ProblemError.
   */
  async afterFailure(response: Response | null): Promise<number> {
    const wait = this.current();
    this.failures++;
    if (response === null) return wait;
    const refusal = await problemOf(response);
    if (response.status !== 503 && response.status !== 429) throw refusal;
    return Math.min(this.maxDelayMs, retryAfterMs(response.headers) ?? wait);
  }

  private current(): number {
    return Math.min(this.maxDelayMs, this.retryMs * 2 ** this.failures);
  }
}
