/**
 * A tool's `parameters` must be JSON Schema (#17 §3): a zod schema given as it is (the AI SDK
 * and LangChain take one there) is refused at `createAgent` with the conversion to use, and so
 * is any Standard Schema; a misspelled tool field (`idempotant`) is refused like any option.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentConfigError, createAgent, type AgentTool } from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';

const provider = new LocalProvider();
const tool = (fields: Partial<Record<keyof AgentTool, unknown>> & Record<string, unknown>) =>
  ({
    name: 'weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    execute: () => 'sunny',
    ...fields,
  }) as unknown as AgentTool;

const refusal = (tools: readonly AgentTool[]): unknown => {
  try {
    createAgent({ provider, tools });
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('tool parameters', () => {
  it('a real zod 4 object is refused with the z.toJSONSchema hint', () => {
    const error = refusal([tool({ parameters: z.object({ city: z.string() }) })]);
    expect(error).toBeInstanceOf(AgentConfigError);
    expect((error as Error).message).toContain(
      'createAgent: tools[0].parameters is a zod schema, not a JSON Schema object: convert it with z.toJSONSchema(schema)',
    );
  });

  it('what z.toJSONSchema returns is accepted', () => {
    const parameters = z.toJSONSchema(z.object({ city: z.string() }));
    expect(() => createAgent({ provider, tools: [tool({ parameters })] })).not.toThrow();
  });

  it('every kind of zod schema is refused with the hint, not only objects', () => {
    const schemas = [
      z.string(),
      z.number().int(),
      z.array(z.string()),
      z.union([z.string(), z.number()]),
      z.object({ a: z.string() }).strict(),
      z.record(z.string(), z.number()),
      z.enum(['a', 'b']),
      z.object({ a: z.string().optional() }).describe('args'),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...schemas), fc.nat(3), (schema, at) => {
        const tools = [0, 1, 2, 3].map((i) =>
          tool({ name: `t${i}`, ...(i === at ? { parameters: schema } : {}) }),
        );
        const error = refusal(tools);
        expect(error).toBeInstanceOf(AgentConfigError);
        expect((error as Error).message).toContain(
          `tools[${at}].parameters is a zod schema, not a JSON Schema object: convert it with z.toJSONSchema(schema)`,
        );
      }),
    );
  });

  it('a Standard Schema of another library (a plain object with ~standard) is refused', () => {
    const valibotLike = { kind: 'schema', type: 'object', '~standard': { version: 1 } };
    expect(() => createAgent({ provider, tools: [tool({ parameters: valibotLike })] })).toThrow(
      "tools[0].parameters is a validation library's schema (Standard Schema), not a JSON Schema object",
    );
  });

  it('a misspelled or foreign tool field is refused with the field meant', () => {
    expect(() => createAgent({ provider, tools: [tool({ idempotant: true })] })).toThrow(
      'createAgent: tools[0].idempotant is not an option (did you mean idempotent?)',
    );
    expect(() =>
      createAgent({ provider, tools: [tool({ parameters: undefined, inputSchema: {} })] }),
    ).toThrow('tools[0].inputSchema is not an option (did you mean parameters?)');
  });
});
