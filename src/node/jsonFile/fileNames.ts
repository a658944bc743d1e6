import { createHash, randomBytes } from 'node:crypto';

/**
 * How session keys become file names in a {@link JsonFileSessionStore} directory.
 *
 * - A key that is a safe, portable file name keeps the reference's `<key>.json` (`ns:id.json`
 *   when namespaced): lower-case ASCII letters, digits, `_`, `-`, `.`, `:`, not starting with a
 *   dot, not a Windows device name (`con`, `nul.json`, `com1`, …), at most 195 characters.
 * - Any other key is percent-encoded behind a `%` (which no plain name has): every UTF-8 byte
 *   other than `a-z 0-9 _ -` becomes `%xx` (lower-case hex). Upper-case
 *   letters are encoded too, so names never differ only in case: ids `Ab` and `aB` stay two files
 *   on case-insensitive file systems (macOS, Windows), and every name is ASCII, so no file system
 *   normalizes it (HFS+ rewrites `é` as `e` + accent). The encoding is injective and reversible.
 * - An encoded name over {@link MAX_SESSION_FILE_NAME_BYTES} (ids may have 512 characters of up
 *   to 4 bytes, file names 255 bytes) is `%~<readable start>~<sha256 of the key>.json`: not
 *   reversible, which is fine, since the store reads keys from the file's content.
 * - On Windows `:` is encoded too (it opens an NTFS stream there).
 *
 * Every session file ends in `.json`; temp (`<name>.<pid>-<hex>.tmp`), lock (`<name>.lock`) and
 * aside (`<name>.corrupt-<ms>-<hex>`) files never do.
 */

/**
 * Session files end with this; nothing else the store writes (temp, lock, aside files) does.
 *
 * @example
 * ```ts
 * sessionFileName('s1').endsWith(SESSION_FILE_SUFFIX); // true
 * ```
 */
export const SESSION_FILE_SUFFIX = '.json';

/**
 * The longest session file name, in bytes: 255 (the usual file-name limit) minus room for the
 * temp, lock and aside suffixes added to it.
 *
 * @example
 * ```ts
 * sessionFileName('x'.repeat(400)).length <= MAX_SESSION_FILE_NAME_BYTES; // true
 * ```
 */
export const MAX_SESSION_FILE_NAME_BYTES = 200;

