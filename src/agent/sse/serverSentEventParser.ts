import { ServerSentEventsError } from '../../errors/serverSentEventsErrors';

/** One event as the format gives it: its name (`message` when none) and its data lines joined. */
export interface RawServerSentEvent {
  readonly event: string;
  readonly data: string;
}

/** Line ends of the format: CRLF, LF or CR. */
const LINE_END = /\r\n|\r|\n/g;

/**
 * The line-level parser of the event-stream format (WHATWG HTML, "Parsing an event stream"), fed
 * decoded text in pieces cut anywhere: lines end at CRLF, LF or CR (a CR at the end of a piece
 * and an LF at the start of the next are one line end); `:` starts a comment; `field: value`
 * loses one space after the colon; `event` names the event, `data` lines are joined with `\n`;
 * a blank line dispatches the event (none when it has no data); `id`, `retry` and unknown fields
 * are ignored. No line, and no event's data, may be longer than `maxLength` characters: the
 * parser throws `ServerSentEventsError` instead of buffering more.
 *
 * @internal
 */
export class ServerSentEventParser {
  private line = '';
  private afterCR = false;
  private event = '';
  private data = '';
  private hasData = false;

  constructor(
    private readonly maxLength: number,
    private readonly api: string,
  ) {}

  /**
   * Reads one more piece of text.
   *
   * @param text - the next decoded text of the body
   * @returns the events completed by this piece, in order
   * @throws ServerSentEventsError when a line or an event grows past the limit
   */
  feed(text: string): RawServerSentEvent[] {
    const out: RawServerSentEvent[] = [];
    let start = this.afterCR && text.startsWith('\n') ? 1 : 0;
    this.afterCR = false;
    LINE_END.lastIndex = start;
    for (let match = LINE_END.exec(text); match !== null; match = LINE_END.exec(text)) {
      this.grow(text.slice(start, match.index));
      this.take(this.line, out);
      this.line = '';
      start = match.index + match[0].length;
      if (match[0] === '\r' && start === text.length) this.afterCR = true;
    }
    this.grow(text.slice(start));
    return out;
  }

  private grow(piece: string): void {
    if (this.line.length + piece.length > this.maxLength) {
      throw new ServerSentEventsError(
        this.api,
        `a line of the stream is longer than ${this.maxLength} characters (maxEventLength); stopped reading`,
      );
    }
    this.line += piece;
  }

  private take(line: string, out: RawServerSentEvent[]): void {
    if (line === '') {
      if (this.hasData)
        out.push({ event: this.event === '' ? 'message' : this.event, data: this.data });
      this.event = '';
      this.data = '';
      this.hasData = false;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') {
      const data = this.hasData ? `${this.data}\n${value}` : value;
      if (data.length > this.maxLength) {
        throw new ServerSentEventsError(
          this.api,
          `an event's data is longer than ${this.maxLength} characters (maxEventLength); stopped reading`,
        );
      }
      this.data = data;
      this.hasData = true;
    }
  }
}
