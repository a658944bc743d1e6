// Loads the built ESM entry under plain Node (no bundler, no vitest resolution), as users do.
// fp-ts and io-ts have no exports map, so an import that works under vitest can crash here.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  addMessage,
  ConversationMemory,
  createMemory,
  fromDict,
  toDict,
  userMessage,
} from 'conversation-memory';
import { registerTokenizer } from 'conversation-memory/tokens';

const memory = new ConversationMemory({ maxMessages: 2 });
memory.addMany([userMessage('a'), userMessage('b'), userMessage('Hello, world!')]);
assert.equal(String(memory), 'ConversationMemory(maxMessages=2, maxTokens=null, currentMessages=2)');
assert.equal(memory.state.totalTokens, 1 + 4); // o200k: "b" = 1, "Hello, world!" = 4
const restored = fromDict(JSON.parse(JSON.stringify(toDict(memory.state))));
assert.equal(restored._tag, 'Right');
assert.deepEqual(restored.right, memory.state);
assert.equal(fromDict({ max_messages: 0 })._tag, 'Left');

// The agent runs on the built package, and each adapter subpath loads under plain Node: it
// imports the root entry by the package's own name, so it shares the root's code (and its error
// classes) instead of carrying a copy.
const { createAgent, ProviderResponseError, SessionConflictError } = await import('conversation-memory');
const { LocalProvider } = await import('conversation-memory/testing');
// The browser-safe subpaths re-export one shared build (dist/library.js): a store-kit helper
// throws the root's own error class, in ESM and in CJS.
const storeKit = await import('conversation-memory/store-kit');
assert.throws(() => storeKit.checkExpectedRevision('s1', 2, 1), SessionConflictError);
const requireCjs = createRequire(import.meta.url);
assert.throws(
  () => requireCjs('conversation-memory/store-kit').checkExpectedRevision('s1', 2, 1),
  requireCjs('conversation-memory').SessionConflictError,
);
assert.equal(typeof (await import('conversation-memory/sse')).toServerSentEvents, 'function');
assert.equal((await import('conversation-memory/constants')).SUMMARY_MESSAGE_PREFIX, '[Conversation Summary]');
assert.equal((await import('conversation-memory/knowledge')).createKnowledge().nextId, 1);
const agent = createAgent({ provider: new LocalProvider(), memory: new ConversationMemory() });
await agent.run('My name is Ada');
assert.equal((await agent.run('What is my name?')).message.content, 'Your name is Ada.');
const { openaiProvider } = await import('conversation-memory/openai');
const { anthropicProvider } = await import('conversation-memory/anthropic');
const { aiSdkProvider, toModelMessages } = await import('conversation-memory/ai-sdk');
const { createConversationsSlice } = await import('conversation-memory/redux');
assert.equal(typeof createConversationsSlice({}).reducer, 'function');
for (const factory of [openaiProvider, anthropicProvider, aiSdkProvider, toModelMessages]) {
  assert.equal(typeof factory, 'function');
}
const bad = openaiProvider({
  client: { chat: { completions: { create: async () => ({ choices: [] }) } } },
  defaultModel: 'm',
});
await assert.rejects(
  bad.complete({ model: 'm', systemPrompt: '', messages: [userMessage('hi')] }),
  (error) => error instanceof ProviderResponseError,
);
// The embedder, under plain Node ESM: fp-ts (no exports map) loads, a bad reply is the root's
// ProviderResponseError, and an imported cache answers.
const { createOpenAIEmbedder } = await import('conversation-memory/openai');
const embedder = createOpenAIEmbedder({
  client: { embeddings: { create: async () => ({ data: [{ index: 0, embedding: [NaN] }] }) } },
});
await assert.rejects(embedder.prepare(['a']), (error) => error instanceof ProviderResponseError);
const cacheImport = embedder.importCache({
  format: 'conversation-memory/embeddings',
  version: 1,
  model: 'text-embedding-3-small',
  dimensions: null,
  entries: [{ text: 'a', embedding: [0.6, 0.8] }],
});
assert.deepEqual(cacheImport, { _tag: 'Right', right: 1 });
assert.deepEqual(embedder.embed('a'), [0.6, 0.8]);

