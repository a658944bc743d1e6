/**
 * A tool call the server refuses, with the text its client gets (`isError: true`), worded as the
 * reference memory server words it (`Entity with name Ada not found`). Internal: a tool handler
 * throws it and the server turns it into the tool's error result; nothing reaches the caller's
 * process as an exception.
 *
 * @internal
 */
export class McpToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpToolError';
  }
}
