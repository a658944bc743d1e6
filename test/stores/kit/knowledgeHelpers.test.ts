import { describe, expect, it } from 'vitest';
import * as knowledge from 'conversation-memory/knowledge';
import * as storeKit from 'conversation-memory/store-kit';

/** The knowledge stores' helpers: in the kit, and still in `/knowledge` until 1.0. */
const KNOWLEDGE_HELPERS = [
  'checkKnowledgeOptions',
  'checkKnowledgeRevision',
  'listNamespace',
  'knowledgeStateToSave',
  'readKnowledgeJson',
  'MAX_KNOWLEDGE_FACTS',
  'MAX_ENTITY_PARTS',
  'MAX_FACT_SOURCES',
  'MAX_KNOWLEDGE_TEXT_LENGTH',
  'MAX_KNOWLEDGE_POSITION',
  'MAX_KNOWLEDGE_TIME',
] as const;

describe("the knowledge stores' helpers", () => {
  it.each(KNOWLEDGE_HELPERS)(
    '%s: conversation-memory/knowledge re-exports the store kit one (the same value)',
    (name) => {
      expect(storeKit[name]).toBeDefined();
      expect(knowledge[name]).toBe(storeKit[name]);
    },
  );
});
