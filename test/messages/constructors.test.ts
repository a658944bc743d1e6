import { describe, expect, it } from 'vitest';
import {
  assistantMessage,
  imageMessage,
  InvalidMessageError,
  isRole,
  systemMessage,
  toolMessage,
  userMessage,
} from 'conversation-memory';
import { ROLES } from 'conversation-memory/constants';

describe('message constructors', () => {
  it('build plain frozen literals', () => {
    expect(userMessage('hi')).toEqual({ role: 'user', content: 'hi' });
    expect(systemMessage('be terse')).toEqual({ role: 'system', content: 'be terse' });
    expect(assistantMessage('ok')).toEqual({ role: 'assistant', content: 'ok' });
    expect(assistantMessage(null, [{ id: 'c1', name: 'f', parameters: { a: 1 } }])).toEqual({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'c1', name: 'f', parameters: { a: 1 } }],
    });
    expect(toolMessage('42', { toolCallId: 'c1', toolName: 'calc' })).toEqual({
      role: 'tool',
      content: '42',
      toolCallId: 'c1',
      toolName: 'calc',
    });
    expect(
      Object.isFrozen(
        assistantMessage(null, [{ name: 'f', parameters: { a: [1] } }]).toolCalls?.[0]?.parameters,
      ),
    ).toBe(true);
  });

  it('toolMessage rejects an origin that is not an object', () => {
    expect(() => toolMessage('4', null as never)).toThrow(InvalidMessageError);
    expect(() => toolMessage('4', null as never)).toThrow(
      'toolMessage: origin must be an object such as { toolCallId, toolName }, received null',
    );
  });

  it('drop an empty tool-call list', () => {
    expect(assistantMessage('x', [])).toEqual({ role: 'assistant', content: 'x' });
  });

  it('imageMessage builds a URL part, as the reference image_message', () => {
    expect(imageMessage('https://example.com/cat.png')).toEqual({
      role: 'user',
      content: 'Describe this image.',
      contentParts: [
        { type: 'text', text: 'Describe this image.' },
        { type: 'image_url', imageUrl: 'https://example.com/cat.png' },
      ],
    });
  });

  it('imageMessage builds a base64 part, defaulting to image/jpeg', () => {
    expect(imageMessage({ base64: 'AAAA' }, 'What?').contentParts?.[1]).toEqual({
      type: 'image_base64',
      imageBase64: 'AAAA',
      mediaType: 'image/jpeg',
    });
    expect(imageMessage('data:image/png;base64,iVBORw0KGgo=').contentParts?.[1]).toEqual({
      type: 'image_base64',
      imageBase64: 'iVBORw0KGgo=',
      mediaType: 'image/png',
    });
  });

  it('imageMessage rejects a file path with advice', () => {
    expect(() => imageMessage('./photo.jpg')).toThrow(InvalidMessageError);
    expect(() => imageMessage('./photo.jpg')).toThrow('files are not read here');
    expect(() => imageMessage({} as never)).toThrow('image must be an http(s) URL');
  });

  it('roles are the four reference values, case-sensitive', () => {
    expect([...ROLES].sort()).toEqual(['assistant', 'system', 'tool', 'user']);
    expect(isRole('tool')).toBe(true);
    expect(isRole('USER')).toBe(false);
  });
});
