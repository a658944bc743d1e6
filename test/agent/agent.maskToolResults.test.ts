/**
 * The agent with `config.maskToolResults` (issue #19 §2): every main call's view masks stale tool
 * output, and the model can read a masked result again with the built-in `read_tool_result`,
 * which looks in the run's transcript and the memory's window. Memory keeps the originals.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentConfigError,
  ConversationMemory,
  createAgent,
  validateTranscript,
  type AgentTool,
  type CompletionRequest,
  type Message,
} from 'conversation-memory';
import { call } from '../helpers';
import { scriptedProvider } from '../support/scriptedProvider';

const FILES: Readonly<Record<string, string>> = {
  'a.txt': 'alpha '.repeat(40),
  'b.txt': 'bravo '.repeat(40),
};

const readFile: AgentTool = {
  name: 'read_file',
  description: 'Reads a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
  execute: ({ path }) => FILES[String(path)] ?? 'no such file',
};

/**
 * A model driven by the user's text: `read <path> as <id>` calls read_file, `recall <id>` calls
 * read_tool_result; after a tool result it answers with the result's first 20 characters.
 */
const model = () =>
  scriptedProvider((request: CompletionRequest) => {
    const last = request.messages.at(-1) as Message;
    if (last.role === 'tool')
      return { role: 'assistant', content: `saw ${last.content?.slice(0, 20)}` };
    const text = last.content ?? '';
    const read = /^read (\S+) as (\S+)$/.exec(text);
    if (read !== null) {
      return {
        role: 'assistant',
        content: null,
        toolCalls: [call(read[2] as string, 'read_file', { path: read[1] as string })],
      };
    }
    const recall = /^recall ([^]*)$/.exec(text);
    if (recall !== null) {
      return {
        role: 'assistant',
        content: null,
        toolCalls: [call(`r-${text.length}`, 'read_tool_result', { call_id: recall[1] as string })],
      };
    }
    return { role: 'assistant', content: 'ok' };
  });

const toolContents = (request: CompletionRequest | undefined) =>
  (request?.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content);