// The otel subpath: @opentelemetry/api stays external (an optional peer, one copy per app: a
// bundled copy would not see the app's tracer provider), and the observer traces through it.
const otelBuild = readFileSync(new URL('../../dist/otel.js', import.meta.url), 'utf8');
assert.match(otelBuild, /from ["']@opentelemetry\/api["']/);
assert.doesNotMatch(otelBuild, /class ProxyTracerProvider|function ProxyTracerProvider/);
const { otelObserver } = await import('conversation-memory/otel');
const { AgentConfigError } = await import('conversation-memory');
assert.throws(() => otelObserver({ tracer: {} }), (error) => error instanceof AgentConfigError);
const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import(
  '@opentelemetry/sdk-trace-base'
);
const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('smoke');
const traced = otelObserver({ tracer });
traced.onToolStart('run-1', { toolCallId: 't1', toolName: 'calc', input: {} });
traced.onToolEnd('run-1', { toolCallId: 't1', toolName: 'calc', output: '4', durationMs: 1 });
assert.deepEqual(
  exporter.getFinishedSpans().map((span) => [span.name, span.attributes['gen_ai.tool.name']]),
  [['execute_tool calc', 'calc']],
);

// An app that loads both builds (an ESM app with a CJS dependency that also uses us) shares one
// tokenizer registry: a name registered through import is known through require, both ways.
const cjs = createRequire(import.meta.url)('conversation-memory');
registerTokenizer('smoke-words', (m) => (m.content ?? '').split(' ').length);
const viaCjs = cjs.addMessage(cjs.createMemory({ tokenizer: 'smoke-words' }), cjs.userMessage('a b c'));
assert.equal(viaCjs.state.totalTokens, 3);
assert.equal(addMessage(viaCjs.state, userMessage('d e')).state.totalTokens, 5);
assert.equal(createMemory({ tokenizer: 'smoke-words' }).config.tokenizer, 'smoke-words');

// Whole windows are frozen only in development and test (NODE_ENV 'development' or 'test'),
// where it catches mutation early; elsewhere (production, or NODE_ENV unset as on many servers)
// freezing them would walk the whole window on every add. State records and messages are always
// frozen.
const freezing = (env) =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { addMessage, createMemory, userMessage } from 'conversation-memory';
         const s = addMessage(createMemory({ tokenizer: 'heuristic' }), userMessage('x')).state;
         console.log(JSON.stringify([Object.isFrozen(s), Object.isFrozen(s.messages), Object.isFrozen(s.messages[0])]));`,
      ],
      { env: { ...process.env, NODE_ENV: env }, encoding: 'utf8' },
    ),
  );
assert.deepEqual(freezing('production'), [true, false, true]);
assert.deepEqual(freezing(''), [true, false, true]);
assert.deepEqual(freezing('development'), [true, true, true]);
assert.deepEqual(freezing('test'), [true, true, true]);

// What a selector hands out is frozen in every NODE_ENV, when it is read (adds never pay for it):
// a UI's getHistory(state).reverse() throws instead of reversing the state in production.
const handedOut = JSON.parse(
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { addMessages, createMemory, getHistory, getRecent, userMessage } from 'conversation-memory';
       const s = addMessages(createMemory({ tokenizer: 'heuristic' }), [userMessage('a'), userMessage('b')]).state;
       const before = Object.isFrozen(s.messages);
       let threw = false;
       try { getHistory(s).reverse(); } catch { threw = true; }
       console.log(JSON.stringify([before, Object.isFrozen(getHistory(s)), threw, Object.isFrozen(getRecent(s, 1)), s.messages[0].content]));`,
    ],
    { env: { ...process.env, NODE_ENV: 'production' }, encoding: 'utf8' },
  ),
);
assert.deepEqual(handedOut, [false, true, true, true, 'a']);

