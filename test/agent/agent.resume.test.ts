/**
 * Resume after a crash or a failed run (issue #16 §2). The repro stays a test: an agent on a
 * SQLite or Redis event store is killed with SIGKILL inside a tool, so its stream ends with
 * `assistant(tool_calls)` and no result; the next `agent.run` must not send a request the
 * provider refuses. It runs against the loopback OpenAI and Anthropic servers, which answer 400
 * to a transcript with an unanswered call, through the real clients.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { build } from 'esbuild';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendAction,
  ConversationMemory,
  createAgent,
  createEventLog,
  getHistory,
  InMemoryEventStore,
  memoryActions,
  replay,
  type AgentTool,
  type EventStore,
  type MemoryAction,
  type Provider,
} from 'conversation-memory';
import { INTERRUPTED_TOOL_RESULT } from 'conversation-memory/constants';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { openaiProvider } from 'conversation-memory/openai';
import { RedisEventStore, SqliteEventStore } from 'conversation-memory/node';
import { collect } from '../stores/storeSamples';
import { startAnthropicServer, type AnthropicServer } from '../support/loopback/anthropicServer';
import { startOpenAIServer, type OpenAIServer } from '../support/loopback/openaiServer';
import { startRedisServer, type RedisTestServer } from '../support/redisServer';
import { scriptedProvider } from '../support/scriptedProvider';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-agent-resume-'));
// The bundle sits inside the project, so the worker resolves better-sqlite3 (kept external).
const bundleDir = fs.mkdtempSync(path.join('node_modules', '.cache', 'cm-agent-resume-'));
const workerFile = path.resolve(bundleDir, 'agentCrashWorker.mjs');
let openaiServer: OpenAIServer;
let anthropicServer: AnthropicServer;
let redis: RedisTestServer;
const opened: EventStore[] = [];

beforeAll(async () => {
  await build({
    entryPoints: ['test/support/agentCrashWorker.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: workerFile,
    external: ['better-sqlite3'],
    logLevel: 'silent',
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  openaiServer = await startOpenAIServer();
  anthropicServer = await startAnthropicServer();
  redis = await startRedisServer();
}, 60_000);

afterAll(async () => {
  for (const store of opened) await store.close?.();
  await openaiServer.close();
  await anthropicServer.close();
  await redis.stop();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(bundleDir, { recursive: true, force: true });
});

const providers = (): [string, Provider][] => [
  [
    'openai',
    openaiProvider({
      client: new OpenAI({ baseURL: openaiServer.url, apiKey: 'k', maxRetries: 0 }),
      defaultModel: 'gpt-4o-mini',
    }),
  ],
  [
    'anthropic',
    anthropicProvider({
      client: new Anthropic({ baseURL: anthropicServer.url, apiKey: 'k', maxRetries: 0 }),
      defaultModel: 'claude-sonnet-4-5',
    }),
  ],
];

/** Runs the crash worker and kills it with SIGKILL once it is inside the tool. */
const crashInsideTool = async (args: readonly string[]): Promise<void> => {
  const child = spawn(process.execPath, [workerFile, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const closed = new Promise<string | null>((resolve) =>
    child.on('close', (_, signal) => resolve(signal)),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('in-tool')) resolve();
    });
    void closed.then(() => reject(new Error(`the worker exited before the tool: ${out} ${err}`)));
  });
  child.kill('SIGKILL');
  expect(await closed).toBe('SIGKILL');
};

let streams = 0;
const stores: [string, () => { store: EventStore; args: string[]; streamId: string }][] = [
  [
    'SqliteEventStore',
    () => {
      const file = path.join(root, `crash-${streams}.db`);
      const streamId = `crash-${streams++}`;
      return {
        store: new SqliteEventStore({ path: file }),
        args: ['sqlite', file, streamId],
        streamId,
      };
    },
  ],
  [
    'RedisEventStore',
    () => {
      const prefix = `cm-resume-${process.pid}-${streams}:`;
      const streamId = `crash-${streams++}`;
      return {
        store: new RedisEventStore({ url: redis.url, prefix }),
        args: ['redis', redis.url, prefix, streamId],
        streamId,
      };
    },
  ],
];

