/**
 * Issue #15, item 3: entries of a JSON file store's directory that are not regular session files
 * (FIFOs, sockets, symlinks and their loops, directories, huge files, deeply nested JSON), at a
 * session's name, at a lock's name, or anywhere among the `*.json` files.
 */
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MemoryArgumentError,
  SessionCorruptError,
  createMemory,
  addMessages,
  userMessage,
} from 'conversation-memory';
import { JsonFileSessionStore } from 'conversation-memory/node';
import { DEFAULT_MAX_FILE_BYTES, readRegularFile } from '../../src/node/jsonFile/readRegularFile';
import { sessionFileName } from '../../src/node/jsonFile/fileNames';
import { sampleState } from '../stores/storeSamples';
import {
  deepArrayText,
  deepObjectText,
  HOSTILE_KINDS,
  makeFifo,
  makeHostileEntry,
  makeSparseFile,
  settleWithin,
} from '../support/sessionFileHostile';
import { rejection } from '../helpers';

const root = mkdtempSync(join(tmpdir(), 'cm-sessions-hostile-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;
const freshStore = (options: { maxFileBytes?: number } = {}): JsonFileSessionStore =>
  new JsonFileSessionStore({ directory: join(root, `store-${++made}`), ...options });

const asides = (directory: string): string[] =>
  readdirSync(directory).filter((name) => name.includes('.corrupt-'));

const ids = (entries: readonly { sessionId: string }[]): string[] =>
  entries.map((entry) => entry.sessionId);

/** A valid session file's text for `id` (saved by a scratch store, read back). */
const sessionText = async (id: string): Promise<string> => {
  const scratch = freshStore();
  await scratch.save(id, sampleState(['hello', 'hi there']));
  return readFileSync(join(scratch.directory, sessionFileName(id)), 'utf8');
};

/** The store's calls on a session with a hostile entry, each guarded against hangs. */
const expectCorruptEverywhere = async (
  store: JsonFileSessionStore,
  id: string,
  problem: RegExp,
  listed: readonly string[] = ['good'],
): Promise<void> => {
  const { directory } = store;
  const guard = <T>(promise: Promise<T>, label: string) => settleWithin(promise, label, directory);
  const error = await guard(rejection(store.load(id)), `load ${id}`);
  expect(error).toBeInstanceOf(SessionCorruptError);
  expect((error as SessionCorruptError).location).toBe(join(directory, sessionFileName(id)));
  expect((error as SessionCorruptError).problems[0]).toMatch(problem);
  expect(await guard(store.exists(id), `exists ${id}`)).toBe(true);
  expect(ids(await guard(store.list(), 'list'))).toEqual(listed);
  expect(ids(await guard(store.search('hello'), 'search'))).toEqual(['good']);
};

/** A save over the entry moves it aside (kept as it was), then the session is ours. */
const expectSaveMovesAside = async (
  store: JsonFileSessionStore,
  id: string,
  isKept: (aside: string) => boolean,
): Promise<void> => {
  const { directory } = store;
  const before = new Set(asides(directory));
  expect(
    await settleWithin(store.save(id, sampleState([`mine ${id}`])), `save ${id}`, directory),
  ).toEqual({ revision: 1 });
  const moved = asides(directory).filter((name) => !before.has(name));
  expect(moved).toHaveLength(1);
  expect(moved[0]).toMatch(new RegExp(`^${sessionFileName(id).replaceAll('.', '\\.')}\\.corrupt-`));
  expect(isKept(join(directory, moved[0] as string))).toBe(true);
  expect((await store.load(id))?.state.messages[0]?.content).toBe(`mine ${id}`);
};

describe('JsonFileSessionStore: entries that are not regular files', () => {
  it('a FIFO at a session name blocks nothing: load, exists, list, search, save; four loads at once leave the thread pool free', async () => {
    const store = freshStore();
    await store.save('good', sampleState());
    makeFifo(join(store.directory, 'pipe.json'));
    await expectCorruptEverywhere(store, 'pipe', /^\(root\): a FIFO/);
    // Four reads at once would take all four threads of libuv's pool if they blocked.
    const loads = Array.from({ length: 4 }, () => rejection(store.load('pipe')));
    const other = readFile(join(store.directory, 'good.json'), 'utf8');
    const settled = await settleWithin(
      Promise.all([...loads, other]),
      'four loads and a readFile',
      store.directory,
    );
    for (const error of settled.slice(0, 4)) expect(error).toBeInstanceOf(SessionCorruptError);
    expect(settled[4]).toContain('"session_id":"good"');
    await expectSaveMovesAside(store, 'pipe', (aside) => lstatSync(aside).isFIFO());
  });

  it('a symlink at a session name is not followed: a loop is SessionCorruptError (not ELOOP) and a save moves the link aside', async () => {
    const store = freshStore();
    await store.save('good', sampleState());
    await makeHostileEntry('symlinkLoop', join(store.directory, 'loop.json'), {
      sessionText: '',
      hugeBytes: 0,
    });
    await expectCorruptEverywhere(store, 'loop', /^\(root\): a symbolic link/);
    await expectSaveMovesAside(store, 'loop', (aside) => lstatSync(aside).isSymbolicLink());
    // A link to a sound session elsewhere is not followed either, and its target is untouched.
    const outside = join(mkdtempSync(join(tmpdir(), 'cm-outside-')), 'linked.json');
    const text = await sessionText('linked');
    writeFileSync(outside, text);
    await makeHostileEntry('symlinkToSession', join(store.directory, 'linked.json'), {
      sessionText: text,
      hugeBytes: 0,
    });
    await expectCorruptEverywhere(store, 'linked', /^\(root\): a symbolic link/, ['good', 'loop']);
    await expectSaveMovesAside(store, 'linked', (aside) => lstatSync(aside).isSymbolicLink());
    expect(readFileSync(outside, 'utf8')).toBe(text);
  });

  it('a 600 MB (sparse) file is not read: SessionCorruptError naming its size, skipped by list, moved aside by a save', async () => {
    const store = freshStore();
    await store.save('good', sampleState());
    const bytes = 600 * 2 ** 20;
    makeSparseFile(join(store.directory, 'huge.json'), bytes);
    await expectCorruptEverywhere(
      store,
      'huge',
      new RegExp(`^\\(root\\): ${bytes} bytes, over the limit of ${DEFAULT_MAX_FILE_BYTES}`),
    );
    await expectSaveMovesAside(store, 'huge', (aside) => lstatSync(aside).size === bytes);
  });

  it('maxFileBytes: a smaller limit applies to reads and saves, and bad values are refused', async () => {
    const store = freshStore({ maxFileBytes: 4096 });
    await store.save('good', sampleState());
    const big = sampleState(['x'.repeat(5000)]);
    const refused = await rejection(store.save('big', big));
    expect(refused).toBeInstanceOf(MemoryArgumentError);
    expect((refused as Error).message).toMatch(
      /JsonFileSessionStore\.save: state: the session file would be \d+ bytes, over options\.maxFileBytes \(4096\)/,
    );
    expect(readdirSync(store.directory)).toEqual(['good.json']);
    // A file written by a store with a higher limit is too large here, and says so.
    await freshStore().save('big', big);
    const roomy = new JsonFileSessionStore({ directory: store.directory });
    await roomy.save('big', big);
    expect(((await rejection(store.load('big'))) as SessionCorruptError).problems[0]).toMatch(
      /^\(root\): \d+ bytes, over the limit of 4096 \(options\.maxFileBytes\)/,
    );
    expect((await roomy.load('big'))?.state.messages[0]?.content).toBe('x'.repeat(5000));
    for (const maxFileBytes of [0, -1, 1.5, Number.NaN, '64', 2 ** 40]) {
      expect(
        () => new JsonFileSessionStore({ directory: store.directory, maxFileBytes } as never),
      ).toThrow(/options\.maxFileBytes must be an integer/);
    }
  });

  it('deep nesting (a 200 KB array, an unclosed one, a deep field) never overflows the stack: list and search still work', async () => {
    const store = freshStore();
    await store.save('good', sampleState());
    const text = await sessionText('x');
    for (const kind of ['deepArray', 'unclosedArray', 'deepTimestamp'] as const) {
      await makeHostileEntry(kind, join(store.directory, `${kind.toLowerCase()}.json`), {
        sessionText: text,
        hugeBytes: 0,
      });
    }
    await expectCorruptEverywhere(store, 'deeparray', /^\(root\): expected a session object/);
    await expectCorruptEverywhere(store, 'unclosedarray', /^\(root\): not JSON/);
    await expectCorruptEverywhere(
      store,
      'deeptimestamp',
      /^session_id: the file holds|^created_at/,
    );
    await expectSaveMovesAside(
      store,
      'deeparray',
      (aside) => readFileSync(aside, 'utf8') === deepArrayText(),
    );
  });

  it('a directory, a FIFO, a symlink loop or a huge file at a lock’s path is moved aside, never EISDIR or a hang forever', async () => {
    const text = await sessionText('x');
    for (const kind of [
      'directory',
      'directoryWithFile',
      'fifo',
      'symlinkLoop',
      'symlinkToFifo',
      'danglingSymlink',
      'hugeSparseFile',
    ] as const) {
      const store = freshStore();
      await store.save('s1', sampleState(['first']));
      const lock = join(store.directory, 's1.json.lock');
      await makeHostileEntry(kind, lock, { sessionText: text, hugeBytes: 600 * 2 ** 20 });
      const saved = await settleWithin(
        store.save('s1', sampleState(['second']), { expectedRevision: 1 }),
        `save over a ${kind} lock`,
        store.directory,
      );
      expect(saved).toEqual({ revision: 2 });
      expect((await store.load('s1'))?.state.messages[0]?.content).toBe('second');
      const names = readdirSync(store.directory);
      expect(names).not.toContain('s1.json.lock');
      expect(names.filter((name) => name.startsWith('s1.json.lock.corrupt-'))).toHaveLength(1);
      expect(await store.delete('s1')).toBe(true);
    }
  });
});

describe('JsonFileSessionStore: hostile entries, as a class', () => {
  it('any mix of hostile entries at session names, at a lock, and among the files: list and search skip them, load rejects SessionCorruptError, a save moves aside then saves', async () => {
    const text = await sessionText('x');
    const kind = fc.constantFrom(...HOSTILE_KINDS);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(kind, { minLength: 1, maxLength: 4 }),
        fc.option(kind, { nil: undefined }),
        fc.option(kind, { nil: undefined }),
        async (atSessions, atLock, stray) => {
          const store = freshStore();
          const { directory } = store;
          await store.save('good', sampleState(['hello']));
          const options = { sessionText: text, hugeBytes: DEFAULT_MAX_FILE_BYTES + 1 };
          const hostileIds = atSessions.map((k) => `h-${k.toLowerCase()}`);
          for (const [i, k] of atSessions.entries()) {
            await makeHostileEntry(k, join(directory, `${hostileIds[i] as string}.json`), options);
          }
          // A stray entry whose name no session has (a `%` name that decodes to nothing).
          if (stray !== undefined)
            await makeHostileEntry(stray, join(directory, '%zz.json'), options);
          if (atLock !== undefined) {
            await makeHostileEntry(atLock, join(directory, 'good.json.lock'), options);
          }
          const guard = <T>(promise: Promise<T>, label: string) =>
            settleWithin(promise, label, directory);
          expect(ids(await guard(store.list(), 'list'))).toEqual(['good']);
          expect(ids(await guard(store.search('hello'), 'search'))).toEqual(['good']);
          for (const id of hostileIds) {
            const error = await guard(rejection(store.load(id)), `load ${id}`);
            expect(error).toBeInstanceOf(SessionCorruptError);
            expect(await guard(store.exists(id), `exists ${id}`)).toBe(true);
          }
          expect(await guard(store.save('good', sampleState(['again'])), 'save good')).toEqual({
            revision: 2,
          });
          for (const id of hostileIds) {
            expect(await guard(store.save(id, sampleState([id])), `save ${id}`)).toEqual({
              revision: 1,
            });
            expect((await store.load(id))?.state.messages[0]?.content).toBe(id);
          }
          expect(asides(directory).filter((name) => name.startsWith('h-'))).toHaveLength(
            hostileIds.length,
          );
          expect(ids(await guard(store.list(), 'list after'))).toEqual(
            ['good', ...hostileIds].sort(),
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a deeply nested value anywhere in a session file: load loads or rejects SessionCorruptError, list never throws', async () => {
    let state = createMemory({ maxMessages: 50, tokenizer: 'heuristic' });
    state = addMessages(state, [
      userMessage('hello'),
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'f', parameters: { q: [1, { z: 2 }] } }],
      },
      { role: 'tool', content: 'ok', toolName: 'f', toolCallId: 'c1' },
    ]).state;
    const scratch = freshStore();
    await scratch.save('deep', state);
    const record = JSON.parse(readFileSync(join(scratch.directory, 'deep.json'), 'utf8')) as object;
    const paths: (string | number)[][] = [];
    const walk = (value: unknown, path: (string | number)[]): void => {
      if (path.length > 0) paths.push(path);
      if (typeof value !== 'object' || value === null) return;
      for (const [key, inner] of Object.entries(value)) {
        walk(inner, [...path, Array.isArray(value) ? Number(key) : key]);
      }
    };
    walk(record, []);
    const store = freshStore();
    await store.save('good', sampleState(['hello']));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.constantFrom('array', 'object'),
        fc.boolean(),
        async (path, shape, beside) => {
          const copy = structuredClone(record) as Record<string | number, unknown>;
          let parent = copy;
          for (const key of path.slice(0, -1)) parent = parent[key] as typeof parent;
          const last = path[path.length - 1] as string | number;
          const target = beside ? (parent[last] as unknown) : undefined;
          if (beside && (typeof target !== 'object' || target === null || Array.isArray(target))) {
            return;
          }
          if (beside) (target as Record<string, unknown>)['extra'] = '@DEEP@';
          else parent[last] = '@DEEP@';
          const deep = shape === 'array' ? deepArrayText() : deepObjectText();
          writeFileSync(
            join(store.directory, 'deep.json'),
            JSON.stringify(copy).replace('"@DEEP@"', deep),
          );
          const loaded = await store.load('deep').catch((error: unknown) => error);
          if (loaded !== null && !(loaded instanceof SessionCorruptError)) {
            expect((loaded as { state?: unknown }).state).toBeDefined();
          }
          expect(ids(await store.list())).toContain('good');
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('readRegularFile', () => {
  it.runIf(process.platform === 'linux')(
    'reads through the handle up to the limit, whatever the stat said (/proc files say 0 bytes)',
    async () => {
      const status = await readRegularFile('/proc/self/status', DEFAULT_MAX_FILE_BYTES);
      expect(status.kind === 'text' && status.text.includes(`Pid:\t${process.pid}`)).toBe(true);
      expect(await readRegularFile('/proc/self/status', 10)).toEqual({
        kind: 'foreign',
        what: '11 bytes, over the limit of 10',
        tooLarge: true,
      });
      expect(await readRegularFile('/dev/null', 10)).toEqual({
        kind: 'foreign',
        what: 'a device',
        tooLarge: false,
      });
      expect(await readRegularFile(join(root, 'nothing-here.json'), 10)).toEqual({
        kind: 'absent',
      });
    },
  );
});
