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

/**
 * One API call with its answer, told to EmulatorOptions.onExchange as it is answered: for tests
 * that hold every answer to schemas/openapi.json (the request log keeps no answers, to stay small).
 */
export interface Exchange extends RecordedRequest {
  /** The request's Content-Type header, if any. */
  contentType: string | null;
  /** The JSON answer sent (undefined for a dropped answer or a non-JSON page). */
  answer: unknown;
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
