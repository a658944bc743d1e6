import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EXTRACTION_MODEL,
  ENTITY_EXTRACTION_PROMPT,
  ENTITY_EXTRACTION_SYSTEM_PROMPT,
  entityExtractionPrompt,
  EXTRACTION_MAX_TOKENS,
  RECALL_DEFAULT_LIMIT,
  RECALL_TOOL,
  REMEMBER_PERSISTENT_TRUE,
  REMEMBER_TOOL,
  renderExtractionConversation,
  TRIPLE_EXTRACTION_PROMPT,
  TRIPLE_EXTRACTION_SYSTEM_PROMPT,
  tripleExtractionPrompt,
} from '../../../src/knowledge/extraction/prompts';

describe('the reference prompts', () => {
  it('end with the blank line the conversation follows, and the calls use its settings', () => {
    expect(ENTITY_EXTRACTION_PROMPT.endsWith('no other text.\n\n')).toBe(true);
    expect(TRIPLE_EXTRACTION_PROMPT.endsWith('no other text.\n\n')).toBe(true);
    expect(ENTITY_EXTRACTION_SYSTEM_PROMPT).toBe(
      'You extract named entities from text. Always return valid JSON.',
    );
    expect(TRIPLE_EXTRACTION_SYSTEM_PROMPT).toBe(
      'You extract relationship triples from text. Always return valid JSON.',
    );
    expect(EXTRACTION_MAX_TOKENS).toBe(500);
    expect(DEFAULT_EXTRACTION_MODEL).toBe('gpt-4o-mini');
    expect(entityExtractionPrompt('USER: hi')).toBe(`${ENTITY_EXTRACTION_PROMPT}USER: hi`);
    expect(tripleExtractionPrompt('')).toBe(TRIPLE_EXTRACTION_PROMPT);
  });
});

describe('renderExtractionConversation', () => {
  it('writes ROLE: content for each message with content, joined by line breaks', () => {
    expect(
      renderExtractionConversation([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'I work at Acme\nin Paris' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'f', parameters: {} }] },
        { role: 'tool', content: '42', toolCallId: 'c1' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'text', contentParts: [{ type: 'text', text: 'parts' }] },
      ]),
    ).toBe('SYSTEM: Be brief.\nUSER: I work at Acme\nin Paris\nTOOL: 42\nUSER: text');
  });

  it('gives an empty text for no message with content', () => {
    expect(renderExtractionConversation([])).toBe('');
    expect(renderExtractionConversation([{ role: 'assistant', content: null }])).toBe('');
  });
});

describe('the reference knowledge tools', () => {
  it('remember: content, category, persistent, all strings, content required', () => {
    expect(REMEMBER_TOOL.name).toBe('remember');
    expect(REMEMBER_TOOL.description).toContain('Set persistent=true for long-term facts');
    expect(REMEMBER_TOOL.parameters).toEqual({
      type: 'object',
      properties: {
        content: { type: 'string', description: 'The information to remember.' },
        category: {
          type: 'string',
          description: "Category tag (e.g. 'preference', 'fact', 'context'). Default: 'general'.",
        },
        persistent: {
          type: 'string',
          description: "Set to 'true' for long-term facts. Default: 'false'.",
        },
      },
      required: ['content'],
    });
    expect(REMEMBER_PERSISTENT_TRUE).toEqual(['true', 'yes', '1']);
  });

  it('recall: query and limit, both strings, query required', () => {
    expect(RECALL_TOOL.name).toBe('recall');
    expect(RECALL_TOOL.description).toContain('Search previously stored memories');
    expect(RECALL_TOOL.parameters).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Keywords describing the information to look up.' },
        limit: {
          type: 'string',
          description: "Maximum number of memories to return. Default: '5'.",
        },
      },
      required: ['query'],
    });
    expect(RECALL_DEFAULT_LIMIT).toBe(5);
    expect(Object.isFrozen(RECALL_TOOL.parameters)).toBe(true);
  });
});
