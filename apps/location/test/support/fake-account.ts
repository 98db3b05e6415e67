import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A stand-in for the account service's internal API on 127.0.0.1 (real HTTP):
 * `GET /internal/v1/apps` answers `apps` (the documented shape), `POST /internal/v1/credential-uses`
 * records what it was sent; both refuse a wrong bearer token with 401. Tests switch `mode` to
 * make it fail, hang or answer garbage, and read what it was asked.
 */
export type FakeAccountMode = { kind: 'ok' } | { kind: 'http'; status: number } | { kind: 'hang' } | { kind: 'body'; text: string };

export interface FakeInternalApp {
  app_token: string;
  aes_mode?: string;
  credentials: { credential_id: string; secret: string; aes_key: string; expire_time: string }[];
}

export class FakeAccount {
  url = '';
  mode: FakeAccountMode = { kind: 'ok' };
  apps: FakeInternalApp[] = [];
  /** Every request: method, path and bearer token. */
  readonly requests: { method: string; path: string; authorization: string | undefined }[] = [];
  /** The bodies of the credential-uses reports. */
  readonly reports: { uses: { credential_id: string; time: string }[] }[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  constructor(readonly token: string) {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get appsReads(): number {
    return this.requests.filter((r) => r.path === '/internal/v1/apps').length;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '').split('?')[0]!;
    this.requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization });
    const mode = this.mode;
    if (mode.kind === 'hang') return; // never answers
    if (mode.kind === 'http') return this.send(res, mode.status, { response_code: '99999', response_message: 'failure' });
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      return this.send(res, 401, { response_code: '90401', response_message: 'unauthorized' });
    }
    if (mode.kind === 'body') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(mode.text);
      return;
    }
    if (req.method === 'GET' && path === '/internal/v1/apps') {
      return this.send(res, 200, {
        response_code: '90000',
        response_message: 'success',
        count: String(this.apps.length),
        app_list: this.apps,
      });
    }
    if (req.method === 'POST' && path === '/internal/v1/credential-uses') {
      this.reports.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeAccount['reports'][number]);
      return this.send(res, 200, { response_code: '90000', response_message: 'success' });
    }
    this.send(res, 404, { response_code: '90404', response_message: 'not found' });
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}
