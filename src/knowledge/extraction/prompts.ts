import type { JsonObject, Message } from '../../model/message';

/**
 * The reference's extraction prompts and knowledge tools, verbatim, so that a scripted provider
 * (or `LocalProvider`) recognises an extraction call. Quoted from selectools at commit
 * 77fa691ad9c2df663355c4a8468ba8f476332854 (`src/selectools/entity_memory.py`,
 * `src/selectools/knowledge_graph.py`, `src/selectools/toolbox/memory_tools.py`); each constant
 * names its file and lines.
 */

/**
 * The user-prompt template of an entity extraction: the rendered conversation follows it. The
 * reference's `_EXTRACTION_PROMPT` of `entity_memory.py`, lines 67–74 (it ends with a blank line).
 *
 * @example
 * ```ts
 * ENTITY_EXTRACTION_PROMPT.startsWith('Extract named entities'); // true
 * ```
 */
export const ENTITY_EXTRACTION_PROMPT =
  'Extract named entities from the following conversation messages. ' +
  'Return a JSON array of objects with keys: name, entity_type, attributes. ' +
  'entity_type should be one of: person, organization, technology, location, concept, other. ' +
  'attributes should be a dict of known facts. ' +
  'Only extract entities that are clearly identifiable. ' +
  'Return ONLY the JSON array, no other text.\n\n';

/**
 * The system prompt of an entity extraction (`entity_memory.py`, line 147).
 *
 * @example
 * ```ts
 * ENTITY_EXTRACTION_SYSTEM_PROMPT; // 'You extract named entities from text. Always return valid JSON.'
 * ```
 */
export const ENTITY_EXTRACTION_SYSTEM_PROMPT =
  'You extract named entities from text. Always return valid JSON.';

/**
 * The user-prompt template of a triple extraction: the rendered conversation follows it. The
 * reference's `_EXTRACTION_PROMPT` of `knowledge_graph.py`, lines 298–305 (it ends with a blank
 * line).
 *
 * @example
 * ```ts
 * TRIPLE_EXTRACTION_PROMPT.startsWith('Extract relationship triples'); // true
 * ```
 */
export const TRIPLE_EXTRACTION_PROMPT =
  'Extract relationship triples from the following conversation messages. ' +
  'Return a JSON array of objects with keys: subject, relation, object, confidence. ' +
  'confidence should be a float from 0.0 to 1.0. ' +
  "Relations should be concise verb phrases (e.g. 'works_at', 'knows', 'prefers', 'is_a'). " +
  'Only extract clearly stated relationships. ' +
  'Return ONLY the JSON array, no other text.\n\n';

/**
 * The system prompt of a triple extraction (`knowledge_graph.py`, line 384).
 *
 * @example
 * ```ts
 * TRIPLE_EXTRACTION_SYSTEM_PROMPT; // 'You extract relationship triples from text. Always return valid JSON.'
 * ```
 */
export const TRIPLE_EXTRACTION_SYSTEM_PROMPT =
  'You extract relationship triples from text. Always return valid JSON.';

/**
 * The `max_tokens` of both extraction calls (`entity_memory.py`, line 149;
 * `knowledge_graph.py`, line 386).
 *
 * @example
 * ```ts
 * EXTRACTION_MAX_TOKENS; // 500
 * ```
 */
export const EXTRACTION_MAX_TOKENS = 500;

/**
 * The model of an extraction call when neither the call nor the module names one
 * (`model or self._model or "gpt-4o-mini"`: `entity_memory.py`, line 146; `knowledge_graph.py`,
 * line 383).
 *
 * @example
 * ```ts
 * DEFAULT_EXTRACTION_MODEL; // 'gpt-4o-mini'
 * ```
 */
export const DEFAULT_EXTRACTION_MODEL = 'gpt-4o-mini';

/**
 * Renders messages for an extraction prompt as the reference does (`entity_memory.py`,
 * lines 129–138; `knowledge_graph.py`, lines 366–375): each message whose `content` is a
 * non-empty string becomes `ROLE: content` (the role in upper case), and the lines are joined
 * with `\n`. Messages without content (a tool-call-only assistant message, `content: null`, `''`)
 * are left out, as the reference's `if m.content:` leaves them; content parts are not read (the
 * reference reads `content` only). Which messages to render (the reference's last
 * `relevance_window`) is the caller's choice.
 *
 * @param messages - the messages to render, oldest first
 * @returns the conversation text; `''` when no message has content (the reference then makes
 *   no call)
 * @example
 * ```ts
 * renderExtractionConversation([userMessage('I work at Acme'), assistantMessage('Noted.')]);
 * // 'USER: I work at Acme\nASSISTANT: Noted.'
 * ```
 */
export const renderExtractionConversation = (messages: readonly Message[]): string => {
  const lines: string[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string' && message.content !== '')
      lines.push(`${message.role.toUpperCase()}: ${message.content}`);
  }
  return lines.join('\n');
};

