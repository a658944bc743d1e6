/**
 * The conversation rules of the Anthropic Messages API, as the loopback server enforces them on
 * a request whose shape is valid ({@link checkRequestShape}): non-empty content, the user-first
 * rule, and tool pairing. Each rule answers with the API's own error text.
 *
 * As the API does, consecutive messages of one role are merged into one turn before the pairing
 * rules apply: a `tool_use` must be answered by a `tool_result` at the start of the next turn
 * ("the tool_result blocks must come FIRST in the content array", Anthropic's tool-use docs), and
 * every `tool_result` must answer a `tool_use` of the previous turn. Errors name the original
 * message index (`messages.3`), as the API's do.
 *
 * Test support only: it is not part of the library.
 */

/** A content block of a shape-valid request. */
export interface WireBlock {
  readonly type: string;
  readonly text?: string;
  readonly id?: string;
  readonly tool_use_id?: string;
}

/** A message of a shape-valid request. */
export interface WireMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | readonly WireBlock[];
}

/** A block and where it is: its message's index and its own index in that message. */
interface Located {
  readonly message: number;
  readonly index: number;
  readonly block: WireBlock;
}

/** Consecutive messages of one role, merged as the API merges them. */
interface Turn {
  readonly role: 'user' | 'assistant';
  readonly blocks: Located[];
  /** False once a string content or a non-`tool_result` block was seen. */
  leading: boolean;
  readonly leadingResults: Set<string>;
}

const blocksOf = (content: WireMessage['content']): readonly WireBlock[] =>
  typeof content === 'string' ? [] : content;

const turnsOf = (messages: readonly WireMessage[]): Turn[] => {
  const turns: Turn[] = [];
  messages.forEach((message, i) => {
    let turn = turns.at(-1);
    if (turn === undefined || turn.role !== message.role) {
      turn = { role: message.role, blocks: [], leading: true, leadingResults: new Set() };
      turns.push(turn);
    }
    if (typeof message.content === 'string') turn.leading = false;
    blocksOf(message.content).forEach((block, index) => {
      turn.blocks.push({ message: i, index, block });
      if (block.type !== 'tool_result') turn.leading = false;
      else if (turn.leading) turn.leadingResults.add(block.tool_use_id ?? '');
    });
  });
  return turns;
};

const textProblem = (text: string): string | undefined => {
  if (text === '') return 'messages: text content blocks must be non-empty';
  return text.trim() === ''
    ? 'messages: text content blocks must contain non-whitespace text'
    : undefined;
};

const contentProblem = (messages: readonly WireMessage[]): string | undefined => {
  for (let i = 0; i < messages.length; i++) {
    const { role, content } = messages[i] as WireMessage;
    const finalAssistant = i === messages.length - 1 && role === 'assistant';
    if (content.length === 0 && !finalAssistant) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    if (typeof content === 'string') {
      if (content !== '' && content.trim() === '') return textProblem(content);
      continue;
    }
    for (const block of content) {
      if (block.type === 'text') {
        const found = textProblem(block.text ?? '');
        if (found !== undefined) return found;
      }
    }
  }
  return undefined;
};

const pairingProblem = (turns: readonly Turn[]): string | undefined => {
  for (let t = 0; t < turns.length; t++) {
    const turn = turns[t] as Turn;
    if (turn.role === 'assistant') {
      const uses = turn.blocks.filter(({ block }) => block.type === 'tool_use');
      const next = turns[t + 1];
      const missing = uses.filter(({ block }) => next?.leadingResults.has(block.id ?? '') !== true);
      const firstMissing = missing[0];
      if (firstMissing !== undefined) {
        const ids = missing.map(({ block }) => block.id).join(', ');
        return `messages.${firstMissing.message}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
      continue;
    }
    const previous = turns[t - 1];
    const offered = new Set(
      previous?.blocks
        .filter(({ block }) => block.type === 'tool_use')
        .map(({ block }) => block.id),
    );
    for (const { message, index, block } of turn.blocks) {
      if (block.type === 'tool_result' && !offered.has(block.tool_use_id)) {
        return `messages.${message}.content.${index}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id ?? ''}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
    }
  }
  return undefined;
};

/**
 * Checks the conversation rules on the messages of a shape-valid request.
 *
 * @param messages - the request's `messages`
 * @param system - the request's `system` (its text blocks must be non-empty too)
 * @returns the API's error text for the first broken rule, or `undefined`
 */
export const checkConversation = (
  messages: readonly WireMessage[],
  system: string | readonly WireBlock[] | undefined,
): string | undefined => {
  if (messages.length === 0) return 'messages: at least one message is required';
  if (Array.isArray(system)) {
    for (const block of system as readonly WireBlock[]) {
      if ((block.text ?? '') === '') return 'system: text content blocks must be non-empty';
    }
  }
  const content = contentProblem(messages);
  if (content !== undefined) return content;
  if (messages[0]?.role !== 'user') return 'messages: first message must use the "user" role';
  return pairingProblem(turnsOf(messages));
};
