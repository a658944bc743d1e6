import { findEntry } from '../../knowledge/forgotten';
import { entriesInForce } from '../../knowledge/retrieval/factsInForce';
import {
  RECALL_DEFAULT_LIMIT,
  RECALL_TOOL,
  REMEMBER_PERSISTENT_TRUE,
  REMEMBER_TOOL,
} from '../../knowledge/extraction/prompts';
import type { KnowledgeEntry } from '../../model/knowledge';
import type { JsonValue } from '../../model/message';
import type { KnowledgeMemory } from '../knowledge/moduleTypes';
import type { ToolSpec } from '../provider';
import type { AgentTool } from '../types';
import type { RunContext } from './context';
import { commitKnowledge, reportKnowledgeError } from './knowledgeStep';

/**
 * The `forget` tool (ours; the reference has none): retires an entry by the id `recall` shows, or
 * by its exact content.
 *
 * @example
 * ```ts
 * FORGET_TOOL.name; // 'forget'
 * ```
 */
export const FORGET_TOOL: ToolSpec = /* @__PURE__ */ Object.freeze({
  name: 'forget',
  description:
    'Forget a stored memory that is wrong or no longer wanted. ' +
    "Give its id (as recall shows it, e.g. 'id: k3') or its exact content.",
  parameters: /* @__PURE__ */ Object.freeze({
    type: 'object',
    properties: /* @__PURE__ */ Object.freeze({
      id: /* @__PURE__ */ Object.freeze({
        type: 'string',
        description: 'The id recall showed for the memory.',
      }),
      content: /* @__PURE__ */ Object.freeze({
        type: 'string',
        description: 'The exact text of the memory.',
      }),
    }),
  }),
});

/** A reference-style entry id: 32 lower-case hex digits (`uuid4().hex`). */
const newEntryId = (): string => {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof crypto?.randomUUID === 'function') return crypto.randomUUID().replace(/-/g, '');
  let hex = '';
  for (let i = 0; i < 32; i++) hex += Math.floor(Math.random() * 16).toString(16);
  return hex;
};

/** A tool argument as text: strings as they are, numbers and booleans written, else `undefined`. */
const textArg = (value: JsonValue | undefined): string | undefined =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : undefined;

/** `persistent` as the reference reads it: `'true'`, `'yes'` or `'1'` in any case (or `true`). */
const isPersistent = (value: JsonValue | undefined): boolean =>
  value === true || REMEMBER_PERSISTENT_TRUE.includes((textArg(value) ?? '').trim().toLowerCase());

/**
 * The reference's recall ranking: the number of the query's words found in `content category`
 * (lower case), then importance; an empty query gives the most important entries.
 */
const rank = (entries: readonly KnowledgeEntry[], query: string): KnowledgeEntry[] => {
  const words = query
    .toLowerCase()
    .split(/\s+/u)
    .filter((word) => word !== '');
  // `entries` come most important first: an empty query gives them as they are.
  if (words.length === 0) return [...entries];
  return entries
    .map((entry) => {
      const haystack = `${entry.content} ${entry.category}`.toLowerCase();
      return { entry, score: words.filter((word) => haystack.includes(word)).length };
    })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || b.entry.importance - a.entry.importance)
    .map(({ entry }) => entry);
};

/**
 * The tools knowledge memory adds to a run: `remember` and `recall` with the reference's names,
 * descriptions and string-typed arguments (`persistent: 'true'`, `limit: '5'`), and `forget`.
 * Each change is a knowledge action committed like any other (to the conversation, and to the
 * store with its revision); a failure is the tool's answer, never a crash of the run.
 *
 * - `remember` answers the entry's id (as the reference's tool returns `remember()`'s id); the
 *   same content stored again keeps its first id.
 * - `recall` answers `Found N memories:` then `1. [category] content (id: …)` lines (the id is
 *   ours, so that `forget` can name it), or `No memories found matching '<query>'.`.
 * - `forget` answers `Forgot: <content>`, or `No memory found …`.
 *
 * @internal
 */
export const knowledgeTools = (context: RunContext, module: KnowledgeMemory): AgentTool[] => {
  const failed = async (error: unknown): Promise<string> => {
    await reportKnowledgeError(context, error, 'knowledgeMemory');
    return `Error: the memory could not be changed (${error instanceof Error ? error.message : String(error)}).`;
  };
  const remember: AgentTool = {
    ...REMEMBER_TOOL,
    execute: async (args) => {
      const content = (textArg(args['content']) ?? '').trim();
      if (content === '') return "Error: 'content' is required.";
      const category = (textArg(args['category']) ?? '').trim() || 'general';
      const id = newEntryId();
      try {
        const effects = await commitKnowledge(
          context,
          {
            type: 'knowledge/remembered',
            payload: {
              id,
              content,
              category,
              importance: 0.5,
              persistent: isPersistent(args['persistent']),
              ttlDays: null,
              metadata: {},
              at: Date.now(),
              maxEntries: module.options.maxEntries,
            },
          },
          'knowledgeMemory',
        );
        const merged = effects.find((effect) => effect.type === 'knowledge/merged');
        return merged !== undefined && merged.type === 'knowledge/merged' ? merged.id : id;
      } catch (error) {
        return failed(error);
      }
    },
  };
  const recall: AgentTool = {
    ...RECALL_TOOL,
    idempotent: true,
    execute: (args) => {
      const query = textArg(args['query']) ?? '';
      const asked = Number.parseInt(textArg(args['limit']) ?? '', 10);
      const limit = Number.isSafeInteger(asked) && asked >= 1 ? asked : RECALL_DEFAULT_LIMIT;
      const matches = rank(entriesInForce(module.state, Date.now()), query).slice(0, limit);
      if (matches.length === 0) return `No memories found matching '${query}'.`;
      const lines = [`Found ${matches.length} memor${matches.length === 1 ? 'y' : 'ies'}:`];
      matches.forEach((entry, i) => {
        const tag = entry.category === 'general' ? '' : `[${entry.category}] `;
        lines.push(`${i + 1}. ${tag}${entry.content} (id: ${entry.id})`);
      });
      return lines.join('\n');
    },
  };
  const forget: AgentTool = {
    ...FORGET_TOOL,
    execute: async (args) => {
      const id = textArg(args['id'])?.trim();
      const content = textArg(args['content'])?.trim();
      const which =
        id !== undefined && id !== ''
          ? { id }
          : content !== undefined && content !== ''
            ? { content }
            : undefined;
      if (which === undefined)
        return "Error: give the memory's 'id' (as recall shows it) or its 'content'.";
      const entry = findEntry(module.state, which);
      if (entry === undefined) {
        return 'id' in which
          ? `No memory found with id '${which.id}'.`
          : `No memory found matching '${which.content}'.`;
      }
      try {
        await commitKnowledge(
          context,
          { type: 'knowledge/forgotten', payload: { id: entry.id, at: Date.now() } },
          'knowledgeMemory',
        );
        return `Forgot: ${entry.content}`;
      } catch (error) {
        return failed(error);
      }
    },
  };
  return [remember, recall, forget];
};
