/** The upstream could not answer (down, timed out, circuit open, garbage): 503 / 099. */
export class UpstreamUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamUnavailableError';
  }
}
