// Every operation of openapi.yaml has a client method (operations.ts), and
// each sends its operation's HTTP method and path. No service needed: the
// client's fetch records the request and answers 204 (which ends a stream).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { PatchworkClient } from "../src/index.js";
import { CALLS, PAGE, SAMPLE_PATH_VALUES } from "./operations.js";

interface Operation {
  id: string;
  method: string;
  path: string;
  /** The operation's lines of openapi.yaml. */
  text: string;
}

// dist/test/ -> the package -> clients/ -> the repository's openapi.yaml.
const SPEC = new URL("../../../../openapi.yaml", import.meta.url);

/** The operations under `paths:`, read from the file's layout (2 spaces a level, as it is written). */
function operationsOf(yaml: string): Operation[] {
  const found: Operation[] = [];
  let inPaths = false;
  let path: string | null = null;
  let current: Operation | null = null;
  for (const line of yaml.split("\n")) {
    if (/^\S/.test(line)) inPaths = line.startsWith("paths:");
    if (!inPaths) continue;
    const pathLine = /^ {2}(\/\S*):\s*$/.exec(line);
    const methodLine = /^ {4}(get|put|post|delete|patch|head|options|trace):\s*$/.exec(line);
    if (pathLine || methodLine || /^ {4}\S/.test(line)) current = null;
    if (pathLine) path = pathLine[1] ?? null;
    if (methodLine && path !== null) {
      current = { id: "", method: (methodLine[1] ?? "").toUpperCase(), path, text: "" };
      found.push(current);
    }
    if (current === null) continue;
    current.text += `${line}\n`;
    const id = /^ {6}operationId:\s*(\S+)\s*$/.exec(line);
    if (id) current.id = id[1] ?? "";
  }
  return found;
}

const operations = operationsOf(readFileSync(SPEC, "utf-8"));

test("openapi.yaml's operations are read, each with its operationId", () => {
  assert.ok(operations.length >= 70, `only ${operations.length} operations read`);
  for (const operation of operations) assert.notEqual(operation.id, "", `${operation.method} ${operation.path} has no operationId`);
});

test("the client has a call for each operation, and no other", () => {
  assert.deepEqual(Object.keys(CALLS).sort(), operations.map((o) => o.id).sort());
});

test("the operations without a method are the pages (tagged `pages` in openapi.yaml), and only those", () => {
  const pages = operations.filter((o) => /^ {6}tags: \[pages\]$/m.test(o.text)).map((o) => o.id);
  assert.ok(pages.length > 0, "no operation is tagged pages");
  const withoutMethod = operations.filter((o) => CALLS[o.id as keyof typeof CALLS] === PAGE).map((o) => o.id);
  assert.deepEqual(withoutMethod.sort(), pages.sort());
});

for (const operation of operations) {
  const call = CALLS[operation.id as keyof typeof CALLS];
  if (call === undefined || call === PAGE) continue;
  test(`${operation.id}: ${operation.method} ${operation.path}`, async () => {
    const sent: { method: string; url: URL }[] = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      sent.push({ method: init?.method ?? "GET", url: new URL(String(input)) });
      return new Response(null, { status: 204 });
    };
    const client = new PatchworkClient("http://client.test/base", { fetch, maxRetries: 0 });
    const started = call(client);
    try {
      await ("next" in started ? started.next() : started);
    } catch {
      // Only the request matters here: an empty 204 may not be an answer the method can read.
    }
    const expected = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = SAMPLE_PATH_VALUES[name];
      assert.ok(value !== undefined, `no sample value for {${name}}`);
      return value;
    });
    assert.ok(sent.length >= 1, "no request sent");
    assert.equal(sent[0]?.method, operation.method);
    assert.equal(sent[0]?.url.pathname, `/base${expected}`);
  });
}