const KEPT = /^[a-z0-9_-]$/u;
const PLAIN = /^[a-z0-9_-][a-z0-9._:-]*$/u;
const PLAIN_WINDOWS = /^[a-z0-9_-][a-z0-9._-]*$/u;
/** Windows device names, reserved with any extension (`nul.json`), compared case-insensitively. */
const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/iu;
/** What Windows refuses in a file name (besides device names and a trailing dot or space). */
const WINDOWS_FORBIDDEN = /[<>:"/\\|?*]/u;
const hasControl = (text: string): boolean => [...text].some((char) => char < ' ');
const HEX = '0123456789abcdef';
const READABLE_BYTES = 100;

const isWindowsDevice = (name: string): boolean => DEVICE.test(name.split('.')[0] ?? '');

const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

const hex2 = (byte: number): string => `${HEX[byte >> 4] ?? '0'}${HEX[byte & 15] ?? '0'}`;

/**
 * The percent-encoding of a key (without the `%` prefix): `a-z 0-9 _ -` kept, every other UTF-8
 * byte `%xx`. Keys are well-formed Unicode (`sessionKeyOf` refuses a lone surrogate), so UTF-8
 * carries every one of them and the encoding is injective.
 *
 * @example
 * ```ts
 * encodeSessionKey('a/B'); // 'a%2f%42'
 * ```
 */
export const encodeSessionKey = (key: string): string => {
  let out = '';
  for (const char of key) {
    if (KEPT.test(char)) {
      out += char;
      continue;
    }
    for (const byte of Buffer.from(char, 'utf8')) out += `%${hex2(byte)}`;
  }
  return out;
};

/**
 * The file name of a session key (see the module notes): the reference's `<key>.json` when the
 * key is a safe portable name, else an encoded one that cannot leave the directory or clash.
 *
 * @param key - the full key (`ns:id` or `id`), already validated
 * @param windows - apply Windows' rules (`:` encoded); default: this platform's
 * @example
 * ```ts
 * sessionFileName('u1:s1'); // 'u1:s1.json'
 * sessionFileName('../x'); // '%%2e%2e%2fx.json'
 * sessionFileName('Ab'); // '%%41b.json'
 * ```
 */
export const sessionFileName = (key: string, windows = process.platform === 'win32'): string => {
  const plain = `${key}${SESSION_FILE_SUFFIX}`;
  if (
    (windows ? PLAIN_WINDOWS : PLAIN).test(key) &&
    plain.length <= MAX_SESSION_FILE_NAME_BYTES &&
    !isWindowsDevice(plain)
  ) {
    return plain;
  }
  const encoded = `%${encodeSessionKey(key)}${SESSION_FILE_SUFFIX}`;
  if (encoded.length <= MAX_SESSION_FILE_NAME_BYTES) return encoded;
  // Hashed over UTF-16 code units, as since the first release: another encoding would rename
  // every hashed file.
  const digest = createHash('sha256').update(key, 'utf16le').digest('hex');
  const body = encodeSessionKey(key)
    .slice(0, READABLE_BYTES)
    .replace(/%[0-9a-fu]{0,4}$/u, '');
  return `%~${body}~${digest}${SESSION_FILE_SUFFIX}`;
};

/**
 * The key a session file name stands for, when the name says it (a plain or percent-encoded
 * name); `undefined` for a hashed name or a name the store never writes. The store itself reads
 * keys from the files' content; this shows that names are reversible.
 *
 * @example
 * ```ts
 * sessionKeyOfFileName('%%41b.json'); // 'Ab'
 * sessionKeyOfFileName('u1:s1.json'); // 'u1:s1'
 * ```
 */
export const sessionKeyOfFileName = (name: string): string | undefined => {
  if (!name.endsWith(SESSION_FILE_SUFFIX)) return undefined;
  const body = name.slice(0, -SESSION_FILE_SUFFIX.length);
  const key = body.startsWith('%') ? decodeBody(body.slice(1)) : body;
  // Only a name the store writes (under either platform's rules) stands for a key.
  return key !== undefined &&
    (sessionFileName(key, false) === name || sessionFileName(key, true) === name)
    ? key
    : undefined;
};

/** Reverses {@link encodeSessionKey}; `undefined` when the text is not such an encoding. */
const decodeBody = (body: string): string | undefined => {
  const bytes: number[] = [];
  let out = '';
  const flush = (): boolean => {
    if (bytes.length === 0) return true;
    const buffer = Buffer.from(bytes);
    const text = buffer.toString('utf8');
    bytes.length = 0;
    out += text;
    return Buffer.from(text, 'utf8').equals(buffer);
  };
  for (let i = 0; i < body.length;) {
    const byte = /^%([0-9a-f]{2})/u.exec(body.slice(i, i + 3));
    if (byte !== null) {
      bytes.push(parseInt(byte[1] as string, 16));
      i += 3;
      continue;
    }
    if (!flush()) return undefined;
    if (KEPT.test(body[i] as string)) {
      out += body[i] as string;
      i += 1;
    } else {
      return undefined;
    }
  }
  return flush() ? out : undefined;
};

/**
 * The name the reference (selectools' `JsonFileSessionStore`) gives a session, `<ns:id>.json`
 * (its `referenceKey`), when it differs from ours and can be opened safely here: the reference
 * accepted the key (no `/`, no `..`, no null byte), it fits in 255 bytes, and on Windows it is a
 * legal name. The store reads such a file when the session has no file of its own (a directory
 * written by the reference), checking that its content names this very session (the reference's
 * keys were ambiguous), and a save moves the session to its own name.
 *
 * @param where - the session's storage key and reference key (see `sessionKeyOf`)
 * @param windows - apply Windows' rules; default: this platform's
 * @example
 * ```ts
 * referenceFileName({ key: 'Team:Alice', referenceKey: 'Team:Alice' }, false); // 'Team:Alice.json' (ours: '%%54eam%3a%41lice.json')
 * referenceFileName({ key: 's1', referenceKey: 's1' }, false); // undefined (the same as ours)
 * ```
 */
export const referenceFileName = (
  where: { readonly key: string; readonly referenceKey: string },
  windows = process.platform === 'win32',
): string | undefined => {
  const key = where.referenceKey;
  const name = `${key}${SESSION_FILE_SUFFIX}`;
  if (key.includes('/') || key.includes('..') || key.includes('\u0000')) return undefined;
  if (utf8Length(name) > 255 || name === sessionFileName(where.key, windows)) return undefined;
  if (
    windows &&
    (WINDOWS_FORBIDDEN.test(key) || hasControl(key) || isWindowsDevice(name) || /[. ]$/u.test(key))
  ) {
    return undefined;
  }
  return name;
};

/** What {@link lockFileName} appends. */
const LOCK_SUFFIX = '.lock';

/**
 * The lock file of a session file: `<name>.lock`.
 *
 * @example
 * ```ts
 * lockFileName('s1.json'); // 's1.json.lock'
 * ```
 */
export const lockFileName = (name: string): string => `${name}${LOCK_SUFFIX}`;

/** The random part of a temp file's name: 12 lower-case hex digits. */
const TEMP_RANDOM = /^[0-9a-f]{12}$/u;

/**
 * The temp file a writer of a session file writes before renaming it over the session:
 * `<name>.<pid>-<12 hex>.tmp`, unique to the writer and the attempt.
 *
 * @param name - the session file's name
 * @param pid - the writer's process id
 * @param random - 12 lower-case hex digits (6 random bytes)
 * @example
 * ```ts
 * tempFileName('s1.json', 4242, '0a1b2c3d4e5f'); // 's1.json.4242-0a1b2c3d4e5f.tmp'
 * ```
 */
export const tempFileName = (name: string, pid: number, random: string): string =>
  `${name}.${pid}-${random}.tmp`;

/**
 * Whether `temp` is exactly a temp file name that the holder `pid` of the lock of session file
 * `name` writes ({@link tempFileName}): nothing else (another session's file or temp file, the
 * session itself, a path) may be deleted by whoever breaks that lock.
 *
 * @param lockName - the lock file's name (`<name>.lock`)
 * @param temp - the name the lock says its holder writes (untrusted: read from the lock file)
 * @param pid - the holder's pid, as the lock says
 * @example
 * ```ts
 * isOwnTempFileName('s1.json.lock', 's1.json.4242-0a1b2c3d4e5f.tmp', 4242); // true
 * isOwnTempFileName('s1.json.lock', 'b.json', 4242); // false
 * ```
 */
export const isOwnTempFileName = (lockName: string, temp: unknown, pid: unknown): boolean => {
  if (typeof temp !== 'string' || !lockName.endsWith(LOCK_SUFFIX)) return false;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return false;
  const prefix = `${lockName.slice(0, -LOCK_SUFFIX.length)}.${pid}-`;
  return (
    temp.startsWith(prefix) &&
    temp.endsWith('.tmp') &&
    TEMP_RANDOM.test(temp.slice(prefix.length, -'.tmp'.length))
  );
};

/** Marks the names of entries kept aside for inspection: `<name>.corrupt-<ms>-<6 hex>`. */
export const ASIDE_MARK = '.corrupt-';

/**
 * A fresh name to keep a damaged or foreign entry under, beside it: `<name>.corrupt-<ms>-<6 hex>`
 * (never a session, temp or lock file's name).
 *
 * @example
 * ```ts
 * asideFileName('s1.json'); // 's1.json.corrupt-1764500000000-a1b2c3'
 * ```
 */
export const asideFileName = (name: string): string =>
  `${name}${ASIDE_MARK}${Date.now()}-${randomBytes(3).toString('hex')}`;
