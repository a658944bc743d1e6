/**
 * An event-sourced agent that survives a crash: the conversation is a stream of actions in a
 * SQLite file (`SqliteEventStore`), appended to as the agent changes its memory; the state is
 * derived from the stream. Offline, with the deterministic `LocalProvider`.
 *
 * 1. This script starts itself as a child process (`EVENT_AGENT_CHILD` set). The child's agent
 *    answers one turn, then starts a tool turn; the tool kills the process with SIGKILL, after
 *    the tool call was appended and before its result exists.
 * 2. The parent, a fresh process with a fresh memory, loads the stream: the last message is the
 *    unanswered tool call. `agent.resume({ rerun: true })` runs the interrupted call again (the
 *    tool is declared `idempotent`: a lookup) and finishes the turn; then the agent answers a
 *    question about the first turn. (`agent.run` alone would answer the call as interrupted,
 *    never re-running it, and report it to `onToolInterrupted`.)
 * 3. `load` equals a replay of the actions `read` returns (`exportEventLog` + `replay`).
 *
 * Run: `npx tsx examples/eventSourcedAgent.ts`
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentTool, createAgent, exportEventLog, replay } from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import { SqliteEventStore } from 'conversation-memory/node';

const STREAM = { streamId: 'thread-7', namespace: 'user-42' };
const CONFIG = { maxMessages: 30, tokenizer: 'heuristic', toolPairs: 'strict' } as const;
const rates: Record<string, string> = { EUR: '1.08 USD', JPY: '0.0066 USD' };
const lookup = (currency: unknown): string => `${String(currency)}: ${rates[String(currency)]}`;

const childPath = process.env['EVENT_AGENT_CHILD'];
if (childPath !== undefined) {
  // The child: one turn, then a tool turn whose tool kills the process mid-run.
  const store = new SqliteEventStore({ path: childPath });
  const crashing: AgentTool = {
    name: 'rate',
    description: 'The exchange rate of a currency',
    parameters: { type: 'object', properties: { currency: { type: 'string' } } },
    execute: () => process.kill(process.pid, 'SIGKILL'),
  };
  const agent = createAgent({
    provider: new LocalProvider(),
    tools: [crashing],
    eventStore: { store, ...STREAM, config: CONFIG },
  });
  await agent.run('My name is Dana.');
  await agent.run('/call rate {"currency": "EUR"}');
  throw new Error('unreachable: the tool kills the process');
}

const directory = mkdtempSync(join(tmpdir(), 'cm-event-agent-'));
const path = join(directory, 'events.db');
try {
  // 1. The child process, killed with SIGKILL in the middle of its second run.
  const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1] as string], {
    env: { ...process.env, EVENT_AGENT_CHILD: path },
    stdio: 'inherit',
  });
  assert.equal(child.signal, 'SIGKILL');

  // 2. This process resumes from the stream.
  const store = new SqliteEventStore({ path });
  const crashed = await store.load(STREAM.streamId, { namespace: STREAM.namespace });
  assert.ok(crashed !== null);
  const pending = crashed.state.messages.at(-1)?.toolCalls?.[0];
  assert.ok(pending !== undefined, 'the stream ends with the unanswered tool call');
  const agent = createAgent({
    provider: new LocalProvider(),
    tools: [
      {
        name: 'rate',
        description: 'The exchange rate of a currency',
        parameters: { type: 'object', properties: { currency: { type: 'string' } } },
        execute: ({ currency }) => lookup(currency),
        idempotent: true,
      },
    ],
    eventStore: { store, ...STREAM },
  });
  const finished = await agent.resume({ rerun: true });
  const { message } = await agent.run("What's my name?");
  assert.equal(message.content, 'Your name is Dana.');
  assert.ok(finished.message.content?.includes('1.08 USD'));

  // 3. The stored state is exactly the replay of the stored actions.
  const loaded = await store.load(STREAM.streamId, { namespace: STREAM.namespace });
  const log = await exportEventLog(store, STREAM.streamId, { namespace: STREAM.namespace });
  assert.ok(loaded !== null && log !== null);
  assert.deepEqual(loaded.state, replay(log));
  assert.deepEqual(agent.memory?.state, loaded.state);
  await store.close();
  console.log(
    `event-sourced agent: child killed with SIGKILL at version ${crashed.version}, resumed from the stream, finished at version ${loaded.version}; load equals replay`,
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
