import { either as E } from 'fp-ts';
import { MemoryDecodeError } from '../../errors/memoryErrors';
import { cloneJsonObject, NotJsonError } from '../../internal/cloneJson';
import type { JsonObject } from '../../model/message';
import type { KnowledgeEntry } from '../../model/knowledge';
import { describeValue, received } from '../../util/describeValue';
import { errorText } from '../../util/errorText';
import { isPlainObject } from '../../util/isPlainObject';
import { factIdProblem } from './knowledgeIds';
import { MAX_KNOWLEDGE_FACTS, MAX_KNOWLEDGE_TEXT_LENGTH } from './knowledgeLimits';
import { referenceTimeOf } from './referenceTime';

/** How many problems a reader lists before it stops looking. */
const MAX_PROBLEMS = 1000;

const NONE = /* @__PURE__ */ Object.freeze([]) as readonly never[];
const EMPTY_METADATA: JsonObject = /* @__PURE__ */ Object.freeze({});

type Read<T> = { readonly value: T } | { readonly problem: string };

const text = (value: unknown, name: string): Read<string> =>
  typeof value !== 'string'
    ? { problem: `${name} must be a string, ${received(value)}` }
    : value.length > MAX_KNOWLEDGE_TEXT_LENGTH
      ? {
          problem: `${name} must be at most ${MAX_KNOWLEDGE_TEXT_LENGTH} characters long, received ${value.length}`,
        }
      : { value };

const time = (value: unknown, name: string): Read<number> => {
  const parsed = typeof value === 'string' ? referenceTimeOf(value) : undefined;
  return parsed === undefined
    ? {
        problem: `${name} must be an ISO timestamp (datetime.isoformat()), received ${describeValue(value)}`,
      }
    : { value: parsed };
};

/**
 * Reads one record of the reference's knowledge store (`FileKnowledgeStore`'s `entries.jsonl`
 * line, or a `knowledge` table row as an object) as a {@link KnowledgeEntry}, with the
 * reference's defaults: `category` "general", `importance` 0.5, `persistent` false, `ttl_days`
 * none, `metadata` {} (a `null` reads as the default, `ttl_days` aside). `id`, `content`,
 * `created_at` and `updated_at` are required, the timestamps in ISO format (UTC when they have no
 * offset). The entry becomes a fact in force: `recordedAt` and `validFrom` are `created_at`,
 * `updatedAt` is `updated_at`, one mention, no sources, confidence 1, never retired.
 *
 * @param record - the parsed record (snake_case, as the reference writes it)
 * @returns `{ entry }` (deeply frozen), or `{ problems }`, each naming the field and the value
 * @example
 * ```ts
 * readReferenceKnowledgeRecord({
 *   id: '0123456789abcdef0123456789abcdef', content: 'Prefers tea',
 *   created_at: '2025-03-01T09:30:00+00:00', updated_at: '2025-03-01T09:30:00+00:00',
 * }); // { entry: { content: 'Prefers tea', category: 'general', importance: 0.5, … } }
 * ```
 */
export const readReferenceKnowledgeRecord = (
  record: unknown,
): { readonly entry: KnowledgeEntry } | { readonly problems: readonly string[] } => {
  if (!isPlainObject(record)) {
    return { problems: [`expected a JSON object, got ${describeValue(record)}`] };
  }
  const get = (key: string): unknown => (Object.hasOwn(record, key) ? record[key] : undefined);
  const orDefault = (key: string, fallback: unknown): unknown => get(key) ?? fallback;
  const problems: string[] = [];
  const take = <T>(read: Read<T>, fallback: T): T => {
    if ('value' in read) return read.value;
    problems.push(read.problem);
    return fallback;
  };
  const id = take(text(get('id'), 'id'), '');
  if (problems.length === 0) {
    const idProblem = factIdProblem('entry', id, describeValue);
    if (idProblem !== undefined) problems.push(`id ${idProblem}`);
  }
  const content = take(text(get('content'), 'content'), '');
  const category = take(text(orDefault('category', 'general'), 'category'), '');
  const importance = orDefault('importance', 0.5);
  if (typeof importance !== 'number' || !(importance >= 0 && importance <= 1)) {
    problems.push(`importance must be a number from 0 to 1, ${received(importance)}`);
  }
  const persistent = orDefault('persistent', false);
  if (typeof persistent !== 'boolean') {
    problems.push(`persistent must be true or false, ${received(persistent)}`);
  }
  const ttlDays = get('ttl_days') ?? null;
  if (ttlDays !== null && (typeof ttlDays !== 'number' || !(ttlDays >= 0) || !isFinite(ttlDays))) {
    problems.push(`ttl_days must be a number of days ≥ 0 or null, ${received(ttlDays)}`);
  }
  const createdAt = take(time(get('created_at'), 'created_at'), 0);
  const updatedAt = take(time(get('updated_at'), 'updated_at'), 0);
  let metadata = EMPTY_METADATA;
  try {
    const raw = get('metadata') ?? null;
    metadata = raw === null ? EMPTY_METADATA : cloneJsonObject(raw, 'metadata');
    if (JSON.stringify(metadata).length > MAX_KNOWLEDGE_TEXT_LENGTH) {
      problems.push(
        `metadata must be at most ${MAX_KNOWLEDGE_TEXT_LENGTH} characters long as JSON`,
      );
    }
  } catch (error) {
    if (!(error instanceof NotJsonError)) throw error;
    problems.push(error.message);
  }
  if (problems.length > 0) return { problems };
  return {
    entry: Object.freeze({
      id,
      sources: NONE,
      confidence: 1,
      mentions: 1,
      validFrom: createdAt,
      validTo: null,
      recordedAt: createdAt,
      retiredAt: null,
      retiredBy: null,
      supersededBy: null,
      content,
      category,
      importance: (importance as number) === 0 ? 0 : (importance as number),
      persistent: persistent as boolean,
      ttlDays: ttlDays as number | null,
      metadata,
      updatedAt,
    }),
  };
};

