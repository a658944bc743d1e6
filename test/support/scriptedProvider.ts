import type { CompletionRequest, CompletionResult, Message, Provider } from 'conversation-memory';

/**
 * A provider whose replies the test writes: `reply(request, callNumber)` returns the assistant
 * message (or throws, to make the call fail). Every request is recorded. It stands in for a model
 * whose behaviour a test must control exactly (a model that keeps calling tools, a summarizer
 * that fails); the agent's flow with a real deterministic model is tested with `LocalProvider`.
 */
export const scriptedProvider = (
  reply: (request: CompletionRequest, call: number) => Message | Promise<Message>,
  name = 'scripted',
): Provider & { readonly requests: CompletionRequest[] } => {
  const requests: CompletionRequest[] = [];
  return {
    name,
    defaultModel: `${name}-model`,
    requests,
    complete: async (request): Promise<CompletionResult> => {
      requests.push(request);
      return { message: await reply(request, requests.length) };
    },
  };
};

/** A provider that answers `prefix1`, `prefix2`, … in turn. */
export const numberedReplies = (prefix: string, name = prefix) =>
  scriptedProvider((_, call) => ({ role: 'assistant', content: `${prefix}${call}` }), name);
