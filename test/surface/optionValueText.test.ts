import fc from 'fast-check';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { AgentConfigError } from 'conversation-memory';
import { aiSdkProvider } from 'conversation-memory/ai-sdk';
import { createStepper } from '../../src/inspector/model';
import type { ViewTarget } from 'conversation-memory';
import { describeValue } from '../../src/util/describeValue';
import { recordedLog } from '../support/inspectorLog';

/**
 * An option error names the value it received as `describeValue` does, whatever the value: one
 * whose `String()` throws (an object without a prototype) or would print source code (a function)
 * is described, never a bare `TypeError` raised while the message is written (issue #28, the
 * `String(x)` sites outside src/node: `aiSdkProvider`'s option checks, the inspector stepper's
 * arguments).
 */
const oddValueArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(Object.create(null) as unknown),
  fc.constant(Symbol('odd')),
  fc.constant(function secretSource() {
    return 'sk-not-to-be-printed';
  }),
  fc.constant({}),
  fc.constant(
    Object.assign(Object.create(null) as object, {
      toString: () => {
        throw new Error('toString threw');
      },
    }),
  ),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.double({ noInteger: true }),
  fc.bigInt(),
);

const thrownBy = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
};

describe("aiSdkProvider's option values", () => {
  const model = new MockLanguageModelV3();
  const fields: [string, (value: unknown) => unknown, (value: unknown) => boolean][] = [
    ['maxRetries', (value) => ({ model, maxRetries: value }), () => true],
    ['name', (value) => ({ model, name: value }), () => true],
    ['defaultModelName', (value) => ({ model, defaultModelName: value }), () => true],
    [
      'model',
      (value) => ({ model: value }),
      // An object is taken as a model; the check refuses what is neither a string nor an object.
      (value) => typeof value !== 'object' || value === null,
    ],
  ];
  it.each(fields)(
    'options.%s: the value is described, never String()-ed',
    (field, options, refused) => {
      fc.assert(
        fc.property(
          oddValueArb.filter((value) => refused(value)),
          (value) => {
            const error = thrownBy(() => aiSdkProvider(options(value) as never));
            expect(error).toBeInstanceOf(AgentConfigError);
            const message = (error as Error).message;
            expect(message).toMatch(
              new RegExp(`^\\[conversation-memory\\] aiSdkProvider: options\\.${field} `),
            );
            expect(message.endsWith(`, received ${describeValue(value)}`)).toBe(true);
            expect(message).not.toContain('sk-not-to-be-printed');
          },
        ),
        { numRuns: 40 },
      );
    },
  );
});

describe("the inspector stepper's arguments", () => {
  const stepper = createStepper(recordedLog());
  it('a step that is not a step is described', () => {
    fc.assert(
      fc.property(oddValueArb, (value) => {
        const error = thrownBy(() => stepper.viewAt(value as never));
        expect(error).toBeInstanceOf(RangeError);
        expect((error as Error).message).toBe(
          `step must be an integer from 0 to 16, received ${describeValue(value)}`,
        );
      }),
      { numRuns: 40 },
    );
  });
  it('a target that is not a target is described', () => {
    fc.assert(
      fc.property(oddValueArb, (value) => {
        const error = thrownBy(() => stepper.modelViewAt(0, value as ViewTarget));
        expect(error).toBeInstanceOf(RangeError);
        expect((error as Error).message).toMatch(
          new RegExp(
            `^target must be one of .*, received ${describeValue(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
          ),
        );
      }),
      { numRuns: 40 },
    );
  });
});
