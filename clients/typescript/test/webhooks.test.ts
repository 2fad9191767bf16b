// Issue 41's webhooks through the client, against the live service (PATCHWORK_URL, started by
// tests/system/test_typescript_client.py with WEBHOOK_ALLOW_PRIVATE and WEBHOOK_ALLOW_HTTP, so a loopback
// http URL is taken): one made (its secret shown once), listed, its delivery log read, deleted.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { PatchworkClient } from "../src/index.js";
import { assertProblem } from "./helpers.js";

const SERVICE = new URL(process.env["PATCHWORK_URL"] ?? "");
const client = new PatchworkClient(SERVICE.href);
// Nothing listens there: the test reads the webhook back, no delivery is awaited.
const URL_OF_MINE = "http://127.0.0.1:9/patchwork";

describe("webhooks", () => {
  test("a webhook made, listed with no secret, its deliveries read, and deleted", async () => {
    const ann = await client.createPlayer("Ann");
    const made = await client.createWebhook(ann.token, URL_OF_MINE, ["your_turn", "challenge"]);
    assert.match(made.secret, /^whsec_/);
    assert.equal(made.webhook.url, URL_OF_MINE);
    assert.deepEqual(made.webhook.events, ["your_turn", "challenge"]);
    assert.equal(made.webhook.disabled_at, null);

    const listed = await client.listWebhooks(ann.token);
    assert.deepEqual(listed, [made.webhook]);
    assert.ok(!JSON.stringify(listed).includes(made.secret), "a listed webhook shows its secret");
    assert.deepEqual(await client.webhookDeliveries(ann.token, made.webhook.id), []);

    await client.deleteWebhook(ann.token, made.webhook.id);
    assert.deepEqual(await client.listWebhooks(ann.token), []);
    await client.deleteWebhook(ann.token, made.webhook.id).then(
      () => assert.fail("a deleted webhook was deleted again"),
      (error: unknown) => assertProblem(error, 404, "webhook_not_found"),
    );
    // Another player's token does not reach Ann's webhooks.
    const bea = await client.createPlayer("Bea");
    const again = await client.createWebhook(ann.token, URL_OF_MINE, ["game_end"]);
    await client.webhookDeliveries(bea.token, again.webhook.id).then(
      () => assert.fail("Bea read Ann's deliveries"),
      (error: unknown) => assertProblem(error, 404, "webhook_not_found"),
    );
  });
});