/**
 * Collects entries read from numbered places (lines, rows), refusing a second entry with an id
 * already read and stopping after {@link MAX_PROBLEMS} problems.
 *
 * @internal
 */
export class ReferenceEntries {
  readonly entries: KnowledgeEntry[] = [];
  readonly problems: string[] = [];
  readonly #firstPlace = new Map<string, string>();

  /** False once enough problems were found: stop reading. */
  get open(): boolean {
    return this.problems.length < MAX_PROBLEMS;
  }

  /** Reads one record found at `place` (`line 3`, `row "ab12…"`). */
  add(record: unknown, place: string): void {
    if (this.entries.length >= MAX_KNOWLEDGE_FACTS) {
      this.problems.push(`${place}: more than ${MAX_KNOWLEDGE_FACTS} entries`);
      return;
    }
    const read = readReferenceKnowledgeRecord(record);
    if ('problems' in read) {
      for (const problem of read.problems) this.problems.push(`${place}: ${problem}`);
      return;
    }
    const first = this.#firstPlace.get(read.entry.id);
    if (first !== undefined) {
      this.problems.push(
        `${place}: id ${describeValue(read.entry.id)} was already read at ${first}`,
      );
      return;
    }
    this.#firstPlace.set(read.entry.id, place);
    this.entries.push(read.entry);
  }

  /** The entries, or the problems as a decode error of `api`. */
  result(api: string): E.Either<MemoryDecodeError, readonly KnowledgeEntry[]> {
    return this.problems.length > 0
      ? E.left(new MemoryDecodeError(api, this.problems, { countComplete: this.open }))
      : E.right(Object.freeze([...this.entries]));
  }
}

/**
 * Reads the reference's `entries.jsonl` (selectools' `FileKnowledgeStore`: one JSON object per
 * line, snake_case fields, ISO timestamps) as {@link KnowledgeEntry} facts, in file order, each as
 * {@link readReferenceKnowledgeRecord} reads it. Blank lines are skipped, as the reference skips
 * them; a line that is not JSON or not an entry is a problem naming its line number (the
 * reference skipped it silently). Ids must be unique in the file. Never throws.
 *
 * @param text - the file's text
 * @returns `Right(entries)` (frozen), or `Left(MemoryDecodeError)` whose problems start with the
 *   line number (`line 3: importance must be a number from 0 to 1, received 7`)
 * @example
 * ```ts
 * const read = readReferenceKnowledgeJsonl(readFileSync('memory/entries.jsonl', 'utf8'));
 * if (read._tag === 'Right') console.log(read.right.length);
 * ```
 */
export const readReferenceKnowledgeJsonl = (
  text: string,
): E.Either<MemoryDecodeError, readonly KnowledgeEntry[]> => {
  const api = 'readReferenceKnowledgeJsonl';
  if (typeof text !== 'string') {
    return E.left(
      new MemoryDecodeError(api, [`(root): expected the file's text, got ${describeValue(text)}`]),
    );
  }
  const read = new ReferenceEntries();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && read.open; i++) {
    const line = (lines[i] as string).trim();
    if (line === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (error) {
      read.problems.push(`line ${i + 1}: not JSON (${errorText(error)})`);
      continue;
    }
    read.add(record, `line ${i + 1}`);
  }
  return read.result(api);
};