describe.each(stores)('killed inside a tool, on %s', (_, makeStore) => {
  it.each(['openai', 'anthropic'])(
    'the next run answers the interrupted call and %s accepts the request',
    async (name) => {
      const { store, args, streamId } = makeStore();
      opened.push(store);
      await crashInsideTool(args);
      const crashed = await store.load(streamId);
      const last = crashed?.state.messages.at(-1);
      expect(last?.toolCalls?.[0]?.name).toBe('slow');
      const callId = last?.toolCalls?.[0]?.id as string;

      const provider = providers().find(([n]) => n === name)?.[1] as Provider;
      const interrupted: unknown[][] = [];
      const agent = createAgent({
        provider,
        eventStore: { store, streamId },
        observers: [{ onToolInterrupted: (...event) => void interrupted.push(event) }],
      });
      const result = await agent.run('Are you still there?');
      expect(result.message.role).toBe('assistant');
      expect(interrupted).toEqual([[result.runId, callId, 'slow', { step: 1 }]]);

      // The answer is a normal message of the stream: recorded, replayed, right after the call.
      const actions = (await collect(store.read(streamId))).map((event) => event.action);
      const history = getHistory(
        replay(actions.reduce(appendAction, createEventLog(crashed?.state.config))),
      );
      expect(history.map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'user',
        'assistant',
      ]);
      expect(history[2]).toMatchObject({
        role: 'tool',
        toolCallId: callId,
        toolName: 'slow',
        content: INTERRUPTED_TOOL_RESULT,
        metadata: { interrupted: true },
      });
      // A second run has nothing left to answer.
      await agent.run('And now?');
      expect(interrupted).toHaveLength(1);
    },
    60_000,
  );
});

/** A stream that ends with `assistant(tool_calls)` and no results, as a crash leaves it. */
const crashedStream = async (calls: { id: string; name: string }[]) => {
  const store = new InMemoryEventStore();
  const actions: MemoryAction[] = [
    memoryActions.messageAdded({ role: 'user', content: 'look it up' }),
    memoryActions.messageAdded({
      role: 'assistant',
      content: null,
      toolCalls: calls.map((call) => ({ ...call, parameters: { q: call.id } })),
    }),
  ];
  await store.append('s', actions, { expectedVersion: 0, config: { tokenizer: 'heuristic' } });
  return store;
};

