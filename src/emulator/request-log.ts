/** The log of /v1 and /v2 calls that tests read through GET /_emulator/requests. */
export interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
  /** Injected fault applied to the call (`latency`, `rate_limit`, `error`, `drop`, joined by `+`), or null. */
  fault: string | null;
}

// Bounded so a long-running demo emulator does not grow without limit.
const MAX_ENTRIES = 100_000;

export class RequestLog {
  private entries: RecordedRequest[] = [];
  private seq = 0;

  nextSeq(): number {
    return ++this.seq;
  }

  add(entry: RecordedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  list(): RecordedRequest[] {
    return [...this.entries].sort((a, b) => a.seq - b.seq);
  }

  clear(): number {
    const n = this.entries.length;
    this.entries = [];
    return n;
  }

  reset(): void {
    this.entries = [];
    this.seq = 0;
  }
}
