import { existsSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  anchorsOf,
  linksOf,
  markdownFiles,
  readMarkdown,
  rootDir,
  slugOf,
} from '../support/markdown';

/**
 * Every relative link and #anchor of README.md and docs/**\/*.md resolves: the file or folder
 * exists, and an anchor names a heading of the target Markdown file as GitHub spells its anchors.
 * Links with a scheme (https:, mailto:) are not followed.
 */
describe('docs links', () => {
  const files = markdownFiles();
  const links = files.flatMap((file) => linksOf(file));

  it('slugs headings as GitHub does', () => {
    expect(slugOf('The model view (`modelView`)')).toBe('the-model-view-modelview');
    expect(slugOf('Streaming from providers, and to a browser')).toBe(
      'streaming-from-providers-and-to-a-browser',
    );
    expect(slugOf('Redux Toolkit (`conversation-memory/redux`)')).toBe(
      'redux-toolkit-conversation-memoryredux',
    );
    expect([...anchorsOf('# A\n\n## A\n\n```md\n# not a heading\n```\n')]).toEqual(['a', 'a-1']);
  });

  it('has links to check', () => {
    expect(links.length).toBeGreaterThan(20);
  });

  it('every relative link resolves', () => {
    const broken = links.flatMap(({ file, line, target }) => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return [];
      const [path = '', anchor] = target.split('#', 2);
      const resolved = path === '' ? file : posix.normalize(posix.join(posix.dirname(file), path));
      if (resolved.startsWith('../') || !existsSync(`${rootDir}${resolved}`)) {
        return [`${file}:${line}: ${target}: no file ${resolved}`];
      }
      if (anchor === undefined) return [];
      if (!resolved.endsWith('.md'))
        return [`${file}:${line}: ${target}: anchor on a non-Markdown file`];
      return anchorsOf(readMarkdown(resolved)).has(decodeURIComponent(anchor))
        ? []
        : [`${file}:${line}: ${target}: no heading #${anchor} in ${resolved}`];
    });
    expect(broken).toEqual([]);
  });
});
