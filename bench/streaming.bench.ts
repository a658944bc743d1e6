/**
 * Streaming benchmark: the cost per delta of the streaming path, on `src/` (or the built `dist/`
 * with BENCH_DIST=1), NODE_ENV=production.
 *
 * - `LocalProvider.stream` against `complete` on a 1,500-word reply (20 calls of each):
 *   (stream − complete) / deltas,
 *   the provider side's overhead per delta (one async-iterator step);
 * - `toServerSentEvents` then `readServerSentEvents` of 20,000 `text-delta` events of one word,
 *   the bytes handed over in 16 KiB chunks as a socket would: per event, the cost of writing the
 *   frame (JSON, UTF-8) and of parsing it back (lines, JSON, checks).
 *
 * Medians of 7 runs; [min–max] shown (2 shared, noisy cores).
 *
 * Run: `NODE_ENV=production npx tsx bench/streaming.bench.ts`
 */
import { performance } from 'node:perf_hooks';
import type * as Library from '../src/library';
import type { AgentStreamEvent, CompletionRequest } from '../src/entries/index';
import { medianOf } from './stats';

const DIST: string = new URL('../dist/library.js', import.meta.url).href;
const lib = (
  process.env['BENCH_DIST'] === '1' ? await import(DIST) : await import('../src/library')
) as typeof Library;

const RUNS = 7;
const EVENTS = 20_000;
const CHUNK = 16 * 1024;

/** A request ending with 500 tool results: the reply is `calc returned N.` for each, 1,500 words. */
const CALLS = 500;
const request: CompletionRequest = {
  model: 'local-1',
  systemPrompt: '',
  maxTokens: 100_000,
  messages: [
    { role: 'user', content: 'add them all' },
    {
      role: 'assistant',
      content: null,
      toolCalls: Array.from({ length: CALLS }, (_, i) => ({
        id: `c${i}`,
        name: 'calc',
        parameters: {},
      })),
    },
    ...Array.from({ length: CALLS }, (_, i) => ({
      role: 'tool' as const,
      content: String(i),
      toolCallId: `c${i}`,
    })),
  ],
};

const fmt = (value: number): string => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const row = (label: string, samples: number[]): string => {
  const { median, min, max } = medianOf(samples);
  return `${label.padEnd(58)} ${fmt(median)} µs [${fmt(min)}–${fmt(max)}]`;
};

/** 20 `complete` calls, then 20 streams read to the end; the difference per delta. */
const REPEAT = 20;
const providerRun = async (): Promise<{ perDelta: number; deltas: number }> => {
  const provider = new lib.LocalProvider();
  const t0 = performance.now();
  for (let i = 0; i < REPEAT; i++) await provider.complete(request);
  const t1 = performance.now();
  let deltas = 0;
  for (let i = 0; i < REPEAT; i++) {
    for await (const part of provider.stream(request)) if (part.type === 'text-delta') deltas++;
  }
  const t2 = performance.now();
  return { perDelta: ((t2 - t1 - (t1 - t0)) * 1000) / deltas, deltas: deltas / REPEAT };
};

async function* events(): AsyncGenerator<AgentStreamEvent> {
  for (let i = 0; i < EVENTS; i++) yield { type: 'text-delta', text: `word${i % 97} ` };
}

const sseRun = async (): Promise<{ write: number; read: number }> => {
  const t0 = performance.now();
  const bytes = new Uint8Array(await new Response(lib.toServerSentEvents(events())).arrayBuffer());
  const t1 = performance.now();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += CHUNK)
        controller.enqueue(bytes.slice(at, at + CHUNK));
      controller.close();
    },
  });
  let count = 0;
  for await (const event of lib.readServerSentEvents(body))
    if (event.type === 'text-delta') count++;
  const t2 = performance.now();
  if (count !== EVENTS) throw new Error(`read ${count} events of ${EVENTS}`);
  return { write: ((t1 - t0) * 1000) / EVENTS, read: ((t2 - t1) * 1000) / EVENTS };
};

await providerRun();
await sseRun();
const provider: number[] = [];
const write: number[] = [];
const read: number[] = [];
let deltas = 0;
for (let run = 0; run < RUNS; run++) {
  const p = await providerRun();
  provider.push(p.perDelta);
  deltas = p.deltas;
  const s = await sseRun();
  write.push(s.write);
  read.push(s.read);
}
console.log(
  `streaming (${process.env['BENCH_DIST'] === '1' ? 'dist' : 'src'}), medians of ${RUNS} runs`,
);
console.log(row(`LocalProvider.stream − complete, per delta (${deltas} deltas)`, provider));
console.log(row(`toServerSentEvents, per event (${EVENTS} text-delta events)`, write));
console.log(row('readServerSentEvents, per event (16 KiB chunks)', read));
