/**
 * Issue #15, follow-up of item 1: a reference directory can hold, at our name of a pair P, a valid
 * reference record of another pair Q (selectools' keys were ambiguous: its bare id `a:b` went to
 * `a:b.json`, which is our name for namespace `a`, id `b`). P is absent; Q stays loadable; a save
 * of P first moves Q's record to Q's own name (never over a file), else aside.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionConflictError, toDict } from 'conversation-memory';
import { sessionKeyOf } from 'conversation-memory/store-kit';
import { JsonFileSessionStore } from 'conversation-memory/node';
import { referenceFileName, sessionFileName } from '../../src/node/jsonFile/fileNames';
import { sampleState } from '../stores/storeSamples';
import { rejection } from '../helpers';

const root = mkdtempSync(join(tmpdir(), 'cm-sessions-reference-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;
const freshStore = (options: { lockWaitMs?: number } = {}): JsonFileSessionStore =>
  new JsonFileSessionStore({ directory: join(root, `store-${++made}`), ...options });

/** A pair as the tests write it: `[namespace or undefined, id]`. */
type Pair = readonly [string | undefined, string];

/** What selectools writes for a pair: its layout, no revision, at `<ns:id>.json`. */
const writeReferenceRecord = (directory: string, [namespace, id]: Pair, text: string): string => {
  const referenceKey = namespace === undefined ? id : `${namespace}:${id}`;
  const name = `${referenceKey}.json`;
  writeFileSync(
    join(directory, name),
    JSON.stringify({
      session_id: id,
      namespace: namespace ?? null,
      created_at: 1795975000.5,
      updated_at: 1795975000.5,
      memory: toDict(sampleState([text])),
    }),
  );
  return name;
};

const options = ([namespace]: Pair) => ({ namespace });
const keyOf = ([namespace, id]: Pair) => sessionKeyOf(id, { namespace });
const ownName = (pair: Pair) => sessionFileName(keyOf(pair).key);
const asides = (directory: string) => readdirSync(directory).filter((n) => n.includes('.corrupt-'));
const listed = async (store: JsonFileSessionStore) =>
  (await store.list()).map((entry) => [entry.namespace, entry.id]);

/** P's name is where the reference wrote Q: both cases the reference's ambiguous keys allow. */
const CASES: readonly { readonly p: Pair; readonly q: Pair }[] = [
  { p: ['a', 'b'], q: [undefined, 'a:b'] },
  { p: ['a', 'b:c'], q: ['a:b', 'c'] },
];

