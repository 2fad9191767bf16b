// A 202 is not a result. The operations that may answer 202 Accepted (an
// analysis still being computed, a rematch or takeback offer waiting for the
// other seat) answer with an Outcome: `status` tells which it is, and only a
// `done` one carries the result.
import type { operations } from "./api.js";

/** The operationIds of openapi.yaml, as openapi-typescript generated them. */
export type OperationId = keyof operations;

type ResponsesOf<Op extends OperationId> = operations[Op]["responses"];

/** The JSON body an operation answers with this status (never: it answers none as JSON). */
export type JsonAnswer<Op extends OperationId, Status extends keyof ResponsesOf<Op>> = ResponsesOf<Op>[Status] extends {
  content: { "application/json": infer Body };
}
  ? Body
  : never;

/** The JSON body an operation takes. */
export type JsonRequest<Op extends OperationId> = NonNullable<operations[Op]["requestBody"]> extends {
  content: { "application/json": infer Body };
}
  ? Body
  : never;

/** The query parameters an operation takes. */
export type QueryOf<Op extends OperationId> = NonNullable<operations[Op]["parameters"]["query"]>;

/** The service has taken the request and is not done with it (202 Accepted). */
export interface Pending<Body> {
  status: "pending";
  /** The 202's body (an analysis' `{ status: "pending" }`, an offer's `{ offer }`). */
  body: Body;
  /** When to ask again, as the answer's Retry-After says (ms), or null when it says nothing. */
  retryAfterMs: number | null;
  /** Where the result will be (the answer's Location), or null. */
  location: string | null;
}

/** The result itself (a 200 or 201). */
export interface Done<Value> {
  status: "done";
  value: Value;
}

/** What an operation that may answer 202 answered: check `status` before reading `value`. */
export type Outcome<Value, PendingBody> = Done<Value> | Pending<PendingBody>;
