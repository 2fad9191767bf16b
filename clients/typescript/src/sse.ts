// The event-stream format of WHATWG HTML (9.2.6), read from a fetch body:
// what EventSource does, for clients that need control over reconnecting.

export interface StreamMessage {
  /** The event type (`message` when the block named none). */
  event: string;
  data: string;
  /** The last event ID as of this event (an `id:` line sets it; it stays for later events). */
  lastEventId: string;
}

export interface StreamReader {
  messages: AsyncGenerator<StreamMessage>;
  /** The reconnection time the stream last set with `retry:`, in ms, or null. */
  retryMs(): number | null;
}

/** The messages of one stream body, dispatched as EventSource would; ends when the body does. */
export function readEventStream(body: ReadableStream<Uint8Array>, lastEventId = ""): StreamReader {
  let retry: number | null = null;
  async function* messages(): AsyncGenerator<StreamMessage> {
    const decoder = new TextDecoder("utf-8");
    const reader = body.getReader();
    let buffer = "";
    let first = true;
    let event = "";
    let data: string[] = [];
    let id = lastEventId;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return; // an incomplete last block is dropped, as the standard says
        buffer += decoder.decode(value, { stream: true });
        if (first && buffer.length > 0) {
          if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
          first = false;
        }
        // A line ends with CRLF, LF or CR; a CR at the end may be half of a CRLF still to come.
        let match: RegExpExecArray | null;
        const ending = /\r\n|\n|\r(?=[^\n])/g;
        let consumed = 0;
        while ((match = ending.exec(buffer)) !== null) {
          const line = buffer.slice(consumed, match.index);
          consumed = match.index + match[0].length;
          if (line === "") {
            if (data.length > 0) yield { event: event || "message", data: data.join("\n"), lastEventId: id };
            event = "";
            data = [];
            continue;
          }
          if (line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon === -1 ? line : line.slice(0, colon);
          let value = colon === -1 ? "" : line.slice(colon + 1);
          if (value.startsWith(" ")) value = value.slice(1);
          if (field === "event") event = value;
          else if (field === "data") data.push(value);
          else if (field === "id" && !value.includes("\0")) id = value;
          else if (field === "retry" && /^\d+$/.test(value)) retry = Number(value);
        }
        buffer = buffer.slice(consumed);
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }
  return { messages: messages(), retryMs: () => retry };
}
