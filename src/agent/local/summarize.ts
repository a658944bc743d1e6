import { clip, endSentence, squash } from './text';

/**
 * The deterministic summary of `LocalProvider` (rule 2 of its table). The agent's summary request
 * is one user message: the reference's prompt, a blank line, then the excerpt as `ROLE: content`
 * lines (`ASSISTANT: ` alone for a tool-call-only message).
 */

/** A request is a summary request when its last message is a user message starting with this. */
export const SUMMARY_REQUEST_START = 'Summarize the following conversation excerpt';

/** Each clause (one per excerpt message) keeps at most this many characters. */
export const SUMMARY_CLAUSE_CHARS = 120;

const LABELS: Readonly<Record<string, string>> = {
  USER: 'User',
  ASSISTANT: 'Assistant',
  SYSTEM: 'System',
  TOOL: 'Tool',
};

/** `ROLE: content` (the space after the colon is optional); the content may be empty. */
const HEADER = /^(USER|ASSISTANT|SYSTEM|TOOL):[ \t]?(.*)$/s;

/** The first sentence: up to the first `.`, `!` or `?` followed by white space or the end. */
const FIRST_SENTENCE = /^.*?[.!?](?=\s|$)/s;

interface Entry {
  readonly label: string;
  readonly lines: string[];
}

/** The excerpt: everything after the first blank line (`\n\n`) of the prompt, or `''`. */
export const excerptOf = (prompt: string): string => {
  const start = prompt.indexOf('\n\n');
  return start < 0 ? '' : prompt.slice(start + 2);
};

/** Groups the excerpt's lines into messages: a header line starts one, other lines continue it. */
const entriesOf = (excerpt: string): Entry[] => {
  const entries: Entry[] = [];
  for (const line of excerpt.split(/\r\n|\n|\r/)) {
    const header = HEADER.exec(line);
    const last = entries[entries.length - 1];
    if (header !== null) {
      entries.push({ label: LABELS[header[1] ?? ''] ?? '', lines: [header[2] ?? ''] });
    } else if (last === undefined) {
      // Lines before any header belong to an unlabelled entry.
      entries.push({ label: '', lines: [line] });
    } else {
      last.lines.push(line);
    }
  }
  return entries;
};

/**
 * Summarizes an excerpt: for each message with non-blank content, `Role: first sentence` (white
 * space squashed, a `.` added when the sentence has no end mark, clipped to
 * {@link SUMMARY_CLAUSE_CHARS} characters), clauses joined with a space, the whole clipped to
 * `maxChars`. An excerpt without content gives `''`.
 *
 * @param excerpt - the `ROLE: content` lines
 * @param maxChars - the most characters the summary may have
 * @returns the summary
 * @internal
 */
export const summarizeExcerpt = (excerpt: string, maxChars: number): string => {
  const clauses: string[] = [];
  for (const { label, lines } of entriesOf(excerpt)) {
    const text = squash(lines.join(' '));
    if (text === '') continue;
    const sentence = FIRST_SENTENCE.exec(text)?.[0] ?? text;
    const clause = `${label === '' ? '' : `${label}: `}${endSentence(sentence)}`;
    clauses.push(clip(clause, SUMMARY_CLAUSE_CHARS));
  }
  return clip(clauses.join(' '), maxChars);
};
