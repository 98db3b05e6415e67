import * as http from 'node:http';
import * as https from 'node:https';

/** The User-Agent of this service's upstream calls. */
export const SERVICE_USER_AGENT = 'geoaccount-location/0.1.0';

/** An upstream answered with an HTTP error status. 5xx are worth a retry, 4xx are not. */
export class UpstreamHttpError extends Error {
  constructor(
    readonly status: number,
    readonly upstream: string,
  ) {
    super(`${upstream} answered HTTP ${status}`);
    this.name = 'UpstreamHttpError';
  }
}

/** An upstream answered something that is not what its API documents (not JSON, wrong shape). */
export class UpstreamProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamProtocolError';
  }
}

export interface UpstreamHttpOptions {
  /** Name used in error messages (`amap`, `nominatim`...). */
  name: string;
  userAgent: string;
  /** Largest accepted response body. */
  maxBytes?: number;
}

/**
 * GETs JSON from one upstream over keep-alive agents owned by this object, so that
 * `close()` can release every socket on shutdown. Honours the caller's `AbortSignal`.
 */
export class UpstreamHttp {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly maxBytes: number;

  constructor(private readonly options: UpstreamHttpOptions) {
    this.maxBytes = options.maxBytes ?? 1024 * 1024;
  }

  getJson(url: URL, signal: AbortSignal, headers: Record<string, string> = {}): Promise<unknown> {
    const secure = url.protocol === 'https:';
    const get = secure ? https.get : http.get;
    const { name } = this.options;
    return new Promise((resolve, reject) => {
      const req = get(
        url,
        {
          agent: secure ? this.httpsAgent : this.httpAgent,
          signal,
          headers: { Accept: 'application/json', 'User-Agent': this.options.userAgent, ...headers },
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            res.resume();
            reject(new UpstreamHttpError(status, name));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > this.maxBytes) {
              req.destroy(new UpstreamProtocolError(`${name} answer larger than ${this.maxBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => {
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
            } catch {
              reject(new UpstreamProtocolError(`${name} answered something that is not JSON`));
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
    });
  }

  /** Closes every socket of this upstream. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
