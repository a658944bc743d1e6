import type { ExtractionSource } from '../model/knowledgeActions';
import { brandError, formatMessage } from './errorBrand';

/**
 * A model's answer to an extraction call could not be read: it is not JSON, not a list (nor an
 * object holding one), or it is longer than the readers' bounds. `source` names the extractor
 * (`'entities'` for entity memory, `'relations'` for the knowledge graph). The message names the
 * problem and shows at most a short, escaped excerpt of the answer. The readers return it as a
 * `Left`; the runtime then commits nothing and reports it.
 *
 * @example
 * ```ts
 * const result = readEntityAnswer('Sorry, I cannot help with that.');
 * if (isLeft(result)) {
 *   result.left.code; // 'CM_KNOWLEDGE_EXTRACTION'
 *   result.left.source; // 'entities'
 * }
 * ```
 */
export class KnowledgeExtractionError extends Error {
  declare readonly code: 'CM_KNOWLEDGE_EXTRACTION';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** Which extractor's answer failed: `'entities'` or `'relations'`. */
  readonly source: ExtractionSource;
  /**
   * @param api - the reader's name, for the prefix (`readEntityAnswer`)
   * @param source - which extractor's answer it was
   * @param what - the problem, with at most an escaped excerpt of the answer
   * @param options - `cause`: the parser's error
   */
  constructor(api: string, source: ExtractionSource, what: string, options?: { cause?: unknown }) {
    super(formatMessage(api, what), options);
    brandError(this, 'CM_KNOWLEDGE_EXTRACTION', 'KnowledgeExtractionError', what);
    this.source = source;
  }
}
