import { jsonSchema, type JSONSchema7, tool, type ToolSet } from 'ai';
// Not yet exported from 'conversation-memory' (the lead will export the agent's types).
import type { ToolSpec } from 'conversation-memory';

/**
 * Our tool specs as an AI SDK `ToolSet`: each one a `tool({ description, inputSchema })` whose
 * schema is the spec's JSON Schema (`jsonSchema()`, no validation added), and **without an
 * `execute` function**, so `generateText` returns the calls to us instead of running them (the
 * agent runs tools itself). Built with `Object.fromEntries`, so a tool named `__proto__` is an
 * own key, not a prototype. `undefined` for no tools.
 *
 * @param specs - the request's tools
 * @returns the tool set, or `undefined` when there are none
 * @example
 * ```ts
 * toToolSet([{ name: 'calc', description: 'Adds', parameters: { type: 'object', properties: {} } }]);
 * // { calc: tool({ description: 'Adds', inputSchema: jsonSchema({ type: 'object', properties: {} }) }) }
 * ```
 */
export const toToolSet = (specs: readonly ToolSpec[] | undefined): ToolSet | undefined =>
  specs === undefined || specs.length === 0
    ? undefined
    : Object.fromEntries(
        specs.map((spec) => [
          spec.name,
          tool({
            description: spec.description,
            inputSchema: jsonSchema(spec.parameters as JSONSchema7),
          }),
        ]),
      );
