import type { Transcriber } from './transcriber';
import { TranscriberError } from './transcriber';

export interface OpenAiTranscriberOptions {
  /** Base URL without `/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  language?: string;
  timeoutMs: number;
  healthPath: string;
}

/**
 * Adapter for the OpenAI-compatible transcription API: `POST {base}/v1/audio/transcriptions`,
 * multipart `file` + `model` (+ `language`), `response_format=json` → `{ "text": "..." }`. Spoken
 * by OpenAI, whisper.cpp's server (`--inference-path /v1/audio/transcriptions`) and faster-whisper
 * servers (speaches, faster-whisper-server). Errors never carry the audio, the key or the
 * backend's body.
 */
export class OpenAiTranscriber implements Transcriber {
  private readonly base: string;

  constructor(private readonly options: OpenAiTranscriberOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  private headers(): Record<string, string> {
    return this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {};
  }

  async healthy(): Promise<boolean> {
    try {
      const res = await fetch(`${this.base}${this.options.healthPath}`, {
        headers: this.headers(),
        signal: AbortSignal.timeout(Math.min(this.options.timeoutMs, 5_000)),
        redirect: 'error',
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.ok;
    } catch {
      return false;
    }
  }

  async transcribe(audio: Buffer, contentType: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([audio], { type: contentType }), 'audio.webm');
    form.append('model', this.options.model);
    form.append('response_format', 'json');
    if (this.options.language) form.append('language', this.options.language);
    let res: Response;
    try {
      res = await fetch(`${this.base}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: this.headers(),
        body: form,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'error',
      });
    } catch (e) {
      const reason = (e as Error)?.name === 'TimeoutError' ? 'timed out' : 'unreachable';
      throw new TranscriberError(`transcription backend ${reason}`);
    }
    if (!res.ok) {
      await res.arrayBuffer().catch(() => undefined);
      throw new TranscriberError(`transcription backend answered ${res.status}`, res.status);
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new TranscriberError('transcription backend answered no JSON', res.status);
    }
    const text = (body as { text?: unknown } | null)?.text;
    if (typeof text !== 'string')
      throw new TranscriberError('transcription backend answered no text', res.status);
    return text;
  }
}
