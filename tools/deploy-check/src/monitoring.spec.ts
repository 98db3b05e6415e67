import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, SERVICES, serviceFacts } from './facts';
import { type K8sObject, render } from './kubernetes';

/**
 * The example environment's network policies, Ingress and monitoring (docs/operations.md,
 * "Kubernetes", "Alerts"). ServiceMonitor and PrometheusRule are custom resources of the
 * Prometheus Operator, for which no schema is bundled: they are checked structurally here —
 * their fields, what they select, and that every metric an alert or a dashboard panel queries is
 * one the services export (read from their sources).
 */
const objects = render('k8s/overlays/example');
const named = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

interface Port {
  name: string;
  containerPort: number;
}
const podOf = (o: K8sObject) =>
  (o.spec as { template: { metadata: { labels: Record<string, string> }; spec: { containers: { name: string; ports?: Port[] }[] } } })
    .template;
const configOf = (service: string) =>
  (objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith(`${service}-config`))!.data ?? {}) as Record<string, string>;

/** The names of the metrics the services export: prom-client's defaults and every family their sources declare. */
function exportedMetrics(): { names: Set<string>; prefixes: string[] } {
  const names = new Set<string>();
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (entry === 'node_modules' || entry === 'dist') continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.spec.ts')) files.push(path);
    }
  };
  for (const dir of ['libs', ...SERVICES.map((s) => `apps/${s}/src`)]) walk(join(ROOT, dir));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (!/from 'prom-client'|new (Counter|Gauge|Histogram)\(/.test(text)) continue;
    for (const m of text.matchAll(/new (Counter|Gauge|Histogram)(?:<[^<>]*>)?\(\{\s*name: '([a-z_:][a-z0-9_:]*)'/g)) {
      names.add(m[2]!);
      if (m[1] === 'Histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${m[2]}${suffix}`);
    }
  }
  // collectDefaultMetrics (process_*, nodejs_*); `up` is Prometheus's own; cert-manager's metric.
  for (const extra of ['up', 'certmanager_certificate_expiration_timestamp_seconds']) names.add(extra);
  return { names, prefixes: ['process_', 'nodejs_'] };
}

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'bool',
  'and',
  'or',
  'unless',
  'inf',
  'nan',
]);

const GROUPINGS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);

/** The end (exclusive) of what opens at `i` and closes with `close`, strings inside skipped; the end of `expr` if unclosed. */
function skipTo(expr: string, i: number, close: string): number {
  for (let j = i + 1; j < expr.length; j++) {
    if (expr[j] === close) return j + 1;
    if (expr[j] === '"') {
      for (j++; j < expr.length && expr[j] !== '"'; j++) if (expr[j] === '\\') j++;
    }
  }
  return expr.length;
}

/**
 * `expr` with its strings, label matchers `{…}`, ranges `[…]` and groupings (`by (…)`, …)
 * blanked: one forward pass, no pattern that could backtrack over a long expression.
 */
