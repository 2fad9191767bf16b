// The player's webhooks on its own profile (docs/api-guide.md, "Webhooks"):
// listed with their state, one added (its secret shown this once, with a
// copy button), one removed, and each one's delivery log on demand.

import { language, t } from "./i18n.js";
import { playerApi } from "./player-api.js";

const $ = (id) => document.getElementById(id);

const when = (iso) => new Date(iso).toLocaleString(language());

/** Show the webhooks section, filled, on the player's own profile. */
export async function showWebhooks(showMessage) {
  $("webhooks").hidden = false;
  $("webhook-secret-box").hidden = true;
  $("webhook-form").onsubmit = (event) => {
    event.preventDefault();
    const events = [...document.querySelectorAll("input[name=webhook-event]:checked")].map((box) => box.value);
    playerApi.createWebhook($("webhook-url").value, events)
      .then(({ secret }) => {
        $("webhook-secret").value = secret;
        $("webhook-secret-box").hidden = false;
        $("webhook-url").value = "";
        return listWebhooks(showMessage);
      })
      .catch(showMessage);
  };
  $("webhook-secret-copy").onclick = () => {
    // The Clipboard API exists only on https pages (and localhost); elsewhere the selected text is copied.
    $("webhook-secret").select();
    const copied = navigator.clipboard ? navigator.clipboard.writeText($("webhook-secret").value) : Promise.reject();
    copied.catch(() => document.execCommand("copy"));
  };
  await listWebhooks(showMessage);
}

async function listWebhooks(showMessage) {
  const { webhooks } = await playerApi.webhooks();
  const list = $("webhook-list");
  list.replaceChildren(...webhooks.map((webhook) => webhookItem(webhook, showMessage)));
  if (webhooks.length === 0) list.append(Object.assign(document.createElement("li"), { textContent: t("No webhooks yet.") }));
}

function stateText(webhook) {
  if (webhook.disabled_at) return t("disabled since {when}: make a new one once your endpoint is back", { when: when(webhook.disabled_at) });
  if (webhook.failing_since) return t("failing since {when}", { when: when(webhook.failing_since) });
  return t("working");
}

function webhookItem(webhook, showMessage) {
  const item = document.createElement("li");
  item.className = "webhook";
  item.dataset.id = webhook.id;
  const url = Object.assign(document.createElement("code"), { textContent: webhook.url });
  item.append(url, ` · ${webhook.events.join(", ")} · `, stateText(webhook), " ");
  const log = Object.assign(document.createElement("ol"), { className: "webhook-log", hidden: true });
  const deliveries = button(t("Deliveries"), () => {
    log.hidden = !log.hidden;
    if (!log.hidden) showDeliveries(webhook.id, log).catch(showMessage);
  });
  deliveries.setAttribute("aria-label", t("Deliveries of {url}", { url: webhook.url }));
  const remove = button(t("Delete"), () =>
    playerApi.deleteWebhook(webhook.id).then(() => listWebhooks(showMessage)).catch(showMessage));
  remove.setAttribute("aria-label", t("Delete the webhook {url}", { url: webhook.url }));
  remove.className = "webhook-delete";
  item.append(deliveries, " ", remove, log);
  return item;
}

async function showDeliveries(webhookId, log) {
  const { deliveries } = await playerApi.webhookDeliveries(webhookId);
  log.replaceChildren(...deliveries.map((delivery) => {
    const status = delivery.status === "delivered" ? t("delivered") : t("failed");
    const outcome = [status, delivery.code, delivery.error].filter((part) => part !== null).join(" · ");
    return Object.assign(document.createElement("li"), {
      textContent: t("{event}, attempt {attempt}, {when}: {outcome}",
        { event: delivery.event, attempt: delivery.attempt, when: when(delivery.at), outcome }),
    });
  }));
  if (deliveries.length === 0) log.append(Object.assign(document.createElement("li"), { textContent: t("No deliveries yet.") }));
}

const button = (text, onclick) => Object.assign(document.createElement("button"), { type: "button", textContent: text, onclick });
