/**
 * The JSON file store moves another session's reference record to that session's own name only
 * when nothing is there: a hard link (which cannot replace a file), or, on file systems without
 * hard links, a rename once the target is seen absent.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as FsPromises from 'node:fs/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { moveWithoutOverwriting } from '../../src/node/jsonFile/moveWithoutOverwriting';

/** When set, `link` fails as on a file system without hard links. */
const noHardLinks = vi.hoisted(() => ({ code: undefined as string | undefined }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof FsPromises>();
  return {
    ...original,
    link: async (from: string, to: string) => {
      if (noHardLinks.code !== undefined) {
        throw Object.assign(new Error(`${noHardLinks.code}: link`), { code: noHardLinks.code });
      }
      return original.link(from, to);
    },
  };
});

const root = mkdtempSync(join(tmpdir(), 'cm-sessions-move-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('moveWithoutOverwriting', () => {
  for (const code of [undefined, 'EPERM', 'ENOTSUP']) {
    it(`moves when the target is absent, never over a file (link ${code ?? 'supported'})`, async () => {
      noHardLinks.code = code;
      try {
        const dir = mkdtempSync(join(root, 'case-'));
        writeFileSync(join(dir, 'from.json'), 'from');
        expect(await moveWithoutOverwriting(join(dir, 'from.json'), join(dir, 'to.json'))).toBe(
          true,
        );
        expect(readdirSync(dir)).toEqual(['to.json']);
        expect(readFileSync(join(dir, 'to.json'), 'utf8')).toBe('from');
        writeFileSync(join(dir, 'from.json'), 'again');
        expect(await moveWithoutOverwriting(join(dir, 'from.json'), join(dir, 'to.json'))).toBe(
          false,
        );
        expect(readFileSync(join(dir, 'to.json'), 'utf8')).toBe('from');
        expect(readFileSync(join(dir, 'from.json'), 'utf8')).toBe('again');
      } finally {
        noHardLinks.code = undefined;
      }
    });
  }

  it('other errors of link reject', async () => {
    noHardLinks.code = 'EACCES';
    try {
      const dir = mkdtempSync(join(root, 'case-'));
      writeFileSync(join(dir, 'from.json'), 'from');
      await expect(
        moveWithoutOverwriting(join(dir, 'from.json'), join(dir, 'to.json')),
      ).rejects.toMatchObject({ code: 'EACCES' });
      expect(readdirSync(dir)).toEqual(['from.json']);
    } finally {
      noHardLinks.code = undefined;
    }
  });
});
