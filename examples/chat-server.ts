/**
 * A streaming chat server: `POST /chat {"message": "…"}` answers with the agent's events as
 * server-sent events (`agent.stream` through `toServerSentEventsResponse`), and `GET /` serves a
 * page whose script posts a message with `fetch` and appends the text deltas as they arrive. The
 * agent runs on `LocalProvider`, offline, with one tool; one conversation for everyone (give each
 * user a memory, or a session, in an application).
 *
 * Run: `npx tsx examples/chat-server.ts` (port from `PORT`, else a free one), then open the URL it
 * prints. With `--once`, it answers one request of its own, prints what it read, and exits.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import {
  ConversationMemory,
  createAgent,
  PROVIDER_SAFE,
  type AgentStreamEvent,
} from 'conversation-memory';
import { readServerSentEvents, toServerSentEventsResponse } from 'conversation-memory/sse';
import { LocalProvider } from 'conversation-memory/testing';

/** A request body longer than this is refused (413). */
const MAX_BODY_BYTES = 64 * 1024;

const memory = new ConversationMemory({ ...PROVIDER_SAFE, maxMessages: 40 });
const agent = createAgent({
  provider: new LocalProvider(),
  memory,
  tools: [
    {
      name: 'get_time',
      description: 'The time of day in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      execute: ({ city }) => `noon in ${String(city ?? 'Paris')}`,
    },
  ],
});

/** The page: a form, and a script that reads the event stream with fetch. */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>conversation-memory chat</title>
<style>body{font:16px system-ui;max-width:40rem;margin:2rem auto}#log p{white-space:pre-wrap}</style>
<div id="log"></div>
<form id="form"><input id="message" size="50" autofocus placeholder='Try "my name is Ada" or "/call get_time {}"'> <button>Send</button></form>
<script type="module">
// The parsing of readServerSentEvents (from 'conversation-memory'), inlined so that the page
// needs no bundler: lines end at CRLF, LF or CR; "event:" names an event, "data:" lines are
// joined; a blank line ends it; error events throw; unknown events are skipped.
async function* readEvents(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '', event = '', data = [];
  for (;;) {
    const { done, value } = await reader.read();
    buffer += done ? '\\n\\n' : value;
    const lines = buffer.split(/\\r\\n|\\r|\\n/);
    buffer = done ? '' : lines.pop();
    if (buffer.length > 1048576) throw new Error('line too long');
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0) {
          const parsed = JSON.parse(data.join('\\n'));
          if (event === 'error') throw new Error(parsed.message);
          if (parsed.type === event) yield parsed;
        }
        event = ''; data = [];
      } else if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
    if (done) return;
  }
}
const log = document.getElementById('log');
const say = (who, text) => { const p = document.createElement('p'); p.textContent = who + text; log.append(p); return p; };
document.getElementById('form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = document.getElementById('message');
  const message = input.value; input.value = '';
  say('You: ', message);
  const reply = say('Agent: ', '');
  const response = await fetch('/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message }) });
  if (!response.ok) { reply.textContent += await response.text(); return; }
  try {
    for await (const event of readEvents(response.body)) {
      if (event.type === 'text-delta') reply.textContent += event.text;
      if (event.type === 'tool-call') say('  → ', event.toolName + ' ' + JSON.stringify(event.input));
      if (event.type === 'tool-result') say('  ← ', event.output);
    }
  } catch (error) { say('Error: ', String(error.message)); }
});
</script>
`;

/** The body as text, or `undefined` when it is longer than the limit. */
const readBody = async (req: IncomingMessage): Promise<string | undefined> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/** The `message` of a JSON body, or `undefined` when there is none. */
const messageOf = (text: string): string | undefined => {
  try {
    const body: unknown = JSON.parse(text);
    const message =
      typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : '';
    return typeof message === 'string' && message.trim() !== '' ? message : undefined;
  } catch {
    return undefined;
  }
};

/** Writes a web `Response` to Node's `res`, chunk by chunk, as it streams. */
const writeResponse = async (response: Response, res: ServerResponse): Promise<void> => {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // The client went away: cancel the body, which stops agent.stream (and aborts its run).
  res.once('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
};

const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
  if (req.method === 'GET' && req.url === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    return;
  }
  if (req.method !== 'POST' || req.url !== '/chat') {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  const text = await readBody(req);
  if (text === undefined) {
    res.writeHead(413, { 'content-type': 'text/plain' }).end('Body too large');
    return;
  }
  const message = messageOf(text);
  if (message === undefined) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('Send {"message": "…"}');
    return;
  }
  const events: AsyncIterable<AgentStreamEvent> = agent.stream(message);
  await writeResponse(toServerSentEventsResponse(events), res);
};

/**
 * Starts the chat server on 127.0.0.1.
 *
 * @param port - the port; 0 for a free one
 * @returns its URL and `close()`
 */
export const startChatServer = async (
  port: number,
): Promise<{ readonly url: string; close(): Promise<void> }> => {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // The error's text stays on the server (it may hold paths, SQL or keys): log it here, and
      // send the client a status only, as toServerSentEvents sends "internal error" and a code.
      console.error(error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};

/** Posts one message and reads the answer back with `readServerSentEvents`. */
export const chat = async (url: string, message: string): Promise<AgentStreamEvent[]> => {
  const response = await fetch(`${url}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });
  if (!response.ok || response.body === null) {
    throw new Error(`POST /chat answered ${response.status}: ${await response.text()}`);
  }
  const events: AgentStreamEvent[] = [];
  for await (const event of readServerSentEvents(response.body)) events.push(event);
  return events;
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startChatServer(Number(process.env['PORT'] ?? 0));
  console.log(`chat server listening on ${server.url}`);
  if (process.argv.includes('--once')) {
    const events = await chat(server.url, 'my name is Ada');
    const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
    const last = events.at(-1);
    if (last?.type !== 'finish' || last.result.message.content !== deltas.join('')) {
      throw new Error(`unexpected events: ${JSON.stringify(events)}`);
    }
    console.log(
      `chat server: ${deltas.length} text deltas streamed, finish says "${deltas.join('')}"`,
    );
    await server.close();
  }
}