describe('JsonFileSessionStore: another session’s reference record at our name', () => {
  for (const { p, q } of CASES) {
    it(`${JSON.stringify(q)} at ${JSON.stringify(p)}'s name: P is absent, Q loads; a save of P moves Q to its own name`, async () => {
      const store = freshStore();
      const { directory } = store;
      const name = writeReferenceRecord(directory, q, 'from the reference');
      expect(name).toBe(ownName(p));
      expect(referenceFileName(keyOf(q))).toBe(name);
      const qText = readFileSync(join(directory, name), 'utf8');
      expect(await store.load(p[1], options(p))).toBeNull();
      expect(await store.exists(p[1], options(p))).toBe(false);
      expect(await store.delete(p[1], options(p))).toBe(false);
      expect((await store.load(q[1], options(q)))?.state.messages[0]?.content).toBe(
        'from the reference',
      );
      expect(await listed(store)).toEqual([[q[0], q[1]]]);
      // A save that expects P to exist changes nothing.
      expect(
        await rejection(
          store.save(p[1], sampleState(['P']), { ...options(p), expectedRevision: 1 }),
        ),
      ).toBeInstanceOf(SessionConflictError);
      expect(readdirSync(directory)).toEqual([name]);
      // "Only if absent" succeeds: Q's record moves, byte for byte, to Q's own name.
      expect(
        await store.save(p[1], sampleState(['P']), { ...options(p), expectedRevision: 0 }),
      ).toEqual({ revision: 1 });
      expect(readdirSync(directory).sort()).toEqual([name, ownName(q)].sort());
      expect(readFileSync(join(directory, ownName(q)), 'utf8')).toBe(qText);
      expect((await store.load(p[1], options(p)))?.state.messages[0]?.content).toBe('P');
      expect(await store.load(q[1], options(q))).toMatchObject({ revision: 1 });
      expect((await store.load(q[1], options(q)))?.state.messages[0]?.content).toBe(
        'from the reference',
      );
      expect((await listed(store)).sort()).toEqual([p, q].map(([ns, id]) => [ns, id]).sort());
      expect(asides(directory)).toEqual([]);
    });
  }

  it('when Q already has its own file, its stale reference record goes aside, never over Q', async () => {
    const { p, q } = CASES[0] as (typeof CASES)[number];
    const store = freshStore();
    const { directory } = store;
    writeReferenceRecord(directory, q, 'old, from the reference');
    await store.save(q[1], sampleState(['Q, saved here']), options(q));
    // Our save of Q dropped its reference copy; the reference writes it again.
    const name = writeReferenceRecord(directory, q, 'old, from the reference');
    const qOwn = readFileSync(join(directory, ownName(q)), 'utf8');
    expect(await store.load(p[1], options(p))).toBeNull();
    expect(await store.save(p[1], sampleState(['P']), options(p))).toEqual({ revision: 1 });
    expect(readFileSync(join(directory, ownName(q)), 'utf8')).toBe(qOwn);
    expect(asides(directory)).toEqual([expect.stringMatching(new RegExp(`^${name}\\.corrupt-`))]);
    expect((await store.load(p[1], options(p)))?.state.messages[0]?.content).toBe('P');
    expect((await store.load(q[1], options(q)))?.state.messages[0]?.content).toBe('Q, saved here');
  });

  it('a save of P waits for Q’s lock, and gives up with SessionConflictError, moving nothing', async () => {
    const { p, q } = CASES[0] as (typeof CASES)[number];
    const store = freshStore({ lockWaitMs: 100 });
    const { directory } = store;
    const name = writeReferenceRecord(directory, q, 'from the reference');
    const qLock = join(directory, `${ownName(q)}.lock`);
    writeFileSync(qLock, JSON.stringify({ pid: process.pid, host: hostname(), token: 'x' }));
    const error = await rejection(store.save(p[1], sampleState(['P']), options(p)));
    expect(error).toBeInstanceOf(SessionConflictError);
    expect((error as Error).message).toContain(
      'its file holds the reference\'s record of session "a%3Ab", whose lock another writer held for more than 100 ms',
    );
    expect(readdirSync(directory).sort()).toEqual([name, `${ownName(q)}.lock`].sort());
    rmSync(qLock);
    expect(await store.save(p[1], sampleState(['P']), options(p))).toEqual({ revision: 1 });
  });

  it('for any pairs the reference confused, P is absent, Q loads, and a save of P keeps Q', async () => {
    const part = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,6}$/);
    await fc.assert(
      fc.asyncProperty(part, part, part, fc.boolean(), async (x, y, z, bare) => {
        // Q: bare id `x:y` (P: namespace x, id y), or namespace `x:y`, id z (P: x, `y:z`).
        const q: Pair = bare ? [undefined, `${x}:${y}`] : [`${x}:${y}`, z];
        const p: Pair = bare ? [x, y] : [x, `${y}:${z}`];
        const store = freshStore();
        const name = writeReferenceRecord(store.directory, q, `Q ${x} ${y} ${z}`);
        expect(name).toBe(ownName(p));
        expect(await store.load(p[1], options(p))).toBeNull();
        expect(await store.exists(p[1], options(p))).toBe(false);
        expect((await store.load(q[1], options(q)))?.revision).toBe(1);
        expect(await store.save(p[1], sampleState(['P']), options(p))).toEqual({ revision: 1 });
        expect((await store.load(p[1], options(p)))?.state.messages[0]?.content).toBe('P');
        expect((await store.load(q[1], options(q)))?.state.messages[0]?.content).toBe(
          `Q ${x} ${y} ${z}`,
        );
        expect(asides(store.directory)).toEqual([]);
        expect(await store.list()).toHaveLength(2);
      }),
      { numRuns: 60 },
    );
  });
});
