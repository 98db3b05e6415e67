import { AccountClient, LbsClient, type ApiResponse } from '@geoaccount/client';

/** The operator's app credentials: kept in this tab only (`sessionStorage`), never sent anywhere but as signatures. */
export interface Credentials {
  appToken: string;
  secret: string;
  aesKey: string;
  aesMode: 'gcm' | 'ecb';
}

const KEY = 'geoaccount.console.credentials';

export function loadCredentials(): Credentials | undefined {
  const text = sessionStorage.getItem(KEY);
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Credentials;
  } catch {
    return undefined;
  }
}

export function saveCredentials(c: Credentials): void {
  sessionStorage.setItem(KEY, JSON.stringify(c));
}

export function clearCredentials(): void {
  sessionStorage.removeItem(KEY);
}

/** What the account service publishes at /console/config.json. */
export interface ConsoleConfig {
  locationUrl: string;
}

export async function loadConfig(): Promise<ConsoleConfig> {
  const res = await fetch('/console/config.json');
  return (await res.json()) as ConsoleConfig;
}

/** The signed clients of one connected app. */
export interface Session {
  credentials: Credentials;
  account: AccountClient;
  lbs: LbsClient;
}

export function openSession(credentials: Credentials, config: ConsoleConfig): Session {
  return {
    credentials,
    // Same origin as the console: the account service serves it.
    account: new AccountClient({ baseUrl: window.location.origin, ...credentials, nonce: true, retries: 1 }),
    lbs: new LbsClient({ baseUrl: config.locationUrl, userToken: credentials.appToken, secret: credentials.secret, retries: 1 }),
  };
}

/** An answer's code and message, for showing a refusal as the service gave it. */
export interface Outcome {
  status: number;
  code: string;
  message: string;
}

export function outcomeOf(res: ApiResponse<unknown>): Outcome {
  const body = res.body as Record<string, unknown>;
  return {
    status: res.status,
    code: String(body.response_code ?? body.code ?? ''),
    message: String(body.response_message ?? body.resultDesc ?? ''),
  };
}

/** Props every page gets: the signed clients, and what to do when the service answers 401. */
export interface PageProps {
  session: Session;
  /** The credentials were refused: back to Connect, with the service's message. */
  unauthorized: (message: string) => void;
}
