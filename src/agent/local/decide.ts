import type { Message } from '../../model/message';
import { messageText } from '../../tokens/messageText';
import { answerName, asksName, defaultReply, statedName } from './converse';
import { extractionReply } from './extraction';
import {
  directiveLines,
  LOCAL_CALL_DIRECTIVE,
  planDirectives,
  type PlannedCall,
} from './directives';
import type { LocalRequest } from './readRequest';
import { excerptOf, SUMMARY_REQUEST_START, summarizeExcerpt } from './summarize';
import { LOCAL_CHARS_PER_TOKEN } from './text';
import { reportToolResults } from './toolReport';

/**
 * The `maxTokens` `LocalProvider` applies when a request sets none: replies are clipped to
 * `1024 × 4` characters.
 *
 * @example
 * ```ts
 * LOCAL_DEFAULT_MAX_TOKENS * LOCAL_CHARS_PER_TOKEN; // 4096 characters at most
 * ```
 */
export const LOCAL_DEFAULT_MAX_TOKENS = 1024;

/** What `LocalProvider` answers, before ids and budgets: a text, or tool calls. */
export type Decision =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'calls'; readonly calls: readonly PlannedCall[] };

const text = (value: string): Decision => ({ kind: 'text', text: value });

const greeting = (model: string): string =>
  `Hello! I am ${model}, a local model. Tell me "my name is …", ask "what is my name?", ` +
  `or call a tool with ${LOCAL_CALL_DIRECTIVE} NAME {"key": "value"}.`;

/** The user's prompt: the last message when it is a user message. */
const promptOf = (messages: readonly Message[]): string | undefined => {
  const last = messages[messages.length - 1];
  return last?.role === 'user' ? messageText(last) : undefined;
};

/**
 * Applies `LocalProvider`'s rules in order (see its table) and returns the first that matches.
 *
 * @param request - the checked request
 * @param model - the model to name in the greeting
 * @returns the reply to give, not yet clipped to `maxTokens`
 * @internal
 */
export const decide = (request: LocalRequest, model: string): Decision => {
  const { messages } = request;
  const maxChars = (request.maxTokens ?? LOCAL_DEFAULT_MAX_TOKENS) * LOCAL_CHARS_PER_TOKEN;
  const extracted = extractionReply(request.systemPrompt, messages, maxChars);
  if (extracted !== undefined) return text(extracted);
  if (messages.length === 0) return text(greeting(model));
  const prompt = promptOf(messages);
  if (prompt?.startsWith(SUMMARY_REQUEST_START) === true) {
    return text(summarizeExcerpt(excerptOf(prompt), maxChars));
  }
  const report = reportToolResults(messages);
  if (report !== undefined) return text(report);
  if (prompt === undefined) return text(defaultReply(messages));
  const lines = directiveLines(prompt);
  if (lines.length > 0) {
    const plan = planDirectives(lines, new Set(request.tools.map((tool) => tool.name)));
    return plan.kind === 'calls' ? plan : text(plan.problems.join(' '));
  }
  if (asksName(prompt)) return text(answerName(messages));
  const name = statedName(prompt);
  if (name !== undefined) return text(`Nice to meet you, ${name}.`);
  return text(defaultReply(messages));
};
