/**
 * The Chat Completions wire format as the loopback server sees it: request bodies that passed its
 * checks, and OpenAI's error body. Written from OpenAI's API reference, independently of the
 * library's own converters, so that tests of those converters check them against something else.
 */

/** A content part of a request message. */
export type ChatRequestPart =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'image_url';
      readonly image_url: { readonly url: string; readonly detail?: string };
    }
  | { readonly type: 'refusal'; readonly refusal: string }
  | { readonly type: 'input_audio' | 'file'; readonly [key: string]: unknown };

/** A tool call inside an assistant request message. */
export interface ChatRequestToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** One request message, after the server's checks (so `role` is one OpenAI knows). */
export interface ChatRequestMessage {
  readonly role: 'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'function';
  readonly content?: string | readonly ChatRequestPart[] | null;
  readonly name?: string;
  readonly tool_calls?: readonly ChatRequestToolCall[];
  readonly tool_call_id?: string;
  readonly refusal?: string | null;
}

/** A tool offered to the model. */
export interface ChatRequestTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters?: { readonly [key: string]: unknown };
  };
}

/** A `POST /v1/chat/completions` body that passed the server's checks, as received. */
export interface ChatRequestBody {
  readonly model: string;
  readonly messages: readonly ChatRequestMessage[];
  readonly tools?: readonly ChatRequestTool[];
  readonly max_completion_tokens?: number | null;
  readonly max_tokens?: number | null;
  readonly stream?: boolean | null;
  /** Other parameters (temperature, …) are accepted and kept as sent. */
  readonly [key: string]: unknown;
}

/** OpenAI's error body: `{"error":{"message","type","param","code"}}`. */
export interface OpenAIErrorBody {
  readonly error: {
    readonly message: string;
    readonly type: 'invalid_request_error' | 'server_error';
    readonly param: string | null;
    readonly code: string | null;
  };
}

/** An `invalid_request_error` body, as OpenAI writes one. */
export const invalidRequest = (
  message: string,
  param: string | null = null,
  code: string | null = null,
): OpenAIErrorBody => ({ error: { message, type: 'invalid_request_error', param, code } });

/** How OpenAI names a JSON value's type in `Invalid type` errors: `an integer`, `an object`, … */
export const jsonTypeName = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a decimal';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
};

/** True for a JSON object (not an array, not null). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