// A runtime that cannot load an encoding synchronously (a browser): simulated by removing
// process.getBuiltinModule. The default tokenizer must then be loaded with loadTokenizer first.
const browserLike = execFileSync(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `delete process.getBuiltinModule;
     const cm = { ...(await import('conversation-memory')), ...(await import('conversation-memory/tokens')) };
     const out = [];
     try { cm.createMemory(); out.push('created'); } catch (e) { out.push(e.message); }
     const early = cm.fromDict({ max_messages: 2, messages: [{ role: 'user', content: 'hi' }] });
     out.push([early._tag, early.left?.kind, early.left?.problems[0]]);
     const heuristic = cm.addMessage(cm.createMemory({ tokenizer: 'heuristic' }), cm.userMessage('abcdefgh')).state;
     out.push(heuristic.totalTokens);
     await cm.loadTokenizer('o200k_base');
     out.push(cm.addMessage(cm.createMemory(), cm.userMessage('Hello, world!')).state.totalTokens);
     try { cm.estimateTokens('hi', 'gpt-4'); out.push('counted'); } catch (e) { out.push(e.code); }
     console.log(JSON.stringify(out));`,
  ],
  { encoding: 'utf8' },
);
assert.deepEqual(JSON.parse(browserLike), [
  '[conversation-memory] createMemory: tokenizer must be loaded first in this runtime: call `await loadTokenizer("o200k_base")`',
  [
    'Left',
    'tokenizer',
    'tokenizer (the default) must be loaded first in this runtime: call `await loadTokenizer("o200k_base")`',
  ],
  2,
  4,
  'CM_TOKENIZER',
]);

// Every way of running Node code finds the encodings beside this package, without loadTokenizer:
// the ESM build through import() from a CommonJS context (`node -e`, `node -p`, where a global
// `__filename` is '[eval]', which must not be taken for this module's location), an ES module
// context, the CJS build, and the REPL. Run from the package root, where the name resolves to
// this package itself.
const COUNT = `m.addMessage(m.createMemory(), m.userMessage('Hello, world!')).state.totalTokens`;
const run = (args, input) =>
  execFileSync(process.execPath, args, { encoding: 'utf8', input, cwd: process.cwd() }).trim();
const contexts = {
  'node -e, import()': ['-e', `import('conversation-memory').then((m) => console.log(${COUNT}))`],
  'node -p, import()': [
    '-p',
    `import('conversation-memory').then((m) => console.log('count=' + ${COUNT})) && ''`,
  ],
  'node -p, require()': ['-p', `const m = require('conversation-memory'); ${COUNT}`],
  'node -e, require()': ['-e', `const m = require('conversation-memory'); console.log(${COUNT})`],
  'node --input-type=module -e': [
    '--input-type=module',
    '-e',
    `const m = await import('conversation-memory'); console.log(${COUNT})`,
  ],
};
for (const [context, args] of Object.entries(contexts)) {
  const lines = run(args).split('\n');
  assert.equal(lines.at(-1).replace('count=', ''), '4', `${context}: ${lines.join(' | ')}`);
}
// The REPL, one line each: `await` makes it finish the line before it reads the end of input.
for (const line of [
  `await import('conversation-memory').then((m) => console.log('count=' + ${COUNT}))`,
  `const m = require('conversation-memory'); console.log('count=' + ${COUNT})`,
]) {
  const out = run(['-i'], `${line}\n`);
  assert.match(out, /count=4/, `REPL: ${line}: ${out}`);
}

// A failed synchronous load is not remembered: with process.getBuiltinModule gone, the first use
// cannot load the encoding; once it is back, the next use loads it, without loadTokenizer.
const retried = run([
  '-e',
  `const saved = process.getBuiltinModule;
   delete process.getBuiltinModule;
   import('conversation-memory/tokens').then((m) => {
     const out = [];
     try { m.estimateTokens('Hello, world!', 'gpt-4'); out.push('counted'); } catch (e) { out.push(e.code); }
     process.getBuiltinModule = saved;
     out.push(m.estimateTokens('Hello, world!', 'gpt-4'));
     console.log(JSON.stringify(out));
   });`,
]);
assert.deepEqual(JSON.parse(retried), ['CM_TOKENIZER', 4]);

// Counters loaded by the 0.1.0 release (quadratic on long whitespace runs) sit in its own shared
// slot; when both releases are loaded side by side, this one never counts with them.
const beside010 = run([
  '-e',
  `globalThis[Symbol.for('conversation-memory/encodings@1')] = new Map([['o200k_base', () => 999]]);
   import('conversation-memory/tokens').then((m) => console.log(m.estimateTokens('Hello, world!', 'gpt-4o')));`,
]);
assert.equal(beside010.trim(), '4');
console.log('dist ESM entry: ok');
