import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EventConflictError,
  EventCorruptError,
  InMemoryEventStore,
  InMemorySessionStore,
  memoryActions,
  SessionConflictError,
  SessionCorruptError,
  userMessage,
} from 'conversation-memory';
import { toCompletionResult } from 'conversation-memory/ai-sdk';
import { sampleState } from '../stores/storeSamples';
import { rejection } from '../helpers';

/**
 * Issue #15 item 10: errors echo session and stream ids, locations and problems escaped, so an id
 * (chosen by a user of the application) cannot forge log lines or flip a terminal's text
 * direction: no C0/C1 control, DEL, U+2028/U+2029, bidi control or lone surrogate reaches a
 * message raw.
 */
// eslint-disable-next-line no-control-regex -- the characters a message must never carry raw
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

/** Each line of a message is clean (corrupt errors list their problems on indented lines). */
const expectClean = (message: string): void => {
  for (const line of message.split('\n')) {
    expect(line).not.toMatch(UNSAFE);
    expect(line).not.toMatch(LONE);
  }
};

const hostileChar = fc.constantFrom(
  '\u009b',
  '\u202e',
  '\u2028',
  '\u2029',
  '\u001b[31m',
  '\n',
  '\r',
  '\u0007',
  '\u200f',
  '\u2066',
  '\ud800',
  'a',
  ':',
  '😀',
);
const hostileText = fc
  .array(hostileChar, { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join(''));

describe('errors echo ids, locations and problems escaped', () => {
  it('property: every store error class keeps its message clean, its fields whole', () => {
    fc.assert(
      fc.property(hostileText, hostileText, hostileText, (id, location, problem) => {
        const errors = [
          new SessionConflictError('save', id, 1, 2),
          new SessionConflictError('save', id, 1, 2, 'locked'),
          new SessionCorruptError('load', id, location, [problem, 'b']),
          new EventConflictError('append', id, 1, 2),
          new EventCorruptError('load', id, 3, location, [problem]),
        ];
        for (const error of errors) {
          expectClean(error.message);
          expect(error.message.split('\n')[0]).not.toContain(id.includes('\n') ? id : '\n');
        }
        // The fields keep the exact values, for programs.
        expect((errors[0] as SessionConflictError).sessionId).toBe(id);
        expect((errors[2] as SessionCorruptError).location).toBe(location);
        expect((errors[2] as SessionCorruptError).problems[0]).toBe(problem);
        expect((errors[3] as EventConflictError).streamId).toBe(id);
      }),
    );
  });

  it('the exact characters of the report: U+2028, U+202E and U+009B are written as \\u escapes', () => {
    const error = new SessionConflictError('save', 'a\u2028b\u202ec\u009bd', 0, 1);
    expect(error.message).toContain('"a\\u2028b\\u202ec\\u009bd"');
  });

  it('a store echoes a hostile id escaped: conflict, branch of a missing session, stream conflicts', async () => {
    const id = 'x\u2028INFO admin logged in\u202e\u009b';
    const sessions = new InMemorySessionStore();
    await sessions.save(id, sampleState());
    const conflict = await rejection(sessions.save(id, sampleState(), { expectedRevision: 0 }));
    expect(conflict).toBeInstanceOf(SessionConflictError);
    expectClean((conflict as Error).message);
    const missing = await rejection(sessions.branch(`${id}!`, 'copy'));
    expectClean((missing as Error).message);
    expect((missing as Error).message).toContain('not found');

    const events = new InMemoryEventStore();
    await events.append(id, [memoryActions.messageAdded(userMessage('a'))], { expectedVersion: 0 });
    const stale = await rejection(events.append(id, [], { expectedVersion: 0 }));
    expect(stale).toBeInstanceOf(EventConflictError);
    expectClean((stale as Error).message);
    const past = await rejection(events.load(id, { atVersion: 5 }));
    expectClean((past as Error).message);
    const config = await rejection(
      events.append(id, [], { expectedVersion: 1, config: { maxMessages: 3 } }),
    );
    expectClean((config as Error).message);
  });

  it('a provider reply is echoed escaped (the AI SDK adapter read it with JSON.stringify)', () => {
    const call = { toolCallId: 'c1', toolName: 'calc', input: 'x\u202eevil\u009b[2J\u2028' };
    let thrown: unknown;
    try {
      toCompletionResult({ text: '', toolCalls: [call], usage: undefined });
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).toContain('toolCalls[0].input');
    expectClean((thrown as Error).message);
  });
});
