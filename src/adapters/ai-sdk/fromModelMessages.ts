import type { ModelMessage } from 'ai';
import type { either as E } from 'fp-ts';
import type { Message, MemoryDecodeError } from 'conversation-memory';
import { decodeModelMessages } from '../../library';

/**
 * Converts Vercel AI SDK `ModelMessage`s (AI SDK 6) to our messages, decoding them as untrusted
 * input: a value that is not a list of model messages, or holds what our messages cannot (a PDF
 * file, a tool approval), gives `Left(MemoryDecodeError)` with every problem and its path
 * (`messages[1].content[0].input: expected a JSON object, got "{oops"`); it never throws.
 * The decoder needs no `ai` types, so it lives with the other decoders in the shared library
 * build (it is not exported anywhere else: this is the one function for the job).
 *
 * A tool message with several `tool-result` parts becomes one tool message per part; `reasoning`
 * parts and `providerOptions` are dropped. For the messages {@link toModelMessages} writes, the
 * round trip gives the messages back, except that `thoughtSignature` and `toolResult` are lost,
 * an assistant tool-call message's `''` content comes back as `null`, a user message's
 * `imageBase64` comes back as an `image_base64` content part, and `content` beside
 * `contentParts` comes back as the parts' text.
 *
 * @param input - model messages, e.g. `(await generateText(…)).response.messages`
 * @returns `Right(messages)` (frozen, canonical) or `Left(MemoryDecodeError)`
 * @example
 * ```ts
 * const result = fromModelMessages((await generateText({ model, prompt: 'hi' })).response.messages);
 * if (isRight(result)) memory.addMany(result.right);
 * ```
 */
export const fromModelMessages = (
  input: readonly ModelMessage[] | unknown,
): E.Either<MemoryDecodeError, Message[]> => decodeModelMessages(input);
