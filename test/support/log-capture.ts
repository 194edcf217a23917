/** One JSON log line, parsed. */
export type LogRecord = Record<string, any> & { level: string; msg?: string; reqId?: string };

/** A pino destination that keeps every line, for tests that read what was logged. */
export class LogCapture {
  readonly lines: string[] = [];

  readonly write = (line: string): void => {
    this.lines.push(line);
  };

  /** Everything logged so far, as one text (to look for what must never appear). */
  text(): string {
    return this.lines.join('');
  }

  records(): LogRecord[] {
    return this.lines.map((line) => JSON.parse(line) as LogRecord);
  }

  clear(): void {
    this.lines.length = 0;
  }
}
