/**
 * The port call-service transcribes through; adapters speak to one kind of backend. Audio is
 * handed over in memory and never stored or logged.
 */
export interface Transcriber {
  /** Whether the backend answers its health check now (the caller caches the answer). */
  healthy(): Promise<boolean>;
  /** The text spoken in one standalone webm/opus chunk; throws TranscriberError when the backend fails. */
  transcribe(audio: Buffer, contentType: string): Promise<string>;
}

/** The backend did not answer, answered with an error or with something unreadable. */
export class TranscriberError extends Error {
  constructor(
    message: string,
    /** The backend's HTTP status, when it answered. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'TranscriberError';
  }
}

/** Injection token of the configured adapter, or null when none is configured. */
export const TRANSCRIBER = Symbol('TRANSCRIBER');
