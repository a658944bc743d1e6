/**
 * The replies of the loopback Chat Completions server: real `chat.completion` objects built from
 * a test's script, or a raw status and body for hostile replies.
 */
import type { ChatRequestBody, ChatRequestMessage } from './openaiWire';

/** A tool call the model "makes". */
export interface ScriptedToolCall {
  /** Default: `call_<request index>_<position>`. */
  readonly id?: string;
  readonly name: string;
  /** An object is sent as JSON; a string is sent as it is (to test arguments that are not JSON). */
  readonly arguments?: string | { readonly [key: string]: unknown };
}

/**
 * What the server answers: a text shorthand; or a reply with text, tool calls (with ids) or both,
 * usage numbers and a finish reason; or `{ raw }` to answer with any body and status (a string is
 * sent as it is, anything else as JSON; content type `application/json` unless given).
 */
export type ScriptedReply =
  | string
  | {
      /** The message content; default: the deterministic text when there are no tool calls, else `null`. */
      readonly text?: string | null;
      readonly toolCalls?: readonly ScriptedToolCall[];
      readonly refusal?: string;
      readonly usage?: {
        readonly promptTokens: number;
        readonly completionTokens: number;
        /** `prompt_tokens_details.cached_tokens`; default: 0. */
        readonly cachedTokens?: number;
      };
      /** Default: `'tool_calls'` when there are tool calls, else `'stop'`. */
      readonly finishReason?: string;
    }
  | { readonly raw: unknown; readonly status?: number; readonly contentType?: string };

/** The text of a request message's content: the string, or its text parts joined. */
const textOf = (message: ChatRequestMessage): string => {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
};

/**
 * The default reply, deterministic: `Echo: <the last user message's text>`, or
 * `Hello from the loopback server.` when there is no user message.
 */
export const defaultText = (body: ChatRequestBody): string => {
  const lastUser = [...body.messages].reverse().find((message) => message.role === 'user');
  return lastUser === undefined ? 'Hello from the loopback server.' : `Echo: ${textOf(lastUser)}`;
};

/** A deterministic token estimate: a quarter of the characters, at least 1. */
const estimate = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

/**
 * The `chat.completion` object for a checked request and a scripted (non-raw) reply.
 *
 * @param body - the checked request
 * @param scripted - the reply script
 * @param index - the request's index, for default ids
 * @param cachedTokens - the prompt cache's hit for this request (see `openaiCache.ts`), reported
 *   unless the script gives the usage
 */
export const completionFor = (
  body: ChatRequestBody,
  scripted: Exclude<ScriptedReply, { readonly raw: unknown }>,
  index: number,
  cachedTokens = 0,
): Record<string, unknown> => {
  const reply = typeof scripted === 'string' ? { text: scripted } : scripted;
  const toolCalls = reply.toolCalls?.map((call, position) => ({
    id: call.id ?? `call_${index}_${position}`,
    type: 'function',
    function: {
      name: call.name,
      arguments:
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    },
  }));
  const hasCalls = toolCalls !== undefined && toolCalls.length > 0;
  const content = reply.text !== undefined ? reply.text : hasCalls ? null : defaultText(body);
  const promptTokens = reply.usage?.promptTokens ?? estimate(JSON.stringify(body.messages));
  const completionTokens =
    reply.usage?.completionTokens ?? estimate((content ?? '') + JSON.stringify(toolCalls ?? []));
  return {
    id: `chatcmpl-loopback-${index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          refusal: reply.refusal ?? null,
          annotations: [],
          ...(hasCalls ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: reply.finishReason ?? (hasCalls ? 'tool_calls' : 'stop'),
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: {
        cached_tokens: reply.usage === undefined ? cachedTokens : (reply.usage.cachedTokens ?? 0),
        audio_tokens: 0,
      },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
    service_tier: 'default',
    system_fingerprint: null,
  };
};
