/**
 * Writes a benchmark's Markdown result under `bench/results/`, formatted as the repository's
 * Prettier configuration formats it (so `npm run format:check` passes on a fresh result).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

/**
 * Formats `markdown` with Prettier and writes it to `bench/results/<name>`.
 *
 * @param name - the file name, such as `knowledge.md`
 * @param markdown - the result
 * @returns the path written
 * @example
 * ```ts
 * await writeResult('knowledge.md', '# Knowledge recall benchmark\n');
 * ```
 */
export const writeResult = async (name: string, markdown: string): Promise<string> => {
  const directory = new URL('../results/', import.meta.url);
  mkdirSync(directory, { recursive: true });
  const path = fileURLToPath(new URL(name, directory));
  const options = (await resolveConfig(path)) ?? {};
  writeFileSync(path, await format(markdown, { ...options, filepath: path }));
  return path;
};
