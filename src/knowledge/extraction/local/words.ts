/**
 * The text side of the local extractor: which parts of a rendered conversation are the user's,
 * their sentences, and each sentence's words. Linear in the text: every regular expression here
 * is a single character class or a fixed prefix, none can backtrack.
 */

/**
 * One token of a sentence: a word (letters, digits and the `'`, `&`, `.`, `-` inside it, so
 * `O'Brien`, `AT&T`, `Node.js`, `2024-03-01` are one word each) or one punctuation character.
 *
 * @internal
 */
export interface Word {
  /** As written. */
  readonly text: string;
  /** In lower case, for matching. */
  readonly lower: string;
  /** Starts with an upper-case letter. */
  readonly capital: boolean;
  /** A punctuation character, not a word. */
  readonly punct: boolean;
}

/** `ROLE: ` at the start of a rendered line (`renderExtractionConversation`). */
const HEADER = /^(USER|ASSISTANT|SYSTEM|TOOL):[ \t]?/;

/**
 * The user's messages of a rendered conversation, in order: a `USER: ` line and the lines after
 * it up to the next `ROLE: ` line. Text before any header counts as the user's (a plain text
 * given to the extractor); `ASSISTANT`, `SYSTEM` and `TOOL` messages are skipped, so a reply
 * that echoes the user does not state the fact again.
 *
 * @internal
 */
export const userMessages = (conversation: string): string[] => {
  // Text before the first header is the user's; `undefined` marks a message of another role.
  let current: string[] | undefined = [];
  const blocks: (string[] | undefined)[] = [current];
  for (const line of conversation.split(/\r\n|\n|\r/)) {
    const header = HEADER.exec(line);
    if (header === null) {
      current?.push(line);
    } else {
      current = header[1] === 'USER' ? [line.slice(header[0].length)] : undefined;
      blocks.push(current);
    }
  }
  const messages: string[] = [];
  for (const block of blocks) if (block !== undefined) messages.push(block.join('\n'));
  return messages;
};

/**
 * The sentences of a message: split at line breaks, `;`, `!`, `?`, and at `.` before white
 * space or the end (so `Node.js` and `3.5` stay whole).
 *
 * @internal
 */
export const sentencesOf = (message: string): string[] => message.split(/[\n;!?]|\.(?=\s|$)/);

/** A word, then any one character that is neither a word character nor white space. */
const TOKEN = /[\p{L}\p{N}][\p{L}\p{M}\p{N}'&.-]*|[^\s\p{L}\p{N}]/gu;
const UPPER = /^\p{Lu}/u;
/** Characters a word may hold inside but not end with (`Acme.` → `Acme`). */
const TRAILING = /* @__PURE__ */ new Set(["'", '&', '.', '-']);

/**
 * The words of a sentence. Typographic apostrophes (`’`) are read as `'`.
 *
 * @internal
 */
export const wordsOf = (sentence: string): Word[] => {
  const words: Word[] = [];
  for (const match of sentence.replace(/’/g, "'").matchAll(TOKEN)) {
    let text = match[0];
    let end = text.length;
    while (end > 1 && TRAILING.has(text[end - 1] ?? '')) end--;
    text = text.slice(0, end);
    const punct = !/^[\p{L}\p{N}]/u.test(text);
    words.push({ text, lower: text.toLowerCase(), capital: UPPER.test(text), punct });
  }
  return words;
};
