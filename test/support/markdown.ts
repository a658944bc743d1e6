import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Reads the project's Markdown (README.md, CONTRIBUTING.md and every docs/**\/*.md) for the docs tests: its fenced
 * code blocks, its headings and their GitHub anchors, and its links.
 */

/** The repository's root directory, with a trailing slash. */
export const rootDir = fileURLToPath(new URL('../../', import.meta.url));

/** README.md, CONTRIBUTING.md, then every Markdown file under docs/, as paths relative to the root. */
export const markdownFiles = (): readonly string[] => {
  const walk = (dir: string): string[] =>
    readdirSync(new URL(dir, `file://${rootDir}`), { withFileTypes: true })
      .flatMap((entry) =>
        entry.isDirectory()
          ? walk(`${dir}${entry.name}/`)
          : entry.name.endsWith('.md')
            ? [`${dir}${entry.name}`]
            : [],
      )
      .sort();
  return ['README.md', 'CONTRIBUTING.md', ...walk('docs/')];
};

export const readMarkdown = (file: string): string =>
  readFileSync(new URL(file, `file://${rootDir}`), 'utf8');

/** A fenced code block. */
export interface CodeBlock {
  readonly file: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
  /** The first word of the info string (`ts`, `sh`, …). */
  readonly lang: string;
  /**
   * The other words of the info string: `run` (executed), `fragment` (a piece of a program: its
   * imports are type-checked, and the rest when it parses as statements).
   */
  readonly flags: readonly string[];
  readonly code: string;
  /** The nearest heading above the block, as written (`## Tour`). */
  readonly heading: string;
}

const FENCE = /^(`{3,})\s*([^\s`]*)\s*(.*)$/;

/** Every fenced block of a file, in order. Fences are recognised at the start of a line only. */
export const codeBlocksOf = (file: string, text = readMarkdown(file)): readonly CodeBlock[] => {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const open = FENCE.exec(line);
    if (open === null) {
      if (/^#{1,6} /.test(line)) heading = line;
      continue;
    }
    const fence = open[1] ?? '```';
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !(lines[i] ?? '').startsWith(fence); i++)
      body.push(lines[i] ?? '');
    blocks.push({
      file,
      line: start + 1,
      lang: open[2] ?? '',
      flags: (open[3] ?? '').split(/\s+/).filter((flag) => flag !== ''),
      code: body.join('\n'),
      heading,
    });
  }
  return blocks;
};

/** Whether a block is TypeScript (`ts` or `typescript`). */
export const isTypeScript = (block: CodeBlock): boolean =>
  block.lang === 'ts' || block.lang === 'typescript';

/** The text with every fenced block's lines blanked (line numbers kept). */
export const proseOf = (text: string): string => {
  const lines = text.split('\n');
  let fence: string | null = null;
  return lines
    .map((line) => {
      if (fence !== null) {
        if (line.startsWith(fence)) fence = null;
        return '';
      }
      const open = FENCE.exec(line);
      if (open !== null) {
        fence = open[1] ?? '```';
        return '';
      }
      return line;
    })
    .join('\n');
};

/**
 * GitHub's anchor for a heading's text (github-slugger): the rendered text lower-cased, every
 * character that is not a letter, mark, number, `_`, space or `-` removed, spaces made `-`.
 */
export const slugOf = (heading: string): string =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a file's headings, with GitHub's `-1`, `-2` suffixes for repeated ones. */
export const anchorsOf = (text: string): ReadonlySet<string> => {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseOf(text).split('\n')) {
    const match = /^#{1,6} (.*)$/.exec(line);
    if (match === null) continue;
    const slug = slugOf(match[1] ?? '');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
};

/** An inline code span of a file's prose (`npm run demo`), its text with line breaks as spaces. */
export interface CodeSpan {
  readonly file: string;
  /** The 1-based line where the span opens. */
  readonly line: number;
  readonly code: string;
}

/** Every inline code span of a file's prose (fenced blocks left out), in order. */
export const codeSpansOf = (file: string, text = readMarkdown(file)): readonly CodeSpan[] => {
  const prose = proseOf(text);
  return [...prose.matchAll(/(`+)([^`][\s\S]*?)(?<!`)\1(?!`)/g)].map((match) => ({
    file,
    line: prose.slice(0, match.index).split('\n').length,
    code: (match[2] ?? '').replace(/\s+/g, ' ').trim(),
  }));
};

/** A link or image of a file's prose: `[text](target)` or `![alt](target)`. */
export interface MarkdownLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

export const linksOf = (file: string, text = readMarkdown(file)): readonly MarkdownLink[] => {
  const prose = proseOf(text);
  const links: MarkdownLink[] = [];
  // Code spans are replaced by as many newlines as they held, so line numbers stay right.
  const scanned = prose.replace(/(`+)[\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, ''));
  for (const match of scanned.matchAll(/!?\[[^\]]*\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) {
    const line = scanned.slice(0, match.index).split('\n').length;
    links.push({ file, line, target: match[1] ?? '' });
  }
  return links;
};
