import type { ConnectionOptions } from 'node:tls';
import { Client, Filter, InvalidCredentialsError, ResultCodeError, SizeLimitExceededError } from 'ldapts';
import type { DirectorySettings } from '../config/directory.config';

/** The directory could not give an answer: unreachable, too slow, untrusted, or the service bind refused. */
export class DirectoryUnavailableError extends Error {
  constructor(
    message: string,
    /** Short reason for metrics: `timeout`, `network`, `tls`, `service_bind`, `protocol`. */
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'DirectoryUnavailableError';
  }
}

/** What the directory said of a login id and password. */
export type DirectoryVerdict = 'accepted' | 'not_found' | 'ambiguous' | 'rejected';

/** `{login}` of the filter template, escaped per RFC 4515 (`*`, `(`, `)`, `\`, NUL and non-ASCII bytes). */
export function userFilterFor(template: string, loginId: string): string {
  return template.split('{login}').join(Filter.escape(loginId));
}

/**
 * One LDAP v3 directory (OpenLDAP, Active Directory) checking a login id and password by
 * search-then-bind: bind as the service account, search the user subtree with the filter
 * (size limit 2), then bind as the one entry found with the password. Each check has its own
 * connection, tried on each url in order, all within one deadline; referrals are not followed.
 */
export class LdapDirectory {
  constructor(private readonly settings: DirectorySettings) {}

  /** Checks `password` of `loginId`; throws {@link DirectoryUnavailableError} when no url could answer. */
  async verify(loginId: string, password: string): Promise<DirectoryVerdict> {
    // An empty password is an unauthenticated bind (RFC 4513 §5.1.2) that many directories accept.
    if (password.trim() === '') return 'rejected';
    const deadline = Date.now() + this.settings.timeoutMs;
    let last: DirectoryUnavailableError | undefined;
    for (const url of this.settings.urls) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      try {
        return await this.withDeadline(url, left, (client) => this.check(client, loginId, password));
      } catch (err) {
        if (!(err instanceof DirectoryUnavailableError)) throw err;
        last = err;
      }
    }
    throw last ?? new DirectoryUnavailableError(`directory: no answer within ${this.settings.timeoutMs} ms`, 'timeout');
  }

  /** Runs `work` on a fresh connection to `url`, closed after, failing when `ms` have passed. */
  private async withDeadline<T>(url: string, ms: number, work: (client: Client) => Promise<T>): Promise<T> {
    // ldapts speaks TLS from the start whenever it is given TLS options: only for ldaps://.
    const tls = url.toLowerCase().startsWith('ldaps:') ? { tlsOptions: this.tlsOptions() } : {};
    const client = new Client({ url, timeout: ms, connectTimeout: ms, strictDN: true, ...tls });
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DirectoryUnavailableError(`directory ${url}: no answer within the deadline`, 'timeout')), ms);
    });
    const run = work(client).catch((err: unknown) => {
      throw classify(url, err);
    });
    try {
      return await Promise.race([run, expired]);
    } finally {
      clearTimeout(timer);
      run.catch(() => undefined);
      client.unbind().catch(() => undefined);
    }
  }

  /** Certificates always verified: against the configured CA, else the system's. */
  private tlsOptions(): ConnectionOptions {
    return { ...(this.settings.ca ? { ca: this.settings.ca } : {}), rejectUnauthorized: true, minVersion: 'TLSv1.2' };
  }

  private async check(client: Client, loginId: string, password: string): Promise<DirectoryVerdict> {
    const { bindDn, bindPassword, userBaseDn, userFilter, startTls } = this.settings;
    if (startTls) await client.startTLS(this.tlsOptions());
    try {
      await client.bind(bindDn, bindPassword);
    } catch (err) {
      if (err instanceof ResultCodeError)
        throw new DirectoryUnavailableError(`directory: service bind refused (${err.message})`, 'service_bind', { cause: err });
      throw err;
    }
    let dns: string[];
    try {
      const { searchEntries } = await client.search(userBaseDn, {
        scope: 'sub',
        filter: userFilterFor(userFilter, loginId),
        sizeLimit: 2,
        attributes: ['1.1'],
        derefAliases: 'never',
      });
      dns = searchEntries.map((e) => e.dn);
    } catch (err) {
      if (err instanceof SizeLimitExceededError) return 'ambiguous';
      throw err;
    }
    if (dns.length === 0) return 'not_found';
    if (dns.length > 1) return 'ambiguous';
    try {
      await client.bind(dns[0]!, password);
      return 'accepted';
    } catch (err) {
      // invalidCredentials, or a bind the directory refuses otherwise (a disabled account…)
      if (err instanceof InvalidCredentialsError || err instanceof ResultCodeError) return 'rejected';
      throw err;
    }
  }
}

function classify(url: string, err: unknown): DirectoryUnavailableError {
  if (err instanceof DirectoryUnavailableError) return err;
  const e = err as NodeJS.ErrnoException;
  const message = e?.message ?? String(err);
  const reason = /certificate|self.signed|unable to verify|CERT_|altnames|TLS|SSL/i.test(`${e?.code ?? ''} ${message}`)
    ? 'tls'
    : /timeout|timed out/i.test(message)
      ? 'timeout'
      : err instanceof ResultCodeError
        ? 'protocol'
        : 'network';
  return new DirectoryUnavailableError(`directory ${url}: ${message}`, reason, { cause: err });
}
