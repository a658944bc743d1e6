import { either as E } from 'fp-ts';
import type * as t from 'io-ts';
import { MemoryDecodeError } from '../errors/memoryErrors';
import { errorText } from '../util/errorText';
import type { Budget } from './budget';
import { reportErrors } from './report';

/**
 * Runs one public decoder's body (`decodeState`, `decodeAction`, `decodeEnvelope`,
 * `decodeKnowledgeState`, `decodeModelMessages`, `fromDict`, `fromDictWithEffects`,
 * `fromOpenAIChat`, `fromAnthropic`) so that it never throws on bad input: input that is not
 * plain data can throw while it is read (a getter, a Proxy trap, a revoked Proxy), and that is
 * answered as every other bad input is, `Left(MemoryDecodeError)` naming `api`, with the one
 * problem `<subject>: could not read the input: <what was thrown>`.
 *
 * @param api - the public call, for the error (`decodeState`)
 * @param body - the decoder's work on the input
 * @param subject - the path the problem names: `(root)`, or the field the input stands for
 * @returns what `body` returned, or the failure above when it threw
 * @example
 * ```ts
 * export const decodeThing = (input: unknown): E.Either<MemoryDecodeError, Thing> =>
 *   publicDecode('decodeThing', () => decodeFields(input));
 * ```
 * @internal
 */
export const publicDecode = <T>(
  api: string,
  body: () => E.Either<MemoryDecodeError, T>,
  subject = '(root)',
): E.Either<MemoryDecodeError, T> => {
  try {
    return body();
  } catch (error) {
    return E.left(
      new MemoryDecodeError(api, [`${subject}: could not read the input: ${errorText(error)}`]),
    );
  }
};

/**
 * The failure of a public decoder whose io-ts codec refused the input: one line per problem
 * (`messages[3].role: expected …, got "USER"`), counted completely unless the call's problem
 * budget ran out.
 *
 * @param api - the public call, for the error
 * @param errors - what the codec's `decode` returned on the left
 * @param budget - the call's problem budget
 * @returns `Left(MemoryDecodeError)`
 * @example
 * ```ts
 * const decoded = codec.decode(input);
 * if (E.isLeft(decoded)) return codecFailure('decodeAction', decoded.left, budget);
 * ```
 * @internal
 */
export const codecFailure = (
  api: string,
  errors: t.Errors,
  budget: Budget,
): E.Either<MemoryDecodeError, never> =>
  E.left(new MemoryDecodeError(api, reportErrors(errors), { countComplete: !budget.exhausted }));
