// What the client makes of an answer that is not a success, and of its Retry-After.
import type { Problem } from "./types.js";

/** An error answer: its status and the service's problem+json body (null when a proxy answered with something else). */
export class ProblemError extends Error {
  readonly status: number;
  readonly problem: Problem | null;
  constructor(status: number, problem: Problem | null, text = "") {
    super(problem === null ? `${status}: ${text.slice(0, 200)}` : `${status} ${problem.code}: ${problem.detail}`);
    this.name = "ProblemError";
    this.status = status;
    this.problem = problem;
  }
}

/** The wait a Retry-After asks for, in ms (delta-seconds or an HTTP-date), or null when absent or unreadable. */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | null {
  const value = headers.get("Retry-After");
  if (value === null) return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The error an answer that is not 2xx stands for. */
export async function problemOf(response: Response): Promise<ProblemError> {
  const text = await response.text();
  const json = response.headers.get("Content-Type")?.startsWith("application/problem+json") ?? false;
  return new ProblemError(response.status, json ? (JSON.parse(text) as Problem) : null, text);
}
