import type { IncomingMessage } from 'node:http';

/**
 * A request's body as text, or `undefined` when it is longer than `maxBytes` (the server answers
 * that with its provider's "too large" error; the excess is read and dropped, never kept).
 */
export const readBody = (req: IncomingMessage, maxBytes: number): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(size > maxBytes ? undefined : Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
  });