function stripPromql(expr: string): string {
  let out = '';
  for (let i = 0; i < expr.length; ) {
    const c = expr[i]!;
    if (c === '"') {
      out += '""';
      i = stringEnd(expr, i);
    } else if (c === '{' || c === '[') {
      out += ' ';
      i = skipTo(expr, i, c === '{' ? '}' : ']');
    } else if (/[a-zA-Z_:]/.test(c)) {
      let j = i + 1;
      while (j < expr.length && /[a-zA-Z0-9_:]/.test(expr[j]!)) j++;
      const word = expr.slice(i, j);
      let k = j;
      while (k < expr.length && (expr[k] === ' ' || expr[k] === '\t' || expr[k] === '\n')) k++;
      if (GROUPINGS.has(word.toLowerCase()) && expr[k] === '(') {
        out += ' ';
        i = skipTo(expr, k, ')');
      } else {
        out += word;
        i = j;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The end (exclusive) of the string that opens at `i`: after its closing quote, or the end of `expr`. */
function stringEnd(expr: string, i: number): number {
  for (let j = i + 1; j < expr.length; j++) {
    if (expr[j] === '\\') j++;
    else if (expr[j] === '"') return j + 1;
  }
  return expr.length;
}

/** The metric names a PromQL expression selects (label matchers, groupings, functions and strings left out). */
export function metricNames(expr: string): string[] {
  const stripped = stripPromql(expr);
  const names: string[] = [];
  for (const m of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*(\s*\()?/g)) {
    if (m[1]) continue; // a function call
    if (PROMQL_WORDS.has(m[0].toLowerCase())) continue;
    names.push(m[0]);
  }
  return names;
}

const { names: exported, prefixes } = exportedMetrics();
const isExported = (name: string) => exported.has(name) || prefixes.some((p) => name.startsWith(p));

describe('metricNames (PromQL)', () => {
  it('finds the selected metrics only', () => {
    expect(
      metricNames(
        'sum by (service, le) (rate(http_request_duration_seconds_bucket{code=~".*99", a="b"}[5m])) / sum(rate(api_results_total[5m])) > 0.5',
      ),
    ).toEqual(['http_request_duration_seconds_bucket', 'api_results_total']);
    expect(metricNames('certmanager_certificate_expiration_timestamp_seconds - time() < 14 * 86400')).toEqual([
      'certmanager_certificate_expiration_timestamp_seconds',
    ]);
  });
});

describe('network policies (example overlay)', () => {
  it('deny every ingress to the namespace by default', () => {
    const deny = named('NetworkPolicy', 'default-deny-ingress')!;
    expect(deny.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress'] });
  });

  type Rule = {
    from: { namespaceSelector?: { matchLabels: Record<string, string> }; podSelector?: { matchLabels: Record<string, string> } }[];
    ports: { port: string }[];
  };
  const rulesOf = (name: string) => (named('NetworkPolicy', name)!.spec as { ingress: Rule[] }).ingress;
  const peers = (rules: Rule[], port: string) =>
    rules
      .filter((r) => r.ports.some((p) => p.port === port))
      .flatMap((r) =>
        r.from.map(
          (f) =>
            `${f.namespaceSelector?.matchLabels['kubernetes.io/metadata.name'] ?? '(own namespace)'}/${f.podSelector?.matchLabels['app.kubernetes.io/name'] ?? '*'}`,
        ),
      )
      .sort();

  it.each(SERVICES)(
    '%s: the API port from the ingress controller (and, for account, location), the metrics port from Prometheus only',
    (service) => {
      const policy = named('NetworkPolicy', service)!;
      const selected = (policy.spec as { podSelector: { matchLabels: Record<string, string> } }).podSelector.matchLabels;
      expect(selected).toEqual({ 'app.kubernetes.io/name': service });
      const rules = rulesOf(service);
      expect(peers(rules, 'http')).toEqual(
        service === 'account' ? ['(own namespace)/location', 'ingress-nginx/ingress-nginx'] : ['ingress-nginx/ingress-nginx'],
      );
      expect(peers(rules, 'metrics')).toEqual(['monitoring/prometheus']);
      expect(rules.flatMap((r) => r.ports.map((p) => p.port)).sort()).toEqual(['http', 'metrics']);
      // the named ports exist on the container
      const ports = podOf(named('Deployment', service)!).spec.containers[0]!.ports!.map((p) => p.name);
      expect(ports).toEqual(expect.arrayContaining(['http', 'metrics']));
    },
  );

  it('the Redis of the cache is reached by location only', () => {
    expect(peers(rulesOf('redis'), 'redis')).toEqual(['(own namespace)/location']);
  });
});

describe('the Ingress (example overlay)', () => {
  type Path = { path: string; pathType: string; backend: { service: { name: string; port: { name: string } } } };
  const ingress = named('Ingress', 'geoaccount')!;
  const spec = ingress.spec as { tls: { hosts: string[]; secretName: string }[]; rules: { host: string; http: { paths: Path[] } }[] };
  const paths = spec.rules.flatMap((r) => r.http.paths.map((p) => ({ host: r.host, ...p })));

  it('serves TLS for every host, with a cert-manager issuer', () => {
    expect(spec.tls[0]!.hosts.sort()).toEqual(spec.rules.map((r) => r.host).sort());
    expect(ingress.metadata.annotations?.['cert-manager.io/cluster-issuer']).toBeTruthy();
  });

  it('routes only the APIs, the admin API and the console, never /internal/, /metrics, /health or /docs', () => {
    expect(paths.map((p) => `${p.backend.service.name} ${p.path}`).sort()).toEqual([
      'account /account',
      'account /admin/v1',
      'account /console',
      'location /lbsapi',
    ]);
    for (const p of paths) {
      expect(p.pathType).toBe('Prefix');
      expect(p.backend.service.port.name).toBe('http');
      expect(p.path).not.toMatch(/^\/(internal|metrics|health|docs)/);
    }
  });

  it('routes prefixes the services really serve', () => {
    for (const service of SERVICES) {
      const routes = serviceFacts(service).routes.map((r) => r.path);
      for (const p of paths.filter((x) => x.backend.service.name === service && x.path !== '/console' && x.path !== '/admin/v1')) {
        expect(routes.some((r) => r.startsWith(`${p.path}/`))).toBe(true);
      }
      // nothing the service serves under /internal/ is routed
      for (const r of routes.filter((x) => x.startsWith('/internal/'))) expect(paths.some((p) => r.startsWith(p.path))).toBe(false);
    }
  });
});

describe('monitoring (Prometheus Operator resources, checked structurally)', () => {
  it('the ServiceMonitor scrapes /metrics on the metrics port of both Services, keeping their own `service` label', () => {
    const monitor = named('ServiceMonitor', 'geoaccount')!;
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    const spec = monitor.spec as {
      selector: { matchExpressions: { key: string; operator: string; values: string[] }[] };
      endpoints: { port: string; path: string; honorLabels: boolean }[];
    };
    expect(spec.endpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics', honorLabels: true })]);
    const [expression] = spec.selector.matchExpressions;
    expect(expression).toEqual({ key: 'app.kubernetes.io/name', operator: 'In', values: ['account', 'location'] });
    for (const service of SERVICES) {
      const svc = named('Service', service)!;
      expect(svc.metadata.labels?.['app.kubernetes.io/name']).toBe(service);
      const port = (svc.spec as { ports: { name: string; targetPort: string }[] }).ports.find((p) => p.name === 'metrics');
      expect(port?.targetPort).toBe('metrics');
      const container = podOf(named('Deployment', service)!).spec.containers[0]!;
      expect(container.ports!.find((p) => p.name === 'metrics')!.containerPort).toBe(Number(configOf(service).METRICS_PORT));
    }
  });

  const rule = named('PrometheusRule', 'geoaccount')!;
  const alerts = (
    rule.spec as { groups: { rules: { alert: string; expr: string; for: string; labels: { severity: string } }[] }[] }
  ).groups.flatMap((g) => g.rules);

  it('the PrometheusRule holds the documented alerts, each with a duration and a severity', () => {
    expect(alerts.map((a) => a.alert)).toEqual(
      expect.arrayContaining([
        'GeoaccountErrorRatioHigh',
        'GeoaccountLatencyP99High',
        'GeoaccountDatabaseDown',
        'GeoaccountRedisDown',
        'GeoaccountLoginLockoutsSpike',
        'GeoaccountDirectoryDown',
        'GeoaccountCertificateExpiresSoon',
      ]),
    );
    for (const a of alerts) {
      expect(a.for).toMatch(/^\d+[smh]$/);
      expect(['warning', 'critical']).toContain(a.labels.severity);
    }
  });

  it.each(alerts.map((a) => [a.alert, a.expr] as const))(
    '%s queries only metrics the services (or cert-manager) export',
    (_alert, expr) => {
      const names = metricNames(expr);
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((n) => !isExported(n))).toEqual([]);
    },
  );

  it('the Grafana dashboard is valid JSON in a ConfigMap the sidecar loads, querying only exported metrics', () => {
    const map = named('ConfigMap', 'geoaccount-dashboard')!;
    expect(map.metadata.labels?.grafana_dashboard).toBe('1');
    const dashboard = JSON.parse((map.data as Record<string, string>)['geoaccount-dashboard.json']!) as {
      uid: string;
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dashboard.uid).toBe('geoaccount');
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(5);
    const unknown = exprs.flatMap(metricNames).filter((n) => !isExported(n));
    expect(unknown).toEqual([]);
  });
});