describe('createAgent: config.maskToolResults', () => {
  it('masks older results in each main call, offers read_tool_result, and memory keeps the originals', async () => {
    const provider = model();
    const memory = new ConversationMemory({ maxMessages: 50 });
    const agent = createAgent({
      provider,
      memory,
      tools: [readFile],
      config: { maskToolResults: { keepLast: 1 } },
    });
    await agent.run('read a.txt as c1');
    await agent.run('read b.txt as c2');
    await agent.run('read a.txt as c3');
    const third = await agent.run('recall c2');
    // The fourth run's first call: c1 is a repeat of c3, c2 is stale, c3 is the newest.
    const request = provider.requests.at(-2);
    expect(toolContents(request)).toEqual([
      '[tool result masked: identical to the read_file result of {"call_id":"c3"} below]',
      '[tool result masked: read_file. To read it again, call read_tool_result with {"call_id":"c2"}]',
      FILES['a.txt'],
    ]);
    expect(validateTranscript(request?.messages ?? [], 'openai')).toEqual([]);
    expect(request?.tools?.map((t) => t.name)).toEqual(['read_file', 'read_tool_result']);
    // read_tool_result answered c2's content, from memory.
    const answer = memory.getHistory().at(-2);
    expect(answer).toMatchObject({ role: 'tool', toolName: 'read_tool_result' });
    expect(answer?.content).toBe(FILES['b.txt']);
    expect(third.message.content).toBe('saw bravo bravo bravo br');
    // Memory holds every result verbatim.
    const results = memory
      .getHistory()
      .filter((m) => m.role === 'tool' && m.toolName === 'read_file');
    expect(results.map((m) => m.content)).toEqual([FILES['a.txt'], FILES['b.txt'], FILES['a.txt']]);
  });

  it('reads a result the memory has trimmed from the run transcript', async () => {
    const provider = scriptedProvider((request, n) => {
      if (n === 1) {
        return {
          role: 'assistant',
          content: null,
          toolCalls: [call('c1', 'read_file', { path: 'a.txt' })],
        };
      }
      if (n === 2) {
        return {
          role: 'assistant',
          content: null,
          toolCalls: [call('r1', 'read_tool_result', { call_id: 'c1' })],
        };
      }
      return { role: 'assistant', content: `${toolContents(request).at(-1)?.slice(0, 5)}` };
    });
    const memory = new ConversationMemory({ maxMessages: 2 });
    const agent = createAgent({
      provider,
      memory,
      tools: [readFile],
      config: { maskToolResults: { keepTurns: 1 } },
    });
    const { message } = await agent.run('go');
    expect(memory.getHistory().some((m) => m.toolCallId === 'c1')).toBe(false);
    expect(message.content).toBe('alpha');
  });

  it('answers an unknown or missing call id plainly, echoing the id escaped', async () => {
    const provider = model();
    const memory = new ConversationMemory();
    const agent = createAgent({ provider, memory, config: { maskToolResults: { keepLast: 0 } } });
    await agent.run('recall nope"\n');
    expect(memory.getHistory().find((m) => m.role === 'tool')?.content).toBe(
      'No tool result with call id "nope\\"\\n".',
    );
    const tool = createAgent({
      provider: scriptedProvider((_, n) =>
        n === 1
          ? { role: 'assistant', content: null, toolCalls: [call('r1', 'read_tool_result', {})] }
          : { role: 'assistant', content: 'done' },
      ),
      memory: new ConversationMemory(),
      config: { maskToolResults: { keepLast: 0 } },
    });
    await tool.run('x');
    expect(tool.memory?.getHistory()[2]?.content).toBe(
      "Error: 'call_id' is required: the call id the masked tool result names.",
    );
  });

  it('without masking: no read_tool_result tool, every result verbatim', async () => {
    const provider = model();
    const agent = createAgent({ provider, memory: new ConversationMemory(), tools: [readFile] });
    await agent.run('read a.txt as c1');
    await agent.run('read b.txt as c2');
    await agent.run('hello');
    const last = provider.requests.at(-1);
    expect(last?.tools?.map((t) => t.name)).toEqual(['read_file']);
    expect(toolContents(last)).toEqual([FILES['a.txt'], FILES['b.txt']]);
  });

  it('refuses a wrong maskToolResults, and a tool of its own named read_tool_result', () => {
    const make =
      (config: unknown, tools: AgentTool[] = []) =>
      () =>
        createAgent({ provider: model(), tools, config: config as never });
    expect(make({ maskToolResults: { keepLast: -2 } })).toThrow(AgentConfigError);
    expect(make({ maskToolResults: { keepLast: -2 } })).toThrow(
      'config.maskToolResults.keepLast must be an integer ≥ 0, received -2',
    );
    expect(make({ maskToolResults: { turns: 2 } })).toThrow(
      'config.maskToolResults.turns is not an option (did you mean keepTurns?)',
    );
    // untilFits needs a view budget, which the agent's views do not have.
    expect(make({ maskToolResults: { keepLast: 2, untilFits: true } })).toThrow(
      'config.maskToolResults.untilFits masks only as far as a view budget needs, and the agent sends its views without one: use keepLast or keepTurns',
    );
    expect(make({ maskToolResults: { keepLast: 2, untilFits: false } })).not.toThrow();
    expect(make({ maskToolResults: true })).toThrow(
      'config.maskToolResults must be an object such as { keepLast: 3 }, received true',
    );
    const own: AgentTool = { ...readFile, name: 'read_tool_result' };
    expect(make({ maskToolResults: { keepLast: 1 } }, [own])).toThrow(
      'tools: a tool named "read_tool_result" clashes with the one config.maskToolResults adds',
    );
    // Without masking the name is free.
    expect(make({}, [own])).not.toThrow();
  });
});