/**
 * The user prompt of an entity extraction: {@link ENTITY_EXTRACTION_PROMPT} followed by the
 * conversation (`_EXTRACTION_PROMPT + conversation_text`, `entity_memory.py`, line 141).
 *
 * @param conversation - the rendered conversation ({@link renderExtractionConversation})
 * @returns the prompt to send as the one user message
 * @example
 * ```ts
 * entityExtractionPrompt('USER: I am Alice').endsWith('\n\nUSER: I am Alice'); // true
 * ```
 */
export const entityExtractionPrompt = (conversation: string): string =>
  ENTITY_EXTRACTION_PROMPT + conversation;

/**
 * The user prompt of a triple extraction: {@link TRIPLE_EXTRACTION_PROMPT} followed by the
 * conversation (`knowledge_graph.py`, line 378).
 *
 * @param conversation - the rendered conversation ({@link renderExtractionConversation})
 * @returns the prompt to send as the one user message
 * @example
 * ```ts
 * tripleExtractionPrompt('USER: I work at Acme').endsWith('\n\nUSER: I work at Acme'); // true
 * ```
 */
export const tripleExtractionPrompt = (conversation: string): string =>
  TRIPLE_EXTRACTION_PROMPT + conversation;

/**
 * A tool as the reference defines it, with its parameters as a JSON Schema object (the shape of
 * the agent's `ToolSpec`). Every parameter of the reference's knowledge tools is a string, the
 * booleans and numbers included (`persistent: 'true'`, `limit: '5'`).
 *
 * @example
 * ```ts
 * const spec: KnowledgeToolSpec = { name: 'recall', description: '…', parameters: { type: 'object' } };
 * ```
 */
export interface KnowledgeToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
}

/**
 * The reference's `remember` tool (`toolbox/memory_tools.py`, lines 34–62): parameters
 * `content` (required), `category` (default `'general'`) and `persistent` (a string; `'true'`,
 * `'yes'` or `'1'` in any case means true, line 31), all of type string.
 *
 * @example
 * ```ts
 * REMEMBER_TOOL.name; // 'remember'
 * ```
 */
export const REMEMBER_TOOL: KnowledgeToolSpec = /* @__PURE__ */ Object.freeze({
  name: 'remember',
  description:
    'Store a piece of information for future reference. ' +
    'Use this to remember user preferences, important facts, ' +
    'or context that should persist across conversations. ' +
    'Set persistent=true for long-term facts that should never expire.',
  parameters: /* @__PURE__ */ Object.freeze({
    type: 'object',
    properties: /* @__PURE__ */ Object.freeze({
      content: /* @__PURE__ */ Object.freeze({
        type: 'string',
        description: 'The information to remember.',
      }),
      category: /* @__PURE__ */ Object.freeze({
        type: 'string',
        description: "Category tag (e.g. 'preference', 'fact', 'context'). Default: 'general'.",
      }),
      persistent: /* @__PURE__ */ Object.freeze({
        type: 'string',
        description: "Set to 'true' for long-term facts. Default: 'false'.",
      }),
    }),
    required: /* @__PURE__ */ Object.freeze(['content']),
  }),
});

/**
 * The values of `remember`'s `persistent` string that mean true, compared in lower case
 * (`persistent.lower() in ("true", "yes", "1")`, `toolbox/memory_tools.py`, line 31).
 *
 * @example
 * ```ts
 * REMEMBER_PERSISTENT_TRUE.includes('TRUE'.toLowerCase()); // true
 * ```
 */
export const REMEMBER_PERSISTENT_TRUE: readonly string[] = /* @__PURE__ */ Object.freeze([
  'true',
  'yes',
  '1',
]);

/**
 * The reference's `recall` tool (`toolbox/memory_tools.py`, lines 125–147): parameters `query`
 * (required) and `limit` (a string, default `'5'`), both of type string. It answers
 * `Found N memories:` (`memory` for one) then `1. [category] content` lines, the tag left out for
 * `general` (lines 119–123), or `No memories found matching '<query>'.` (line 117).
 *
 * @example
 * ```ts
 * RECALL_TOOL.name; // 'recall'
 * ```
 */
export const RECALL_TOOL: KnowledgeToolSpec = /* @__PURE__ */ Object.freeze({
  name: 'recall',
  description:
    'Search previously stored memories for relevant information. ' +
    'Use this to retrieve user preferences, important facts, ' +
    'or context saved in earlier conversations before asking the user. ' +
    'Returns the closest matches ranked by relevance and importance.',
  parameters: /* @__PURE__ */ Object.freeze({
    type: 'object',
    properties: /* @__PURE__ */ Object.freeze({
      query: /* @__PURE__ */ Object.freeze({
        type: 'string',
        description: 'Keywords describing the information to look up.',
      }),
      limit: /* @__PURE__ */ Object.freeze({
        type: 'string',
        description: "Maximum number of memories to return. Default: '5'.",
      }),
    }),
    required: /* @__PURE__ */ Object.freeze(['query']),
  }),
});

/**
 * How many memories `recall` returns when `limit` is absent, not an integer or below 1
 * (`_DEFAULT_RECALL_LIMIT`, `toolbox/memory_tools.py`, line 66).
 *
 * @example
 * ```ts
 * RECALL_DEFAULT_LIMIT; // 5
 * ```
 */
export const RECALL_DEFAULT_LIMIT = 5;
