/**
 * The browser side of the AI SDK chat UI tests: a React page on the real `@ai-sdk/react`
 * `useChat` (the major that goes with `ai` 6), as an application writes one. Bundled by
 * `buildChatPage` (esbuild) and served by `examples/ai-sdk-chat-server.ts`.
 *
 * - The chat's id is the page's `?chat=` parameter; its persisted messages come from
 *   `GET /api/chat/:id` (the server's `toUIMessages` of its memory), then `useChat` runs with
 *   them and `resume: true`, so a page reloaded mid-reply asks `GET /api/chat/:id/stream` for
 *   the rest.
 * - Sending posts only the new message (the server's memory has the rest), as the AI SDK's
 *   persistence guide recommends.
 * - Stop aborts the request (`stop()`) and asks the server to stop the run
 *   (`POST /api/chat/:id/stop`): with resumable streams, aborting the request alone leaves the run
 *   going on the server.
 * - What the tests read: `[data-role]` per message with `data-id`, `.text` and `.tool` parts,
 *   `#status` (useChat's status), and `window.finishes` (what each `onFinish` received).
 */
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { createElement as h, useState, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';

/** What `onFinish` received, kept for the tests. */
interface FinishRecord {
  readonly isAbort: boolean;
  readonly isError: boolean;
  readonly messageId: string;
  readonly text: string;
}

declare global {
  interface Window {
    finishes: FinishRecord[];
  }
}
window.finishes = [];

const chatId = new URLSearchParams(location.search).get('chat') ?? 'default';
const api = '/api/chat';

const textOf = (message: UIMessage): string =>
  message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');

/** One message: its text parts and tool parts, in order. */
const MessageView = ({ message }: { readonly message: UIMessage }): ReactElement =>
  h(
    'div',
    { 'data-role': message.role, 'data-id': message.id },
    ...message.parts.map((part, i) => {
      if (part.type === 'text') return h('p', { key: i, className: 'text' }, part.text);
      if (part.type.startsWith('tool-') || part.type === 'dynamic-tool') {
        const tool = part as { state: string; output?: unknown; errorText?: string };
        const shown = tool.state === 'output-available' ? JSON.stringify(tool.output) : '';
        return h(
          'p',
          { key: i, className: 'tool', 'data-state': tool.state },
          `${part.type} ${shown}${tool.errorText ?? ''}`,
        );
      }
      return null;
    }),
  );

const Chat = ({ initial }: { readonly initial: UIMessage[] }): ReactElement => {
  const [input, setInput] = useState('');
  const { messages, sendMessage, status, stop, error } = useChat({
    id: chatId,
    messages: initial,
    resume: true,
    transport: new DefaultChatTransport({
      api,
      prepareSendMessagesRequest: ({ id, messages: all }) => ({
        body: { id, message: all.at(-1) },
      }),
    }),
    onFinish: ({ message, isAbort, isError }) => {
      window.finishes.push({ isAbort, isError, messageId: message.id, text: textOf(message) });
    },
  });
  return h(
    'main',
    null,
    h('p', { id: 'status' }, status),
    error === undefined ? null : h('p', { id: 'error' }, error.message),
    h(
      'div',
      { id: 'messages' },
      ...messages.map((message) => h(MessageView, { key: message.id, message })),
    ),
    h(
      'form',
      {
        onSubmit: (event: { preventDefault(): void }) => {
          event.preventDefault();
          void sendMessage({ text: input });
          setInput('');
        },
      },
      h('input', {
        id: 'input',
        value: input,
        onChange: (event: { target: { value: string } }) => setInput(event.target.value),
      }),
      h('button', { id: 'send', type: 'submit' }, 'Send'),
      h(
        'button',
        {
          id: 'stop',
          type: 'button',
          onClick: () => {
            void stop();
            void fetch(`${api}/${encodeURIComponent(chatId)}/stop`, { method: 'POST' });
          },
        },
        'Stop',
      ),
    ),
  );
};

const start = async (): Promise<void> => {
  const response = await fetch(`${api}/${encodeURIComponent(chatId)}`);
  const initial = (await response.json()) as UIMessage[];
  const root = document.getElementById('root');
  if (root === null) throw new Error('the page has no #root');
  createRoot(root).render(h(Chat, { initial }));
};

void start();
