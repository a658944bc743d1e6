/**
 * Errors whose text holds what must not leave the server (issue #27 §2): file paths, SQL, API
 * keys, a provider's message quoting the user's prompt, or any text at all; thrown as the errors
 * a server meets (a plain `Error`, a `TypeError`, an errno-style error with a `code`, an HTTP
 * client's error with a `status`, the library's own errors) or as a bare string.
 */
import fc from 'fast-check';
import {
  InvalidMessageError,
  ProviderResponseError,
  StoreUnavailableError,
} from 'conversation-memory';
import { textArb } from './text';

const wordArb = fc.stringMatching(/^[a-z][a-z0-9]{2,9}$/);

/** A secret of one of the kinds the issue names, or any text (at least 8 characters). */
export const secretArb: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(wordArb, wordArb, wordArb)
    .map(([user, folder, file]) => `/home/${user}/${folder}/${file}.json`),
  fc
    .tuple(wordArb, wordArb, fc.string({ minLength: 4, maxLength: 12 }))
    .map(([table, column, value]) => `SELECT * FROM ${table} WHERE ${column} = '${value}'`),
  fc.stringMatching(/^sk-[A-Za-z0-9]{24,40}$/),
  fc
    .tuple(textArb, fc.lorem({ maxCount: 8 }))
    .map(([prompt, more]) => `the prompt was: "${prompt} ${more} confidential"`),
  fc.string({ unit: 'grapheme', minLength: 8, maxLength: 120 }),
);

/** How the error is thrown; each kind has a known `code` (what may be sent) or none. */
export type SecretErrorKind =
  | 'Error'
  | 'TypeError'
  | 'errno'
  | 'http'
  | 'ProviderResponseError'
  | 'InvalidMessageError'
  | 'StoreUnavailableError'
  | 'string';

/** A thrown value whose message holds `text`, and the code (if any) it carries. */
export interface SecretError {
  readonly kind: SecretErrorKind;
  readonly error: unknown;
  /** The error's string `code`, or `undefined`. */
  readonly code: string | undefined;
  /** The error's `name` (`undefined` for a thrown string). */
  readonly name: string | undefined;
}

/** `text` thrown as `kind`. */
export const secretError = (kind: SecretErrorKind, text: string): SecretError => {
  switch (kind) {
    case 'Error':
      return { kind, error: new Error(text), code: undefined, name: 'Error' };
    case 'TypeError':
      return { kind, error: new TypeError(text), code: undefined, name: 'TypeError' };
    case 'errno':
      return {
        kind,
        error: Object.assign(new Error(`ENOENT: ${text}`), { code: 'ENOENT', errno: -2 }),
        code: 'ENOENT',
        name: 'Error',
      };
    case 'http':
      return {
        kind,
        error: Object.assign(new Error(`400 ${text}`), { status: 400, name: 'BadRequestError' }),
        code: undefined,
        name: 'BadRequestError',
      };
    case 'ProviderResponseError':
      return {
        kind,
        error: new ProviderResponseError('openai.complete', text),
        code: 'CM_PROVIDER_RESPONSE',
        name: 'ProviderResponseError',
      };
    case 'InvalidMessageError':
      return {
        kind,
        error: new InvalidMessageError('agent.run', text),
        code: 'CM_INVALID_MESSAGE',
        name: 'InvalidMessageError',
      };
    case 'StoreUnavailableError':
      return {
        kind,
        error: new StoreUnavailableError('SqliteSessionStore.save', text, false),
        code: 'CM_STORE_UNAVAILABLE',
        name: 'StoreUnavailableError',
      };
    case 'string':
      return { kind, error: text, code: undefined, name: undefined };
  }
};

export const secretErrorKindArb: fc.Arbitrary<SecretErrorKind> = fc.constantFrom(
  'Error',
  'TypeError',
  'errno',
  'http',
  'ProviderResponseError',
  'InvalidMessageError',
  'StoreUnavailableError',
  'string',
);