describe('agent.resume', () => {
  const tools = (ran: string[]): AgentTool[] => [
    {
      name: 'lookup',
      description: 'reads',
      parameters: { type: 'object' },
      idempotent: true,
      execute: ({ q }) => {
        ran.push(`lookup:${String(q)}`);
        return `found ${String(q)}`;
      },
    },
    {
      name: 'charge',
      description: 'pays',
      parameters: { type: 'object' },
      execute: ({ q }) => {
        ran.push(`charge:${String(q)}`);
        return 'charged';
      },
    },
  ];

  it('with rerun, runs interrupted idempotent tools again, answers the others, and finishes the run', async () => {
    const store = await crashedStream([
      { id: 'c1', name: 'lookup' },
      { id: 'c2', name: 'charge' },
    ]);
    const ran: string[] = [];
    const provider = scriptedProvider(() => ({ role: 'assistant', content: 'done' }));
    const agent = createAgent({
      provider,
      tools: tools(ran),
      eventStore: { store, streamId: 's' },
    });
    const result = await agent.resume({ rerun: true });
    expect(ran).toEqual(['lookup:c1']);
    expect(result).toMatchObject({
      message: { content: 'done' },
      iterations: 1,
      stopReason: 'final',
    });
    const sent = provider.requests[0]?.messages ?? [];
    expect(sent.map((m) => [m.role, m.content])).toEqual(
      [
        ['user', 'look it up'],
        ['assistant', null],
        ['tool', 'found c1'],
        ['tool', INTERRUPTED_TOOL_RESULT],
        ['assistant', 'done'].slice(0, 0).length === 0 ? ['assistant', 'done'] : [],
      ].slice(0, 4),
    );
    expect((await store.load('s'))?.state.messages.at(-1)?.content).toBe('done');
  });

  it('without rerun, runs nothing again; a finished conversation resolves to its last answer', async () => {
    const store = await crashedStream([{ id: 'c1', name: 'lookup' }]);
    const ran: string[] = [];
    const provider = scriptedProvider(() => ({ role: 'assistant', content: 'sorry, again?' }));
    const agent = createAgent({
      provider,
      tools: tools(ran),
      eventStore: { store, streamId: 's' },
    });
    await agent.resume();
    expect(ran).toEqual([]);
    const again = await agent.resume();
    expect(again).toMatchObject({ message: { content: 'sorry, again?' }, iterations: 0 });
    expect(provider.requests).toHaveLength(1);
    await expect(agent.resume({ rerun: 'yes' } as never)).rejects.toThrow(
      'options.rerun must be true or false, received "yes"',
    );
  });

  it('rejects when there is no conversation to resume', async () => {
    const provider = scriptedProvider(() => ({ role: 'assistant', content: 'hi' }));
    await expect(
      createAgent({ provider, memory: new ConversationMemory() }).resume(),
    ).rejects.toThrow('there is no conversation to resume: the memory is empty');
    await expect(createAgent({ provider }).resume()).rejects.toThrow(
      'the agent has no memory, session or event store',
    );
    expect(provider.requests).toHaveLength(0);
  });

  it("a run whose input brings the call's results itself is not answered twice", async () => {
    const store = await crashedStream([{ id: 'c1', name: 'lookup' }]);
    const interrupted: string[] = [];
    const agent = createAgent({
      provider: scriptedProvider(() => ({ role: 'assistant', content: 'ok' })),
      eventStore: { store, streamId: 's' },
      observers: [{ onToolInterrupted: (_, id) => void interrupted.push(id) }],
    });
    await agent.run({ role: 'tool', content: 'found it', toolCallId: 'c1', toolName: 'lookup' });
    expect(interrupted).toEqual([]);
    const roles = (await store.load('s'))?.state.messages.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });
});

describe('a failed run leaves a memory whose next view is valid', () => {
  it('default policy: a provider error after a tool turn, then the next run succeeds on the loopback server', async () => {
    // maxMessages 3 under the reference policy: adding the tool result trims the call, leaving
    // an orphan result at the head of the window.
    const memory = new ConversationMemory({ maxMessages: 3, tokenizer: 'heuristic' });
    const failing = scriptedProvider((_, n) => {
      if (n === 1) {
        return {
          role: 'assistant',
          content: null,
          toolCalls: [{ id: 'c1', name: 'lookup', parameters: {} }],
        };
      }
      throw new Error('503 from the provider');
    });
    const tool: AgentTool = {
      name: 'lookup',
      description: 'reads',
      parameters: { type: 'object' },
      execute: () => 'found',
    };
    await expect(
      createAgent({ provider: failing, memory, tools: [tool] }).run('first question here'),
    ).rejects.toThrow('503');
    const [, openai] = providers()[0] as [string, Provider];
    const agent = createAgent({ provider: openai, memory, tools: [tool] });
    const result = await agent.run('second question');
    expect(result.message.role).toBe('assistant');
    for (const [, provider] of providers()) {
      await expect(
        createAgent({ provider, memory, tools: [tool] }).run('third'),
      ).resolves.toMatchObject({
        stopReason: 'final',
      });
    }
  });
});
