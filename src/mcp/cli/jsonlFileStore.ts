import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { either as E } from 'fp-ts';
import { decodeKnowledgeState, InMemoryKnowledgeStore } from '../../library';
import type { KnowledgeState } from '../../model/knowledge';
import { writeFileAtomic } from '../../node/jsonFile/atomicWrite';
import type { KnowledgeStore } from '../../stores/knowledge/types';
import { graphInForce } from '../graph/graphReads';
import {
  formatReferenceJsonl,
  knowledgeOfGraph,
  parseReferenceJsonl,
} from '../graph/referenceJsonl';

/**
 * The type of the one line this store adds to a reference file: the whole knowledge state (the
 * history with retired facts). The reference server skips a line of a type it does not know, so
 * the file stays one it reads.
 */
export const HISTORY_LINE_TYPE = 'conversation-memory/knowledge';

/**
 * What a reference file (`memory.jsonl`) holds, read for the MCP command: the graph of its entity
 * and relation lines, and this store's history line when there is one and it still agrees with
 * them (when another program changed the lines, they win: their graph is imported afresh).
 * `null` when the file does not exist.
 */
export const readGraphFile = async (path: string, at: number): Promise<KnowledgeState | null> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return null;
    throw error;
  }
  const lines = text.split('\n');
  const historyAt = lines.findIndex((line) => line.startsWith(`{"type":"${HISTORY_LINE_TYPE}"`));
  const graphText = lines.filter((_, i) => i !== historyAt).join('\n');
  const graph = parseReferenceJsonl(graphText);
  if (E.isLeft(graph)) throw new Error(`${path}: ${graph.left.detail}`);
  if (historyAt >= 0) {
    const history = E.chainW((line: unknown) =>
      decodeKnowledgeState((line as { state?: unknown }).state),
    )(
      E.tryCatch(
        () => JSON.parse(lines[historyAt] as string) as unknown,
        (e) => e,
      ),
    );
    if (
      E.isRight(history) &&
      formatReferenceJsonl(graphInForce(history.right)) === formatReferenceJsonl(graph.right)
    ) {
      return history.right;
    }
  }
  return knowledgeOfGraph(graph.right, at);
};

/**
 * A knowledge store for the MCP command's default storage, one reference file: in memory, and
 * after each save of the graph's record the file is replaced (atomically) with its entity and
 * relation lines, as the reference writes them, then one history line. One process at a time: two
 * servers on one graph need the SQLite or Redis store.
 */
export const jsonlFileStore = async (
  path: string,
  id: string,
  namespace: string | undefined,
  now: () => number,
): Promise<KnowledgeStore> => {
  const inner = new InMemoryKnowledgeStore();
  const where = namespace === undefined ? {} : { namespace };
  const initial = await readGraphFile(path, now());
  if (initial !== null) await inner.save(id, initial, { ...where, expectedRevision: 0 });
  const directory = dirname(resolve(path));
  const name = basename(path);
  let writing: Promise<unknown> = Promise.resolve();
  const writeFile = (state: KnowledgeState): Promise<unknown> => {
    const text = [
      formatReferenceJsonl(graphInForce(state)),
      JSON.stringify({ type: HISTORY_LINE_TYPE, state }),
    ]
      .filter((part) => part !== '')
      .join('\n');
    const temp = `${name}.${randomBytes(8).toString('hex')}.tmp`;
    // One write after another; a failed one (a full disk) fails its own save, not every later one.
    writing = writing
      .catch(() => undefined)
      .then(() => writeFileAtomic(directory, name, temp, text, async () => true));
    return writing;
  };
  return new Proxy(inner, {
    get(target, key, receiver) {
      if (key !== 'save') {
        const value = Reflect.get(target, key, receiver) as unknown;
        // The store's methods read its private fields: call them on it, not on the proxy.
        return typeof value === 'function'
          ? (value as (...a: unknown[]) => unknown).bind(target)
          : value;
      }
      return async (...args: Parameters<KnowledgeStore['save']>) => {
        const saved = await target.save(...args);
        const [savedId, state, options] = args;
        if (savedId === id && options?.namespace === namespace) await writeFile(state);
        return saved;
      };
    },
  });
};
